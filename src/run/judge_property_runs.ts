/**
 * What the registered properties' own runs show: the head's tests on the
 * head's code, and, when the head changed any test-side path, the base's
 * oracle (the base's test-side files) on the head's code. Both load pawl's
 * observer; their reports are cross-checked against its stream, the
 * example counts of the two runs are compared, the seed evidence of the
 * head's run is checked, and the oracle must collect, run and pass. Pure:
 * the runs are made by the test stage's plan.
 *
 * @module
 */
import { type Finding, finding } from "../core/finding.ts";
import { failureDetail } from "./failure_detail.ts";
import { crossCheckReport } from "./cross_check_report.ts";
import { evaluateProperty, type PropertyOutcome } from "./evaluate_property.ts";
import { type FailureReason, failureReason } from "./failure_reason.ts";
import { judgeExamples, type ObservedProperty } from "./judge_examples.ts";
import { judgeSeedUse, type LedgerEvidence } from "./judge_seed_use.ts";
import type { Observation } from "./observation.ts";
import type { TestCaseResult } from "./parse_junit.ts";
import type { PytestRun } from "./run_pytest.ts";
import { casesForNodeId } from "./test_id.ts";

/** What separates a node id's file from its names. */
const NODE_ID_SEPARATOR = "::";

/** One of the properties' own runs: its result, its copy and the ledger rows it wrote. */
export interface PropertyRun {
  /** The run. */
  run: PytestRun;
  /** Its working copy's real path (the observer names files under it). */
  workDir: string;
  /** Seed-ledger rows the run appended. */
  rows: readonly LedgerEvidence[];
}

/** Options for {@linkcode judgePropertyRuns}. */
export interface JudgePropertyRunsOptions {
  /** Registered properties that resolve at head. */
  properties: readonly ObservedProperty[];
  /** Those of `properties` whose test also exists at base: the oracle runs them (default: all). */
  oracleProperties?: readonly ObservedProperty[];
  /** The injected seed. */
  seed: number;
  /** The injected trial count. */
  trials: number | null;
  /** Whether `--hypothesis-seed` is in the command. */
  hypothesisSeeded: boolean;
  /** Whether a repository path is on the test side (comes from the base in the oracle tree). */
  isTestSide: (path: string) => boolean;
  /** Whether a repository path is the same at base and head. */
  unchanged: (path: string) => boolean;
  /**
   * The command that reproduces a base test's failure on the head's code
   * in a checkout of the head, by node id: with it, a failed or errored
   * oracle's finding carries what the test showed.
   */
  oracleReproduce?: (nodeId: string) => string;
}

/** What the property runs found. */
export interface PropertyRunsResult {
  /** The head's run. */
  head: PytestRun;
  /** The oracle's run, or null when it was the head's run. */
  oracle: PytestRun | null;
  /** Findings of the observer, oracle, example and seed checks. */
  findings: Finding[];
  /** Whether the base's tests write seed-ledger rows carrying the injected seed and trials (replays must, too). */
  expectLedger: boolean;
  /** The base's oracle run, against which seed use is judged (null when it was the head's run). */
  seedBaseline: Observation | null;
  /** Each `property.oracle_failed` finding with what failed, for attribution at the base. */
  oracleFailures: OracleFailure[];
}

/** A property whose base test did not pass on the head's code. */
export interface OracleFailure {
  /** The property. */
  property: ObservedProperty;
  /** How its base test ended. */
  outcome: PropertyOutcome;
  /** Why, when it failed or errored. */
  reason?: FailureReason;
  /** The finding it gave. */
  finding: Finding;
}

/**
 * Judge the registered properties' run on the head tree and, when it
 * differed, the base's oracle's run: what the observer saw, the example
 * counts of the two, the seed evidence, and whether the oracle passed.
 */
