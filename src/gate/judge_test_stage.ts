/**
 * The test stage's judges: pure functions from the plan's results to what
 * they mean. Which property runs count (the calm ones, when the runs
 * beside the suite were repeated), whether they must be repeated, which
 * failures to repeat at the base, and the stage's findings, report and
 * ledger, with every failure the base shares attributed to it (exit 2,
 * `BaseProblemError`, when nothing else blocks).
 *
 * @module
 */
import { callEvidence, judgeCallReplay } from "./judge_call_replay.ts";
import { type Finding, finding } from "../core/finding.ts";
import { judgeChangedLines } from "../coverage/judge_changed_lines.ts";
import type { ChangedLines } from "../coverage/read_changed_lines.ts";
import type { ReplayRecord } from "../core/verdict.ts";
import type { AssertionRewrite } from "../contract/check_registered_tests.ts";
import { BaseProblemError } from "../run/check_base_collection.ts";
import { failureReason } from "../run/failure_reason.ts";
import { judgeCodeSide } from "../run/judge_code_side.ts";
import {
  judgePropertyRuns,
  type PropertyRunsResult,
  replaySeedFindings,
} from "../run/judge_property_runs.ts";
import type { SuiteOutcome } from "../run/run_suite.ts";
import { casesForNodeId } from "../run/test_id.ts";
import type { LedgerRow } from "../seeds/ledger_row.ts";
import type { Settings } from "../settings/settings.ts";
import { attributeFindings } from "./attribute_findings.ts";
import { environmentRecord } from "./environment_record.ts";
import { withImportPathHints } from "./import_path_hint.ts";
import { judgeProperties } from "./judge_properties.ts";
import { judgeReplay } from "./judge_replay.ts";
import type { LocatedProperty } from "./locate_properties.ts";
import { needsCalmRerun } from "./needs_calm_rerun.ts";
import type { OracleTreeOf } from "./oracle_tree.ts";
import type { TestRuns } from "./plan_test_runs.ts";
import type { Commits } from "./read_commits.ts";
import { settleRewrites } from "./settle_rewrites.ts";
import type { StageReproducers } from "./stage_reproducers.ts";
import { type HeadFailure, sharedWithBase } from "./shared_with_base.ts";
import { pytestOf, type StageResults, suiteOf } from "./stage_plan.ts";
import type { TestStageResult } from "./test_stage_result.ts";

/** What the judges read besides the results. */
export interface StageJudgeInput {
  commits: Commits;
  settings: Settings;
  /** The planned commands, seed and trials. */
  runs: TestRuns;
  /** Every registered property, located at head. */
  located: readonly LocatedProperty[];
  /** Those that resolve (with node ids). */
  resolved: readonly LocatedProperty[];
  /** Of those, the ones the base's oracle runs. */
  atBase: readonly LocatedProperty[];
  /** The oracle tree's test side. */
  oracle: Pick<OracleTreeOf, "isTestSide">;
  /** The changed lines of the code under test the suite's run traced (none without pawl's observer). */
  changed?: ChangedLines;
  /** Rewritten assertions the kill sets may settle. */
  rewrites: readonly AssertionRewrite[];
  /** The clock as Unix seconds (the ledger's `ts`). */
  ts: number;
  /** pawl's job directory, named `<work>` in failure texts. */
  workRoot: string;
  /** The commands that reproduce a failure in a checkout: failures carry what the test showed only with them. */
  reproduce?: StageReproducers;
}

/**
 * The property runs that count (the calm ones, when they were made),
 * judged; undefined when none ran.
 */
export function propertyRunsOf(
  results: StageResults,
  input: StageJudgeInput,
): PropertyRunsResult | undefined {
  const calm = results.has("calm-alone");
  return judgedRuns(results, input, calm ? "calm-" : "");
}

