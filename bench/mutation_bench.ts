// deno-lint-ignore-file no-console
/**
 * `deno task bench mutation`: what the oracle-strength rule costs with
 * pawl's defaults, on the demo project (the invoice parser and its
 * Hypothesis properties, and one honest pull request that raises a
 * property's example count) or, with `--repo DIR --base REV --head REV`,
 * on a copy of your own repository and pull request (the repository is
 * cloned, never written). With `--tests N`, the demo's base also has a
 * generated suite of N more tests (the typical larger suite: the
 * mutants run only the properties, the check runs everything).
 *
 * On the copy, two bench branches of the base differ only in
 * `pawl.toml`: one without a `[mutation]` table (pawl's defaults, or the
 * `--max-mutants` and `--budget` given), one with `[mutation] enabled =
 * false`; the pull request's changes (but to `pawl.toml`) go on top of
 * each. Then, each `pawl check` with a temp directory of its own:
 *
 * 1. with mutation and an empty runner cache (the cold first judgement);
 * 2. another pull request on the base, `bench/on-warm`: a comment added
 *    to the first test module the pull request changes, whose base runs
 *    fill a cache every pull request on the base shares (the warm base
 *    cache; with no test module changed, no mutant runs and nothing is
 *    warmed);
 * 3. plain pytest of the properties the mutants run, once, outside the
 *    sandbox: the floor, the property's own run time per mutant;
 * 4. `--runs` pairs, in alternating order: the check without mutation,
 *    and the check with it on a copy of the warm base cache.
 *
 * It prints the medians, the paired ratio against the target (at most
 * twice the check without mutation, warm base cache included), mutants
 * per second against the floor, how many outcomes came from the cache,
 * and whether the cold and the warm verdict are byte for byte the same.
 *
 * ```sh
 * deno task bench mutation [--runs 3] [--max-mutants N] [--budget S] \
 *     [--tests N | --repo DIR --base REV --head REV]
 * ```
 *
 * @module
 */
import { parseArgs } from "node:util";
import { buildSampleRepo } from "../src/demo/build_sample_repo.ts";
import { commitAll, FIXED_GIT_ENV } from "../src/demo/fixed_git.ts";
import { DEFAULT_PYTEST_COMMAND } from "../src/run/run_pytest.ts";
import { readSettings } from "../src/settings/read_settings.ts";
import { loadAverage, median } from "./_stats.ts";

const NOW = "2026-11-30T12:00:00Z";
const MAIN_TS = new URL("../main.ts", import.meta.url).pathname;
const CODEC = "tests/properties/test_codec.py";

/** The check with mutation may take at most this many times the check without it. */
const TARGET_RATIO = 2;

interface BenchOptions {
  runs: number;
  /** A `[mutation]` table for the bench branch with mutation ("" for the defaults). */
  table: string;
  repo: string | undefined;
  /** Generated tests added to the demo's base. */
  tests: number;
  base: string;
  head: string | undefined;
}

/** Run the benchmark with `args`. */
export async function mutationBench(args: readonly string[]): Promise<void> {
  const options = benchOptions(args);
  const dir = await Deno.makeTempDir({ prefix: "pawl-bench-mutation-" });
  // Temp directories of the checks: short paths (the observer's socket
  // lives under them), each check's its own.
  const tmps = await Deno.makeTempDir({ prefix: "pm-" });
  try {
    const repo = `${dir}/repo`;
    const base = await prepareRepo(repo, dir, options);
    console.log(
      `mutation: ${
        options.repo ??
          `demo project${
            options.tests > 0 ? ` with ${options.tests} generated tests` : ""
          }`
      }, [mutation] ${
        options.table === "" ? "defaults" : options.table.replace(/\n/g, " ")
      }, ${options.runs} paired runs; load ${loadAverage()}`,
    );
    let n = 0;
    const tmp = async () => {
      const t = `${tmps}/${n++}`;
      await Deno.mkdir(t, { mode: 0o755 });
      await Deno.chmod(t, 0o755);
      return t;
    };
    const report = `${dir}/mutation-report.json`;
    const cold = await timed(repo, "bench/on", "bench/on-pr", await tmp(), [
      "--mutation-report",
      report,
    ]);
    const warmed = await tmp();
    await timed(repo, "bench/on", "bench/on-warm", warmed);
    const floor = await floorSeconds(repo, dir, base, report);
    const on: Run[] = [];
    const off: Run[] = [];
    for (let i = 0; i < options.runs; i++) {
      const offRun = () => timed(repo, "bench/off", "bench/off-pr", tmp());
      const onRun = async () => {
        const t = await tmp();
        await copyCache(warmed, t);
        return timed(repo, "bench/on", "bench/on-pr", t);
      };
      if (i % 2 === 0) {
        off.push(await offRun());
        on.push(await onRun());
      } else {
        on.push(await onRun());
        off.push(await offRun());
      }
    }
    printResults({ cold, on, off, floor });
  } finally {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
    await Deno.remove(tmps, { recursive: true }).catch(() => {});
  }
}

