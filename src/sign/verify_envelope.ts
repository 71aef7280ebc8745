/**
 * Verify a signed verdict: a DSSE envelope holding an in-toto Statement
 * whose predicate is one of the two pawl signs, its verdict or its verdict
 * as an in-toto test result.
 *
 * @module
 */
import { plural } from "../core/plural.ts";
import type { Decision } from "../core/verdict.ts";
import { decodeBase64 } from "./_base64.ts";
import { pae } from "./pae.ts";
import { type PublicKey, PublicKeyError, readPublicKey } from "./public_key.ts";
import {
  IN_TOTO_PAYLOAD_TYPE,
  IN_TOTO_STATEMENT_TYPE,
  PAWL_VERDICT_PREDICATE_TYPE,
} from "./statement.ts";
import { TEST_RESULT_PREDICATE_TYPE } from "./test_result_statement.ts";

/** Why an envelope was not accepted, as a stable id. */
export type VerifyProblem =
  | "key"
  | "envelope"
  | "payload_type"
  | "encoding"
  | "signature_count"
  | "keyid"
  | "signature"
  | "statement"
  | "head";

/**
 * The kinds of statement pawl signs: its verdict (`check --out-signed`) and
 * the verdict as an in-toto test result (`check --out-test-result`).
 */
export type StatementKind = "verdict" | "test-result";

/** The verdict fields a person checks, read from a verified statement. */
export interface VerifiedVerdict {
  /** Which kind of pawl statement was verified. */
  kind: StatementKind;
  /** accept or reject. */
  decision: Decision;
  /** The head commit (the statement subject's `gitCommit`). */
  head: string;
  /** The base commit, as the verdict records it. */
  base: string;
  /** The repository, as given to `pawl check`. */
  repo: string;
  /** The orchestrator clock the verdict was made at. */
  now: string;
  /** Number of findings. */
  findings: number;
  /** Number of blocking findings. */
  blocking: number;
}

/** The signature verifies and the payload is a pawl verdict statement. */
export interface VerifyValid {
  /** Discriminant. */
  valid: true;
  /** The key's `SHA256:` fingerprint. */
  keyid: string;
  /** The verdict's key fields. */
  verdict: VerifiedVerdict;
  /** The whole statement as signed (parsed JSON). */
  statement: Record<string, unknown>;
}

/** The envelope is not accepted. */
export interface VerifyInvalid {
  /** Discriminant. */
  valid: false;
  /** Stable id of the first problem found. */
  problem: VerifyProblem;
  /** Sentence-case reason a person can act on. */
  message: string;
}

/** What {@linkcode verifyEnvelope} concluded. */
export type VerifyResult = VerifyValid | VerifyInvalid;

/** Options for {@linkcode verifyEnvelope}. */
export interface VerifyEnvelopeOptions {
  /** Also require this head commit (full id, any case) as the subject. */
  head?: string;
  /** The envelope's name in messages (default `envelope`). */
  envelopeName?: string;
  /** The key's name in messages (default `public key`). */
  keyName?: string;
}

const GIT_COMMIT = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/**
 * Verify `envelope` (the JSON text) against `publicKeyPem` (SPKI PEM,
 * Ed25519). The signature is checked over the exact payload bytes before
 * anything of the payload is parsed: the envelope's fields are read, both
 * base64 fields decoded strictly (standard or URL-safe alphabet as DSSE
 * allows, padded, canonical), the PAE rebuilt and verified. Only then is the
 * payload read as an in-toto Statement v1 with pawl's predicate type. The
 * envelope must carry exactly one signature; its keyid, when present and
 * not empty, must be the key's fingerprint. Every problem is a result, not
 * an exception.
 *
 * @example
 * ```ts
 * import { verifyEnvelope } from "./verify_envelope.ts";
 * import { signVerdict } from "./sign_verdict.ts";
 * import { readSigningKey } from "./signing_key.ts";
 * import { generateKeyPair } from "./generate_key_pair.ts";
 * const pair = await generateKeyPair();
 * const key = await readSigningKey(pair.privateKeyPem, "test");
 * const head = "c".repeat(40);
 * const envelope = await signVerdict({
 *   pawl: { version: "0" }, decision: "accept", now: "2026-11-30T12:00:00Z", repo: ".",
 *   base: "b".repeat(40), head, contract: { layouts: [], files: [], digest: "", freezeBodyHashes: [] },
 *   options: { allowFixtureRotate: false, isolation: "auto" }, isolation: null, findings: [], tests: null,
 * }, key);
 * const result = await verifyEnvelope(JSON.stringify(envelope), pair.publicKeyPem, { head });
 * if (!result.valid || result.verdict.decision !== "accept") throw new Error("unexpected");
 * ```
 */
