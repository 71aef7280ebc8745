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
import { usedThenWiped } from "./_wipe.ts";

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
    // Stryker disable next-line ConditionalExpression: readPemBlock throws nothing but PemError (its label error is handled above)
    if (error instanceof PemError) throw fail(error.message);
    throw error;
  }
  return await usedThenWiped(der, (der) => keyOfDer(der, fail));
}

/** The key a PKCS#8 DER block holds, checked to be Ed25519 with matching halves. */
async function keyOfDer(
  der: Uint8Array,
  fail: (detail: string) => SigningKeyError,
): Promise<SigningKey> {
  let oid: string;
  try {
    oid = pkcs8Algorithm(der);
  } catch (error) {
    // Stryker disable next-line ConditionalExpression: pkcs8Algorithm throws nothing but DerError
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
      // Stryker disable next-line MethodExpression: importKey copies the bytes when called, before the caller wipes them; the copy only changes the buffer's type
      der.slice(),
      "Ed25519",
      true,
      ["sign"],
    );
    const { x } = await crypto.subtle.exportKey("jwk", extractable);
    publicKey = await crypto.subtle.importKey(
      "jwk",
      {
        kty: "OKP",
        crv: "Ed25519",
        // Stryker disable next-line StringLiteral: an exported Ed25519 private key always has its x
        x: x ?? "",
      },
      "Ed25519",
      true,
      ["verify"],
    );
    privateKey = await crypto.subtle.importKey(
      "pkcs8",
      // Stryker disable next-line MethodExpression: importKey copies the bytes when called, before the caller wipes them; the copy only changes the buffer's type
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
  // Stryker disable next-line StringLiteral: any message tells whether the halves match
  const probe = new TextEncoder().encode("pawl signing key probe");
  const signature = await crypto.subtle.sign("Ed25519", privateKey, probe);
  // The runtime derives the public half from the seed and ignores a
  // PKCS#8 v2 key's own (see the test), so no key reaches this on Deno;
  // it guards a runtime that would use the key's own.
  // Stryker disable next-line ConditionalExpression,BlockStatement: no key reaches it on Deno (above)
  if (!await crypto.subtle.verify("Ed25519", publicKey, signature, probe)) {
    // Stryker disable next-line StringLiteral: no key reaches it on Deno (above)
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
}
