// deno-lint-ignore-file no-console
/**
 * `deno task bench gate`: the whole `pawl check` (every run it needs: the
 * suite, the registered properties on their own, the base's oracle) against
 * plain pytest of the same head tree, on the demo's repository and on the
 * same repository with a generated suite of 1,000 more tests. The target:
 * check <= 1.3 x pytest + 0.5 s, pytest timed as a developer times it by
 * hand (again in a checkout, its `__pycache__` kept), and pawl with its
 * bytecode cache filled by an earlier judgement, as that checkout's was; a
 * repository's first judgement (the cache empty) is printed beside it,
 * against a fresh checkout's first run. Also printed, measured in the same run,
 * the floors the gate stands on: a cold `pawl version` (Deno's start-up
 * and pawl's own) and pytest's own start-up (`pytest --co` of one empty
 * test file), which every one of pawl's runs pays; and the floor of each
 * case: `pawl diff` of the same pull request (the clone, the contracts and
 * the static rules, which decide what the tests run and so come first)
 * plus the three runs (the suite, the properties alone, the base's
 * oracle, each timed as plain pytest) shared by the cores.
 *
 * ```sh
 * deno task bench gate [--runs 3] [--tests 1000]
 * deno task bench gate --repo DIR --base REV --head REV [--runs 3]
 * ```
 *
 * With `--repo`, a real repository's pull request instead (see
 * `repo_gate_bench.ts`).
 *
 * @module
 */
import { judgedArgs } from "./_judged_args.ts";
import { parseArgs } from "node:util";
import { buildSampleRepo } from "../src/demo/build_sample_repo.ts";
import { loadAverage, median } from "./_stats.ts";
import { timedWitnessedPytest } from "./_witnessed_pytest.ts";

const MAIN_TS = new URL("../main.ts", import.meta.url).pathname;
const PYTEST = ["python3", "-m", "pytest", "-q", "-p", "no:cacheprovider"];
/** Where the demo's registered properties live (what the runs beside the suite select). */
const PROPERTIES = "tests/properties";
const SANDBOX_PATH = "/usr/local/bin:/usr/bin:/bin";

