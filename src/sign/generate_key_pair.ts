/**
 * A fresh Ed25519 key pair in the file formats other verifiers read.
 *
 * @module
 */
import { encodePem } from "./_pem.ts";
import { keyId } from "./key_id.ts";

/** A key pair as PEM text, ready to be written to files. */
export interface KeyPairPem {
  /** PKCS#8 PEM (`-----BEGIN PRIVATE KEY-----`), unencrypted: keep it secret. */
  privateKeyPem: string;
  /** SPKI PEM (`-----BEGIN PUBLIC KEY-----`), as cosign and OpenSSL read it. */
  publicKeyPem: string;
  /** The public key's `SHA256:` fingerprint (see {@linkcode keyId}). */
  keyid: string;
}

/**
 * Generate an Ed25519 key pair with WebCrypto.
 *
 * @example
 * ```ts
 * import { generateKeyPair } from "./generate_key_pair.ts";
 * const pair = await generateKeyPair();
 * if (!pair.privateKeyPem.startsWith("-----BEGIN PRIVATE KEY-----\n")) throw new Error("unexpected");
 * if (!pair.publicKeyPem.startsWith("-----BEGIN PUBLIC KEY-----\n")) throw new Error("unexpected");
 * ```
 */
export async function generateKeyPair(): Promise<KeyPairPem> {
  const pair = await crypto.subtle.generateKey(
    { name: "Ed25519" },
    true,
    ["sign", "verify"],
  ) as CryptoKeyPair;
  const pkcs8 = new Uint8Array(
    await crypto.subtle.exportKey("pkcs8", pair.privateKey),
  );
  const spki = new Uint8Array(
    await crypto.subtle.exportKey("spki", pair.publicKey),
  );
  const privateKeyPem = encodePem("PRIVATE KEY", pkcs8);
  pkcs8.fill(0);
  return {
    privateKeyPem,
    publicKeyPem: encodePem("PUBLIC KEY", spki),
    keyid: await keyId(spki),
  };
}
