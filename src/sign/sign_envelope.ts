/**
 * DSSE signing: one payload, one Ed25519 signature.
 *
 * @module
 */
import { encodeBase64 } from "./_base64.ts";
import { pae } from "./pae.ts";
import type { SigningKey } from "./signing_key.ts";

/** One DSSE signature. */
export interface DsseSignature {
  /** The signing key's `SHA256:` fingerprint (an unauthenticated hint). */
  keyid: string;
  /** Standard padded base64 of the Ed25519 signature over the PAE. */
  sig: string;
}

/** A DSSE envelope with standard padded base64 fields. */
export interface DsseEnvelope {
  /** `application/vnd.in-toto+json`. */
  payloadType: string;
  /** base64 of the exact payload bytes that were signed. */
  payload: string;
  /** Exactly one signature. */
  signatures: DsseSignature[];
}

/**
 * Sign `payload` as DSSE v1: Ed25519 over `PAE(payloadType, payload)`.
 * Ed25519 is deterministic, so the same bytes and key give the same
 * envelope.
 *
 * @example
 * ```ts
 * import { signEnvelope } from "./sign_envelope.ts";
 * import { readSigningKey } from "./signing_key.ts";
 * import { generateKeyPair } from "./generate_key_pair.ts";
 * const key = await readSigningKey((await generateKeyPair()).privateKeyPem, "test");
 * const envelope = await signEnvelope("text/plain", new TextEncoder().encode("hi"), key);
 * if (envelope.payload !== "aGk=" || envelope.signatures.length !== 1) throw new Error("unexpected");
 * ```
 */
export async function signEnvelope(
  payloadType: string,
  payload: Uint8Array,
  key: SigningKey,
): Promise<DsseEnvelope> {
  const signature = await crypto.subtle.sign(
    "Ed25519",
    key.privateKey,
    // Stryker disable next-line MethodExpression: the copy only gives the bytes the buffer type crypto.subtle takes; the same bytes are signed
    pae(payloadType, payload).slice(),
  );
  return {
    payloadType,
    payload: encodeBase64(payload),
    signatures: [{
      keyid: key.keyid,
      sig: encodeBase64(new Uint8Array(signature)),
    }],
  };
}