function benchOptions(args: readonly string[]): BenchOptions {
  const { values } = parseArgs({
    args: [...args],
    options: {
      runs: { type: "string", default: "3" },
      "max-mutants": { type: "string" },
      budget: { type: "string" },
      repo: { type: "string" },
      tests: { type: "string", default: "0" },
      base: { type: "string", default: "main" },
      head: { type: "string" },
    },
    strict: true,
  });
  const whole = (flag: string, text: string | undefined) => {
    if (text === undefined) return undefined;
    const n = Number(text);
    if (!Number.isInteger(n) || n <= 0) {
      throw new RangeError(`--${flag} takes a positive whole number`);
    }
    return n;
  };
  const runs = whole("runs", values.runs) as number;
  const max = whole("max-mutants", values["max-mutants"]);
  const budget = whole("budget", values.budget);
  const tests = values.tests === "0" ? 0 : whole("tests", values.tests)!;
  if (values.repo !== undefined && tests > 0) {
    throw new RangeError("--tests adds to the demo project, not to --repo");
  }
  if (values.repo !== undefined && values.head === undefined) {
    throw new RangeError("--repo needs --head REV (and --base REV)");
  }
  const table = max === undefined && budget === undefined ? "" : [
    "[mutation]",
    "enabled = true",
    ...(max === undefined ? [] : [`max_mutants = ${max}`]),
    ...(budget === undefined ? [] : [`budget_seconds = ${budget}`]),
    "",
  ].join("\n");
  return {
    runs,
    table,
    repo: values.repo,
    tests,
    base: values.base,
    head: values.head,
  };
}

/**
 * The copy of the repository with the bench branches: `bench/on` and
 * `bench/off` (the base, `pawl.toml` as the module doc says), and
 * `bench/on-pr` and `bench/off-pr` (the pull request on each). Returns
 * the base commit.
 */
async function prepareRepo(
  repo: string,
  dir: string,
  options: BenchOptions,
): Promise<string> {
  let base = "main";
  let head = "";
  const own = options.repo;
  if (own === undefined) {
    await buildSampleRepo(repo);
    if (options.tests > 0) {
      await Deno.writeTextFile(
        `${repo}/tests/test_generated.py`,
        generatedSuite(options.tests),
      );
      await commitAll(repo, `Bench: ${options.tests} generated tests`);
    }
  } else {
    const commit = async (rev: string) =>
      new TextDecoder().decode(
        await git(own, ["rev-parse", "--verify", `${rev}^{commit}`]),
      ).trim();
    base = await commit(options.base);
    head = await commit(options.head as string);
    await git(dir, ["clone", "-q", "--no-local", own, repo]);
  }
  const tables = {
    on: options.table,
    off: "[mutation]\nenabled = false\n",
  };
  for (const [name, table] of Object.entries(tables)) {
    await git(repo, ["checkout", "-q", "-b", `bench/${name}`, base]);
    const settings = await Deno.readTextFile(`${repo}/pawl.toml`).catch(
      () => "",
    );
    await Deno.writeTextFile(
      `${repo}/pawl.toml`,
      `${
        withoutMutationTable(settings)
      }\n# bench: [mutation] ${name}\n${table}`,
    );
    await commitAll(repo, `Bench: [mutation] ${name}`);
    await git(repo, ["checkout", "-q", "-b", `bench/${name}-pr`]);
    if (own === undefined) {
      const codec = await Deno.readTextFile(`${repo}/${CODEC}`);
      await Deno.writeTextFile(
        `${repo}/${CODEC}`,
        codec.replace("max_examples=80", "max_examples=100"),
      );
    } else {
      // The pull request's changes (but to pawl.toml) on top of that base.
      const diff = await git(repo, [
        "diff",
        "--binary",
        base,
        head,
        "--",
        ".",
        ":(exclude)pawl.toml",
      ]);
      if (diff.length > 0) await git(repo, ["apply", "--index", "-"], diff);
    }
    await commitAll(repo, "Bench: the pull request");
  }
  await warmBranch(repo);
  await git(repo, ["checkout", "-q", base]);
  return (new TextDecoder().decode(
    await git(repo, ["rev-parse", "bench/on"]),
  )).trim();
}

