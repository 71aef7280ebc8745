import assert from "node:assert/strict";
import { encodePem } from "./_pem.ts";
import { readSigningKey, SigningKeyError } from "./signing_key.ts";
import {
  ed25519Pkcs8,
  hex,
  otherKeyPems,
  pemBody,
  RFC8032_KEYID,
  RFC8032_PRIVATE_PEM,
  RFC8032_PUBLIC_PEM,
  RFC8032_SEED,
} from "./_testing.ts";

Deno.test("readSigningKey() reads RFC 8032's test key and signs as the RFC says", async () => {
  const key = await readSigningKey(RFC8032_PRIVATE_PEM, "rfc8032.key");
  assert.equal(key.publicKeyPem, RFC8032_PUBLIC_PEM);
  assert.equal(key.keyid, RFC8032_KEYID);
  assert.equal(key.privateKey.extractable, false);
  // RFC 8032 section 7.1, test 1: the signature of the empty message.
  const signature = await crypto.subtle.sign(
    "Ed25519",
    key.privateKey,
    new Uint8Array(0),
  );
  assert.deepEqual(
    new Uint8Array(signature),
    hex(
      "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b",
    ),
  );
});

Deno.test("readSigningKey() accepts CRLF line ends and text around the block", async () => {
  const pem = `# pawl signing key\r\n${
    RFC8032_PRIVATE_PEM.replaceAll("\n", "\r\n")
  }\r\n\r\n`;
  assert.equal((await readSigningKey(pem, "crlf.key")).keyid, RFC8032_KEYID);
});

Deno.test("readSigningKey() names the source and the problem, never the key", async (t) => {
  const rsa = await otherKeyPems("RSA");
  const ec = await otherKeyPems("EC");
  const x25519 = await otherKeyPems("X25519");
  const random = crypto.getRandomValues(new Uint8Array(48));
  const shortSeed = new Uint8Array([
    ...hex("302d020100300506032b65700421041f"),
    ...hex(RFC8032_SEED).subarray(0, 31),
  ]);
  const cases: [string, string, RegExp][] = [
    ["an empty value", "", /: not PEM: no "-----BEGIN" line$/],
    ["a bare base64 body", pemBody(RFC8032_PRIVATE_PEM)[0]!, /: not PEM/],
    [
      "a public key",
      RFC8032_PUBLIC_PEM,
      /: a public key \("PUBLIC KEY"\), not a private key$/,
    ],
    [
      "an encrypted PKCS#8 key",
      encodePem("ENCRYPTED PRIVATE KEY", random),
      /: an encrypted PKCS#8 key: pawl needs an unencrypted "PRIVATE KEY"$/,
    ],
    [
      "an OpenSSH key",
      encodePem("OPENSSH PRIVATE KEY", random),
      /: not PKCS#8: found a "OPENSSH PRIVATE KEY" block/,
    ],
    [
      "a PKCS#1 RSA key",
      encodePem("RSA PRIVATE KEY", random),
      /: not PKCS#8: found a "RSA PRIVATE KEY" block/,
    ],
    [
      "an unknown label, which is not repeated",
      encodePem("TOP SECRET VALUE", random),
      /: not PKCS#8: the PEM block is not labelled "PRIVATE KEY"$/,
    ],
    [
      "an RSA PKCS#8 key",
      rsa.privatePem,
      /: not an Ed25519 key: the PKCS#8 key is RSA \(OID 1\.2\.840\.113549\.1\.1\.1\)$/,
    ],
    [
      "an EC PKCS#8 key",
      ec.privatePem,
      /: not an Ed25519 key: the PKCS#8 key is EC \(OID 1\.2\.840\.10045\.2\.1\)$/,
    ],
    [
      "an X25519 PKCS#8 key",
      x25519.privatePem,
      /: not an Ed25519 key: the PKCS#8 key is X25519/,
    ],
    [
      "bytes that are not DER",
      encodePem("PRIVATE KEY", random),
      /: not PKCS#8: the DER structure is malformed$/,
    ],
    [
      "an Ed25519 seed one byte short",
      encodePem("PRIVATE KEY", shortSeed),
      /: not a valid Ed25519 PKCS#8 key$/,
    ],
    [
      "two keys",
      RFC8032_PRIVATE_PEM + RFC8032_PRIVATE_PEM,
      /: not one PEM block: found 2 "BEGIN" lines$/,
    ],
    ["a huge value", "A".repeat(100_000), /: too large for an Ed25519 key/],
  ];
  for (const [name, pem, expected] of cases) {
    await t.step(name, async () => {
      const error = await readSigningKey(pem, "PAWL_SIGNING_KEY").then(
        () => assert.fail("accepted"),
        (error: unknown) => error,
      );
      assert.ok(error instanceof SigningKeyError, String(error));
      assert.ok(error instanceof TypeError);
      assert.ok(
        error.message.startsWith(
          'Cannot read signing key "PAWL_SIGNING_KEY": ',
        ),
        error.message,
      );
      assert.match(error.message, expected);
      // No key material: no run of base64 long enough to be part of a key.
      assert.doesNotMatch(error.message, /[A-Za-z0-9+/=]{16,}/);
      assert.doesNotMatch(error.message, /TOP SECRET/);
    });
  }
});

