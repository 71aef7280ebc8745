import assert from "node:assert/strict";
import { encodePem } from "./_pem.ts";
import { PublicKeyError, readPublicKey } from "./public_key.ts";
import {
  hex,
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

Deno.test("readPublicKey() names each kind of key file that is not an Ed25519 public key", async (t) => {
  const body = new Uint8Array([1, 2, 3]);
  const privateKey =
    'a private key, not a public key: pass the public key (the ".pub" file "pawl keygen" wrote)';
  const cases: [string, string, string][] = [
    ...[
      "PRIVATE KEY",
      "ENCRYPTED PRIVATE KEY",
      "OPENSSH PRIVATE KEY",
      "RSA PRIVATE KEY",
      "EC PRIVATE KEY",
    ].map((label): [string, string, string] => [
      `a "${label}" block`,
      encodePem(label, body),
      privateKey,
    ]),
    [
      "a certificate",
      encodePem("CERTIFICATE", body),
      'a certificate, not a public key ("PUBLIC KEY")',
    ],
    ...["RSA PUBLIC KEY", "SSH2 PUBLIC KEY"].map((
      label,
    ): [string, string, string] => [
      `a "${label}" block`,
      encodePem(label, body),
      `not SPKI: found a "${label}" block where pawl needs "PUBLIC KEY"`,
    ]),
    [
      "a block of a label pawl does not know",
      encodePem("X509 CRL", body),
      'not SPKI: the PEM block is not labelled "PUBLIC KEY"',
    ],
    [
      "an OpenSSH public key line after blank lines",
      "\n  ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGnq user@host\n",
      'an OpenSSH public key line, not PEM: pawl needs "PUBLIC KEY"',
    ],
    [
      "text that is not PEM",
      "hello",
      'not PEM: no "-----BEGIN" line',
    ],
    [
      "an Ed25519 SPKI whose key is one byte short",
      encodePem(
        "PUBLIC KEY",
        new Uint8Array([
          ...hex("3029300506032b65700320"),
          0,
          ...new Uint8Array(31),
        ]),
      ),
      "not a valid Ed25519 public key",
    ],
    [
      "more than 64 KiB of text",
      "#".repeat(64 * 1024 + 1),
      "too large for an Ed25519 key (65537 characters)",
    ],
  ];
  for (const [name, pem, detail] of cases) {
    await t.step(name, async () => {
      await assert.rejects(readPublicKey(pem, "trusted.pub"), {
        name: "PublicKeyError",
        message: `Cannot read public key "trusted.pub": ${detail}`,
      });
    });
  }
});

Deno.test("readPublicKey() reads a key file up to 64 KiB, with text around the block", async (t) => {
  await t.step(
    "a public key line of OpenSSH inside the text is not the key",
    async () => {
      const pem =
        `comment: ssh-ed25519 is not used here\n${RFC8032_PUBLIC_PEM}`;
      assert.equal((await readPublicKey(pem, "a.pub")).keyid, RFC8032_KEYID);
    },
  );
  await t.step("exactly 64 KiB", async () => {
    const padding = "#".repeat(64 * 1024 - RFC8032_PUBLIC_PEM.length - 1);
    const pem = `${padding}\n${RFC8032_PUBLIC_PEM}`;
    assert.equal(pem.length, 64 * 1024);
    assert.equal((await readPublicKey(pem, "a.pub")).keyid, RFC8032_KEYID);
  });
});
