import assert from "node:assert/strict";
import type { AssertionRewrite } from "../contract/check_registered_tests.ts";
import { settleRewrites } from "./settle_rewrites.ts";

const REWRITE: AssertionRewrite = {
  key: "000/codec.roundtrip",
  what:
    `Property "codec.roundtrip" test "test_roundtrip" rewrites 1 of the base's assertions in a way their form does not show is at least as strong (base tests/test_codec.py line(s) 9, now line(s) 9)`,
  path: "tests/test_codec.py",
  line: 8,
};

Deno.test("settleRewrites() lets the kill sets decide a rewritten assertion, and blocks it without them", async (t) => {
  await t.step("the head kills every mutant the base kills: a note", () => {
    const [f] = settleRewrites([REWRITE], {
      keptKills: new Map([["000/codec.roundtrip", 3]]),
    });
    assert.equal(f?.rule, "property.assertion_rewritten");
    assert.equal(f?.blocking, false);
    assert.equal(f?.path, REWRITE.path);
    assert.equal(f?.line, REWRITE.line);
    assert.match(f?.message ?? "", /still kills all 3 mutants of the code/);
  });
  await t.step("mutation ran without that evidence: blocked", () => {
    const [f] = settleRewrites([REWRITE], {
      keptKills: new Map([["000/other", 3]]),
    });
    assert.equal(f?.rule, "property.assertion_removed");
    assert.equal(f?.blocking, true);
    assert.match(f?.message ?? "", /mutation ran, but it does not show/);
  });
  await t.step("mutation did not run: blocked, saying how to decide it", () => {
    const [f] = settleRewrites([REWRITE], { keptKills: undefined });
    assert.equal(f?.rule, "property.assertion_removed");
    assert.equal(f?.blocking, true);
    assert.match(f?.message ?? "", /\[mutation\]/);
  });
});
