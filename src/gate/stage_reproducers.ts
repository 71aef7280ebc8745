/**
 * The commands that reproduce a failure of the test stage's runs in a
 * checkout of the head, made once the runs are planned.
 *
 * @module
 */
import type { Tree } from "../git/git.ts";
import {
  type Reproducer,
  reproducer,
  shellWord,
} from "../run/reproduce_command.ts";
import type { TestRuns } from "./plan_test_runs.ts";

/** One reproducer per kind of run whose failures the judges report. */
export interface StageReproducers {
  /** The registered properties' runs (the full suite's seed and environment, the properties' command). */
  alone: Reproducer;
  /** Each frozen-seed replay, in plan order. */
  replays: readonly Reproducer[];
  /**
   * The base's oracle: the base's version of the test's file checked out
   * over the head's, then the properties' command.
   */
  oracle: Reproducer;
}

/**
 * The reproducers of `runs`, whose commands leave out the positional test
 * paths `tree` (the head's) has, as every run that selects tests does.
 *
 * @example
 * ```ts
 * import { DEFAULT_SETTINGS } from "../settings/settings.ts";
 * import { planTestRuns } from "./plan_test_runs.ts";
 * import { stageReproducers } from "./stage_reproducers.ts";
 * const runs = planTestRuns(DEFAULT_SETTINGS, [], { seed: 7 });
 * const { alone, oracle } = await stageReproducers(runs, new Map(), "b".repeat(40));
 * if (!alone("t.py::t").endsWith("--hypothesis-seed=7 't.py::t'")) throw new Error();
 * if (!oracle("t.py::t").startsWith(`git checkout ${"b".repeat(40)} -- t.py && `)) throw new Error();
 * ```
 */
export async function stageReproducers(
  runs: TestRuns,
  tree: Tree,
  base: string,
): Promise<StageReproducers> {
  const exists = (path: string) =>
    Promise.resolve(
      path === "" || tree.has(path) ||
        [...tree.keys()].some((p) => p.startsWith(`${path}/`)),
    );
  const alone = await reproducer(runs.alone.command, runs.alone.env, {
    exists,
  });
  return {
    alone,
    oracle: (nodeId) =>
      `git checkout ${shellWord(base)} -- ${
        shellWord(nodeId.split("::")[0] ?? "")
      } && ${alone(nodeId)}`,
    replays: await Promise.all(
      runs.replays.map((r) => reproducer(r.command, r.env, { exists })),
    ),
  };
}
