import assert from "node:assert/strict";
import fc from "fast-check";
import { ContractSyntaxError } from "./contract_syntax_error.ts";
import { refuseOversize } from "./refuse_oversize.ts";

function refused(text: string, maxBytes: number): boolean {
  try {
    refuseOversize(text, "contract.yaml", maxBytes);
    return false;
  } catch (error) {
    assert.ok(error instanceof ContractSyntaxError);
    assert.match(error.message, /contract\.yaml/);
    assert.match(error.message, new RegExp(`${maxBytes}-byte limit`));
    return true;
  }
}

Deno.test("refuseOversize() counts the UTF-8 bytes of each kind of character, refusing one byte over", async (t) => {
  const cases: [string, string, number][] = [
    ["nothing", "", 0],
    ["the last one-byte character", "\u007f", 1],
    ["the first two-byte character", "\u0080", 2],
    ["the last two-byte character", "\u07ff", 2],
    ["the first three-byte character", "\u0800", 3],
    ["the last character before the surrogates", "\ud7ff", 3],
    ["a character past the surrogates", "\ue000", 3],
    ["the last character of the basic plane", "\uffff", 3],
    ["the first surrogate pair", "\u{10000}", 4],
    ["a surrogate pair", "\u{1f600}", 4],
    ["the last surrogate pair", "\u{10ffff}", 4],
    ["a mix", "a\u00e9\u20ac\u{1f600}", 10],
  ];
  for (const [name, text, bytes] of cases) {
    await t.step(`${name}: ${bytes} byte(s)`, () => {
      assert.equal(refused(text, bytes), false);
      if (bytes > 0) assert.equal(refused(text, bytes - 1), true);
    });
  }
});

Deno.test("refuseOversize() refuses exactly the text whose UTF-8 encoding is over the limit", () => {
  fc.assert(
    fc.property(
      fc.string({ unit: "grapheme", maxLength: 40 }),
      fc.nat({ max: 200 }),
      (text, maxBytes) => {
        const bytes = new TextEncoder().encode(text).length;
        assert.equal(refused(text, maxBytes), bytes > maxBytes);
      },
    ),
    { numRuns: 300 },
  );
});