export function judgePropertyRuns(
  head: PropertyRun,
  oracle: PropertyRun | null,
  options: JudgePropertyRunsOptions,
): PropertyRunsResult {
  const oracleProperties = options.oracleProperties ?? options.properties;
  const findings: Finding[] = [];
  const oracleFailures = oracle === null
    ? []
    : oracleFindings(oracle.run, oracleProperties, options.oracleReproduce);
  findings.push(
    ...observerFindings(head.run, "the registered properties' own run"),
    ...profileFindings(head.run.observation, head.workDir, options),
  );
  if (oracle !== null) {
    findings.push(
      ...observerFindings(oracle.run, "the base's oracle run"),
      ...profileFindings(oracle.run.observation, oracle.workDir, options),
      ...oracleFailures.map((f) => f.finding),
    );
    if (
      head.run.observation !== undefined &&
      oracle.run.observation !== undefined
    ) {
      findings.push(...judgeExamples(oracleProperties, {
        head: head.run.observation,
        oracle: oracle.run.observation,
        seed: options.seed,
      }));
    }
  }
  // Seed use is judged against the base's own tests: what they already do
  // (an @seed, rows without the injected trials) is not the pull request's.
  const baseline = oracle === null || stoppedEarly(oracle.run)
    ? undefined
    : oracle.run.observation;
  const expectLedger = baseline !== undefined &&
    // Stryker disable next-line ConditionalExpression: a baseline is only ever read from an oracle run, so with one the oracle is there
    oracle !== null &&
    oracle.rows.length > 0 &&
    judgeSeedUse(oracleProperties, {
        // Stryker disable next-line StringLiteral: the kind only words the findings, and only whether there are any is read here
        kind: "fresh",
        seed: options.seed,
        trials: options.trials,
        // Stryker disable next-line BooleanLiteral: with no baseline given, judgeSeedUse checks no forced seed, so the flag changes nothing
        hypothesisSeeded: false,
        observation: baseline,
        ledger: oracle.rows,
        expectLedger: true,
      }).length === 0;
  if (
    head.run.observation !== undefined && !stoppedEarly(head.run) &&
    // Stryker disable next-line ConditionalExpression: without a baseline no seed is held and no ledger is expected (expectLedger is false), so judging the head finds nothing
    baseline !== undefined
  ) {
    findings.push(...judgeSeedUse(oracleProperties, {
      kind: "fresh",
      seed: options.seed,
      trials: options.trials,
      hypothesisSeeded: options.hypothesisSeeded,
      observation: head.run.observation,
      ledger: head.rows,
      expectLedger,
      baseline,
    }));
  }
  return {
    head: head.run,
    oracle: oracle?.run ?? null,
    findings,
    expectLedger,
    seedBaseline: baseline ?? null,
    oracleFailures,
  };
}

/** Seed evidence of a frozen-seed replay run, given what the fresh runs showed. */
export function replaySeedFindings(
  run: PytestRun,
  rows: readonly LedgerEvidence[],
  replay: {
    id: string;
    nodeId: string;
    seed: number;
    trials: number;
    hypothesisSeeded: boolean;
    expectLedger: boolean;
    baseline: Observation | null;
  },
): Finding[] {
  if (run.observation === undefined || stoppedEarly(run)) return [];
  const path = replay.nodeId.split("::")[0];
  return [
    ...observerFindings(run, `the replay of frozen seed ${replay.seed}`),
    ...judgeSeedUse([{ id: replay.id, nodeId: replay.nodeId, path }], {
      // Stryker disable next-line StringLiteral: any kind but "fresh" is worded as a frozen seed, so an empty one reads the same
      kind: "replay",
      seed: replay.seed,
      trials: replay.trials,
      hypothesisSeeded: replay.hypothesisSeeded,
      observation: run.observation,
      ledger: rows,
      expectLedger: replay.expectLedger,
      ...(replay.baseline === null ? {} : { baseline: replay.baseline }),
    }),
  ];
}

function stoppedEarly(run: PytestRun): boolean {
  return run.result.timedOut || run.result.outputExceeded;
}

function observerFindings(run: PytestRun, label: string): Finding[] {
  if (run.observation === undefined || run.cases === null) return [];
  if (stoppedEarly(run)) return [];
  return crossCheckReport(run.observation, run.cases, { run: label });
}