/**
 * `bench/on-warm`: `bench/on` with a comment added to the first test
 * module the pull request changes (or `bench/on` itself, when it changes
 * none).
 */
async function warmBranch(repo: string): Promise<void> {
  const changed = new TextDecoder().decode(
    await git(repo, ["diff", "--name-only", "bench/on", "bench/on-pr"]),
  ).split("\n");
  const module = changed.find((p) =>
    p.endsWith(".py") && p.split("/").some((part) => part.startsWith("test"))
  );
  await git(repo, ["checkout", "-q", "-b", "bench/on-warm", "bench/on"]);
  if (module === undefined) return;
  const text = await Deno.readTextFile(`${repo}/${module}`).catch(() => "");
  await Deno.writeTextFile(
    `${repo}/${module}`,
    `${text}\n# bench: another pull request on the same base\n`,
  );
  await commitAll(repo, "Bench: another pull request on the base");
}

/** A test module of `count` passing tests. */
function generatedSuite(count: number): string {
  const lines: string[] = [];
  for (let i = 0; i < count; i++) {
    lines.push(`def test_generated_${i}():`, `    assert ${i} + 1 == ${i + 1}`);
  }
  return `${lines.join("\n")}\n`;
}

interface Run {
  seconds: number;
  /** The verdict's `tests.mutation`. */
  mutation: Record<string, number> | undefined;
  /** Mutant outcomes from the runner's cache, as the progress says. */
  cached: number;
  /** The `--out` verdict's text. */
  verdict: string;
}

async function timed(
  repo: string,
  base: string,
  head: string,
  tmp: string | Promise<string>,
  extra: readonly string[] = [],
): Promise<Run> {
  const dir = await tmp;
  const out = `${dir}/verdict.json`;
  const started = performance.now();
  const result = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      MAIN_TS,
      "check",
      "--repo",
      repo,
      "--base",
      base,
      "--head",
      head,
      "--now",
      NOW,
      "--out",
      out,
      ...extra,
    ],
    env: { TMPDIR: dir, NO_COLOR: "1" },
    stdout: "null",
    stderr: "piped",
  }).output();
  const seconds = (performance.now() - started) / 1000;
  const stderr = new TextDecoder().decode(result.stderr);
  // An accept or a reject is a measurement; only "could not decide" is not.
  if (result.code !== 0 && result.code !== 1) {
    throw new Error(
      `pawl check ${head} exited ${result.code}: ${stderr.slice(-2000)}`,
    );
  }
  const verdict = await Deno.readTextFile(out);
  const cached = stderr.match(
    /mutation: \d+ mutants judged, (\d+) of them from the runner's cache/,
  );
  return {
    seconds,
    mutation: JSON.parse(verdict).tests?.mutation,
    cached: Number(cached?.[1] ?? 0),
    verdict,
  };
}

/** The runner cache the warm-up left, copied into a check's temp directory. */
async function copyCache(from: string, to: string): Promise<void> {
  const cache = `${from}/pawl-mutation-cache`;
  if (!(await Deno.stat(cache).catch(() => null))) return;
  const out = await new Deno.Command("cp", {
    args: ["-a", cache, `${to}/pawl-mutation-cache`],
  }).output();
  if (!out.success) throw new Error(`Cannot copy the cache "${cache}"`);
}

/**
 * Seconds of one plain pytest run of the properties the mutants ran
 * against (their node ids, as the mutation report names them), on an
 * export of the base, with the base's test command and `[environment]`;
 * undefined when none ran.
 */