/** The property runs `prefix`-alone and `prefix`-oracle, judged. */
function judgedRuns(
  results: StageResults,
  input: StageJudgeInput,
  prefix: "" | "calm-",
): PropertyRunsResult | undefined {
  const head = pytestOf(results, `${prefix}alone`);
  if (head === undefined) return undefined;
  const oracle = pytestOf(results, `${prefix}oracle`);
  const observed = (p: LocatedProperty) => ({
    id: p.id,
    nodeId: p.nodeId as string,
    path: p.file,
    line: p.line,
  });
  const { runs, commits } = input;
  return judgePropertyRuns(head, oracle ?? null, {
    properties: input.resolved.map(observed),
    oracleProperties: input.atBase.map(observed),
    seed: runs.seed,
    trials: runs.trials,
    hypothesisSeeded: runs.alone.command.some((a) =>
      a.startsWith("--hypothesis-seed=")
    ),
    isTestSide: input.oracle.isTestSide,
    unchanged: (path) =>
      commits.baseTree.get(path)?.oid === commits.headTree.get(path)?.oid,
    ...(input.reproduce === undefined
      ? {}
      : { oracleReproduce: input.reproduce.oracle }),
  });
}

/**
 * Whether the property runs made beside the suite, in spare lanes, must
 * be made again alone at normal priority (`needs_calm_rerun.ts`).
 */
export function calmRerunNeeded(
  results: StageResults,
  input: StageJudgeInput,
): boolean {
  const alone = pytestOf(results, "alone");
  const lane = alone?.lane === true || pytestOf(results, "oracle")?.lane;
  // The runs beside the suite, whatever was made since.
  const beside = judgedRuns(results, input, "");
  const suite = suiteOf(results);
  return lane === true && beside !== undefined && suite !== undefined &&
    needsCalmRerun({
      beside,
      nodeIds: input.resolved.map((p) => p.nodeId as string),
      suite: suite.cases,
      suiteTexts: suite.texts,
    });
}

/** The registered properties judged from the suite and the runs that count. */
export function judgedProperties(
  results: StageResults,
  input: StageJudgeInput,
): ReturnType<typeof judgeProperties> {
  const suite = suiteOf(results) as SuiteOutcome;
  const alone = propertyRunsOf(results, input)?.head ?? null;
  const collectErrors = new Map<string, string>();
  // The suite's own (scrubbed) collection-error findings carry the traceback.
  for (const f of suite.findings) {
    if (f.rule !== "tests.collection_error" || f.path === undefined) continue;
    const lines = f.message.split("\n").slice(1);
    if (lines.length > 0) collectErrors.set(f.path, lines.join("\n"));
  }
  return judgeProperties(input.located, {
    suite: suite.cases,
    alone,
    collectErrors,
    suiteTexts: suite.texts,
    aloneTexts: scrubTexts(alone?.observation?.texts, input.workRoot),
    suiteTails: suite.tails,
    aloneTails: scrubTexts(alone?.observation?.tails, input.workRoot),
    // A health check of the full run counts only if the calm run fails too.
    calmAlone: results.has("calm-alone") &&
      pytestOf(results, "alone")?.lane === true,
    ...stopOf(suite),
  }, {
    seed: input.runs.seed,
    trials: input.runs.trials,
    ts: input.ts,
    nonBlocking: new Set(input.runs.suite.nonBlocking),
    ...(input.reproduce === undefined
      ? {}
      : { reproduce: input.reproduce.alone }),
  });
}

/** The rule of the finding that says the full run was stopped, if it was. */
function stopOf(
  suite: SuiteOutcome,
): { suiteStopped?: "tests.timeout" | "tests.output_exceeded" } {
  const stop = suite.findings.find((f) =>
    f.rule === "tests.timeout" || f.rule === "tests.output_exceeded"
  );
  return stop === undefined
    ? {}
    : { suiteStopped: stop.rule as "tests.timeout" | "tests.output_exceeded" };
}

/**
 * Every failure the head shows that the base can be asked about: the
 * suite's (whose file the base has), the registered properties' whose
 * test the base has, and the base's oracle's (the base's own tests).
 */
export function headFailures(
  results: StageResults,
  input: StageJudgeInput,
): HeadFailure[] {
  const suite = suiteOf(results);
  if (suite === undefined) return [];
  const judged = judgedProperties(results, input);
  return [
    ...testFailures(suite, (file) => input.commits.baseTree.has(file)),
    ...judged.failures.flatMap((f) =>
      input.atBase.includes(f.property)
        ? [{ ...f, nodeId: f.property.nodeId as string }]
        : []
    ),
    ...(propertyRunsOf(results, input)?.oracleFailures ?? []).map((f) => ({
      ...f,
      nodeId: f.property.nodeId,
    })),
  ];
}

