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

/** Every look-alike letter pawl folds, and the ASCII letter it imitates. */
const LOOK_ALIKES: [string, string][] = [
  // Cyrillic
  ["\u0430", "a"],
  ["\u0432", "b"],
  ["\u0501", "d"],
  ["\u0435", "e"],
  ["\u0451", "e"],
  ["\u04bb", "h"],
  ["\u0456", "i"],
  ["\u0457", "i"],
  ["\u0458", "j"],
  ["\u043a", "k"],
  ["\u04cf", "l"],
  ["\u043c", "m"],
  ["\u043d", "h"],
  ["\u043e", "o"],
  ["\u0440", "p"],
  ["\u051b", "q"],
  ["\u0433", "r"],
  ["\u0455", "s"],
  ["\u0442", "t"],
  ["\u0446", "u"],
  ["\u0475", "v"],
  ["\u051d", "w"],
  ["\u0445", "x"],
  ["\u0443", "y"],
  ["\u0437", "3"],
  // Greek
  ["\u03b1", "a"],
  ["\u03b2", "b"],
  ["\u03b5", "e"],
  ["\u03b7", "n"],
  ["\u03b9", "i"],
  ["\u03ba", "k"],
  ["\u03bd", "v"],
  ["\u03bf", "o"],
  ["\u03c1", "p"],
  ["\u03c4", "t"],
  ["\u03c5", "u"],
  ["\u03c7", "x"],
  ["\u03b3", "y"],
  // Latin extensions, IPA and Armenian
  ["\u0131", "i"],
  ["\u0237", "j"],
  ["\u0251", "a"],
  ["\u0261", "g"],
  ["\u0269", "i"],
  ["\u0578", "n"],
  ["\u057d", "u"],
  ["\u0581", "g"],
  ["\u0585", "o"],
];

Deno.test("identityKey() folds every look-alike letter, small or capital, onto the ASCII letter it imitates", async (t) => {
  for (const [letter, ascii] of LOOK_ALIKES) {
    const code = letter.codePointAt(0)!.toString(16).padStart(4, "0");
    await t.step(`U+${code} reads as ${ascii}`, () => {
      assert.equal(identityKey(`x${letter}x`), `x${ascii}x`);
      const capital = letter.toUpperCase();
      if (capital !== letter && capital.toLowerCase() === letter) {
        assert.equal(identityKey(`x${capital}x`), `x${ascii}x`);
      }
    });
  }
});

/** The first and last code point of each run of default-ignorable characters pawl drops. */
const IGNORED: [string, number, number][] = [
  ["soft hyphen", 0xad, 0xad],
  ["combining grapheme joiner", 0x34f, 0x34f],
  ["Hangul choseong filler", 0x115f, 0x115f],
  ["Hangul jungseong filler", 0x1160, 0x1160],
  ["Khmer inherent vowels", 0x17b4, 0x17b5],
  ["Mongolian variation selectors and vowel separator", 0x180b, 0x180f],
  ["zero-width spaces, joiners and marks", 0x200b, 0x200f],
  ["bidi embeddings and overrides", 0x202a, 0x202e],
  ["word joiner and invisible operators", 0x2060, 0x206f],
  ["Hangul filler", 0x3164, 0x3164],
  ["variation selectors", 0xfe00, 0xfe0f],
  ["byte order mark", 0xfeff, 0xfeff],
  ["halfwidth Hangul filler", 0xffa0, 0xffa0],
  ["musical formatting", 0x1d173, 0x1d17a],
  ["tags and supplementary variation selectors", 0xe0000, 0xe0fff],
];

Deno.test("identityKey() drops each default-ignorable character hidden in a name, first and last of each run", async (t) => {
  for (const [name, first, last] of IGNORED) {
    await t.step(name, () => {
      for (const code of new Set([first, last, (first + last) >> 1])) {
        const hidden = String.fromCodePoint(code);
        assert.equal(
          identityKey(`ag${hidden}ent`),
          "agent",
          code.toString(16),
        );
        assert.equal(identityKey(`${hidden}${hidden}agent`), "agent");
      }
    });
  }
  await t.step("the characters beside a run stay", () => {
    for (const code of [0xac, 0xae, 0x34e, 0x350, 0x17b3, 0x17b6, 0xfdff]) {
      const beside = String.fromCodePoint(code);
      assert.notEqual(
        identityKey(`ag${beside}ent`),
        "agent",
        code.toString(16),
      );
    }
  });
});

Deno.test("identityKey() collapses every run of white space to one space and trims the ends", async (t) => {
  const cases: [string, string, string][] = [
    ["tabs and newlines inside", "on\t\n call", "on call"],
    ["leading and trailing", " \t on call \n", "on call"],
    ["a no-break space", "on\u00a0call", "on call"],
    ["an ideographic space", "on\u3000call", "on call"],
    ["only white space", " \t ", ""],
  ];
  for (const [name, text, key] of cases) {
    await t.step(name, () => assert.equal(identityKey(text), key));
  }
});

Deno.test("duplicateIdMessage() names the id alone when it repeats an earlier one exactly", () => {
  assert.equal(
    duplicateIdMessage("parse", "parse", "properties"),
    'duplicate id "parse" in "properties"',
  );
});
