/**
 * The Ed25519 signing key: read once, before anything from the repository
 * runs, and never handed to the sandbox.
 *
 * @module
 */

/** A parsed signing key. */
export interface SigningKey {
  /** The private key (WebCrypto, Ed25519, not extractable). */
  privateKey: CryptoKey;
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

/**
 * Parse a PKCS#8 PEM Ed25519 private key. `source` names where it came
 * from (a file path or `PAWL_SIGNING_KEY`) for error messages.
 */
export function readSigningKey(
  _pem: string,
  source: string,
): Promise<SigningKey> {
  return Promise.reject(
    new SigningKeyError(`Cannot read signing key "${source}": not implemented`),
  );
}
