import assert from "node:assert/strict";
import {
  algorithmName,
  DerError,
  ED25519_OID,
  pkcs8Algorithm,
  spkiAlgorithm,
} from "./_der.ts";
import { readPemBlock } from "./_pem.ts";
import {
  ed25519Pkcs8,
  ed25519Spki,
  hex,
  otherKeyPems,
  RFC8032_PUBLIC,
  RFC8032_SEED,
} from "./_testing.ts";

Deno.test("pkcs8Algorithm() and spkiAlgorithm() name the key's algorithm", async (t) => {
  await t.step("Ed25519", () => {
    assert.equal(pkcs8Algorithm(ed25519Pkcs8(hex(RFC8032_SEED))), ED25519_OID);
    assert.equal(spkiAlgorithm(ed25519Spki(hex(RFC8032_PUBLIC))), ED25519_OID);
  });
  const expected = {
    RSA: "RSA (OID 1.2.840.113549.1.1.1)",
    EC: "EC (OID 1.2.840.10045.2.1)",
    X25519: "X25519 (OID 1.3.101.110)",
  } as const;
  for (const kind of ["RSA", "EC", "X25519"] as const) {
    await t.step(kind, async () => {
      const pems = await otherKeyPems(kind);
      const privateDer = readPemBlock(pems.privatePem, "PRIVATE KEY").der;
      const publicDer = readPemBlock(pems.publicPem, "PUBLIC KEY").der;
      assert.equal(algorithmName(pkcs8Algorithm(privateDer)), expected[kind]);
      assert.equal(algorithmName(spkiAlgorithm(publicDer)), expected[kind]);
    });
  }
});

Deno.test("pkcs8Algorithm() and spkiAlgorithm() reject malformed DER", async (t) => {
  const pkcs8 = ed25519Pkcs8(hex(RFC8032_SEED));
  const spki = ed25519Spki(hex(RFC8032_PUBLIC));
  const cases: [string, () => unknown][] = [
    ["empty", () => pkcs8Algorithm(new Uint8Array(0))],
    ["truncated PKCS#8", () => pkcs8Algorithm(pkcs8.subarray(0, 20))],
    ["trailing bytes", () => pkcs8Algorithm(new Uint8Array([...pkcs8, 0]))],
    ["SPKI read as PKCS#8", () => pkcs8Algorithm(spki)],
    ["PKCS#8 read as SPKI", () => spkiAlgorithm(pkcs8)],
    ["a huge length", () => spkiAlgorithm(hex("3084ffffffff"))],
  ];
  for (const [name, run] of cases) {
    await t.step(name, () => assert.throws(run, DerError));
  }
});
