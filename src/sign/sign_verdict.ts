/**
 * Sign a verdict: an in-toto Statement v1 in a DSSE envelope.
 *
 * @module
 */
import type { Verdict } from "../core/verdict.ts";
import { type DsseEnvelope, signEnvelope } from "./sign_envelope.ts";
import type { SigningKey } from "./signing_key.ts";
import { buildStatement, IN_TOTO_PAYLOAD_TYPE } from "./statement.ts";

export type { DsseEnvelope } from "./sign_envelope.ts";

/**
 * Sign `verdict` with `key`: the payload is the compact JSON of
 * {@linkcode buildStatement}`(verdict)`, its type
 * `application/vnd.in-toto+json`, and the envelope holds exactly one
 * signature whose keyid is the key's `SHA256:` fingerprint.
 *
 * @example
 * ```ts
 * import { signVerdict } from "./sign_verdict.ts";
 * import { readSigningKey } from "./signing_key.ts";
 * import { generateKeyPair } from "./generate_key_pair.ts";
 * const key = await readSigningKey((await generateKeyPair()).privateKeyPem, "test");
 * const envelope = await signVerdict({
 *   pawl: { version: "0" }, decision: "accept", now: "2026-11-30T12:00:00Z", repo: ".",
 *   base: "b".repeat(40), head: "c".repeat(40), contract: { layouts: [], files: [], digest: "", freezeBodyHashes: [] },
 *   options: { allowFixtureRotate: false, isolation: "auto" }, isolation: null, findings: [], tests: null,
 * }, key);
 * if (envelope.signatures[0]?.keyid !== key.keyid) throw new Error("unexpected");
 * ```
 */
export function signVerdict(
  verdict: Verdict,
  key: SigningKey,
): Promise<DsseEnvelope> {
  const payload = new TextEncoder().encode(
    JSON.stringify(buildStatement(verdict)),
  );
  return signEnvelope(IN_TOTO_PAYLOAD_TYPE, payload, key);
}
