import assert from "node:assert/strict";
import fc from "fast-check";
import { signBody, verifySignature } from "./verify_signature.ts";

const SECRET = "webhook-secret-for-tests";
const BODY = new TextEncoder().encode('{"action":"opened"}');
const GOOD = signBody(SECRET, BODY);
const HEX = GOOD.slice("sha256=".length);

Deno.test("verifySignature() accepts the body's signature as GitHub may spell it", async (t) => {
  const cases: [string, string][] = [
    ["as signed", GOOD],
    ["in upper-case hex", `sha256=${HEX.toUpperCase()}`],
    ["with surrounding white space", `  ${GOOD}\t`],
  ];
  for (const [name, header] of cases) {
    await t.step(name, () => {
      assert.equal(verifySignature(SECRET, BODY, header), true);
    });
  }
});

Deno.test("verifySignature() refuses a missing, malformed or wrong signature", async (t) => {
  const flipped = `sha256=${HEX.slice(0, -1)}${HEX.endsWith("0") ? "1" : "0"}`;
  const cases: [string, string | null | undefined][] = [
    ["no header", null],
    ["an undefined header", undefined],
    ["an empty header", ""],
    ["the hex without its sha256= prefix", HEX],
    ["another algorithm's prefix", `sha1=${HEX}`],
    ["text before the signature", `x${GOOD}`],
    ["text after the signature", `${GOOD}0`],
    ["a signature one digit short", GOOD.slice(0, -1)],
    ["a signature one digit long", `${GOOD}${GOOD.at(-1)}`],
    ["a non-hex digit", `sha256=${HEX.slice(0, -1)}g`],
    ["the last digit changed", flipped],
    ["under another secret", signBody("not-the-secret", BODY)],
    ["of another body", signBody(SECRET, '{"action":"closed"}')],
  ];
  for (const [name, header] of cases) {
    await t.step(name, () => {
      assert.equal(verifySignature(SECRET, BODY, header), false);
    });
  }
});

Deno.test("verifySignature() accepts exactly the signature of the body under the secret", () => {
  fc.assert(
    fc.property(
      fc.string({ minLength: 1 }),
      fc.string({ minLength: 1 }),
      fc.uint8Array(),
      fc.uint8Array(),
      (secret, other, body, otherBody) => {
        assert.equal(
          verifySignature(secret, body, signBody(secret, body)),
          true,
        );
        if (other !== secret) {
          assert.equal(
            verifySignature(secret, body, signBody(other, body)),
            false,
          );
        }
        if (otherBody.join(",") !== body.join(",")) {
          assert.equal(
            verifySignature(secret, body, signBody(secret, otherBody)),
            false,
          );
        }
      },
    ),
  );
});
