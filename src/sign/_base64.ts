/**
 * Base64 without surprises: `atob` and `Buffer.from` skip or repair what
 * they do not understand, so a signature check could verify bytes other
 * than the ones the file holds. These decode only well-formed text.
 *
 * @module
 */

const STANDARD =
  "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

const VALUES: ReadonlyMap<string, number> = new Map([
  ...[...STANDARD].map((c, i) => [c, i] as const),
  ["-", 62],
  ["_", 63],
]);

/** Options for {@linkcode decodeBase64}. */
export interface DecodeBase64Options {
  /**
   * Also accept the URL-safe alphabet (`-`, `_`), which DSSE allows; one
   * text never mixes the two alphabets.
   */
  urlSafe?: boolean;
}

/**
 * Decode padded base64, or return `undefined` when `text` is not exactly
 * that: a length that is not a multiple of four, a character outside the
 * alphabet (whitespace included), misplaced padding or non-zero bits after
 * the last byte (so every byte string has exactly one accepted encoding).
 *
 * @example
 * ```ts
 * import { decodeBase64 } from "./_base64.ts";
 * if (decodeBase64("aGk=")?.length !== 2) throw new Error("unexpected");
 * if (decodeBase64("aGk") !== undefined) throw new Error("unexpected");
 * ```
 */
export function decodeBase64(
  text: string,
  options: DecodeBase64Options = {},
): Uint8Array<ArrayBuffer> | undefined {
  if (text.length % 4 !== 0) return undefined;
  const pad = text.endsWith("==") ? 2 : text.endsWith("=") ? 1 : 0;
  const body = text.slice(0, text.length - pad);
  const alphabet = options.urlSafe === true
    ? /^(?:[A-Za-z0-9+/]*|[A-Za-z0-9_-]*)$/
    : /^[A-Za-z0-9+/]*$/;
  if (!alphabet.test(body)) return undefined;
  const out = new Uint8Array((body.length * 3) >> 2);
  let bits = 0;
  let buffer = 0;
  let n = 0;
  for (const char of body) {
    buffer = (buffer << 6) | VALUES.get(char)!;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[n++] = (buffer >> bits) & 0xff;
    }
  }
  if ((buffer & ((1 << bits) - 1)) !== 0) return undefined;
  return out;
}

/**
 * Encode bytes as standard padded base64 (RFC 4648 section 4).
 *
 * @example
 * ```ts
 * import { encodeBase64 } from "./_base64.ts";
 * if (encodeBase64(new TextEncoder().encode("hi")) !== "aGk=") throw new Error("unexpected");
 * ```
 */
export function encodeBase64(bytes: Uint8Array): string {
  let out = "";
  for (let i = 0; i < bytes.length; i += 3) {
    const a = bytes[i]!;
    const b = bytes[i + 1];
    const c = bytes[i + 2];
    out += STANDARD[a >> 2]!;
    out += STANDARD[((a & 3) << 4) | ((b ?? 0) >> 4)]!;
    out += b === undefined ? "=" : STANDARD[((b & 15) << 2) | ((c ?? 0) >> 6)]!;
    out += c === undefined ? "=" : STANDARD[c & 63]!;
  }
  return out;
}
