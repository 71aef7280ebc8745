/**
 * What the test stage runs, decided before anything runs: the command,
 * environment and limits of the full suite, of the properties on their
 * own, and of each frozen-seed replay.
 *
 * @module
 */
import type { DialectId, PlannedReplay, TestPlan } from "../layouts/dialect.ts";
import type { FreezeRef } from "../run/run_suite.ts";
import type { SandboxLimits } from "../sandbox/sandbox.ts";
import type { Settings } from "../settings/settings.ts";
import { testEnvironment } from "./test_environment.ts";

/** Each layout's plan, tagged with the layout. */
export type LayoutPlans = readonly { layout: DialectId; plan: TestPlan }[];

/** One pytest invocation. */
export interface PlannedRun {
  /**
   * argv (the base's test command plus seed and deselection flags); a run
   * that selects tests leaves out its positional test paths when it runs
   * (`selectionCommand`).
   */
  command: string[];
  /** Environment over the sandbox's minimal one. */
  env: Record<string, string>;
}

/** The full run of the suite on the fresh seed. */
export interface PlannedSuiteRun extends PlannedRun {
  /** Frozen tests with a rerun budget. */
  freezes: FreezeRef[];
  /** Tests whose failure on the fresh seed does not block. */
  nonBlocking: string[];
}

/** One frozen seed to replay. */
export interface PlannedReplayRun extends PlannedRun {
  /** The layout whose freeze it is. */
  layout: DialectId;
  /** The freeze. */
  replay: PlannedReplay;
  /** `CONTRACT_TRIALS` of the replay. */
  trials: number;
}

/** Every run of the test stage. */
export interface TestRuns {
  /** This run's fresh seed. */
  seed: number;
  /** `CONTRACT_TRIALS` of the fresh-seed runs (the largest any layout asks), or null. */
  trials: number | null;
  /** Sandbox limits of every run. */
  limits: Partial<SandboxLimits>;
  /** The full suite. */
  suite: PlannedSuiteRun;
  /** The registered properties on their own (the selection is added once they are located). */
  alone: PlannedRun;
  /** Frozen seeds, in plan order. */
  replays: PlannedReplayRun[];
  /** The name of each run's working copy. */
  workDirs: PlannedWorkDirs;
}

/**
 * The working copies' names, fixed before anything runs, so each run's
 * copy has the same name whether runs overlap or follow one another, and
 * in whatever order they finish.
 */
export interface PlannedWorkDirs {
  /** The full suite's. */
  suite: string;
  /** The properties' own run's. */
  alone: string;
  /** The base's oracle's. */
  oracle: string;
  /** Each frozen-seed replay's, in plan order. */
  replays: string[];
  /** The first number free for copies made on demand (`work-N`, N counting up from it). */
  firstFree: number;
}

/** Options for {@linkcode planTestRuns}. */
export interface PlanTestRunsOptions {
  /** This run's fresh seed. */
  seed: number;
  /** PATH inside the sandbox, when not the default. */
  sandboxPath?: string | undefined;
  /** Node ids the base's excuses deselect from every run. */
  excused?: readonly string[];
}

/**
 * Plan the test stage's runs from the base's settings and every layout's
 * plan.
 *
 * @example
 * ```ts
 * import { DEFAULT_SETTINGS } from "../settings/settings.ts";
 * import { planTestRuns } from "./plan_test_runs.ts";
 * const runs = planTestRuns(DEFAULT_SETTINGS, [], { seed: 7 });
 * if (!runs.suite.command.includes("--hypothesis-seed=7")) throw new Error();
 * ```
 */
export function planTestRuns(
  settings: Settings,
  plans: LayoutPlans,
  options: PlanTestRunsOptions,
): TestRuns {
  const { seed } = options;
  const seeds = settings.seeds;
  const pytest = settings.tests.runner === "pytest";
  const trialValues = plans.flatMap((p) =>
    p.plan.trials === undefined ? [] : [p.plan.trials]
  );
  const trials = trialValues.length === 0 ? null : Math.max(...trialValues);
  // [environment] reaches every run: suite, properties, oracle, replays.
  const environment = testEnvironment(settings, options);
  const command = environment.command;
  const seedArgs = (s: number) =>
    pytest && seeds.hypothesis_seed ? [`--hypothesis-seed=${s}`] : [];
  const seedEnv = (s: number, n: number | null): Record<string, string> => ({
    ...environment.env,
    [seeds.env_seed]: String(s),
    ...(n === null ? {} : { [seeds.env_trials]: String(n) }),
  });
  const replayCount = plans.reduce((n, p) => n + p.plan.replays.length, 0);
  const deselect = sortedUnique(plans.flatMap((p) => p.plan.deselect));
  // The base's excuses leave every run, whatever it selects; an excused
  // file or directory is not even collected, so a module that cannot be
  // imported on this runner is excused too.
  const excused = pytest
    ? sortedUnique(options.excused ?? []).flatMap((id) =>
      id.includes("::")
        ? ["--deselect", id]
        : [`--ignore=${id}`, "--deselect", id]
    )
    : [];
  return {
    seed,
    trials,
    limits: {
      timeoutMs: settings.tests.timeout_seconds * 1000,
      maxOutputBytes: settings.tests.max_output_mib * 1024 * 1024,
      maxProcesses: settings.tests.max_processes,
    },
    suite: {
      command: [
        ...command,
        ...seedArgs(seed),
        ...(pytest ? deselect.flatMap((id) => ["--deselect", id]) : []),
        ...excused,
      ],
      env: seedEnv(seed, trials),
      freezes: plans.flatMap((p) =>
        p.plan.reruns.map((r): FreezeRef => ({
          id: r.id,
          test: r.test,
          remainingReruns: r.remainingReruns,
        }))
      ),
      nonBlocking: plans.flatMap((p) => p.plan.nonBlocking),
    },
    alone: {
      command: [...command, ...seedArgs(seed), ...excused],
      env: seedEnv(seed, trials),
    },
    replays: plans.flatMap(({ layout, plan }) =>
      plan.replays.map((replay) => ({
        layout,
        replay,
        trials: seeds.replay_trials,
        command: [...command, ...seedArgs(replay.seed), ...excused],
        env: seedEnv(replay.seed, seeds.replay_trials),
      }))
    ),
    workDirs: {
      suite: SUITE_WORK_DIR,
      alone: ALONE_WORK_DIR,
      oracle: "work-3",
      replays: Array.from({ length: replayCount }, (_, i) => `work-${4 + i}`),
      firstFree: 4 + replayCount,
    },
  };
}

/** The full suite's working copy (fixed, so it can be exported before the plan). */
export const SUITE_WORK_DIR = "work-1";

/** The properties' own run's working copy. */
export const ALONE_WORK_DIR = "work-2";

/** Sorted, without repeats. */
export function sortedUnique(items: readonly string[]): string[] {
  return [...new Set(items)].sort((a, b) => a < b ? -1 : a > b ? 1 : 0);
}