/**
 * The test stage's findings, report and ledger from the plan's results.
 * Throws `BaseProblemError` when the base shares a failure and nothing
 * else blocks.
 */
export function judgeTestStage(
  results: StageResults,
  input: StageJudgeInput,
): Omit<TestStageResult, "isolation"> {
  const { commits, runs } = input;
  const suite = suiteOf(results) as SuiteOutcome;
  const props = propertyRunsOf(results, input);
  const mutation = results.get("mutation");
  const strength = mutation?.kind === "mutation" ? mutation.strength : null;
  const judged = judgedProperties(results, input);
  const oracleFailures = props?.oracleFailures ?? [];
  const replays = judgeReplays(results, input, props);
  const changedCode = judgeChangedLines({
    changed: input.changed ?? new Map(),
    observed: suite.observation?.lines,
    ...(strength === null ? {} : { mutants: strength.run }),
    settings: input.settings.coverage,
  });
  const evidence = callEvidence(results);
  const calls = evidence === undefined
    ? undefined
    : judgeCallReplay(evidence, { base: commits.base });
  const findings = [
    ...suite.findings,
    // The observer loads at the base: what kept it out is the pull request's.
    ...(results.has("observer-at-base") && !suite.reported
      ? [observerKeptOut()]
      : []),
    ...judged.findings,
    ...props?.findings ?? [],
    ...codeSideFindings(results, input),
    ...strength?.findings ?? [],
    ...replays.findings,
    ...changedCode.findings,
    ...calls?.findings ?? [],
  ];
  const shared = sharedAtBase(results, input);
  const attributed = attributeFindings(findings, {
    base: commits.base,
    shared,
    properties: [...judged.failures, ...oracleFailures],
  });
  const keptKills = strength?.keptKills;
  const rewritten = settleRewrites(input.rewrites, { keptKills });
  if (
    shared.size > 0 && ![...attributed, ...rewritten].some((f) => f.blocking)
  ) {
    const [first] = shared;
    throw new BaseProblemError(
      commits.base,
      [...shared.keys()],
      first?.[1] ?? "",
      // A registered property may not be excused, only fixed.
      judged.failures.some((f) => shared.has(f.property.nodeId ?? "")) ||
        oracleFailures.length > 0
        ? "property"
        : "pass",
    );
  }
  return {
    findings: withImportPathHints(attributed, {
      tree: commits.headTree,
      pythonpath: input.settings.environment.pythonpath,
    }),
    report: {
      environment: environmentRecord(input.settings),
      summary: suite.summary,
      properties: judged.properties,
      reruns: suite.reruns,
      seeds: {
        fresh: runs.seed,
        trials: runs.trials,
        replays: replays.records,
      },
      ...(strength === null ? {} : { mutation: strength.report }),
      ...(changedCode.report === undefined
        ? {}
        : { changedCode: changedCode.report }),
    },
    ledger: [...judged.ledger, ...replays.ledger],
    ...(strength === null ? {} : { mutationRun: strength.run }),
    ...(keptKills === undefined ? {} : { keptKills }),
    ...(calls?.exercised === undefined ? {} : { exercised: calls.exercised }),
  };
}

/**
 * The base's tests on the base's code (`code-at-base`, made when the code
 * under test changed) against the base's tests on the head's code: the
 * oracle's run, or the properties' own when the test side is the base's
 * (the calm ones, when they were made).
 */
function codeSideFindings(
  results: StageResults,
  input: StageJudgeInput,
): Finding[] {
  const base = pytestOf(results, "code-at-base");
  if (base === undefined) return [];
  const prefix = results.has("calm-alone") ? "calm-" : "";
  const head = pytestOf(results, `${prefix}oracle`) ??
    pytestOf(results, `${prefix}alone`);
  if (head === undefined) return [];
  return judgeCodeSide(base, head, {
    properties: input.atBase.map((p) => ({
      id: p.id,
      nodeId: p.nodeId as string,
      path: p.file,
      line: p.line,
    })),
    seed: input.runs.seed,
    isTestSide: input.oracle.isTestSide,
  });
}

