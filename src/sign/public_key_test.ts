import assert from "node:assert/strict";
import { encodePem } from "./_pem.ts";
import { PublicKeyError, readPublicKey } from "./public_key.ts";
import {
  otherKeyPems,
  RFC8032_KEYID,
  RFC8032_PRIVATE_PEM,
  RFC8032_PUBLIC_PEM,
} from "./_testing.ts";

Deno.test("readPublicKey() reads an Ed25519 SPKI PEM and names it by keyid", async () => {
  const key = await readPublicKey(RFC8032_PUBLIC_PEM, "rfc8032.pub");
  assert.equal(key.keyid, RFC8032_KEYID);
  assert.deepEqual(key.key.usages, ["verify"]);
});

Deno.test("readPublicKey() says what the file is instead", async (t) => {
  const rsa = await otherKeyPems("RSA");
  const x25519 = await otherKeyPems("X25519");
  const cases: [string, string, RegExp][] = [
    ["not PEM", "hello", /: not PEM/],
    [
      "an OpenSSH public key line",
      "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGnq user@host\n",
      /: an OpenSSH public key line, not PEM/,
    ],
    [
      "the private key",
      RFC8032_PRIVATE_PEM,
      /: a private key, not a public key: pass the public key/,
    ],
    [
      "a certificate",
      encodePem("CERTIFICATE", new Uint8Array([1, 2, 3])),
      /: a certificate/,
    ],
    [
      "a PKCS#1 RSA public key",
      encodePem("RSA PUBLIC KEY", new Uint8Array([1, 2, 3])),
      /: not SPKI: found a "RSA PUBLIC KEY" block/,
    ],
    [
      "an RSA SPKI key",
      rsa.publicPem,
      /: not an Ed25519 key: the public key is RSA/,
    ],
    [
      "an X25519 SPKI key",
      x25519.publicPem,
      /: not an Ed25519 key: the public key is X25519/,
    ],
    [
      "malformed DER",
      encodePem("PUBLIC KEY", new Uint8Array([0x30, 0x03, 1, 2, 3])),
      /: not SPKI: the DER structure is malformed/,
    ],
  ];
  for (const [name, pem, expected] of cases) {
    await t.step(name, async () => {
      const error = await readPublicKey(pem, "trusted.pub").then(
        () => assert.fail("accepted"),
        (error: unknown) => error,
      );
      assert.ok(error instanceof PublicKeyError, String(error));
      assert.ok(
        error.message.startsWith('Cannot read public key "trusted.pub": '),
      );
      assert.match(error.message, expected);
      assert.doesNotMatch(error.message, /[A-Za-z0-9+/=]{16,}/);
    });
  }
});
