/**
 * The keyid of a public key: what a DSSE signature names its key by.
 *
 * @module
 */
import { encodeBase64 } from "./_base64.ts";

/**
 * The key's fingerprint in OpenSSH's notation: `SHA256:` followed by the
 * unpadded standard base64 of the SHA-256 of the key's SubjectPublicKeyInfo
 * DER (the bytes inside the `-----BEGIN PUBLIC KEY-----` PEM). It is not the
 * number `ssh-keygen -l` prints for the same key, which hashes the SSH
 * wire-format key instead: only the notation is OpenSSH's. For any SPKI
 * public key it is
 * `openssl pkey -pubin -in KEY.pub -outform DER | openssl dgst -sha256 -binary | base64 | tr -d =`
 * with the prefix `SHA256:`.
 *
 * @example
 * ```ts
 * import { keyId } from "./key_id.ts";
 * const id = await keyId(new Uint8Array(0));
 * if (id !== "SHA256:47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU") throw new Error(id);
 * ```
 */
export async function keyId(spki: Uint8Array): Promise<string> {
  // Stryker disable next-line MethodExpression: the copy only changes the buffer's type; the same bytes are hashed
  const digest = await crypto.subtle.digest("SHA-256", spki.slice());
  // Stryker disable next-line Regex: the base64 of a 32-byte digest always ends in exactly one "=" and has none elsewhere
  return `SHA256:${encodeBase64(new Uint8Array(digest)).replace(/=+$/, "")}`;
}