/** Run the benchmark with `args`. */
export async function gateOverheadBench(
  args: readonly string[],
): Promise<void> {
  const { values } = parseArgs({
    args: [...args],
    options: {
      runs: { type: "string", default: "3" },
      tests: { type: "string", default: "1000" },
      repo: { type: "string" },
      base: { type: "string", default: "main" },
      head: { type: "string" },
    },
    strict: true,
  });
  const runs = Number(values.runs);
  const tests = Number(values.tests);
  if (!Number.isInteger(runs) || runs < 1 || !Number.isInteger(tests)) {
    throw new RangeError("--runs and --tests take positive whole numbers");
  }
  if (values.repo !== undefined || values.head !== undefined) {
    if (values.repo === undefined || values.head === undefined) {
      throw new RangeError(
        "--repo and --head go together (--base defaults to main)",
      );
    }
    const { repoGateBench } = await import("./repo_gate_bench.ts");
    const { repo, base, head } = values;
    return await repoGateBench({ repo, base, head }, runs);
  }
  const dir = await Deno.makeTempDir({ prefix: "pawl-bench-gate-" });
  try {
    const repo = await buildSampleRepo(`${dir}/repo`);
    await addGeneratedSuite(repo.dir, tests);
    const cases = [
      { label: "demo (agent/honest-fix)", head: "agent/honest-fix" },
      { label: `demo + ${tests} generated tests`, head: "generated" },
    ];
    const empty = `${dir}/empty`;
    await Deno.mkdir(empty);
    await Deno.writeTextFile(`${empty}/test_empty.py`, "");
    const trees = new Map<string, string>();
    // A checkout run by hand before: pytest kept its bytecode there.
    const warmTrees = new Map<string, string>();
    for (const c of cases) {
      trees.set(
        c.head,
        await exportTree(repo.dir, c.head, `${dir}/tree-${trees.size}`),
      );
      const warm = await exportTree(
        repo.dir,
        c.head,
        `${dir}/warm-${warmTrees.size}`,
      );
      await timedPytest(warm, [], true);
      warmTrees.set(c.head, warm);
    }
    const checks = new Map<string, number[]>(cases.map((c) => [c.head, []]));
    // The bytecode pawl compiles is kept for later judgements (as pytest
    // keeps __pycache__ in a checkout): timed with the bench's own cache,
    // filled once before the rounds, and with an empty one, as a
    // repository's first judgement.
    const cache = { PAWL_BYTECODE_CACHE: `${dir}/bytecode` };
    const firsts = new Map<string, number[]>(cases.map((c) => [c.head, []]));
    const pytests = new Map<string, number[]>(cases.map((c) => [c.head, []]));
    const warms = new Map<string, number[]>(cases.map((c) => [c.head, []]));
    const diffs = new Map<string, number[]>(cases.map((c) => [c.head, []]));
    const alone = new Map<string, number[]>(cases.map((c) => [c.head, []]));
    const witnessed = new Map<string, number[]>(
      cases.map((c) => [c.head, []]),
    );
    // CPU seconds (user and system, the process and what it waited for)
    // of pawl diff and of the suite and the properties as plain pytest:
    // the work the cores must do at the least, whatever the overlap.
    const cpu = new Map<
      string,
      { diff: number[]; suite: number[]; props: number[] }
    >(
      cases.map((c) => [c.head, { diff: [], suite: [], props: [] }]),
    );
    const versions: number[] = [];
    const startups: number[] = [];
    const target = (head: string) => judgedArgs(repo.dir, head);
    for (const c of cases) await timedPawl(["check", ...target(c.head)], cache);
    for (let i = 0; i < runs; i++) {
      versions.push(await timedPawl(["version"]));
      startups.push(await timedPytest(empty, ["--co"]));
      for (const [k, c] of cases.entries()) {
        checks.get(c.head)?.push(
          await timedPawl(["check", ...target(c.head)], cache),
        );
        firsts.get(c.head)?.push(
          await timedPawl(["check", ...target(c.head)], {
            PAWL_BYTECODE_CACHE: `${dir}/bytecode-${k}-${i}`,
          }),
        );
        pytests.get(c.head)?.push(
          await timedPytest(trees.get(c.head) as string, []),
        );
        warms.get(c.head)?.push(
          await timedPytest(warmTrees.get(c.head) as string, [], true),
        );
        diffs.get(c.head)?.push(await timedPawl(["diff", ...target(c.head)]));
        alone.get(c.head)?.push(
          await timedPytest(warmTrees.get(c.head) as string, [PROPERTIES]),
        );
        witnessed.get(c.head)?.push(
          await timedWitnessedPytest(warmTrees.get(c.head) as string, {
            command: PYTEST,
            path: SANDBOX_PATH,
          }),
        );
        const used = cpu.get(c.head)!;
        const warmTree = warmTrees.get(c.head) as string;
        used.diff.push(
          await cpuSeconds(
            [
              Deno.execPath(),
              "run",
              "--allow-all",
              MAIN_TS,
              "diff",
              ...target(c.head),
            ],
            Deno.cwd(),
            {},
          ),
        );
        used.suite.push(
          await cpuSeconds(PYTEST, warmTree, pytestEnv(warmTree)),
        );
        used.props.push(
          await cpuSeconds(
            [...PYTEST, PROPERTIES],
            warmTree,
            pytestEnv(warmTree),
          ),
        );
      }
    }
    console.log(
      `gate overhead, median of ${runs} interleaved rounds; ${navigator.hardwareConcurrency} cores, load ${loadAverage()}`,
    );
    console.log(
      `  floors: cold pawl version ${
        s(median(versions))
      }; pytest's own start-up (collecting one empty file) ${
        s(median(startups))
      }`,
    );
    // The suite beside the properties alone and the base's oracle: three
    // pytest start-ups shared by the cores at the least, after pawl's own.
    const cores = Math.max(1, navigator.hardwareConcurrency);
    const starts = Math.max(1, 3 / cores);
    const floor = median(versions) + starts * median(startups);
    console.log(
      `  floor of pawl check: pawl's start-up + 3 pytest start-ups over ${cores} cores (${
        starts.toFixed(1)
      } x) = ${s(floor)}`,
    );
    for (const c of cases) {
      const check = median(checks.get(c.head) ?? []);
      const first = median(firsts.get(c.head) ?? []);
      const pytest = median(pytests.get(c.head) ?? []);
      // The target is against what a developer times by hand: pytest again
      // in a checkout, its bytecode kept from the run before. pawl's runs
      // read the bytecode pawl compiled for an earlier judgement (kept in
      // its cache), as that run reads __pycache__; a repository's first
      // judgement compiles it, as a fresh checkout's first run does.
      const warm = median(warms.get(c.head) ?? []);
      const budget = 1.3 * warm + 0.5;
      // The static rules decide what the tests run, so they come first;
      // then the suite, the properties alone and the base's oracle (timed
      // as the properties alone) share the cores, none shorter than the suite.
      const diff = median(diffs.get(c.head) ?? []);
      const props = median(alone.get(c.head) ?? []);
      const runs = Math.max(warm, (warm + 2 * props) / cores);
      const caseFloor = diff + runs;
      const firstRuns = Math.max(pytest, (pytest + 2 * props) / cores);
      const used = cpu.get(c.head)!;
      const cpuFloor = (median(used.diff) + median(used.suite) +
        2 * median(used.props)) / cores;
      console.log(
        `  ${c.label}: pawl check ${s(check)}, plain pytest ${s(warm)}: ${
          check <= budget ? "PASS" : "OVER"
        } (target ≤ 1.3 x pytest + 0.5 s = ${s(budget)}; ${
          (check / warm).toFixed(2)
        }x${
          Math.max(floor, caseFloor, cpuFloor) > budget
            ? "; the floor alone is over the target"
            : ""
        })`,
      );
      console.log(
        `    plain pytest: ${
          s(warm)
        } run again in a checkout (__pycache__ kept: what a developer times by hand, what the target uses); ${
          s(pytest)
        } as a fresh checkout's first run (no bytecode)`,
      );
      console.log(
        `    first judgement (pawl's bytecode cache empty, so it compiles, as a fresh checkout's first run): pawl check ${
          s(first)
        }; against the first run's target ${s(1.3 * pytest + 0.5)}: ${
          first <= 1.3 * pytest + 0.5 ? "PASS" : "OVER"
        }; its floor ${s(diff + firstRuns)}`,
      );
      console.log(
        `    floor: pawl diff ${
          s(diff)
        } (clone, contracts, static rules) + the suite, the properties alone (${
          s(props)
        }) and the base's oracle over ${cores} cores ${s(runs)} = ${
          s(caseFloor)
        }; pawl check is ${s(check - caseFloor)} above it`,
      );
      console.log(
        `    CPU floor: pawl diff ${s(median(used.diff))} + the suite ${
          s(median(used.suite))
        } + the properties alone and the base's oracle 2 x ${
          s(median(used.props))
        } of CPU over ${cores} cores = ${s(cpuFloor)}; pawl check is ${
          s(check - cpuFloor)
        } above it`,
      );
      // What grows with the suite: pytest writing the JUnit report and
      // streaming to pawl's observer, read and parsed as pawl reads them.
      const witness = median(witnessed.get(c.head) ?? []);
      const perTest = median(versions) + witness;
      console.log(
        `    per-test floor: pytest with pawl's JUnit report and observer ${
          s(witness)
        } (${witness >= warm ? "+" : ""}${
          s(witness - warm)
        } over plain pytest); with pawl's start-up ${s(perTest)}${
          perTest > budget ? ", over the target by itself" : ""
        }`,
      );
    }
  } finally {
    await Deno.remove(dir, { recursive: true }).catch(() => undefined);
  }
}

