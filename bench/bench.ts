// deno-lint-ignore-file no-console
/**
 * `deno task bench`: pawl's contract stage (what `pawl diff` does after the
 * clone: read both contracts from git objects, parse the test modules, hash
 * every fixture, run the static rules) against `sha256sum` over the same
 * fixture bytes, on a synthetic repository built in a temp dir.
 *
 * A benchmark, not a test: it prints numbers and a PASS/OVER line against
 * the target, and exits 1 only when something crashed. sha256sum and pawl
 * runs alternate, so a busy machine slows both sides alike.
 *
 * ```sh
 * deno task bench [--properties 3000] [--fixture-mb 300] [--runs 3] [--keep DIR]
 * ```
 *
 * @module
 */
import { judgePullRequest } from "../src/gate/judge_pull_request.ts";
import { realGatePorts } from "../src/gate/real_gate_ports.ts";
import type { Progress } from "../src/core/progress.ts";
import { parseNow } from "../src/core/parse_now.ts";
import type { Verdict } from "../src/core/verdict.ts";
import {
  buildSyntheticRepo,
  isSyntheticRepo,
  readSyntheticRepo,
  type SyntheticRepo,
} from "./_build_synthetic_repo.ts";
import { median } from "./_stats.ts";
import { GitCli } from "../src/git/git_cli.ts";
import { analyzePython } from "../src/python/analyze_python.ts";
import { loadPythonParser } from "../src/python/load_python_parser.ts";

/** Contract stage / sha256sum must stay at or below this. */
const TARGET_RATIO = 1.0;

/** A cold `pawl diff` must stay within this many sha256sum runs plus the clone. */
const DIFF_TARGET_SUMS = 2;

/** The orchestrator clock for every run. */
const NOW = "2026-11-30T12:00:00Z";

const MAIN_TS = new URL("../main.ts", import.meta.url).pathname;

const USAGE = `Usage: deno task bench [options]

  --properties N   registered properties (default 3000, 10 per test module)
  --fixture-mb M   total fixture size in MiB (default 300)
  --runs K         measured runs of each side; medians are reported (default 3)
  --keep DIR       build the repository in DIR and keep it; reuse it when it
                   was built with the same options
`;

interface BenchOptions {
  properties: number;
  fixtureMib: number;
  runs: number;
  keep: string | undefined;
}

function parseOptions(args: readonly string[]): BenchOptions {
  const options: BenchOptions = {
    properties: 3000,
    fixtureMib: 300,
    runs: 3,
    keep: undefined,
  };
  for (let i = 0; i < args.length; i++) {
    const flag = args[i];
    if (flag === "--help" || flag === "-h") {
      console.log(USAGE);
      Deno.exit(0);
    }
    const value = args[++i];
    if (value === undefined) throw new Error(`Missing value for "${flag}"`);
    const count = () => {
      const n = Number(value);
      if (!Number.isInteger(n) || n < 1) {
        throw new Error(`"${flag}" needs a positive integer, not "${value}"`);
      }
      return n;
    };
    switch (flag) {
      case "--properties":
        options.properties = count();
        break;
      case "--fixture-mb":
        options.fixtureMib = count();
        break;
      case "--runs":
        options.runs = count();
        break;
      case "--keep":
        options.keep = value;
        break;
      default:
        throw new Error(`Unknown option "${flag}"\n\n${USAGE}`);
    }
  }
  return options;
}

// --- one pawl run, timed by its progress steps ------------------------------

