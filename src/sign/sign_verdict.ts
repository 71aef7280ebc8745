/**
 * Sign a verdict: an in-toto Statement v1 in a DSSE envelope.
 *
 * @module
 */
import type { Verdict } from "../core/verdict.ts";
import type { SigningKey } from "./signing_key.ts";

/** A DSSE envelope with standard padded base64 fields. */
export interface DsseEnvelope {
  /** `application/vnd.in-toto+json`. */
  payloadType: string;
  /** base64 of the exact payload bytes that were signed. */
  payload: string;
  /** Exactly one signature. */
  signatures: { keyid: string; sig: string }[];
}

/** Sign `verdict` with `key`. */
export function signVerdict(
  _verdict: Verdict,
  _key: SigningKey,
): Promise<DsseEnvelope> {
  return Promise.reject(new Error("signVerdict is not implemented"));
}
