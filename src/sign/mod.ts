/**
 * Signed verdicts. A verdict becomes an in-toto Statement v1
 * ({@linkcode buildStatement}, predicate type
 * {@linkcode PAWL_VERDICT_PREDICATE_TYPE}) in a DSSE envelope signed with
 * Ed25519 ({@linkcode signVerdict}); {@linkcode verifyEnvelope} checks one
 * against a public key, signature first. The same verdict can also be
 * stated as the standard in-toto test-result predicate
 * ({@linkcode buildTestResultStatement}, {@linkcode signTestResult}). Keys are PKCS#8 PEM (private) and
 * SPKI PEM (public), made by {@linkcode generateKeyPair}, read by
 * {@linkcode readSigningKey} and {@linkcode readPublicKey}, and named by
 * their {@linkcode keyId}: `SHA256:` and the unpadded base64 of the SHA-256
 * of the SPKI DER. Everything here is pure apart from WebCrypto; the files
 * are read and written by the CLI.
 *
 * @module
 */
export * from "./generate_key_pair.ts";
export * from "./key_id.ts";
export * from "./pae.ts";
export * from "./public_key.ts";
export * from "./sign_envelope.ts";
export * from "./sign_test_result.ts";
export * from "./sign_verdict.ts";
export * from "./signing_key.ts";
export * from "./statement.ts";
export * from "./test_result_statement.ts";
export * from "./verify_envelope.ts";
export * from "./load_signing_key.ts";