/** Milliseconds spent in each part of one `judgePullRequest` call. */
interface PawlRun {
  /** "cloning" → "reading contracts" (clone and resolving both revisions). */
  clone: number;
  /** "reading contracts" → end of the call. */
  contract: number;
  /** "reading contracts" → "parsing test sources". */
  read: number;
  /** "parsing test sources" → "hashing". */
  parse: number;
  /** "hashing N fixtures" → end of the call (rules and cleanup included). */
  hash: number;
  /** The whole call. */
  total: number;
  /** This process's peak RSS (bytes) when the contract stage began. */
  hwmBefore: number | undefined;
  /** This process's peak RSS (bytes) at the end of the call. */
  hwmAfter: number | undefined;
  /** CPU spent during the contract stage, or undefined off Linux. */
  cpu: CpuTimes | undefined;
  /** Largest peak RSS (bytes) seen per child command (memory runs only). */
  children: Map<string, number>;
  /** Label of the hashing step (carries the fixture count). */
  hashLabel: string;
  verdict: Verdict;
}

/** A {@linkcode Progress} that timestamps each step. */
class TimedProgress implements Progress {
  readonly steps: { label: string; at: number }[] = [];
  hwmAtContract: number | undefined;
  cpuAtContract: CpuTimes | undefined;

  step(label: string): void {
    const at = performance.now();
    if (label.startsWith("reading contracts")) {
      this.hwmAtContract = peakRss();
      this.cpuAtContract = cpuTimes();
    }
    this.steps.push({ label, at });
  }
  detail(): void {}
  note(): void {}
  end(): void {}

  at(prefix: string): { label: string; at: number } {
    const step = this.steps.find((s) => s.label.startsWith(prefix));
    if (step === undefined) {
      throw new Error(`pawl never reported a step starting with "${prefix}"`);
    }
    return step;
  }
}

/**
 * One in-process run. `pollChildren` samples the child processes' memory
 * from `/proc` every 50 ms on this thread; that costs the stage CPU, so
 * timed runs leave it off and a separate run measures memory.
 */
async function runPawl(
  dir: string,
  repo: SyntheticRepo,
  { pollChildren, analysisCache }: {
    pollChildren: boolean;
    analysisCache: string;
  },
): Promise<PawlRun> {
  resetPeakRss();
  const progress = new TimedProgress();
  const poller = pollChildren ? new ChildMemoryPoller() : undefined;
  const start = performance.now();
  let verdict: Verdict;
  try {
    ({ verdict } = await judgePullRequest({
      repo: dir,
      base: repo.base,
      head: repo.head,
      now: parseNow(NOW),
      allowFixtureRotate: false,
      isolation: "none",
      runTests: false,
    }, realGatePorts({ progress, analysisCache })));
  } finally {
    await poller?.stop();
  }
  const end = performance.now();
  const cpuEnd = cpuTimes();
  const cpuStart = progress.cpuAtContract;
  const clone = progress.at("cloning").at;
  const contract = progress.at("reading contracts").at;
  const parse = progress.at("parsing test sources").at;
  const hash = progress.at("hashing");
  return {
    clone: contract - clone,
    contract: end - contract,
    read: parse - contract,
    parse: hash.at - parse,
    hash: end - hash.at,
    total: end - start,
    hwmBefore: progress.hwmAtContract,
    hwmAfter: peakRss(),
    cpu: cpuStart === undefined || cpuEnd === undefined ? undefined : {
      self: cpuEnd.self - cpuStart.self,
      children: cpuEnd.children - cpuStart.children,
    },
    children: poller?.peaks ?? new Map(),
    hashLabel: hash.label,
    verdict,
  };
}

/** One `pawl diff` subprocess: its wall time and when each progress line came. */
interface DiffProcessRun {
  ms: number;
  decision: string;
  maxRss: number;
  /** Milliseconds from the spawn to each progress line, by the line's first words. */
  steps: { label: string; at: number }[];
}

/**
 * `pawl diff` as its own process, the way a user runs it, under
 * `/usr/bin/time`. Its progress lines (stderr is no terminal, so one plain
 * line per step) are timestamped as they arrive, which splits the wall
 * time into start-up, clone, contract stage and exit.
 */
