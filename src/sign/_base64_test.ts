import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { decodeBase64, encodeBase64 } from "./_base64.ts";

Deno.test("encodeBase64() matches RFC 4648's test vectors", () => {
  const vectors: [string, string][] = [
    ["", ""],
    ["f", "Zg=="],
    ["fo", "Zm8="],
    ["foo", "Zm9v"],
    ["foob", "Zm9vYg=="],
    ["fooba", "Zm9vYmE="],
    ["foobar", "Zm9vYmFy"],
  ];
  for (const [plain, encoded] of vectors) {
    const bytes = new TextEncoder().encode(plain);
    assert.equal(encodeBase64(bytes), encoded);
    assert.deepEqual(decodeBase64(encoded), bytes);
  }
});

Deno.test("encodeBase64() and decodeBase64() agree with node:buffer on random bytes", () => {
  for (let length = 0; length < 70; length++) {
    const bytes = crypto.getRandomValues(new Uint8Array(length));
    const encoded = encodeBase64(bytes);
    assert.equal(encoded, Buffer.from(bytes).toString("base64"));
    assert.deepEqual(decodeBase64(encoded), bytes);
    const url = encoded.replaceAll("+", "-").replaceAll("/", "_");
    assert.deepEqual(decodeBase64(url, { urlSafe: true }), bytes);
  }
});

Deno.test("decodeBase64() rejects everything but canonical padded base64", async (t) => {
  const cases: [string, string, boolean?][] = [
    ["missing padding", "Zg"],
    ["too much padding", "Zg==="],
    ["padding in the middle", "Zg==Zm9v"],
    ["a space", "Zm9v Yg=="],
    ["a newline", "Zm9v\nYg=="],
    ["a character outside the alphabet", "Zm9*"],
    ["non-zero bits after the last byte", "Zh=="],
    ["non-zero bits after the last two bytes", "Zm9="],
    ["URL-safe characters by default", "-_-_"],
    ["mixed alphabets", "+_-/", true],
    ["only padding", "===="],
  ];
  for (const [name, text, urlSafe] of cases) {
    await t.step(name, () => {
      assert.equal(
        decodeBase64(text, { urlSafe: urlSafe === true }),
        undefined,
      );
    });
  }
});
