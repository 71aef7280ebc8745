/**
 * The registered properties' own runs: the head's tests on the head's code,
 * and, when the head changed any test-side path, the base's oracle (the
 * base's test-side files) on the head's code. Both load pawl's observer;
 * their reports are cross-checked against its stream, the example counts
 * of the two runs are compared, the seed evidence of the head's run is
 * checked, and the oracle must collect, run and pass.
 *
 * @module
 */
import { type Finding, finding } from "../core/finding.ts";
import { crossCheckReport } from "./cross_check_report.ts";
import { evaluateProperty, type PropertyOutcome } from "./evaluate_property.ts";
import { type FailureReason, failureReason } from "./failure_reason.ts";
import { judgeExamples, type ObservedProperty } from "./judge_examples.ts";
import { judgeSeedUse, type LedgerEvidence } from "./judge_seed_use.ts";
import type { Observation } from "./observation.ts";
import type { TestCaseResult } from "./parse_junit.ts";
import { ledgerLineCount, readLedgerRows } from "./read_ledger_rows.ts";
import {
  type PytestRun,
  runPytest,
  type RunPytestOptions,
} from "./run_pytest.ts";
import type { Sandbox } from "../sandbox/sandbox.ts";
import { casesForNodeId } from "./test_id.ts";

/** Options for {@linkcode runPropertyRuns}. */
export interface PropertyRunsOptions {
  /** Registered properties that resolve at head. */
  properties: readonly ObservedProperty[];
  /** Those of `properties` whose test also exists at base: the oracle runs them (default: all). */
  oracleProperties?: readonly ObservedProperty[];
  /** A fresh export of the head tree, prepared for the sandbox. */
  headWorkDir: () => Promise<string>;
  /** A fresh export of the oracle tree, or null when it equals the head tree. */
  oracleWorkDir: (() => Promise<string>) | null;
  /** How each run is made (command with seed flags, env, limits, observer). */
  run: Omit<RunPytestOptions, "workDir" | "select">;
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
   * A second sandbox (its own uid) and report directory: the oracle then
   * runs there at the same time as the head's run, instead of after it.
   */
  oracleLane?: { sandbox: Sandbox; reportDir: string } | undefined;
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
 * Run the registered properties alone on the head tree and, when it
 * differs, on the oracle tree; judge what the observer saw.
 */
export async function runPropertyRuns(
  sandbox: Sandbox,
  options: PropertyRunsOptions,
): Promise<PropertyRunsResult> {
  const ids = (props: readonly ObservedProperty[]) =>
    [...new Set(props.map((p) => p.nodeId))].sort();
  const oracleProperties = options.oracleProperties ?? options.properties;
  const one = async (
    workDir: string,
    select: string[],
    lane?: { sandbox: Sandbox; reportDir: string },
  ) => {
    const before = await ledgerLineCount(workDir);
    const run = await runPytest(lane?.sandbox ?? sandbox, {
      ...options.run,
      ...(lane === undefined ? {} : { reportDir: lane.reportDir }),
      workDir,
      select,
    });
    return {
      run,
      workDir: await Deno.realPath(workDir),
      rows: await readLedgerRows(workDir, before),
    };
  };
  const oracleWorkDir = oracleProperties.length === 0
    ? null
    : options.oracleWorkDir;
  const lane = options.oracleLane;
  // With a second sandbox both run at once, each as soon as its own copy
  // is ready. Each copy has the name its run was given, so the names are
  // the same whether they overlap or not.
  const [head, oracle] = oracleWorkDir !== null && lane !== undefined
    ? await (async () => {
      const [h, o] = await Promise.allSettled([
        (async () =>
          await one(await options.headWorkDir(), ids(options.properties)))(),
        (async () =>
          await one(await oracleWorkDir(), ids(oracleProperties), lane))(),
      ]);
      if (h.status === "rejected") throw h.reason;
      if (o.status === "rejected") throw o.reason;
      return [h.value, o.value] as const;
    })()
    : [
      await one(await options.headWorkDir(), ids(options.properties)),
      oracleWorkDir === null
        ? null
        : await one(await oracleWorkDir(), ids(oracleProperties)),
    ];
  const findings: Finding[] = [];
  const oracleFailures = oracle === null
    ? []
    : oracleFindings(oracle.run, oracleProperties);
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
  const expectLedger = baseline !== undefined && oracle !== null &&
    oracle.rows.length > 0 &&
    judgeSeedUse(oracleProperties, {
        kind: "fresh",
        seed: options.seed,
        trials: options.trials,
        hypothesisSeeded: false,
        observation: baseline,
        ledger: oracle.rows,
        expectLedger: true,
      }).length === 0;
  if (
    baseline !== undefined && head.run.observation !== undefined &&
    !stoppedEarly(head.run)
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
): OracleFailure[] {
  const failures: OracleFailure[] = [];
  const cases = stoppedEarly(run) ? [] : run.cases ?? [];
  for (const p of properties) {
    const file = p.nodeId.split("::")[0] ?? "";
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
        { path: p.path ?? file, line: p.line },
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
  const bad = cases.find((c) => c.outcome !== "passed");
  const line = bad?.message?.split("\n", 1)[0]?.trim();
  return line === undefined || line === "" ? "" : `: ${line}`;
}

function profileFindings(
  observation: Observation | undefined,
  workDir: string,
  options: PropertyRunsOptions,
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
  const [file = "", ...names] = nodeId.split("::");
  return { module: dotted(file), name: names.join(".") };
}

function dotted(file: string): string {
  return file.replace(/\.py$/, "").replaceAll("/", ".");
}