/** A branch `generated` off agent/honest-fix with `count` more passing tests. */
async function addGeneratedSuite(repo: string, count: number): Promise<void> {
  const lines = ["import pytest", ""];
  for (let i = 0; i < count; i++) {
    lines.push(
      `def test_generated_${i}():`,
      `    assert ${i} + 1 == ${i + 1}`,
      "",
    );
  }
  const body = `${lines.join("\n")}\n`;
  const bytes = new TextEncoder().encode(body).length;
  const stream = [
    "commit refs/heads/generated",
    "committer bench <bench@example.invalid> 1700000000 +0000",
    "data 20",
    "add generated tests",
    "from refs/heads/agent/honest-fix",
    "M 100644 inline tests/test_generated.py",
    `data ${bytes}`,
    body,
    "",
  ].join("\n");
  const child = new Deno.Command("git", {
    args: ["-C", repo, "fast-import", "--quiet"],
    stdin: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(stream));
  await writer.close();
  if (!(await child.status).success) throw new Error("git fast-import failed");
}

/** Export `rev` of `repo` into the new directory `dest`. */
export async function exportTree(
  repo: string,
  rev: string,
  dest: string,
): Promise<string> {
  await Deno.mkdir(dest);
  const out = await new Deno.Command("sh", {
    args: [
      "-c",
      'git -C "$1" archive "$2" | tar -x -C "$3"',
      "sh",
      repo,
      rev,
      dest,
    ],
  }).output();
  if (!out.success) throw new Error(`exporting ${rev} failed`);
  return dest;
}

/** Wall seconds of `pawl ARGS`; an exit code outside `ok` (default: 0) is an error. */
export async function timedPawl(
  args: string[],
  env: Record<string, string> = {},
  ok: readonly number[] = [0],
): Promise<number> {
  const start = performance.now();
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-all", MAIN_TS, ...args],
    env,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const seconds = (performance.now() - start) / 1000;
  if (!ok.includes(out.code)) {
    throw new Error(
      `pawl ${args[0]} exited ${out.code}: ${
        new TextDecoder().decode(out.stderr)
      }`,
    );
  }
  return seconds;
}

/** Plain pytest in `cwd`, as the sandbox runs it (minimal environment); with `bytecode`, pytest writes and reuses `__pycache__` as by hand. */
async function timedPytest(
  cwd: string,
  extra: string[],
  bytecode = false,
): Promise<number> {
  const [program, ...args] = PYTEST as [string, ...string[]];
  const start = performance.now();
  const out = await new Deno.Command(program, {
    args: [...args, ...extra],
    cwd,
    clearEnv: true,
    env: {
      PATH: SANDBOX_PATH,
      HOME: cwd,
      ...(bytecode ? {} : { PYTHONDONTWRITEBYTECODE: "1" }),
    },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const seconds = (performance.now() - start) / 1000;
  // 5: nothing collected (the empty file), still a full start-up.
  if (out.code !== 0 && out.code !== 5) {
    throw new Error(
      `pytest in ${cwd} exited ${out.code}: ${
        new TextDecoder().decode(out.stdout).slice(-2000)
      }`,
    );
  }
  return seconds;
}

/** The environment plain pytest runs with (as the sandbox gives it), bytecode as by hand. */
function pytestEnv(cwd: string): Record<string, string> {
  return { PATH: SANDBOX_PATH, HOME: cwd };
}

/**
 * CPU seconds (user + system) `argv` took in `cwd`, its waited-for
 * children included, as the shell's `times` reports them.
 */
export async function cpuSeconds(
  argv: readonly string[],
  cwd: string,
  env: Record<string, string>,
): Promise<number> {
  const out = await new Deno.Command("bash", {
    args: [
      "-c",
      '"$@" >/dev/null 2>&1; code=$?; times; exit $code',
      "bash",
      ...argv,
    ],
    cwd,
    ...(Object.keys(env).length === 0 ? {} : { clearEnv: true, env }),
    stdout: "piped",
    stderr: "null",
  }).output();
  // 5: nothing collected, still a full start-up.
  if (out.code !== 0 && out.code !== 5) {
    throw new Error(`${argv.join(" ")} in ${cwd} exited ${out.code}`);
  }
  // The second line: the children's user and system time.
  const line = new TextDecoder().decode(out.stdout).trim().split("\n")[1] ??
    "";
  const parts = [...line.matchAll(/(\d+)m([\d.]+)s/g)];
  if (parts.length !== 2) throw new Error(`unexpected times output: ${line}`);
  return parts.reduce((sum, m) => sum + Number(m[1]) * 60 + Number(m[2]), 0);
}

/** Seconds as "1.23 s". */
export function s(seconds: number): string {
  return `${seconds.toFixed(2)} s`;
}
