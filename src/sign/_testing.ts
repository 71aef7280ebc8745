/**
 * Test builders for this folder: a verdict, RFC 8032's first test key in
 * PKCS#8 and SPKI PEM, and keys of other kinds made with WebCrypto.
 *
 * @module
 */
import { buildVerdict, type Verdict } from "../core/verdict.ts";
import { finding } from "../core/finding.ts";
import { encodePem } from "./_pem.ts";

/** The head commit of {@linkcode sampleVerdict}. */
export const HEAD = "8e7d6c5b4a39" + "0".repeat(28);

/** A rejecting verdict with one blocking and one advisory finding. */
export function sampleVerdict(overrides: Partial<Verdict> = {}): Verdict {
  const verdict = buildVerdict([
    finding("property.removed", 'Property "roundtrip_stable" was removed', {
      path: "tests/agent_contract.yaml",
      line: 3,
    }),
    finding("config.settings_ignored", "Head settings ignored", {
      blocking: false,
    }),
  ], {
    pawl: { version: "0.1.0" },
    now: "2026-11-30T12:00:00Z",
    repo: "./some-repo",
    base: "3f1c2a9b0d11" + "0".repeat(28),
    head: HEAD,
    contract: { layouts: ["000"], files: [], digest: "", freezeBodyHashes: [] },
    options: { allowFixtureRotate: false, isolation: "auto" },
    isolation: null,
    tests: null,
  });
  return { ...verdict, ...overrides };
}

/** RFC 8032 section 7.1, test 1: the secret key (seed). */
export const RFC8032_SEED =
  "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60";

/** RFC 8032 section 7.1, test 1: the public key. */
export const RFC8032_PUBLIC =
  "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a";

/**
 * The keyid of RFC 8032's test 1 key, computed outside pawl with Python:
 * `"SHA256:" + b64encode(sha256(spki_der)).rstrip("=")`.
 */
export const RFC8032_KEYID =
  "SHA256:BuP9j9opu2CrWVV95h7bCuzbIxE0vjDnW0Vfjht5L6k";

/** Bytes of a hex string. */
export function hex(text: string): Uint8Array {
  return new Uint8Array(
    (text.match(/../g) ?? []).map((byte) => parseInt(byte, 16)),
  );
}

/** PKCS#8 v1 DER of an Ed25519 seed (RFC 8410). */
export function ed25519Pkcs8(seed: Uint8Array): Uint8Array {
  return new Uint8Array([...hex("302e020100300506032b657004220420"), ...seed]);
}

/** SPKI DER of a raw Ed25519 public key (RFC 8410). */
export function ed25519Spki(raw: Uint8Array): Uint8Array {
  return new Uint8Array([...hex("302a300506032b6570032100"), ...raw]);
}

/** RFC 8032's test 1 private key as PKCS#8 PEM. */
export const RFC8032_PRIVATE_PEM = encodePem(
  "PRIVATE KEY",
  ed25519Pkcs8(hex(RFC8032_SEED)),
);

/** RFC 8032's test 1 public key as SPKI PEM. */
export const RFC8032_PUBLIC_PEM = encodePem(
  "PUBLIC KEY",
  ed25519Spki(hex(RFC8032_PUBLIC)),
);

/** PKCS#8 and SPKI PEM of a freshly generated non-Ed25519 key. */
export async function otherKeyPems(
  kind: "RSA" | "EC" | "X25519",
): Promise<{ privatePem: string; publicPem: string }> {
  const algorithm = kind === "RSA"
    ? {
      name: "RSASSA-PKCS1-v1_5",
      modulusLength: 2048,
      publicExponent: new Uint8Array([1, 0, 1]),
      hash: "SHA-256",
    }
    : kind === "EC"
    ? { name: "ECDSA", namedCurve: "P-256" }
    : { name: "X25519" };
  const usages: KeyUsage[] = kind === "X25519"
    ? ["deriveBits"]
    : ["sign", "verify"];
  const pair = await crypto.subtle.generateKey(
    algorithm,
    true,
    usages,
  ) as CryptoKeyPair;
  return {
    privatePem: encodePem(
      "PRIVATE KEY",
      new Uint8Array(await crypto.subtle.exportKey("pkcs8", pair.privateKey)),
    ),
    publicPem: encodePem(
      "PUBLIC KEY",
      new Uint8Array(await crypto.subtle.exportKey("spki", pair.publicKey)),
    ),
  };
}

/** The base64 body lines of a PEM block: the key material itself. */
export function pemBody(pem: string): string[] {
  return pem.split("\n").filter((line) =>
    line !== "" && !line.startsWith("-----")
  );
}
