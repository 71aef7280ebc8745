/**
 * The test stage's plan: every run it may make, as data, decided before
 * anything runs. A run says which tree its working copy holds (and the
 * copy's name, when it is made ahead), what it selects, its command and
 * environment (seed included), whether it may start at once in a spare
 * lane at background priority, which runs' results it waits for, and the
 * condition over those results under which it runs (or its result counts).
 * A run whose need depends on earlier results (a repeat at the base, the
 * calm rerun) is an entry like any other, with its `when`; the scheduler
 * (`run_scheduler.ts`) decides when each one starts, the judges
 * (`judge_test_stage.ts`) what the results mean.
 *
 * @module
 */
import type { SuiteOutcome } from "../run/run_suite.ts";
import type { PytestRun } from "../run/run_pytest.ts";
import type { LedgerEvidence } from "../run/judge_seed_use.ts";
import type { OracleStrengthResult } from "../mutation/oracle_strength.ts";
import type { PlannedRun } from "./plan_test_runs.ts";
import type { Recording, ReplayStream } from "../run/calls/call_streams.ts";

/** A run's id in the plan (`suite`, `alone`, `replay-1`...). */
export type RunId = string;

/** What executes a run (`stage_runners.ts` has one runner for each). */
export type StageRunKind =
  | "suite"
  | "pytest"
  | "observer-at-base"
  | "suite-at-base"
  | "collection-at-base"
  | "mutation"
  | "record-calls"
  | "replay-calls";

/** Which tree a run's working copy holds. */
export type CopyTree = "head" | "oracle" | "base";

/** One run of the test stage. */
export interface StageRun {
  /** Unique in the plan. */
  id: RunId;
  /** What executes it. */
  kind: StageRunKind;
  /** Which tree its working copy holds. */
  tree: CopyTree;
  /**
   * Its copy's planned name: such a copy is exported before the run
   * starts (one run ahead, or at once with `ahead`). Without one, a copy
   * is made when the run starts (its name the next free one).
   */
  copy?: string;
  /** Export the planned copy as soon as the plan is scheduled. */
  ahead?: boolean;
  /** The command and environment (with the seed) it runs. */
  run: PlannedRun;
  /** Node ids (or files) it selects, fixed or read from earlier results. */
  select?: readonly string[] | ((results: StageResults) => readonly string[]);
  /** Whether it writes seed-ledger rows that are read back after it. */
  ledger?: boolean;
  /** Whether pawl's observer counts how often each of its asserts passed. */
  countAsserts?: boolean;
  /**
   * It may start at once in a spare lane (a sandbox with its own uid, at
   * background priority), beside the runs of the first sandbox, since
   * nothing it runs with depends on them; its result then counts only
   * when `when` holds once the runs of `after` ended.
   */
  spare?: boolean;
  /**
   * Runs whose results it waits for, each earlier in the plan: the only
   * results its condition, selection, progress line and runner see.
   */
  after: readonly RunId[];
  /** Whether it runs (or its result counts), given the earlier results. */
  when?: (results: StageResults) => boolean;
  /** The progress line when it starts. */
  step?: string | ((results: StageResults) => string);
  /**
   * What progress calls its tests when it counts them as they run
   * (`suite`, `properties`...); a run without one is not counted.
   */
  tally?: string;
}

/** The plan: runs in the order the first sandbox makes them. */
export type StagePlan = readonly StageRun[];

/** What one run produced, by kind. */
export type RunOutcome =
  | { kind: "suite"; suite: SuiteOutcome }
  | {
    kind: "pytest";
    run: PytestRun;
    /** The copy's real path. */
    workDir: string;
    /** Seed-ledger rows it appended (empty unless the plan reads them). */
    rows: readonly LedgerEvidence[];
  }
  | { kind: "checked" }
  | { kind: "mutation"; strength: OracleStrengthResult | null }
  | { kind: "calls-recorded"; recording: Recording | null }
  | {
    kind: "calls-replayed";
    /** The sequence, then again, in one clean interpreter. */
    passes: ReplayStream;
    /** Each call twice in a row, in another (the head's replay only). */
    twice?: ReplayStream;
  };

/** A run's outcome and where it ran. */
export type StageResult = RunOutcome & {
  /** Whether it ran in a spare lane, beside other runs. */
  lane: boolean;
};

/** The results so far, by run id; a run that did not run (or whose result did not count) is absent. */
export type StageResults = ReadonlyMap<RunId, StageResult>;

/** The suite's outcome, once it ran. */
export function suiteOf(results: StageResults): SuiteOutcome | undefined {
  const result = results.get("suite");
  return result?.kind === "suite" ? result.suite : undefined;
}

/** A pytest run's result, when it ran. */
export function pytestOf(
  results: StageResults,
  id: RunId,
): Extract<StageResult, { kind: "pytest" }> | undefined {
  const result = results.get(id);
  return result?.kind === "pytest" ? result : undefined;
}

/** What a run selects, given the results so far. */
export function selectionOf(
  run: StageRun,
  results: StageResults,
): readonly string[] {
  const select = run.select ?? [];
  return typeof select === "function" ? select(results) : select;
}
