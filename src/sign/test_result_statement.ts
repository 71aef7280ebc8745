/**
 * The verdict as the standard in-toto test-result predicate, for policy
 * engines that know that predicate and not pawl's.
 *
 * @module
 */
import { LAYERS } from "../core/rules.ts";
import type { Verdict } from "../core/verdict.ts";
import { IN_TOTO_STATEMENT_TYPE, type StatementSubject } from "./statement.ts";

/** The in-toto test-result predicate type, version 0.1. */
export const TEST_RESULT_PREDICATE_TYPE =
  "https://in-toto.io/attestation/test-result/v0.1";

/** An in-toto ResourceDescriptor for one contract file at the base commit. */
export interface ConfigurationDescriptor {
  /** Repository-relative path. */
  name: string;
  /** The file's sha256 at the base commit. */
  digest: { sha256: string };
  /** The contract layout the file belongs to. */
  annotations: { layout: string };
}

/**
 * pawl's facts that the test-result predicate has no field for, under one
 * extension field (the framework's rule: a name unlikely to collide, which
 * changes the meaning of no other field).
 */
export interface PawlTestResultExtension {
  /** pawl's own decision, `accept` or `reject`. */
  decision: string;
  /** The orchestrator clock the run used. */
  now: string;
  /** The base commit the contract was read from. */
  base: string;
  /** sha256 over the base contract files list. */
  contractDigest: string;
  /** Test counts, skips and xfails included. */
  summary: {
    total: number;
    passed: number;
    failed: number;
    errors: number;
    skipped: number;
    xfailed: number;
  };
  /** The fresh seed, `CONTRACT_TRIALS` (the example count asked for), and the frozen seeds replayed. */
  seeds: {
    fresh: number;
    trials: number | null;
    replays: { freeze: string; test: string; seed: number; passed: boolean }[];
  };
  /** The sandbox the tests ran in. */
  isolation: { tier: string; network: string } | null;
  /** Blocking and advisory finding counts. */
  findings: { blocking: number; advisory: number };
}

/** The test-result predicate as pawl fills it. */
export interface TestResultPredicate {
  /** `PASSED` (accept, no notes), `WARNED` (accept with advisory findings), `FAILED` (reject). */
  result: "PASSED" | "WARNED" | "FAILED";
  /** The base contract files the run was judged by. */
  configuration: ConfigurationDescriptor[];
  /** Gate checks (`pawl/<layer>`), registered properties and frozen-seed replays that passed. */
  passedTests: string[];
  /** Those with advisory findings only. */
  warnedTests: string[];
  /** Those that failed (a blocking finding, a property that did not pass, a failed replay). */
  failedTests: string[];
  /** pawl's extra facts. */
  pawl: PawlTestResultExtension;
}

/** An in-toto Statement v1 with the test-result predicate. */
export interface TestResultStatement {
  /** `https://in-toto.io/Statement/v1`. */
  _type: typeof IN_TOTO_STATEMENT_TYPE;
  /** The head commit, as in the verdict statement. */
  subject: [StatementSubject];
  /** {@linkcode TEST_RESULT_PREDICATE_TYPE}. */
  predicateType: typeof TEST_RESULT_PREDICATE_TYPE;
  /** The predicate. */
  predicate: TestResultPredicate;
}

/** The verdict ran no tests (`pawl diff`): there is no test result to state. */
export class NoTestResultError extends TypeError {
  /** Build the error. */
  constructor() {
    super(
      "Cannot state a test result: the run executed no tests (pawl diff); use pawl check",
    );
    this.name = "NoTestResultError";
  }
}

/**
 * The verdict of a `pawl check` run as an in-toto test-result statement.
 * Test names: `pawl/<layer>` for each of pawl's gate checks,
 * `property/<layout>/<id>` for each registered property and
 * `seed/<freeze>/<seed>` for each frozen-seed replay. Throws
 * {@linkcode NoTestResultError} for a run without tests.
 *
 * @example
 * ```ts
 * import { buildTestResultStatement } from "./test_result_statement.ts";
 * const s = buildTestResultStatement({
 *   pawl: { version: "0" }, decision: "accept", now: "2026-11-30T12:00:00Z", repo: ".",
 *   base: "b".repeat(40), head: "c".repeat(40),
 *   contract: { layouts: ["000"], files: [], digest: "sha256:0", freezeBodyHashes: [] },
 *   options: { allowFixtureRotate: false, isolation: "auto" }, isolation: { tier: "bwrap", network: "isolated" },
 *   findings: [],
 *   tests: { summary: { total: 1, passed: 1, failed: 0, errors: 0, skipped: 0, xfailed: 0 },
 *     properties: [], reruns: [], seeds: { fresh: 1, trials: null, replays: [] } },
 * });
 * if (s.predicate.result !== "PASSED") throw new Error(s.predicate.result);
 * ```
 */
export function buildTestResultStatement(
  verdict: Verdict,
): TestResultStatement {
  const tests = verdict.tests;
  if (tests === null) throw new NoTestResultError();
  const passed: string[] = [];
  const warned: string[] = [];
  const failed: string[] = [];
  for (const layer of LAYERS) {
    const own = verdict.findings.filter((f) => f.layer === layer);
    const name = `pawl/${layer}`;
    if (own.some((f) => f.blocking)) failed.push(name);
    else if (own.length > 0) warned.push(name);
    else passed.push(name);
  }
  for (const p of tests.properties) {
    const name = `property/${p.layout}/${p.id}`;
    (p.outcome === "passed" ? passed : failed).push(name);
  }
  for (const r of tests.seeds.replays) {
    (r.passed ? passed : failed).push(`seed/${r.freeze}/${r.seed}`);
  }
  const blocking = verdict.findings.filter((f) => f.blocking).length;
  const advisory = verdict.findings.length - blocking;
  // The result follows the decision: never PASSED for a reject, whatever
  // the individual entries say.
  // Stryker disable next-line LogicalOperator,ConditionalExpression: on an accept no finding blocks, so each advisory finding's layer is warned: either half alone decides
  const notes = warned.length > 0 || advisory > 0;
  const result = verdict.decision === "reject"
    ? "FAILED"
    : notes
    ? "WARNED"
    : "PASSED";
  return {
    _type: IN_TOTO_STATEMENT_TYPE,
    subject: [{ name: verdict.repo, digest: { gitCommit: verdict.head } }],
    predicateType: TEST_RESULT_PREDICATE_TYPE,
    predicate: {
      result,
      configuration: verdict.contract.files.map((f) => ({
        name: f.path,
        digest: { sha256: f.sha256 },
        annotations: { layout: f.layout },
      })),
      passedTests: passed,
      warnedTests: warned,
      failedTests: failed,
      pawl: {
        decision: verdict.decision,
        now: verdict.now,
        base: verdict.base,
        contractDigest: verdict.contract.digest,
        summary: { ...tests.summary },
        seeds: {
          fresh: tests.seeds.fresh,
          trials: tests.seeds.trials,
          replays: tests.seeds.replays.map((r) => ({ ...r })),
        },
        isolation: verdict.isolation === null ? null : {
          tier: verdict.isolation.tier,
          network: verdict.isolation.network,
        },
        findings: { blocking, advisory },
      },
    },
  };
}
