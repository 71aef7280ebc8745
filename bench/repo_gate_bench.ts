// deno-lint-ignore-file no-console
/**
 * `deno task bench gate --repo DIR --base REV --head REV`: the whole
 * `pawl check` of a real repository's pull request against plain pytest of
 * the head tree, run with the test command and `[environment]` of the
 * base's `pawl.toml` (what pawl runs), in the same rounds. The target is
 * the same as on the demo: check <= 1.3 x pytest + 0.5 s, pytest timed
 * again in a checkout (its `__pycache__` kept), pawl with its bytecode
 * cache filled by an earlier judgement. Printed beside it, the floor:
 * `pawl diff` of the same pull request (the clone, the contracts and the
 * static rules, which come first) plus the suite as pawl runs it, plain
 * pytest with a fixed Hypothesis seed when the base's `[seeds]
 * hypothesis_seed` asks for one (a seeded run may cost less than an
 * unseeded one: Hypothesis then skips its example database), which no
 * judgement can beat. The repository is only read.
 *
 * @module
 */
import { DEFAULT_PYTEST_COMMAND, SANDBOX_PATH } from "../src/run/run_pytest.ts";
import { readSettings } from "../src/settings/read_settings.ts";
import type { Settings } from "../src/settings/settings.ts";
import { BENCH_NOW } from "./_judged_args.ts";
import { loadAverage, median } from "./_stats.ts";
import { exportTree, s, timedPawl } from "./gate_overhead_bench.ts";

/** Which pull request to judge. */
export interface RepoGateCase {
  /** The repository (read only). */
  repo: string;
  /** The base revision. */
  base: string;
  /** The head revision. */
  head: string;
}

/** Time `pawl check` of `target` against plain pytest, `runs` interleaved rounds. */
export async function repoGateBench(
  target: RepoGateCase,
  runs: number,
): Promise<void> {
  const settings = await baseSettings(target);
  const command = settings.tests.command ?? DEFAULT_PYTEST_COMMAND;
  const dir = await Deno.makeTempDir({ prefix: "pawl-bench-repo-" });
  try {
    const tree = await exportTree(target.repo, target.head, `${dir}/tree`);
    const env = pytestEnv(tree, settings);
    // A checkout run by hand before: pytest kept its bytecode there.
    await timedRun(command, tree, env);
    const args = [
      "--repo",
      target.repo,
      "--base",
      target.base,
      "--head",
      target.head,
      "--now",
      BENCH_NOW,
      "--quiet",
    ];
    const cache = { PAWL_BYTECODE_CACHE: `${dir}/bytecode` };
    // A decision either way is a judgement; only "could not decide" is not.
    const decided = [0, 1];
    await timedPawl(["check", ...args], cache, decided);
    // The suite as pawl runs it: with a fixed seed when the base asks.
    const seeded = settings.seeds.hypothesis_seed
      ? [...command, "--hypothesis-seed=0"]
      : command;
    const checks: number[] = [];
    const pytests: number[] = [];
    const suites: number[] = [];
    const diffs: number[] = [];
    for (let i = 0; i < runs; i++) {
      checks.push(await timedPawl(["check", ...args], cache, decided));
      pytests.push(await timedRun(command, tree, env));
      suites.push(await timedRun(seeded, tree, env));
      diffs.push(await timedPawl(["diff", ...args], {}, decided));
    }
    const check = median(checks);
    const pytest = median(pytests);
    const suite = median(suites);
    const diff = median(diffs);
    const budget = 1.3 * pytest + 0.5;
    const floor = diff + suite;
    console.log(
      `gate overhead on ${target.repo} (${target.base}..${target.head}), median of ${runs} interleaved rounds; ${navigator.hardwareConcurrency} cores, load ${loadAverage()}`,
    );
    console.log(
      `  pawl check ${s(check)}, plain pytest ${s(pytest)} (${
        command.join(" ")
      }): ${
        check <= budget ? "PASS" : "OVER"
      } (target ≤ 1.3 x pytest + 0.5 s = ${s(budget)}; ${
        (check / pytest).toFixed(2)
      }x)`,
    );
    console.log(
      `    floor: pawl diff ${
        s(diff)
      } (clone, contracts, static rules) + the suite as pawl runs it (plain pytest${
        seeded === command ? "" : " with a fixed Hypothesis seed"
      }) ${s(suite)} = ${s(floor)}; pawl check is ${s(check - floor)} above it${
        floor > budget ? "; the floor alone is over the target" : ""
      }`,
    );
  } finally {
    await Deno.remove(dir, { recursive: true }).catch(() => undefined);
  }
}

/** The base's `pawl.toml` (defaults when it has none). */
async function baseSettings(target: RepoGateCase): Promise<Settings> {
  const out = await new Deno.Command("git", {
    args: ["-C", target.repo, "show", `${target.base}:pawl.toml`],
    stdout: "piped",
    stderr: "null",
  }).output();
  return readSettings(out.success ? new TextDecoder().decode(out.stdout) : "");
}

/** What the sandbox gives the tests: a minimal environment, the settings' PYTHONPATH and variables. */
function pytestEnv(tree: string, settings: Settings): Record<string, string> {
  const { pythonpath, env } = settings.environment;
  return {
    ...env,
    PATH: SANDBOX_PATH,
    HOME: tree,
    ...(pythonpath.length === 0
      ? {}
      : { PYTHONPATH: pythonpath.map((p) => `${tree}/${p}`).join(":") }),
  };
}

/** Wall seconds of `argv` in `cwd`; exit 0 or 1 (tests failed) both count as a run. */
async function timedRun(
  argv: readonly string[],
  cwd: string,
  env: Record<string, string>,
): Promise<number> {
  const [program, ...rest] = argv as [string, ...string[]];
  const start = performance.now();
  const out = await new Deno.Command(program, {
    args: rest,
    cwd,
    clearEnv: true,
    env,
    stdout: "null",
    stderr: "piped",
  }).output();
  const seconds = (performance.now() - start) / 1000;
  if (out.code !== 0 && out.code !== 1) {
    throw new Error(
      `${argv.join(" ")} in ${cwd} exited ${out.code}: ${
        new TextDecoder().decode(out.stderr).slice(-2000)
      }`,
    );
  }
  return seconds;
}
