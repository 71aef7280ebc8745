/**
 * DSSE's pre-authentication encoding: what is actually signed.
 *
 * @module
 */

/**
 * `PAE(type, body)` from DSSE v1:
 * `"DSSEv1" SP LEN(type) SP type SP LEN(body) SP body`, where LEN is the
 * byte length in ASCII decimal and `type` is UTF-8. Signing this instead of
 * the payload binds the payload type and rules out ambiguity between the
 * two fields.
 *
 * @example
 * ```ts
 * import { pae } from "./pae.ts";
 * const bytes = pae("http://example.com/HelloWorld", new TextEncoder().encode("hello world"));
 * const text = new TextDecoder().decode(bytes);
 * if (text !== "DSSEv1 29 http://example.com/HelloWorld 11 hello world") throw new Error(text);
 * ```
 */
export function pae(
  payloadType: string,
  payload: Uint8Array,
): Uint8Array<ArrayBuffer> {
  const encoder = new TextEncoder();
  const type = encoder.encode(payloadType);
  const head = encoder.encode(
    `DSSEv1 ${type.length} ${payloadType} ${payload.length} `,
  );
  const out = new Uint8Array(head.length + payload.length);
  out.set(head, 0);
  out.set(payload, head.length);
  return out;
}