/** The base's tests of each property must collect, run and pass on the head's code. */
function oracleFindings(
  run: PytestRun,
  properties: readonly ObservedProperty[],
  reproduce: ((nodeId: string) => string) | undefined,
): OracleFailure[] {
  const failures: OracleFailure[] = [];
  // Stryker disable next-line ArrayDeclaration: a list holding a string instead of a case matches no property, as the empty list does
  const cases = stoppedEarly(run) ? [] : run.cases ?? [];
  for (const p of properties) {
    // Stryker disable next-line StringLiteral: split() always gives at least one part, so the fallback is never taken
    const file = p.nodeId.split(NODE_ID_SEPARATOR)[0] ?? "";
    const outcome = evaluateProperty(cases, refOf(p.nodeId));
    if (outcome === "passed") continue;
    const collect = collectError(run.observation, cases, file);
    const why = run.result.timedOut
      ? "hit its time limit"
      : run.result.outputExceeded
      ? "flooded its output cap"
      : collect !== undefined
      ? `cannot be collected against the head's code (an API the contract relies on may have been removed):\n${collect}`
      : outcome === "not_collected"
      ? `was not collected (${
        run.cases === null
          ? run.reportProblem ?? "no report"
          : "not in the report"
      })`
      : `${outcome === "error" ? "errored" : outcome}${
        failureText(casesForNodeId(cases, p.nodeId))
      }`;
    const bad = casesForNodeId(cases, p.nodeId).find((c) =>
      c.outcome === "failed" || c.outcome === "error"
    );
    const text = bad === undefined
      ? ""
      : run.observation?.texts.get(p.nodeId) ?? bad.message ?? "";
    failures.push({
      property: p,
      outcome: collect !== undefined ? "not_collected" : outcome,
      ...(text === "" ? {} : { reason: failureReason(text) }),
      finding: finding(
        "property.oracle_failed",
        `The base's test of property "${p.id}" (${p.nodeId}) ${why}`,
        {
          path: p.path ?? file,
          line: p.line,
          ...(text === "" || reproduce === undefined ? {} : {
            failure: failureDetail(
              p.nodeId,
              run.observation?.tails.get(p.nodeId) ?? text,
              reproduce(p.nodeId),
            ),
          }),
        },
      ),
    });
  }
  return failures;
}

function collectError(
  observation: Observation | undefined,
  cases: readonly TestCaseResult[],
  file: string,
): string | undefined {
  const streamed = observation?.collectErrors.find((e) =>
    e.nodeId === file || e.nodeId === ""
  );
  const reported = cases.find((c) =>
    c.classname === "" && (c.name === file || c.name === dotted(file))
  );
  const text = streamed?.text ?? reported?.message;
  if (text === undefined) return undefined;
  return text.split("\n").map((l) => l.trimEnd()).filter((l) => l !== "")
    .slice(0, 12).join("\n");
}

function failureText(cases: readonly TestCaseResult[]): string {
  // Stryker disable next-line OptionalChaining: the outcome was read from these same cases, so one of them did not pass
  const message = cases.find((c) => c.outcome !== "passed")?.message;
  const [first = ""] = message?.split("\n", 1) ?? [];
  const line = first.trim();
  return line === "" ? "" : `: ${line}`;
}

function profileFindings(
  observation: Observation | undefined,
  workDir: string,
  options: JudgePropertyRunsOptions,
): Finding[] {
  const findings: Finding[] = [];
  const seen = new Set<string>();
  for (const load of observation?.profiles ?? []) {
    const prefix = `${workDir.replace(/\/+$/, "")}/`;
    if (!load.file.startsWith(prefix)) continue;
    const path = load.file.slice(prefix.length);
    if (options.isTestSide(path) || options.unchanged(path)) continue;
    if (seen.has(path)) continue;
    seen.add(path);
    findings.push(finding(
      "harness.hypothesis_reconfigured",
      `"${path}" loads the Hypothesis settings profile "${load.name}" while the tests run: code outside the test side decides how many examples every property tries`,
      { path },
    ));
  }
  return findings;
}

function refOf(nodeId: string): { module: string; name: string } {
  // Stryker disable next-line StringLiteral: split() always gives at least one part, so the default is never taken
  const [file = "", ...names] = nodeId.split(NODE_ID_SEPARATOR);
  return { module: dotted(file), name: names.join(".") };
}

function dotted(file: string): string {
  return file.replace(/\.py$/, "").replaceAll("/", ".");
}