Deno.test("readSigningKey() names a file source as given", async () => {
  await assert.rejects(
    readSigningKey("nope", "/etc/pawl/signing.key"),
    /^SigningKeyError: Cannot read signing key "\/etc\/pawl\/signing\.key": not PEM/,
  );
  // The seed itself is secret: a good key's seed never shows in an error.
  const pem = encodePem("PRIVATE KEY", ed25519Pkcs8(hex(RFC8032_SEED)));
  assert.equal((await readSigningKey(pem, "k")).keyid, RFC8032_KEYID);
});

Deno.test("readSigningKey() reads a key value of up to 64 KiB and names what is beyond", async (t) => {
  await t.step("exactly 64 KiB, the key after a comment", async () => {
    const padding = "#".repeat(64 * 1024 - RFC8032_PRIVATE_PEM.length - 1);
    const pem = `${padding}\n${RFC8032_PRIVATE_PEM}`;
    assert.equal(pem.length, 64 * 1024);
    assert.equal((await readSigningKey(pem, "k")).keyid, RFC8032_KEYID);
  });
  await t.step("one character more", async () => {
    await assert.rejects(readSigningKey("#".repeat(64 * 1024 + 1), "k"), {
      name: "SigningKeyError",
      message:
        'Cannot read signing key "k": too large for an Ed25519 key (65537 characters)',
    });
  });
  await t.step("a SEC 1 EC key block", async () => {
    await assert.rejects(
      readSigningKey(encodePem("EC PRIVATE KEY", new Uint8Array([1])), "k"),
      {
        name: "SigningKeyError",
        message:
          'Cannot read signing key "k": not PKCS#8: found a "EC PRIVATE KEY" block where pawl needs "PRIVATE KEY" (make a key with "pawl keygen")',
      },
    );
  });
});

Deno.test("readSigningKey() publishes the public key of the seed, whatever public key a PKCS#8 v2 key carries", async () => {
  // OneAsymmetricKey (RFC 5958) version 2 with a public key [1] that is
  // not the seed's.
  const body = [
    ...hex("020101300506032b657004220420"),
    ...hex(RFC8032_SEED),
    ...hex("812100"),
    ...new Uint8Array(32).fill(7),
  ];
  const pem = encodePem(
    "PRIVATE KEY",
    new Uint8Array([0x30, body.length, ...body]),
  );
  const key = await readSigningKey(pem, "v2.key");
  assert.equal(key.keyid, RFC8032_KEYID);
  assert.equal(key.publicKeyPem, RFC8032_PUBLIC_PEM);
});
