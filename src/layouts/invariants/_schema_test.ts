import assert from "node:assert/strict";
import { oversize } from "./_schema.ts";

Deno.test("oversize() counts UTF-8 bytes, refusing one byte over the limit and taking the limit itself", async (t) => {
  // Each text has fewer UTF-16 units than UTF-8 bytes, so only counting its
  // bytes tells whether it is over the limit.
  const cases: [string, string][] = [
    ["an ASCII letter before a three-byte sign", "a€"],
    ["the first two-byte character", "\u0080"],
    ["the last two-byte character", "\u07ff"],
    ["a two-byte letter", "é"],
    ["the first three-byte character", "\u0800"],
    ["a three-byte sign", "€"],
    ["the last three-byte character before the surrogates", "\ud7ff"],
    ["the first three-byte character after the surrogates", "\ue000"],
    ["the replacement character", "\ufffd"],
    ["the first four-byte character", "\u{10000}"],
    ["a four-byte emoji", "😀"],
    ["the last four-byte character", "\u{10ffff}"],
    ["one of each width", "aé€😀b"],
  ];
  for (const [name, text] of cases) {
    const bytes = new TextEncoder().encode(text).length;
    await t.step(`${name} (${bytes} bytes)`, () => {
      assert.ok(text.length < bytes);
      assert.equal(oversize(text, bytes - 1), true);
      assert.equal(oversize(text, bytes), false);
    });
  }
});

Deno.test("oversize() refuses a text with more characters than the limit has bytes", () => {
  assert.equal(oversize("abc", 2), true);
  assert.equal(oversize("abc", 3), false);
});
