import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { keyId } from "./key_id.ts";
import { ed25519Spki, hex, RFC8032_KEYID, RFC8032_PUBLIC } from "./_testing.ts";

Deno.test("keyId() is SHA256: and the unpadded base64 of the SPKI digest", async () => {
  const spki = ed25519Spki(hex(RFC8032_PUBLIC));
  assert.equal(await keyId(spki), RFC8032_KEYID);
  const digest = createHash("sha256").update(spki).digest("base64");
  assert.equal(await keyId(spki), `SHA256:${digest.replace(/=+$/, "")}`);
  assert.match(await keyId(spki), /^SHA256:[A-Za-z0-9+/]{43}$/);
});