/** The failures the base shares, with what it said (none when they were not repeated there). */
function sharedAtBase(
  results: StageResults,
  input: StageJudgeInput,
): Map<string, string> {
  const atBase = pytestOf(results, "failures-at-base");
  if (atBase === undefined) return new Map();
  return sharedWithBase(headFailures(results, input), {
    cases: atBase.run.cases,
    texts: atBase.run.observation?.texts,
    stopped: atBase.run.result.timedOut || atBase.run.result.outputExceeded,
  });
}

/** Every unexpired frozen seed must hold. */
function judgeReplays(
  results: StageResults,
  input: StageJudgeInput,
  props: PropertyRunsResult | undefined,
): { findings: Finding[]; records: ReplayRecord[]; ledger: LedgerRow[] } {
  const findings: Finding[] = [];
  const records: ReplayRecord[] = [];
  const ledger: LedgerRow[] = [];
  for (const [i, run] of input.runs.replays.entries()) {
    const made = pytestOf(results, `replay-${i + 1}`);
    if (made === undefined) continue;
    const reproduce = input.reproduce?.replays[i];
    const replay = judgeReplay(made.run, run.replay, {
      layout: run.layout,
      trials: run.trials,
      ts: input.ts,
      ...(reproduce === undefined ? {} : {
        reproduce: reproduce(run.replay.test),
        texts: scrubTexts(
          new Map([
            ...made.run.observation?.texts ?? [],
            ...made.run.observation?.tails ?? [],
          ]),
          input.workRoot,
        ),
      }),
    });
    findings.push(
      ...replaySeedFindings(made.run, made.rows, {
        id: run.replay.id,
        nodeId: run.replay.test,
        seed: run.replay.seed,
        trials: run.trials,
        hypothesisSeeded: run.command.some((a) =>
          a.startsWith("--hypothesis-seed=")
        ),
        expectLedger: props?.expectLedger ?? false,
        baseline: props?.seedBaseline ?? null,
      }),
    );
    records.push(replay.record);
    ledger.push(replay.row);
    if (replay.finding !== undefined) findings.push(replay.finding);
  }
  records.sort((a, b) =>
    a.freeze < b.freeze ? -1 : a.freeze > b.freeze ? 1 : 0
  );
  return { findings, records, ledger };
}

/**
 * The suite's failed and errored tests (none under a freeze) whose file
 * the base has, with their reasons, to be run again at the base.
 */
function testFailures(
  suite: SuiteOutcome,
  atBase: (file: string) => boolean,
): HeadFailure[] {
  return (suite.unfrozenFailures ?? []).flatMap((nodeId) => {
    if (!atBase(nodeId.split("::")[0] as string)) return [];
    const bad = casesForNodeId(suite.cases, nodeId).find((c) =>
      c.outcome === "failed" || c.outcome === "error"
    );
    if (bad === undefined) return [];
    const text = suite.texts?.get(nodeId) ?? bad.message ?? "";
    return [{
      nodeId,
      outcome: bad.outcome,
      ...(text === "" ? {} : { reason: failureReason(text) }),
    }];
  });
}

/** Failure texts with pawl's job directory named `<work>`, as verdicts hold no temporary paths. */
function scrubTexts(
  texts: ReadonlyMap<string, string> | undefined,
  root: string,
): ReadonlyMap<string, string> | undefined {
  if (texts === undefined) return undefined;
  return new Map(
    [...texts].map(([id, t]) => [id, t.replaceAll(root, "<work>")]),
  );
}

/**
 * The suite's run left no report and never reached pawl's observer,
 * although the same command loads it on the base's tree.
 */
function observerKeptOut(): Finding {
  return finding(
    "harness.observer_missing",
    "pawl's observer plugin did not load in the full suite's run, although the base's test command loads it on the base's tree: a change of the pull request keeps it out before any test runs (a sitecustomize or usercustomize module, a .pth file, pytest configuration, or code that edits sys.path or the environment at start-up)",
  );
}
