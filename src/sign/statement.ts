/**
 * The in-toto Statement that carries a verdict.
 *
 * @module
 */
import type { Verdict } from "../core/verdict.ts";

/** `_type` of an in-toto Statement v1. */
export const IN_TOTO_STATEMENT_TYPE = "https://in-toto.io/Statement/v1";

/** The DSSE `payloadType` of an in-toto Statement. */
export const IN_TOTO_PAYLOAD_TYPE = "application/vnd.in-toto+json";

/**
 * pawl's predicate type: the predicate is the verdict JSON exactly as
 * `pawl check --out` writes it. The version changes when a field is removed
 * or changes meaning; new fields do not change it, so consumers ignore
 * fields they do not know, as in-toto asks.
 */
export const PAWL_VERDICT_PREDICATE_TYPE = "https://pawl.dev/verdict/v1";

/** The commit a verdict is about. */
export interface StatementSubject {
  /** The repository exactly as given to `pawl check --repo`. */
  name: string;
  /** The head commit's full id. */
  digest: { gitCommit: string };
}

/** An in-toto Statement v1 whose predicate is a pawl verdict. */
export interface VerdictStatement {
  /** {@linkcode IN_TOTO_STATEMENT_TYPE}. */
  _type: typeof IN_TOTO_STATEMENT_TYPE;
  /** Exactly one subject: the head commit. */
  subject: [StatementSubject];
  /** {@linkcode PAWL_VERDICT_PREDICATE_TYPE}. */
  predicateType: typeof PAWL_VERDICT_PREDICATE_TYPE;
  /** The verdict. */
  predicate: Verdict;
}

/**
 * Wrap a verdict in an in-toto Statement. The subject is the head commit
 * (`digest.gitCommit`, the full id) named by the repository as given on
 * the command line; the predicate is the verdict itself.
 *
 * @example
 * ```ts
 * import { buildStatement } from "./statement.ts";
 * const head = "8e7d6c5b4a39".padEnd(40, "0");
 * const statement = buildStatement({
 *   pawl: { version: "0" }, decision: "accept", now: "2026-11-30T12:00:00Z", repo: "./repo",
 *   base: "b".repeat(40), head, contract: { layouts: [], files: [], digest: "", freezeBodyHashes: [] },
 *   options: { allowFixtureRotate: false, isolation: "auto" }, isolation: null, findings: [], tests: null,
 * });
 * if (statement.subject[0].digest.gitCommit !== head) throw new Error("unexpected");
 * ```
 */
export function buildStatement(verdict: Verdict): VerdictStatement {
  return {
    _type: IN_TOTO_STATEMENT_TYPE,
    subject: [{ name: verdict.repo, digest: { gitCommit: verdict.head } }],
    predicateType: PAWL_VERDICT_PREDICATE_TYPE,
    predicate: verdict,
  };
}
