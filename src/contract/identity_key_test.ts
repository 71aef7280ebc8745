import assert from "node:assert/strict";
import {
  duplicateIdMessage,
  identityKey,
  isAgentName,
} from "./identity_key.ts";

Deno.test("identityKey() folds names a reviewer cannot tell apart", async (t) => {
  const cases: [string, string, string][] = [
    ["Cyrillic а", "\u0430gent", "agent"],
    ["upper case", "Agent", "agent"],
    ["a trailing space", "agent ", "agent"],
    ["a zero-width space", "a\u200bgent", "agent"],
    ["fullwidth letters", "\uff21\uff27\uff25\uff2e\uff34", "agent"],
    ["Greek ο and ε", "\u03bfwn\u03b5r", "owner"],
    ["mixed scripts", "p\u0430ym\u0435nts", "payments"],
    ["mathematical bold", "\ud835\udc1a\ud835\udc20ent", "agent"],
    ["a soft hyphen and a word joiner", "ag\u00ad\u2060ent", "agent"],
    ["inner runs of white space", "oncall  \t payments", "oncall payments"],
    ["a ligature", "\ufb01x", "fix"],
  ];
  for (const [name, text, key] of cases) {
    await t.step(name, () => assert.equal(identityKey(text), key));
  }
});

Deno.test("identityKey() keeps names that differ to the eye apart", () => {
  const names = ["agent", "agents", "agent-1", "a.gent", "ag ent", "zoë"];
  assert.equal(new Set(names.map(identityKey)).size, names.length);
});

Deno.test("isAgentName() answers the reserved owner in every disguise, and only it", () => {
  for (
    const owner of [
      "agent",
      "\u0430gent",
      "Agent",
      "agent ",
      "a\u200bgent",
      "\uff21\uff27\uff25\uff2e\uff34",
    ]
  ) {
    assert.ok(isAgentName(owner), JSON.stringify(owner));
  }
  for (const owner of ["human", "agents", "", undefined, null]) {
    assert.ok(!isAgentName(owner), JSON.stringify(owner));
  }
});

Deno.test("duplicateIdMessage() says when a repeated id is only a look-alike", () => {
  assert.equal(
    duplicateIdMessage("p\u0430rse", "parse", "properties"),
    'duplicate id "p\u0430rse" (it reads as "parse", an earlier id) in "properties"',
  );
});

Deno.test("isAgentName() folds the Latin and IPA look-alike letters into the agent", async (t) => {
  const cases: [string, string][] = [
    ["script ɡ (U+0261)", "a\u0261ent"],
    ["Latin alpha ɑ (U+0251)", "\u0251gent"],
    ["Armenian ց for g (U+0581)", "a\u0581ent"],
    ["Armenian ո for n (U+0578)", "age\u0578t"],
  ];
  for (const [name, owner] of cases) {
    await t.step(
      name,
      () => assert.ok(isAgentName(owner), JSON.stringify(owner)),
    );
  }
});

Deno.test("identityKey() folds each Latin and IPA look-alike letter to the letter it imitates", async (t) => {
  const cases: [string, string, string][] = [
    ["dotless ı", "f\u0131x", "fix"],
    ["dotless ȷ", "\u0237ob", "job"],
    ["Latin iota ɩ", "l\u0269nt", "lint"],
    ["Armenian ս", "r\u057dn", "run"],
    ["Armenian օ", "t\u0585ol", "tool"],
  ];
  for (const [name, text, key] of cases) {
    await t.step(name, () => assert.equal(identityKey(text), key));
  }
});
