// A Stryker test runner that runs `deno test` on the tests chosen for each
// mutant's file.
//
// Stryker's command runner runs one command for every mutant and cannot see
// test files, so it can neither choose tests per file nor notice a changed
// test. This runner gets the choice from ./main.ts through the options
// (`pawlMutate.tests`): the unit tests one file at a time, nearest first, so
// the beside test that detects most mutants does so without loading the
// slower tests further out; the named end-to-end tests only when the unit
// tests leave the mutant alive. Every run is its own process
// group, killed whole when it passes its time limit, since end-to-end tests
// spawn pawl and pytest.

import {
  commonTokens,
  declareClassPlugin,
  PluginKind,
  tokens,
} from "@stryker-mutator/api/plugin";
import type { StrykerOptions } from "@stryker-mutator/api/core";
import {
  type DryRunResult,
  DryRunStatus,
  type MutantRunOptions,
  type MutantRunResult,
  MutantRunStatus,
  type TestRunner,
  type TestRunnerCapabilities,
  TestStatus,
} from "@stryker-mutator/api/test-runner";

/** What ./main.ts hands the runner, under the `pawlMutate` option. */
export interface RunnerPlan {
  /** The project root Stryker copied; mutant file names are absolute paths under it. */
  readonly root: string;
  /** Source file (relative) → the unit tests, then the end-to-end tests, to run. */
  readonly tests: Readonly<
    Record<
      string,
      { readonly unit: readonly string[]; readonly e2e: readonly string[] }
    >
  >;
  readonly unitTimeoutSeconds: number;
  readonly e2eTimeoutSeconds: number;
}

/** How one `deno test` run ended. */
export interface TestOutcome {
  readonly passed: boolean;
  readonly timedOut: boolean;
  readonly tail: string;
}

/** The process groups of the test runs under way, ended when the runner is disposed of. */
const running = new Set<number>();

function killGroup(pid: number): void {
  try {
    Deno.kill(-pid, "SIGKILL");
  } catch {
    // The group has already gone.
  }
}

/**
 * Runs `deno test` on `files` with the mutant switched on ("" for none), in
 * its own process group, in `cwd` (default: this process's).
 */
export async function denoTest(
  files: readonly string[],
  mutantId: string,
  timeoutSeconds: number,
  cwd?: string,
): Promise<TestOutcome> {
  const child = new Deno.Command("setsid", {
    ...(cwd === undefined ? {} : { cwd }),
    args: [
      "deno",
      "test",
      "--no-check",
      "--allow-all",
      "--quiet",
      "--fail-fast",
      ...files,
    ],
    env: { __STRYKER_ACTIVE_MUTANT__: mutantId, NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
    stdin: "null",
  }).spawn();
  running.add(child.pid);
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    killGroup(child.pid);
  }, timeoutSeconds * 1000);
  const output = await child.output();
  clearTimeout(timer);
  // Whatever the tests started and left behind goes with the run.
  killGroup(child.pid);
  running.delete(child.pid);
  const text = new TextDecoder().decode(output.stdout) +
    new TextDecoder().decode(output.stderr);
  return {
    passed: output.success && !timedOut,
    timedOut,
    tail: text.slice(-2000),
  };
}

/**
 * A mutant's time limit for tests that took `elapsedMs` without a mutant:
 * five times that, plus 20 s for a busy machine, and never above `ceiling`.
 */
export function timeLimitSeconds(elapsedMs: number, ceiling: number): number {
  return Math.min(ceiling, Math.ceil(5 * elapsedMs / 1000) + 20);
}

/**
 * What a mutant that ran past `seconds` gets, once its tests were timed again
 * without it: `remeasured` is the limit that run gives, undefined when it did
 * not pass within its ceiling. A longer limit than before is a busier
 * machine, and the mutant runs again under it; the same or a shorter one
 * makes the mutant a timeout; none leaves it undecided.
 */
export function afterTimeout(
  seconds: number,
  remeasured: number | undefined,
): "timeout" | "undecided" | number {
  if (remeasured === undefined) return "undecided";
  return remeasured > seconds ? remeasured : "timeout";
}

/**
 * The limit `files` get from a run without a mutant now, in `cwd`, or the
 * tail of that run's output when it did not pass within `ceiling`.
 */
export async function measureLimit(
  files: readonly string[],
  ceiling: number,
  cwd?: string,
): Promise<number | string> {
  const start = performance.now();
  const outcome = await denoTest(files, "", ceiling, cwd);
  return outcome.passed
    ? timeLimitSeconds(performance.now() - start, ceiling)
    : outcome.tail;
}

export class DenoTestRunner implements TestRunner {
  static inject = tokens(commonTokens.options);
  readonly #plan: RunnerPlan;
  readonly #limits = new Map<string, number>();

  constructor(options: StrykerOptions) {
    const plan =
      (options as StrykerOptions & { pawlMutate?: RunnerPlan }).pawlMutate;
    if (plan === undefined) {
      throw new Error("the deno test runner needs the pawlMutate option");
    }
    this.#plan = plan;
  }

