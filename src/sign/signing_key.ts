/**
 * The Ed25519 signing key: read once, before anything from the repository
 * runs, and never handed to the sandbox.
 *
 * @module
 */
import { plural } from "../core/plural.ts";
import {
  algorithmName,
  DerError,
  ED25519_OID,
  pkcs8Algorithm,
} from "./_der.ts";
import { encodePem, PemError, PemLabelError, readPemBlock } from "./_pem.ts";
import { keyId } from "./key_id.ts";

/** A parsed signing key. */
export interface SigningKey {
  /** The private key (WebCrypto, Ed25519, not extractable). */
  privateKey: CryptoKey;
  /** The matching public key (WebCrypto, Ed25519). */
  publicKey: CryptoKey;
  /** The public key as SPKI PEM (`-----BEGIN PUBLIC KEY-----`). */
  publicKeyPem: string;
  /** `SHA256:` fingerprint of the public key, used as the DSSE keyid. */
  keyid: string;
}

/** The key material is missing, unreadable or not an Ed25519 PKCS#8 key. */
export class SigningKeyError extends TypeError {
  /** Build the error. */
  constructor(message: string) {
    super(message);
    this.name = "SigningKeyError";
  }
}

/** More than any PEM key pawl can use; a guard against reading a random big file. */
const MAX_PEM_CHARS = 64 * 1024;

/** What to say about a PEM block that is not `PRIVATE KEY`, by label. */
const WRONG_LABELS: ReadonlyMap<string, string> = new Map([
  ["PUBLIC KEY", 'a public key ("PUBLIC KEY"), not a private key'],
  [
    "ENCRYPTED PRIVATE KEY",
    'an encrypted PKCS#8 key: pawl needs an unencrypted "PRIVATE KEY"',
  ],
  ...["OPENSSH PRIVATE KEY", "RSA PRIVATE KEY", "EC PRIVATE KEY"].map((
    label,
  ) =>
    [
      label,
      `not PKCS#8: found a "${label}" block where pawl needs "PRIVATE KEY" (make a key with "pawl keygen")`,
    ] as const
  ),
]);

/**
 * Parse a PKCS#8 PEM Ed25519 private key. `source` names where it came
 * from (a file path or `PAWL_SIGNING_KEY`) for error messages, which name
 * the problem (not PEM, not PKCS#8, not Ed25519) and never quote the key.
 *
 * @example
 * ```ts
 * import { readSigningKey, SigningKeyError } from "./signing_key.ts";
 * try {
 *   await readSigningKey("not a key", "PAWL_SIGNING_KEY");
 *   throw new Error("unexpected");
 * } catch (error) {
 *   if (!(error instanceof SigningKeyError)) throw error;
 * }
 * ```
 */
export async function readSigningKey(
  pem: string,
  source: string,
): Promise<SigningKey> {
  const fail = (detail: string) =>
    new SigningKeyError(`Cannot read signing key "${source}": ${detail}`);
  if (pem.length > MAX_PEM_CHARS) {
    throw fail(
      `too large for an Ed25519 key (${plural(pem.length, "character")})`,
    );
  }
  let der: Uint8Array;
  try {
    der = readPemBlock(pem, "PRIVATE KEY").der;
  } catch (error) {
    if (error instanceof PemLabelError) {
      throw fail(
        WRONG_LABELS.get(error.label) ??
          'not PKCS#8: the PEM block is not labelled "PRIVATE KEY"',
      );
    }
    if (error instanceof PemError) throw fail(error.message);
    throw error;
  }
  try {
    let oid: string;
    try {
      oid = pkcs8Algorithm(der);
    } catch (error) {
      if (error instanceof DerError) {
        throw fail("not PKCS#8: the DER structure is malformed");
      }
      throw error;
    }
    if (oid !== ED25519_OID) {
      throw fail(`not an Ed25519 key: the PKCS#8 key is ${algorithmName(oid)}`);
    }
    let privateKey: CryptoKey;
    let publicKey: CryptoKey;
    try {
      const extractable = await crypto.subtle.importKey(
        "pkcs8",
        der.slice(),
        "Ed25519",
        true,
        ["sign"],
      );
      const { x } = await crypto.subtle.exportKey("jwk", extractable);
      publicKey = await crypto.subtle.importKey(
        "jwk",
        { kty: "OKP", crv: "Ed25519", x: x ?? "" },
        "Ed25519",
        true,
        ["verify"],
      );
      privateKey = await crypto.subtle.importKey(
        "pkcs8",
        der.slice(),
        "Ed25519",
        false,
        ["sign"],
      );
    } catch {
      throw fail("not a valid Ed25519 PKCS#8 key");
    }
    // A PKCS#8 v2 key carries its own public key; make sure the key pawl
    // publishes is the one that verifies what it signs.
    const probe = new TextEncoder().encode("pawl signing key probe");
    const signature = await crypto.subtle.sign("Ed25519", privateKey, probe);
    if (!await crypto.subtle.verify("Ed25519", publicKey, signature, probe)) {
      throw fail("the key's private and public halves do not match");
    }
    const spki = new Uint8Array(
      await crypto.subtle.exportKey("spki", publicKey),
    );
    return {
      privateKey,
      publicKey,
      publicKeyPem: encodePem("PUBLIC KEY", spki),
      keyid: await keyId(spki),
    };
  } finally {
    der.fill(0);
  }
}