export async function verifyEnvelope(
  envelope: string,
  publicKeyPem: string,
  options: VerifyEnvelopeOptions = {},
): Promise<VerifyResult> {
  const name = `Envelope "${options.envelopeName ?? "envelope"}"`;
  let key: PublicKey;
  try {
    key = await readPublicKey(publicKeyPem, options.keyName ?? "public key");
  } catch (error) {
    // Stryker disable next-line ConditionalExpression: readPublicKey throws nothing but PublicKeyError
    if (error instanceof PublicKeyError) return invalid("key", error.message);
    throw error;
  }
  const keyText = `key "${options.keyName ?? "public key"}" (${key.keyid})`;

  let parsed: unknown;
  try {
    parsed = JSON.parse(envelope);
  } catch {
    return invalid("envelope", `${name} is not JSON`);
  }
  const shape = readEnvelope(parsed);
  if (typeof shape === "string") {
    return invalid("envelope", `${name} is not a DSSE envelope: ${shape}`);
  }
  if (shape.payloadType !== IN_TOTO_PAYLOAD_TYPE) {
    return invalid(
      "payload_type",
      `${name} has payloadType ${
        quote(shape.payloadType)
      }: a signed pawl verdict has "${IN_TOTO_PAYLOAD_TYPE}"`,
    );
  }
  if (shape.signatures.length !== 1) {
    return invalid(
      "signature_count",
      `${name} has ${
        plural(shape.signatures.length, "signature")
      }: pawl accepts exactly one`,
    );
  }
  const signature = shape.signatures[0]!;
  if (
    signature.keyid !== undefined && signature.keyid !== "" &&
    signature.keyid !== key.keyid
  ) {
    return invalid(
      "keyid",
      `${name} is signed by keyid ${quote(signature.keyid)}, not by ${keyText}`,
    );
  }
  const payload = decodeBase64(shape.payload, { urlSafe: true });
  if (payload === undefined) {
    return invalid("encoding", `${name} payload is not valid base64`);
  }
  const sig = decodeBase64(signature.sig, { urlSafe: true });
  if (sig === undefined) {
    return invalid("encoding", `${name} signature is not valid base64`);
  }
  if (sig.length !== 64) {
    return invalid(
      "signature",
      `${name} signature is ${
        plural(sig.length, "byte")
      }: an Ed25519 signature is 64`,
    );
  }
  // Stryker disable ArrowFunction,BooleanLiteral: verify does not throw for an Ed25519 key and a 64-byte signature, so the catch is never taken
  const verified = await crypto.subtle.verify(
    "Ed25519",
    key.key,
    // Stryker disable next-line MethodExpression: the copy only changes the buffer's type; the same bytes are verified
    sig.slice(),
    // Stryker disable next-line MethodExpression: the copy only changes the buffer's type; the same bytes are verified
    pae(shape.payloadType, payload).slice(),
  ).catch(() => false);
  // Stryker restore ArrowFunction,BooleanLiteral
  if (!verified) {
    return invalid(
      "signature",
      `${name} signature does not verify with ${keyText}`,
    );
  }

  // Signed by the key: only now is the payload read.
  const statement = readStatement(payload);
  if (typeof statement === "string") {
    return invalid("statement", `${name} is signed, but ${statement}`);
  }
  if (
    options.head !== undefined &&
    options.head.toLowerCase() !== statement.verdict.head
  ) {
    return invalid(
      "head",
      `${name} is a verdict on head "${statement.verdict.head}", not on ${
        quote(options.head)
      }`,
    );
  }
  return {
    valid: true,
    keyid: key.keyid,
    verdict: statement.verdict,
    statement: statement.statement,
  };
}

interface EnvelopeShape {
  payloadType: string;
  payload: string;
  signatures: { keyid: string | undefined; sig: string }[];
}

/** The envelope's fields, or what is wrong with them. */
function readEnvelope(value: unknown): EnvelopeShape | string {
  if (!isObject(value)) return "not a JSON object";
  for (const field of Object.keys(value)) {
    if (!["payloadType", "payload", "signatures"].includes(field)) {
      return `unknown field ${quote(field)}`;
    }
  }
  const { payloadType, payload, signatures } = value;
  if (typeof payloadType !== "string") {
    return '"payloadType" is missing or not a string';
  }
  if (typeof payload !== "string") {
    return '"payload" is missing or not a string';
  }
  if (!Array.isArray(signatures)) {
    return '"signatures" is missing or not an array';
  }
  const read: EnvelopeShape["signatures"] = [];
  for (const [index, entry] of signatures.entries()) {
    const which = `signature ${index + 1}`;
    if (!isObject(entry)) return `${which} is not an object`;
    for (const field of Object.keys(entry)) {
      if (field !== "keyid" && field !== "sig") {
        return `${which} has unknown field ${quote(field)}`;
      }
    }
    if (typeof entry["sig"] !== "string") {
      return `${which} has no "sig" string`;
    }
    const keyid = entry["keyid"];
    if (keyid !== undefined && typeof keyid !== "string") {
      return `${which} has a "keyid" that is not a string`;
    }
    read.push({ keyid, sig: entry["sig"] });
  }
  return { payloadType, payload, signatures: read };
}