  /**
   * A mutant's time limit for these tests: five times what they take without
   * a mutant, plus 20 s for a busy machine, and never above the ceiling. A
   * mutant that makes them loop is then stopped in seconds, not minutes. The
   * run without a mutant is made once per set of tests, in this worker.
   */
  async #limitFor(files: readonly string[], ceiling: number): Promise<number> {
    const known = this.#limits.get(files.join(" "));
    if (known !== undefined) return known;
    return (await this.#measure(files, ceiling)) ?? ceiling;
  }

  /**
   * Runs `files` without a mutant and keeps the limit that run gives; none
   * when they did not pass within the ceiling.
   */
  async #measure(
    files: readonly string[],
    ceiling: number,
  ): Promise<number | undefined> {
    const measured = await measureLimit(files, ceiling);
    const limit = typeof measured === "number" ? measured : undefined;
    this.#limits.set(files.join(" "), limit ?? ceiling);
    return limit;
  }

  /**
   * Runs a mutant that ran past its limit again, when the machine has become
   * busier since the limit was measured: the tests are timed again without a
   * mutant, and a longer limit than before gets the mutant one more run.
   * Only a mutant slower than its unchanged tests are at the same moment is a
   * timeout; when those tests no longer pass within their ceiling, the
   * mutant cannot be told apart from them and is left undecided.
   */
  async #afterTimeout(
    files: readonly string[],
    mutantId: string,
    seconds: number,
    ceiling: number,
  ): Promise<TestOutcome | MutantRunResult> {
    const next = afterTimeout(seconds, await this.#measure(files, ceiling));
    if (next === "undecided") {
      return {
        status: MutantRunStatus.Error,
        errorMessage: `undecided: ${
          files.join(" ")
        } without a mutant did not pass within ${ceiling} s either`,
      };
    }
    if (next === "timeout") {
      return {
        status: MutantRunStatus.Timeout,
        reason: `${files.join(" ")} ran past ${seconds} s`,
      };
    }
    const again = await denoTest(files, mutantId, next);
    return again.timedOut
      ? {
        status: MutantRunStatus.Timeout,
        reason: `${files.join(" ")} ran past ${next} s`,
      }
      : again;
  }

  dispose(): Promise<void> {
    for (const pid of running) killGroup(pid);
    running.clear();
    return Promise.resolve();
  }

  capabilities(): TestRunnerCapabilities {
    return { reloadEnvironment: true };
  }

  // ./main.ts has already run every chosen test once without a mutant; a
  // failure there stops the run before Stryker starts.
  dryRun(): Promise<DryRunResult> {
    return Promise.resolve({
      status: DryRunStatus.Complete,
      tests: [{
        id: "deno test",
        name: "deno test",
        status: TestStatus.Success,
        timeSpentMs: 0,
      }],
    });
  }

  async mutantRun(
    { activeMutant }: MutantRunOptions,
  ): Promise<MutantRunResult> {
    const file = activeMutant.fileName.startsWith(`${this.#plan.root}/`)
      ? activeMutant.fileName.slice(this.#plan.root.length + 1)
      : activeMutant.fileName;
    const chosen = this.#plan.tests[file];
    if (chosen === undefined || chosen.unit.length + chosen.e2e.length === 0) {
      return { status: MutantRunStatus.Survived, nrOfTests: 0 };
    }
    const stages = mutantStages(chosen, this.#plan);
    let ran = 0;
    for (const [files, ceiling] of stages) {
      ran += files.length;
      const seconds = await this.#limitFor(files, ceiling);
      const first = await denoTest(files, activeMutant.id, seconds);
      const outcome = first.timedOut
        ? await this.#afterTimeout(files, activeMutant.id, seconds, ceiling)
        : first;
      if ("status" in outcome) return outcome;
      if (!outcome.passed) {
        return {
          status: MutantRunStatus.Killed,
          killedBy: [files.join(" ")],
          failureMessage: outcome.tail,
          nrOfTests: ran,
        };
      }
    }
    return { status: MutantRunStatus.Survived, nrOfTests: ran };
  }
}

/**
 * The test runs one mutant may take, in order, each with its time ceiling:
 * every unit test file on its own, nearest first (a detection stops the
 * rest), then the end-to-end tests together.
 */
export function mutantStages(
  chosen: { readonly unit: readonly string[]; readonly e2e: readonly string[] },
  limits: Pick<RunnerPlan, "unitTimeoutSeconds" | "e2eTimeoutSeconds">,
): [readonly string[], number][] {
  const stages: [readonly string[], number][] = chosen.unit.map((
    file,
  ) => [[file], limits.unitTimeoutSeconds]);
  if (chosen.e2e.length > 0) {
    stages.push([chosen.e2e, limits.e2eTimeoutSeconds]);
  }
  return stages;
}

export const strykerPlugins = [
  declareClassPlugin(PluginKind.TestRunner, "deno", DenoTestRunner),
];
