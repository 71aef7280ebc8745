/**
 * Sign a verdict as the in-toto test-result predicate.
 *
 * @module
 */
import type { Verdict } from "../core/verdict.ts";
import { type DsseEnvelope, signEnvelope } from "./sign_envelope.ts";
import type { SigningKey } from "./signing_key.ts";
import { IN_TOTO_PAYLOAD_TYPE } from "./statement.ts";
import { buildTestResultStatement } from "./test_result_statement.ts";

/**
 * Sign {@linkcode buildTestResultStatement}`(verdict)` with `key` in a DSSE
 * envelope, exactly as {@linkcode signVerdict} signs the verdict statement.
 */
export function signTestResult(
  verdict: Verdict,
  key: SigningKey,
): Promise<DsseEnvelope> {
  const payload = new TextEncoder().encode(
    JSON.stringify(buildTestResultStatement(verdict)),
  );
  return signEnvelope(IN_TOTO_PAYLOAD_TYPE, payload, key);
}