/** The verified payload as a pawl verdict statement, or what it is not. */
function readStatement(
  payload: Uint8Array,
):
  | { statement: Record<string, unknown>; verdict: VerifiedVerdict }
  | string {
  let statement: unknown;
  try {
    statement = JSON.parse(
      new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(
        payload,
      ),
    );
  } catch {
    return "its payload is not UTF-8 JSON";
  }
  if (!isObject(statement)) return "its payload is not a JSON object";
  if (statement["_type"] !== IN_TOTO_STATEMENT_TYPE) {
    return `its payload is not an in-toto Statement v1: "_type" is ${
      quote(statement["_type"])
    }`;
  }
  const predicateType = statement["predicateType"];
  const reader = typeof predicateType === "string" &&
      Object.hasOwn(PREDICATE_READERS, predicateType)
    ? PREDICATE_READERS[predicateType]
    : undefined;
  if (reader === undefined) {
    return `its statement is not one pawl signs: "predicateType" is ${
      quote(predicateType)
    }, expected ${
      Object.keys(PREDICATE_READERS).map((t) => `"${t}"`).join(" or ")
    }`;
  }
  const subject = statement["subject"];
  if (!Array.isArray(subject) || subject.length !== 1) {
    return 'its statement does not have exactly one "subject"';
  }
  const only: unknown = subject[0];
  const digest = isObject(only) ? only["digest"] : undefined;
  const gitCommit = isObject(digest) ? digest["gitCommit"] : undefined;
  const name = isObject(only) ? only["name"] : undefined;
  if (
    typeof name !== "string" || typeof gitCommit !== "string" ||
    !GIT_COMMIT.test(gitCommit)
  ) {
    return 'its subject is not a name with a full "gitCommit" digest';
  }
  const predicate = statement["predicate"];
  if (!isObject(predicate)) return 'its "predicate" is not an object';
  const verdict = reader(predicate, { name, gitCommit });
  return typeof verdict === "string" ? verdict : { statement, verdict };
}

/** A statement's subject: the repository's name and the head commit. */
interface Subject {
  name: string;
  gitCommit: string;
}

/** Reads the predicate of one kind of pawl statement, or says what it lacks. */
type PredicateReader = (
  predicate: Record<string, unknown>,
  subject: Subject,
) => VerifiedVerdict | string;

/** Every kind of statement pawl signs, by predicate type. */
const PREDICATE_READERS: Readonly<Record<string, PredicateReader>> = {
  [PAWL_VERDICT_PREDICATE_TYPE]: readVerdictPredicate,
  [TEST_RESULT_PREDICATE_TYPE]: readTestResultPredicate,
};

/** pawl's verdict itself (`check --out-signed`). */
function readVerdictPredicate(
  predicate: Record<string, unknown>,
  { gitCommit }: Subject,
): VerifiedVerdict | string {
  const { decision, head, base, repo, now, findings } = predicate;
  if (decision !== "accept" && decision !== "reject") {
    return `its verdict's "decision" is ${quote(decision)}`;
  }
  if (
    typeof head !== "string" || typeof base !== "string" ||
    typeof repo !== "string" || typeof now !== "string" ||
    !Array.isArray(findings)
  ) {
    return 'its verdict lacks "head", "base", "repo", "now" or "findings"';
  }
  if (head !== gitCommit) {
    return `its verdict's head ${
      quote(head)
    } is not the subject's gitCommit "${gitCommit}"`;
  }
  const blocking =
    findings.filter((f: unknown) => isObject(f) && f["blocking"] === true)
      .length;
  return {
    kind: "verdict",
    decision,
    head,
    base,
    repo,
    now,
    findings: findings.length,
    blocking,
  };
}

/**
 * The verdict as an in-toto test result (`check --out-test-result`): the
 * standard predicate with pawl's facts under its `pawl` field. A test
 * result without that field is someone else's, not pawl's.
 */
function readTestResultPredicate(
  predicate: Record<string, unknown>,
  { name, gitCommit }: Subject,
): VerifiedVerdict | string {
  const facts = predicate["pawl"];
  if (!isObject(facts)) {
    return 'its test result is not pawl\'s: it has no "pawl" field';
  }
  const { decision, base, now, findings } = facts;
  if (decision !== "accept" && decision !== "reject") {
    return `its test result's "pawl.decision" is ${quote(decision)}`;
  }
  const blocking = isObject(findings) ? findings["blocking"] : undefined;
  const advisory = isObject(findings) ? findings["advisory"] : undefined;
  if (
    typeof base !== "string" || typeof now !== "string" ||
    !isCount(blocking) || !isCount(advisory)
  ) {
    return 'its test result lacks "pawl.base", "pawl.now" or "pawl.findings" counts';
  }
  return {
    kind: "test-result",
    decision,
    head: gitCommit,
    base,
    repo: name,
    now,
    findings: blocking + advisory,
    blocking,
  };
}

/** A whole number of findings. */
function isCount(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 0;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A value from an untrusted file, quoted and cut short, safe for a terminal. */
function quote(value: unknown): string {
  const text = typeof value === "string"
    ? value
    : String(JSON.stringify(value));
  return JSON.stringify(text.length > 80 ? `${text.slice(0, 80)}…` : text);
}

function invalid(problem: VerifyProblem, message: string): VerifyInvalid {
  return { valid: false, problem, message };
}
