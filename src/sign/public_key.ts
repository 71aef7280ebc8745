/**
 * The Ed25519 public key a signed verdict is checked against.
 *
 * @module
 */
import { plural } from "../core/plural.ts";
import { algorithmName, DerError, ED25519_OID, spkiAlgorithm } from "./_der.ts";
import { PemError, PemLabelError, readPemBlock } from "./_pem.ts";
import { keyId } from "./key_id.ts";

/** A parsed public key. */
export interface PublicKey {
  /** The key (WebCrypto, Ed25519, verify only). */
  key: CryptoKey;
  /** `SHA256:` fingerprint, as in the DSSE signature's keyid. */
  keyid: string;
}

/** The text is not an Ed25519 SPKI PEM public key. */
export class PublicKeyError extends TypeError {
  /** Build the error. */
  constructor(message: string) {
    super(message);
    this.name = "PublicKeyError";
  }
}

const MAX_PEM_CHARS = 64 * 1024;

const PRIVATE =
  'a private key, not a public key: pass the public key (the ".pub" file "pawl keygen" wrote)';

const WRONG_LABELS: ReadonlyMap<string, string> = new Map([
  ["PRIVATE KEY", PRIVATE],
  ["ENCRYPTED PRIVATE KEY", PRIVATE],
  ["OPENSSH PRIVATE KEY", PRIVATE],
  ["RSA PRIVATE KEY", PRIVATE],
  ["EC PRIVATE KEY", PRIVATE],
  ["CERTIFICATE", 'a certificate, not a public key ("PUBLIC KEY")'],
  ...["RSA PUBLIC KEY", "SSH2 PUBLIC KEY"].map((label) =>
    [
      label,
      `not SPKI: found a "${label}" block where pawl needs "PUBLIC KEY"`,
    ] as const
  ),
]);

/**
 * Parse an SPKI PEM (`-----BEGIN PUBLIC KEY-----`) Ed25519 public key.
 * `source` names the file for error messages.
 *
 * @example
 * ```ts
 * import { readPublicKey } from "./public_key.ts";
 * const pem = "-----BEGIN PUBLIC KEY-----\n" +
 *   "MCowBQYDK2VwAyEA11qYAYKxCrfVS/7TyWQHOg7hcvPapiMlrwIaaPcHURo=\n" +
 *   "-----END PUBLIC KEY-----\n";
 * const key = await readPublicKey(pem, "rfc8032.pub");
 * if (!key.keyid.startsWith("SHA256:")) throw new Error("unexpected");
 * ```
 */
export async function readPublicKey(
  pem: string,
  source: string,
): Promise<PublicKey> {
  const fail = (detail: string) =>
    new PublicKeyError(`Cannot read public key "${source}": ${detail}`);
  if (pem.length > MAX_PEM_CHARS) {
    throw fail(
      `too large for an Ed25519 key (${plural(pem.length, "character")})`,
    );
  }
  if (/^\s*ssh-ed25519 /.test(pem)) {
    throw fail('an OpenSSH public key line, not PEM: pawl needs "PUBLIC KEY"');
  }
  let der: Uint8Array;
  try {
    der = readPemBlock(pem, "PUBLIC KEY").der;
  } catch (error) {
    if (error instanceof PemLabelError) {
      throw fail(
        WRONG_LABELS.get(error.label) ??
          'not SPKI: the PEM block is not labelled "PUBLIC KEY"',
      );
    }
    // Stryker disable next-line ConditionalExpression: readPemBlock throws nothing but PemError (its label error is handled above)
    if (error instanceof PemError) throw fail(error.message);
    throw error;
  }
  let oid: string;
  try {
    oid = spkiAlgorithm(der);
  } catch (error) {
    // Stryker disable next-line ConditionalExpression: spkiAlgorithm throws nothing but DerError
    if (error instanceof DerError) {
      throw fail("not SPKI: the DER structure is malformed");
    }
    throw error;
  }
  if (oid !== ED25519_OID) {
    throw fail(`not an Ed25519 key: the public key is ${algorithmName(oid)}`);
  }
  let key: CryptoKey;
  try {
    key = await crypto.subtle.importKey(
      "spki",
      // Stryker disable next-line MethodExpression: the copy only changes the buffer's type; the same bytes are imported
      der.slice(),
      "Ed25519",
      true,
      ["verify"],
    );
  } catch {
    throw fail("not a valid Ed25519 public key");
  }
  const spki = new Uint8Array(await crypto.subtle.exportKey("spki", key));
  return { key, keyid: await keyId(spki) };
}