async function runPawlDiffProcess(
  dir: string,
  repo: SyntheticRepo,
): Promise<DiffProcessRun | undefined> {
  try {
    await Deno.stat("/usr/bin/time");
  } catch {
    return undefined;
  }
  const start = performance.now();
  const child = new Deno.Command("/usr/bin/time", {
    args: [
      "-f",
      "maxrss_kib=%M",
      Deno.execPath(),
      "run",
      "--allow-all",
      MAIN_TS,
      "diff",
      "--repo",
      dir,
      "--base",
      repo.base,
      "--head",
      repo.head,
      "--now",
      NOW,
      "--json",
    ],
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const steps: { label: string; at: number }[] = [];
  const stderrDone = (async () => {
    let text = "";
    let pending = "";
    const decoder = new TextDecoder();
    for await (const chunk of child.stderr) {
      const at = performance.now() - start;
      const piece = decoder.decode(chunk, { stream: true });
      text += piece;
      pending += piece;
      const lines = pending.split("\n");
      pending = lines.pop() ?? "";
      for (const line of lines) {
        if (line.startsWith("pawl: ")) steps.push({ label: line.slice(6), at });
      }
    }
    return text;
  })();
  const stdout = new Response(child.stdout).arrayBuffer();
  const [status, stderr, out] = await Promise.all([
    child.status,
    stderrDone,
    stdout,
  ]);
  const ms = performance.now() - start;
  const match = /maxrss_kib=(\d+)/.exec(stderr);
  let decision: unknown;
  try {
    decision = JSON.parse(new TextDecoder().decode(out)).decision;
  } catch {
    // No verdict: reported below.
  }
  if (match === null || typeof decision !== "string") {
    throw new Error(
      `pawl diff as a subprocess gave no verdict (exit ${status.code}): ${stderr.trim()}`,
    );
  }
  return { ms, decision, maxRss: Number(match[1]) * 1024, steps };
}

// --- the references ------------------------------------------------------------

/** `sha256sum` over the fixture files of the work tree. */
async function runSha256sum(
  dir: string,
  paths: readonly string[],
): Promise<number> {
  return await timed("sha256sum", ["--", ...paths], dir);
}

/**
 * `git cat-file --batch` (one process) over the fixture blobs, output
 * discarded: the decompression every git-object reader pays before hashing.
 */
async function runCatFile(
  dir: string,
  paths: readonly string[],
): Promise<number> {
  const start = performance.now();
  const child = new Deno.Command("git", {
    args: ["-C", dir, "cat-file", "--batch"],
    stdin: "piped",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(
    new TextEncoder().encode(paths.map((p) => `HEAD:${p}\n`).join("")),
  );
  await writer.close();
  const out = await child.output();
  const elapsed = performance.now() - start;
  if (!out.success) {
    throw new Error(
      `git cat-file failed: ${new TextDecoder().decode(out.stderr).trim()}`,
    );
  }
  return elapsed;
}

async function timed(
  command: string,
  args: string[],
  cwd: string,
): Promise<number> {
  const start = performance.now();
  const out = await new Deno.Command(command, {
    args,
    cwd,
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).output();
  const elapsed = performance.now() - start;
  if (!out.success) {
    throw new Error(
      `${command} failed: ${new TextDecoder().decode(out.stderr).trim()}`,
    );
  }
  return elapsed;
}

/**
 * The floor under the contract stage: pawl's own fixture hashing (inflate
 * and SHA-256 of the same blobs, on the same worker threads and on this
 * thread, which the stage lends the hashing once it has parsed) with
 * nothing else running. Read-only on the bench repository's objects.
 */
async function runHashFloor(
  dir: string,
  head: string,
): Promise<{ ms: number; cpu: number | undefined }> {
  await using git = new GitCli(`${dir}/.git`);
  const tree = await git.listTree(await git.resolveCommit(head));
  const oids = [...tree.values()].filter((e) =>
    e.path.startsWith("tests/fixtures/") &&
    (e.kind === "file" || e.kind === "executable")
  ).map((e) => e.oid);
  const cpuStart = cpuTimes();
  const start = performance.now();
  await git.sha256Blobs(oids, { helpAfter: Promise.resolve() });
  return { ms: performance.now() - start, cpu: cpuSince(cpuStart) };
}

/**
 * What a first judgement must do besides hashing: read and analyse every
 * test module the stage analyses (both commits' `tests/**.py`, each blob
 * once), on this thread with nothing else running, as CPU milliseconds.
 */
async function runParseFloor(
  dir: string,
  revisions: { base: string; head: string },
): Promise<number | undefined> {
  await using git = new GitCli(`${dir}/.git`);
  const oids = new Set<string>();
  for (const revision of [revisions.base, revisions.head]) {
    const tree = await git.listTree(await git.resolveCommit(revision));
    for (const entry of tree.values()) {
      if (entry.path.startsWith("tests/") && entry.path.endsWith(".py")) {
        oids.add(entry.oid);
      }
    }
  }
  const parser = await loadPythonParser();
  const decoder = new TextDecoder();
  const cpuStart = cpuTimes();
  for (const oid of oids) {
    analyzePython(parser, decoder.decode(await git.readBlob(oid)));
  }
  return cpuSince(cpuStart);
}

/** This process's CPU milliseconds since `start`, or undefined off Linux. */
function cpuSince(start: CpuTimes | undefined): number | undefined {
  const end = cpuTimes();
  return start === undefined || end === undefined
    ? undefined
    : end.self - start.self;
}

/** A cold `pawl version`: the process start every `pawl diff` pays first. */
function runPawlVersion(): Promise<number> {
  return timed(
    Deno.execPath(),
    ["run", "--allow-all", MAIN_TS, "version"],
    ".",
  );
}

// --- CPU -----------------------------------------------------------------------

/** CPU milliseconds (user + system). */
interface CpuTimes {
  /** All threads of this process (main thread and workers). */
  self: number;
  /** Child processes this process has waited for (git). */
  children: number;
}

/** This process's CPU times from `/proc/self/stat`, or undefined off Linux. */
function cpuTimes(): CpuTimes | undefined {
  let stat: string;
  try {
    stat = Deno.readTextFileSync("/proc/self/stat");
  } catch {
    return undefined;
  }
  // Split after the command name (which may hold spaces); the first field
  // left is the 3rd (state). utime, stime, cutime, cstime are 14-17.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const ms = (n: number) => Number(fields[n - 3] ?? 0) * 1000 / CLOCK_TICKS;
  return { self: ms(14) + ms(15), children: ms(16) + ms(17) };
}

/** `sysconf(_SC_CLK_TCK)`, 100 on the Linux platforms Deno supports. */
const CLOCK_TICKS = 100;

// --- memory ------------------------------------------------------------------

/** This process's peak RSS in bytes (`VmHWM`), or undefined off Linux. */
function peakRss(): number | undefined {
  try {
    return statusBytes(Deno.readTextFileSync("/proc/self/status"), "VmHWM");
  } catch {
    return undefined;
  }
}

/** Reset `VmHWM` to the current RSS, so each run's peak is its own. */
function resetPeakRss(): void {
  try {
    Deno.writeTextFileSync("/proc/self/clear_refs", "5");
  } catch {
    // Old kernel or no /proc: the peak then covers the whole process.
  }
}

function statusBytes(status: string, field: string): number | undefined {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status);
  return match === null ? undefined : Number(match[1]) * 1024;
}

/**
 * Polls `/proc` for this process's descendants (git clone, ls-tree,
 * cat-file, ...) and keeps the largest `VmHWM` seen per command. Cheap and
 * approximate: a child that lives less than one interval may be missed.
 */
class ChildMemoryPoller {
  readonly peaks = new Map<string, number>();
  #timer: ReturnType<typeof setInterval>;
  #polling: Promise<void> = Promise.resolve();

  constructor(intervalMs = 50) {
    this.#timer = setInterval(() => {
      this.#polling = this.#polling.then(() => this.#poll()).catch(() => {});
    }, intervalMs);
  }

  async stop(): Promise<void> {
    clearInterval(this.#timer);
    await this.#polling;
  }

  async #poll(): Promise<void> {
    const parents = new Map<number, number>();
    for await (const entry of Deno.readDir("/proc")) {
      if (!/^\d+$/.test(entry.name)) continue;
      try {
        const stat = await Deno.readTextFile(`/proc/${entry.name}/stat`);
        // The command name may hold spaces and parentheses: split after the last ")".
        const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
        parents.set(Number(entry.name), Number(fields[1]));
      } catch {
        // Exited meanwhile.
      }
    }
    const isDescendant = (pid: number): boolean => {
      for (
        let p = parents.get(pid);
        p !== undefined && p > 1;
        p = parents.get(p)
      ) {
        if (p === Deno.pid) return true;
      }
      return false;
    };
    for (const pid of parents.keys()) {
      if (!isDescendant(pid)) continue;
      try {
        const [status, cmdline] = await Promise.all([
          Deno.readTextFile(`/proc/${pid}/status`),
          Deno.readTextFile(`/proc/${pid}/cmdline`),
        ]);
        const hwm = statusBytes(status, "VmHWM");
        if (hwm === undefined) continue;
        const label = commandLabel(cmdline.split("\0"));
        this.peaks.set(label, Math.max(this.peaks.get(label) ?? 0, hwm));
      } catch {
        // Exited meanwhile.
      }
    }
  }
}

/** `git cat-file`, `git clone`, `sh`…: the program and its git subcommand. */
function commandLabel(argv: readonly string[]): string {
  const program = (argv[0] ?? "?").split("/").pop() ?? "?";
  if (program !== "git") return program;
  for (let i = 1; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === "-c" || arg === "-C") {
      i++;
      continue;
    }
    if (!arg.startsWith("-")) return `git ${arg}`;
  }
  return "git";
}

// --- the repository ------------------------------------------------------------

/** The synthetic repository in `dir`, built unless `--keep` already holds it. */
async function prepareRepo(
  dir: string,
  options: BenchOptions,
): Promise<SyntheticRepo> {
  const log = (line: string) => console.error(line);
  const kept = await readSyntheticRepo(dir, options);
  if (kept !== undefined) {
    log(`bench: reusing ${dir}`);
    return kept;
  }
  if (options.keep !== undefined) {
    if (await isSyntheticRepo(dir)) {
      log(`bench: rebuilding ${dir} (it was built with other options)`);
      await Deno.remove(dir, { recursive: true });
    } else if (!(await isEmptyOrMissing(dir))) {
      throw new Error(
        `Cannot build in "${dir}": it is not empty and not a repository this benchmark built`,
      );
    }
  }
  const start = performance.now();
  const repo = await buildSyntheticRepo(dir, { ...options, onProgress: log });
  log(`bench: built ${dir} in ${ms(performance.now() - start)}`);
  return repo;
}

async function isEmptyOrMissing(dir: string): Promise<boolean> {
  try {
    for await (const _ of Deno.readDir(dir)) return false;
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return true;
    throw error;
  }
}

/**
 * How the repository stores its objects, loose or in packs:
 * pawl's clone of a local path copies them as they are, and loose and
 * packed blobs are read by different code.
 */
async function describeObjects(objects: string): Promise<string> {
  let loose = 0;
  let packs = 0;
  for await (const entry of Deno.readDir(objects)) {
    if (/^[0-9a-f]{2}$/.test(entry.name) && entry.isDirectory) {
      for await (const _ of Deno.readDir(`${objects}/${entry.name}`)) loose++;
    }
  }
  try {
    for await (const entry of Deno.readDir(`${objects}/pack`)) {
      if (entry.name.endsWith(".pack")) packs++;
    }
  } catch {
    // No pack directory.
  }
  return `${loose} loose, ${packs} pack${packs === 1 ? "" : "s"}`;
}

// --- report ------------------------------------------------------------------

function ms(value: number): string {
  return `${value.toFixed(0)} ms`;
}

function mib(bytes: number | undefined): string {
  return bytes === undefined
    ? "n/a"
    : `${(bytes / 1024 / 1024).toFixed(0)} MiB`;
}

function describeVerdict(verdict: Verdict): string {
  const blocking = verdict.findings.filter((f) => f.blocking).length;
  return `${verdict.decision} (${verdict.findings.length} findings, ${blocking} blocking)`;
}

async function main(args: readonly string[], all: boolean): Promise<void> {
  const options = parseOptions(args);
  if (all) {
    const { coldStartBench } = await import("./cold_start_bench.ts");
    await coldStartBench([]);
    const { gateOverheadBench } = await import("./gate_overhead_bench.ts");
    await gateOverheadBench([]);
  }
  const dir = options.keep ??
    await Deno.makeTempDir({ prefix: "pawl-bench-" });
  let caches: string | undefined;
  try {
    const repo = await prepareRepo(dir, options);
    const paths = repo.fixturePaths;
    console.log(
      `synthetic repo: ${repo.properties} properties in ${repo.modules} test modules, ` +
        `${paths.length} fixtures, ${mib(repo.fixtureBytes)}; ` +
        `the head changes 1 module and adds 1 property`,
    );
    console.log(`objects: ${await describeObjects(`${dir}/.git/objects`)}`);

    // Warm the page cache for the work tree, as the clone warms it for pawl.
    await runSha256sum(dir, paths);
    const sums: number[] = [];
    const catFiles: number[] = [];
    const floors: number[] = [];
    const hashCpus: number[] = [];
    const parseCpus: number[] = [];
    const runs: PawlRun[] = [];
    // The analyses of an earlier judgement kept, as a runner keeps them
    // (filled by one untimed run); and a first judgement's, with none.
    caches = await Deno.makeTempDir({ prefix: "pawl-bench-cache-" });
    const analysisCache = `${caches}/analysis`;
    await runPawl(dir, repo, { pollChildren: false, analysisCache });
    const firsts: PawlRun[] = [];
    for (let k = 0; k < options.runs; k++) {
      console.error(`bench: run ${k + 1}/${options.runs}`);
      sums.push(await runSha256sum(dir, paths));
      catFiles.push(await runCatFile(dir, paths));
      const hashFloor = await runHashFloor(dir, repo.head);
      floors.push(hashFloor.ms);
      if (hashFloor.cpu !== undefined) hashCpus.push(hashFloor.cpu);
      const parseCpu = await runParseFloor(dir, repo);
      if (parseCpu !== undefined) parseCpus.push(parseCpu);
      firsts.push(
        await runPawl(dir, repo, {
          pollChildren: false,
          analysisCache: `${caches}/first-${k}`,
        }),
      );
      const run = await runPawl(dir, repo, {
        pollChildren: false,
        analysisCache,
      });
      runs.push(run);
      console.log(
        `run ${k + 1}: clone ${ms(run.clone)}  contract stage ${
          ms(run.contract)
        } ` +
          `(read ${ms(run.read)}, parse ${ms(run.parse)}, hash+rules ${
            ms(run.hash)
          })  ` +
          `total ${ms(run.total)}  sha256sum ${ms(sums[k] as number)}`,
      );
    }

    const last = runs[runs.length - 1] as PawlRun;
    console.log(`verdict: ${describeVerdict(last.verdict)}`);
    if (
      last.verdict.decision !== "accept" || last.verdict.findings.length > 0
    ) {
      console.log(
        "  note: the synthetic head should be a clean accept; these findings mean the run left its intended path:",
      );
      for (const f of last.verdict.findings.slice(0, 5)) {
        console.log(`  ${f.rule} ${f.path ?? ""}:${f.line ?? ""} ${f.message}`);
      }
    }

    const of = (pick: (run: PawlRun) => number) => median(runs.map(pick));
    const contract = of((r) => r.contract);
    const sum = median(sums);
    const ratio = contract / sum;
    console.log(
      `contract stage: ${ms(contract)}  sha256sum: ${ms(sum)}  ratio: ${
        ratio.toFixed(2)
      }x ` +
        `(target ≤ ${TARGET_RATIO}x) ${
          ratio <= TARGET_RATIO ? "PASS" : "OVER"
        }`,
    );
    const first = median(firsts.map((r) => r.contract));
    console.log(
      `  first judgement (no analyses kept yet, every test source parsed): contract stage ${
        ms(first)
      } = ${(first / sum).toFixed(2)}x sha256sum (parsing ${
        ms(median(firsts.map((r) => r.parse)))
      })`,
    );
    if (hashCpus.length > 0 && parseCpus.length > 0) {
      // A first judgement must hash every fixture and analyse every test
      // module; on these cores that takes at least their CPU shared out.
      const cores = navigator.hardwareConcurrency;
      const hashCpu = median(hashCpus);
      const parseCpu = median(parseCpus);
      const firstFloor = (hashCpu + parseCpu) / cores;
      console.log(
        `    its CPU floor: hashing the fixtures ${
          ms(hashCpu)
        } + analysing every test module ${
          ms(parseCpu)
        } of CPU (each measured alone) over ${cores} cores = ${
          ms(firstFloor)
        } = ${
          (firstFloor / sum).toFixed(2)
        }x sha256sum; the first judgement is ${
          ms(first - firstFloor)
        } above it`,
      );
    }
    console.log(
      `  steps: reading contracts ${ms(of((r) => r.read))}, ` +
        `parsing test sources ${ms(of((r) => r.parse))}, ` +
        `${last.hashLabel} to the end (rules, cleanup) ${
          ms(of((r) => r.hash))
        }`,
    );
    console.log(
      `  reference: git cat-file --batch (1 process) over the fixture blobs: ${
        ms(median(catFiles))
      }`,
    );
    const floor = median(floors);
    console.log(
      `  floor: pawl's fixture hashing alone (inflate + SHA-256 of the same blobs ` +
        `on the hashing worker and the main thread, nothing else running): ${
          ms(floor)
        } = ${(floor / sum).toFixed(2)}x sha256sum; the stage is ${
          (contract / floor).toFixed(2)
        }x this floor`,
    );
    if (ratio > TARGET_RATIO) {
      console.log(
        `  note: the stage cannot end before its hashing does, and hashing alone takes ${
          (floor / sum).toFixed(2)
        }x sha256sum here; ` +
          "the rest of the stage is reading contracts, parsing test sources and the rules on the main thread, " +
          "which share the machine's cores with the hashing",
      );
    }
    const cpus = runs.map((r) => r.cpu);
    if (cpus.every((c) => c !== undefined)) {
      console.log(
        `  CPU during the contract stage: pawl ${
          ms(median(cpus.map((c) => c.self)))
        } (all threads), git ${
          ms(median(cpus.map((c) => c.children)))
        } (child processes); ${navigator.hardwareConcurrency} cores`,
      );
    }
    console.log(`clone: ${ms(of((r) => r.clone))}`);
    console.log(`total including clone: ${ms(of((r) => r.total))}`);
    console.error("bench: one more run, untimed, sampling child memory");
    const memory = await runPawl(dir, repo, {
      pollChildren: true,
      analysisCache,
    });
    console.log(
      `peak RSS in this process: ${
        mib(memory.hwmBefore)
      } at the start of the contract stage, ` +
        `${mib(memory.hwmAfter)} at the end (+${
          mib((memory.hwmAfter ?? 0) - (memory.hwmBefore ?? 0))
        } during a stage that hashed ${mib(repo.fixtureBytes)} of fixtures)`,
    );
    const children = [...memory.children].sort((a, b) => b[1] - a[1]);
    if (children.length > 0) {
      console.log(
        `peak RSS of child processes (largest seen): ${
          children.map(([name, bytes]) => `${name} ${mib(bytes)}`).join(", ")
        }`,
      );
    }
    console.error("bench: pawl diff as a subprocess");
    const versionStart = await runPawlVersion();
    const diff = await runPawlDiffProcess(dir, repo);
    if (diff !== undefined) {
      console.log(
        `pawl diff as a subprocess (cold start, clone included): ${
          ms(diff.ms)
        }, ${diff.decision}, ` +
          `peak RSS ${
            mib(diff.maxRss)
          } (largest process of its tree); fixtures: ${mib(repo.fixtureBytes)}`,
      );
      const budget = DIFF_TARGET_SUMS * sum + of((r) => r.clone);
      console.log(
        `  ${diff.ms <= budget ? "PASS" : "OVER"}: cold pawl diff ${
          ms(diff.ms)
        } vs ${DIFF_TARGET_SUMS} x sha256sum + clone ${ms(budget)}`,
      );
      console.log(
        `  floor: process start (a cold "pawl version") ${
          ms(versionStart)
        } + clone ${ms(of((r) => r.clone))} + hashing alone ${ms(floor)} = ${
          ms(versionStart + of((r) => r.clone) + floor)
        }`,
      );
      const warm = of((r) => r.clone) + contract;
      console.log(
        diff.ms >= warm
          ? `  a fresh process spent ${
            ms(diff.ms - warm)
          } more than the in-process clone + stage (${ms(warm)})`
          : `  the fresh process was faster than the in-process clone + stage (${
            ms(warm)
          }): the machine's load changed between the runs`,
      );
      const at = (prefix: string) =>
        diff.steps.find((s) => s.label.startsWith(prefix))?.at;
      const cloning = at("cloning");
      const reading = at("reading contracts");
      if (cloning !== undefined && reading !== undefined) {
        console.log(
          `  where it went (from its progress lines): start-up and loading pawl's code ${
            ms(cloning)
          }, clone ${ms(reading - cloning)} (in-process median ${
            ms(of((r) => r.clone))
          }), contract stage, verdict and exit ${
            ms(diff.ms - reading)
          } (in-process stage median ${ms(contract)})`,
        );
      }
    }
  } finally {
    if (caches !== undefined) {
      await Deno.remove(caches, { recursive: true }).catch(() => {});
    }
    if (options.keep === undefined) {
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    }
  }
}

if (import.meta.main) {
  try {
    if (Deno.args[0] === "serve") {
      const { serveBench } = await import("./serve_bench.ts");
      await serveBench(Deno.args.slice(1));
    } else if (Deno.args[0] === "mutation") {
      await (await import("./mutation_bench.ts")).mutationBench(
        Deno.args.slice(1),
      );
    } else if (Deno.args[0] === "gate") {
      const { gateOverheadBench } = await import("./gate_overhead_bench.ts");
      await gateOverheadBench(Deno.args.slice(1));
    } else if (Deno.args[0] === "cold-start") {
      const { coldStartBench } = await import("./cold_start_bench.ts");
      await coldStartBench(Deno.args.slice(1));
    } else if (Deno.args[0] === "huge-tree") {
      const { hugeTreeBench } = await import("./huge_tree_bench.ts");
      await hugeTreeBench(Deno.args.slice(1));
    } else if (Deno.args[0] === "self-mutation") {
      const { selfMutationBench } = await import("./self_mutation_bench.ts");
      await selfMutationBench(Deno.args.slice(1));
    } else if (Deno.args[0] === "contract") {
      await main(Deno.args.slice(1), false);
    } else {
      await main(Deno.args, true);
    }
  } catch (error) {
    console.error(
      `bench: ${error instanceof Error ? error.stack : String(error)}`,
    );
    Deno.exit(1);
  }
}
