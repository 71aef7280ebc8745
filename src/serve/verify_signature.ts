/**
 * GitHub's webhook signature: `X-Hub-Signature-256: sha256=<hex>`, an
 * HMAC-SHA256 of the raw body under the webhook secret.
 *
 * @module
 */
import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * Whether `header` is the signature of `body` under `secret`, compared in
 * constant time. A missing or malformed header is not.
 *
 * @example
 * ```ts
 * import { signBody, verifySignature } from "./verify_signature.ts";
 * const body = new TextEncoder().encode("{}");
 * if (!verifySignature("s3cret", body, signBody("s3cret", body))) throw new Error("unexpected");
 * if (verifySignature("s3cret", body, signBody("other", body))) throw new Error("unexpected");
 * ```
 */
export function verifySignature(
  secret: string,
  body: Uint8Array,
  header: string | null | undefined,
): boolean {
  if (typeof header !== "string") return false;
  const match = /^sha256=([0-9a-f]{64})$/i.exec(header.trim());
  if (match === null) return false;
  const expected = createHmac("sha256", secret).update(body).digest();
  // Stryker disable next-line MethodExpression: Buffer.from reads hex digits of either case, so the case it is folded to changes no byte
  const given = Buffer.from(match[1]!.toLowerCase(), "hex");
  // Stryker disable next-line ConditionalExpression: the pattern admits exactly 64 hex digits, 32 bytes, the length of every SHA-256 digest
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** The `X-Hub-Signature-256` value for `body` under `secret`. */
export function signBody(secret: string, body: Uint8Array | string): string {
  return `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;
}
