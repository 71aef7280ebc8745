import assert from "node:assert/strict";
import { generateKeyPair } from "./generate_key_pair.ts";
import { readPublicKey } from "./public_key.ts";
import { readSigningKey } from "./signing_key.ts";

Deno.test("generateKeyPair() writes a PKCS#8 and SPKI pair that reads back with one keyid", async () => {
  const pair = await generateKeyPair();
  assert.match(
    pair.privateKeyPem,
    /^-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEI[A-Za-z0-9+/]{43}\n-----END PRIVATE KEY-----\n$/,
  );
  assert.match(
    pair.publicKeyPem,
    /^-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEA[A-Za-z0-9+/]{43}=\n-----END PUBLIC KEY-----\n$/,
  );
  const signing = await readSigningKey(pair.privateKeyPem, "generated");
  const verifying = await readPublicKey(pair.publicKeyPem, "generated.pub");
  assert.equal(signing.publicKeyPem, pair.publicKeyPem);
  assert.equal(signing.keyid, pair.keyid);
  assert.equal(verifying.keyid, pair.keyid);
  assert.notEqual((await generateKeyPair()).keyid, pair.keyid);
});