async function floorSeconds(
  repo: string,
  dir: string,
  base: string,
  report: string,
): Promise<{ seconds: number; properties: number } | undefined> {
  const json = JSON.parse(await Deno.readTextFile(report)) as {
    testFiles?: Record<string, { tests: { name: string }[] }>;
  };
  const nodes = Object.values(json.testFiles ?? {}).flatMap((f) =>
    f.tests.map((t) => t.name).filter((n) => n.includes("::"))
  );
  if (nodes.length === 0) return undefined;
  const tree = `${dir}/floor`;
  await Deno.mkdir(tree);
  const archive = await git(repo, ["archive", base]);
  const tar = new Deno.Command("tar", {
    args: ["-x", "-C", tree],
    stdin: "piped",
  })
    .spawn();
  const writer = tar.stdin.getWriter();
  await writer.write(archive);
  await writer.close();
  if (!(await tar.status).success) throw new Error("Cannot export the base");
  const settings = readSettings(
    await Deno.readTextFile(`${tree}/pawl.toml`).catch(() => ""),
  );
  const [program, ...args] = [
    ...(settings.tests.command ?? DEFAULT_PYTEST_COMMAND),
    ...nodes,
  ] as [string, ...string[]];
  const started = performance.now();
  const out = await new Deno.Command(program, {
    args,
    cwd: tree,
    env: {
      ...settings.environment.env,
      PYTHONPATH: settings.environment.pythonpath.map((p) => `${tree}/${p}`)
        .join(":"),
      PYTHONDONTWRITEBYTECODE: "1",
    },
    stdout: "null",
    stderr: "null",
  }).output();
  const seconds = (performance.now() - started) / 1000;
  // pytest's exit 1 is failed tests: still a run of them.
  if (out.code !== 0 && out.code !== 1) return undefined;
  return { seconds, properties: nodes.length };
}

function printResults(runs: {
  cold: Run;
  on: Run[];
  off: Run[];
  floor: { seconds: number; properties: number } | undefined;
}): void {
  const { cold, on, off, floor } = runs;
  const offS = median(off.map((r) => r.seconds));
  const onS = median(on.map((r) => r.seconds));
  const ratio = median(on.map((r, i) => r.seconds / (off[i] as Run).seconds));
  const m = cold.mutation;
  const s = (x: number) => `${x.toFixed(1)} s`;
  console.log(`pawl check without mutation: ${s(offS)} (median)`);
  console.log(
    `with mutation, cold cache: ${s(cold.seconds)} (${
      (cold.seconds / offS).toFixed(2)
    }x); ${m?.ran ?? 0} of ${m?.generated ?? 0} mutants ran, ${
      m?.killed ?? 0
    } killed, ${m?.survived ?? 0} survived, ${
      m?.timedOut ?? 0
    } timed out; cut ${m?.cutByCap ?? 0} by max_mutants, ${
      m?.cutByBudget ?? 0
    } by the budget${
      m?.notCovered === undefined ? "" : `; ${m.notCovered} not covered`
    }`,
  );
  console.log(
    `with mutation, warm base cache: ${s(onS)} (median); ${
      median(on.map((r) => r.cached))
    } of ${on[0]?.mutation?.ran ?? 0} mutant outcomes from the cache`,
  );
  const added = Math.max(0.001, cold.seconds - offS);
  const ran = m?.ran ?? 0;
  console.log(
    floor === undefined
      ? `cold: ${
        (ran / added).toFixed(2)
      } mutants/s; no floor (no property ran)`
      : `cold: ${(ran / added).toFixed(2)} mutants/s against a floor of ${
        (1 / floor.seconds).toFixed(2)
      } mutants/s (plain pytest of the ${floor.properties} properties: ${
        s(floor.seconds)
      } per run)`,
  );
  const same = [...on, cold].every((r) => r.verdict === cold.verdict);
  console.log(
    `verdicts with a cold and a warm cache are ${
      same ? "byte-identical" : "DIFFERENT"
    }`,
  );
  console.log(
    `${
      ratio <= TARGET_RATIO ? "PASS" : "OVER"
    }: with mutation and a warm base cache the check takes ${
      ratio.toFixed(2)
    }x the check without it (paired median; target ${TARGET_RATIO}x)`,
  );
}

/** `pawl.toml` without its `[mutation]` table, which the bench sets. */
function withoutMutationTable(text: string): string {
  return text.replace(/^\[mutation\][^]*?(?=^\[|(?![^]))/m, "");
}

async function git(
  cwd: string,
  args: readonly string[],
  stdin?: Uint8Array,
): Promise<Uint8Array> {
  const child = new Deno.Command("git", {
    args: [...args],
    cwd,
    env: FIXED_GIT_ENV,
    stdin: stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  if (stdin !== undefined) {
    const writer = child.stdin.getWriter();
    await writer.write(stdin);
    await writer.close();
  }
  const out = await child.output();
  if (!out.success) {
    throw new Error(
      `git ${args.join(" ")}: ${new TextDecoder().decode(out.stderr).trim()}`,
    );
  }
  return out.stdout;
}
