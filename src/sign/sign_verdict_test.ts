import assert from "node:assert/strict";
import { decodeBase64 } from "./_base64.ts";
import { pae } from "./pae.ts";
import { signVerdict } from "./sign_verdict.ts";
import { readSigningKey } from "./signing_key.ts";
import { buildStatement, IN_TOTO_PAYLOAD_TYPE } from "./statement.ts";
import {
  RFC8032_KEYID,
  RFC8032_PRIVATE_PEM,
  sampleVerdict,
} from "./_testing.ts";

Deno.test("signVerdict() signs the statement's exact bytes over the DSSE PAE", async () => {
  const key = await readSigningKey(RFC8032_PRIVATE_PEM, "rfc8032.key");
  const verdict = sampleVerdict();
  const envelope = await signVerdict(verdict, key);
  assert.deepEqual(Object.keys(envelope), [
    "payloadType",
    "payload",
    "signatures",
  ]);
  assert.equal(envelope.payloadType, IN_TOTO_PAYLOAD_TYPE);
  assert.equal(envelope.signatures.length, 1);
  assert.equal(envelope.signatures[0]!.keyid, RFC8032_KEYID);
  const payload = decodeBase64(envelope.payload)!;
  assert.equal(
    new TextDecoder().decode(payload),
    JSON.stringify(buildStatement(verdict)),
  );
  const sig = decodeBase64(envelope.signatures[0]!.sig)!;
  assert.equal(sig.length, 64);
  assert.ok(
    await crypto.subtle.verify(
      "Ed25519",
      key.publicKey,
      sig,
      pae(IN_TOTO_PAYLOAD_TYPE, payload),
    ),
  );
});

Deno.test("signVerdict() gives the same envelope for the same verdict and key", async () => {
  const key = await readSigningKey(RFC8032_PRIVATE_PEM, "rfc8032.key");
  assert.deepEqual(
    await signVerdict(sampleVerdict(), key),
    await signVerdict(sampleVerdict(), key),
  );
});
