/**
 * Run the real pawl CLI as a subprocess, the way an orchestrator does, and
 * read back its exit code, output and `--out` verdict.
 *
 * @module
 */
import { DEFAULT_UID_LOCK_DIR } from "../src/sandbox/lease_uid.ts";
import { activeMutantEnv } from "./_mutant_env.ts";

/** The repository root (where `main.ts` is). */
export const ROOT: string = new URL("..", import.meta.url).pathname.replace(
  /\/$/,
  "",
);

/** The orchestrator clock the tests use unless a case needs another. */
export const NOW = "2026-11-30T12:00:00Z";

/**
 * The uids every CLI run here leases its sandbox uid from (PAWL_SANDBOX_UIDS):
 * clear of pawl's default range, so checkouts whose pawl still runs every
 * test as 64123 can share the machine, and of the unit tests' uids.
 */
export const E2E_SANDBOX_UIDS = "64200-64263";

/** One finding, as the verdict JSON spells it. */
export interface FindingJson {
  layer: string;
  rule: string;
  message: string;
  path?: string;
  line?: number;
  blocking: boolean;
}

/** The parts of the verdict JSON the tests rely on. */
export interface VerdictJson {
  decision: "accept" | "reject";
  now: string;
  repo: string;
  base: string;
  head: string;
  contract: {
    layouts: string[];
    files: { path: string; layout: string; sha256: string }[];
    digest: string;
    freezeBodyHashes: { freeze: string; bodyHash: string }[];
  };
  options: { allowFixtureRotate: boolean; isolation: string };
  isolation: { tier: string; network: string } | null;
  findings: FindingJson[];
  tests: {
    summary: Record<string, number>;
    properties: { layout: string; id: string; outcome: string }[];
    reruns: {
      freeze: string;
      test: string;
      selected: string[];
      used: number;
      allowed: number;
      passed: boolean;
    }[];
    seeds: {
      fresh: number;
      trials: number | null;
      replays: {
        freeze: string;
        test: string;
        seed: number;
        passed: boolean;
      }[];
    };
  } | null;
  pawl: { version: string };
}

/** What one CLI run produced. */
export interface PawlResult {
  /** Exit code. */
  code: number;
  /** Standard output. */
  stdout: string;
  /** Standard error. */
  stderr: string;
  /** The `--out` file's text after the run (undefined when absent or not asked for). */
  outText: string | undefined;
  /** `outText` parsed, when it is JSON. */
  verdict: VerdictJson | undefined;
  /** The `--out` path used (undefined without one). */
  outPath: string | undefined;
  /** Wall-clock milliseconds of the run. */
  ms: number;
}

/** Options for {@linkcode pawl}. */
export interface PawlOptions {
  /**
   * `--out`: `true` (default) adds one in a fresh temp dir, a string uses
   * that path, `false` passes none.
   */
  out?: boolean | string;
  /** Text to put in the `--out` file before the run (a stale verdict). */
  stale?: string;
  /** Extra environment for the CLI process. */
  env?: Record<string, string>;
  /** The whole environment instead of this process's plus `env`. */
  clearEnv?: boolean;
  /** argv prefix to run the CLI through (`setpriv ...`, `/usr/bin/time ...`). */
  wrapper?: readonly string[];
  /** The `main.ts` to run (default this repository's). */
  main?: string;
  /** Extra `deno run` flags. */
  denoFlags?: readonly string[];
}

/**
 * The environment variable naming another checkout's `main.ts` to compare
 * verdicts with: when set, every {@linkcode pawl} run that uses this
 * repository's `main.ts` first runs the same arguments on that one, and
 * throws unless the exit code, standard output and `--out` file are
 * byte-identical (`tools/compare_verdicts.ts` sets it).
 */
export const TWIN_MAIN_ENV = "PAWL_TWIN_MAIN";

/**
 * Run `deno run -A main.ts ...args` and collect the result. The `--out`
 * file is read after the process ended; its temp dir is removed.
 */
export async function pawl(
  args: readonly string[],
  options: PawlOptions = {},
): Promise<PawlResult> {
  const twin = Deno.env.get(TWIN_MAIN_ENV);
  if (twin === undefined || twin === "" || options.main !== undefined) {
    return await pawlOnce(args, options);
  }
  return await pawlTwice(twin, args, options);
}

/**
 * Run `args` on the `main.ts` of `twin`, then on this one; throw unless
 * both give the same exit code, standard output, `--out` file and seed
 * ledger rows.
 */
async function pawlTwice(
  twin: string,
  args: readonly string[],
  options: PawlOptions,
): Promise<PawlResult> {
  // The twin appends to a copy of the ledger, so both append to the same.
  const at = args.indexOf("--ledger");
  const ledger = at < 0 ? undefined : args[at + 1];
  const dir = await Deno.makeTempDir({ prefix: "pawl-twin-" });
  const twinLedger = `${dir}/ledger.jsonl`;
  const read = (path: string) => Deno.readTextFile(path).catch(() => "");
  try {
    if (ledger !== undefined && await Deno.stat(ledger).catch(() => null)) {
      await Deno.copyFile(ledger, twinLedger);
    }
    // The twin writes its own `--out` file (a fresh one, or its own copy of
    // the stale one), so the second run starts from what the first found.
    const before = await pawlOnce(
      ledger === undefined ? args : args.with(at + 1, twinLedger),
      { ...options, main: twin, out: options.out !== false },
      twin.slice(0, twin.lastIndexOf("/")),
    );
    const after = await pawlOnce(args, options);
    const differs = (
      [
        ["exit code", String(before.code), String(after.code)],
        ["standard output", before.stdout, after.stdout],
        ["--out file", before.outText ?? "", after.outText ?? ""],
        ...(ledger === undefined
          ? []
          : [["ledger", await read(twinLedger), await read(ledger)] as const]),
      ] as const
    ).filter(([, a, b]) => a !== b);
    if (differs.length > 0) {
      throw new Error(
        `The verdicts of "${twin}" and "${ROOT}/main.ts" differ for ${
          JSON.stringify(args)
        }: ${
          differs.map(([what, a, b]) =>
            `${what}\n--- before\n${a.slice(0, 4000)}\n--- after\n${
              b.slice(0, 4000)
            }`
          ).join("\n")
        }`,
      );
    }
    return after;
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

async function pawlOnce(
  args: readonly string[],
  options: PawlOptions,
  cwd = ROOT,
): Promise<PawlResult> {
  let outDir: string | undefined;
  let outPath: string | undefined;
  if (typeof options.out === "string") {
    outPath = options.out;
  } else if (options.out !== false) {
    outDir = await Deno.makeTempDir({ prefix: "pawl-e2e-out-" });
    outPath = `${outDir}/verdict.json`;
  }
  try {
    if (outPath !== undefined && options.stale !== undefined) {
      await Deno.writeTextFile(outPath, options.stale);
    }
    const argv = [
      ...(options.wrapper ?? []),
      Deno.execPath(),
      "run",
      "-A",
      ...(options.denoFlags ?? []),
      options.main ?? `${ROOT}/main.ts`,
      ...args,
      ...(outPath === undefined ? [] : ["--out", outPath]),
    ];
    // Each run leases a sandbox uid of its own, so runs from test files
    // that `deno test --parallel` runs side by side may overlap.
    const started = performance.now();
    const output = await new Deno.Command(argv[0]!, {
      args: argv.slice(1),
      // A twin checkout runs with its own configuration and packages.
      cwd,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      ...(options.clearEnv === true
        ? { clearEnv: true, env: { ...activeMutantEnv(), ...options.env } }
        : {
          env: {
            NO_COLOR: "1",
            PAWL_SANDBOX_UIDS: E2E_SANDBOX_UIDS,
            ...(options.env ?? {}),
          },
        }),
    }).output();
    const ms = performance.now() - started;
    let outText: string | undefined;
    if (outPath !== undefined) {
      outText = await Deno.readTextFile(outPath).catch(() => undefined);
    }
    let verdict: VerdictJson | undefined;
    try {
      verdict = outText === undefined ? undefined : JSON.parse(outText);
    } catch {
      verdict = undefined;
    }
    const decoder = new TextDecoder();
    return {
      code: output.code,
      stdout: decoder.decode(output.stdout),
      stderr: decoder.decode(output.stderr),
      outText,
      verdict,
      outPath,
      ms,
    };
  } finally {
    if (outDir !== undefined) await Deno.remove(outDir, { recursive: true });
  }
}

/** Options for {@linkcode check}. */
export interface CheckOptions extends PawlOptions {
  /** `--now` (default {@linkcode NOW}). */
  now?: string;
  /** Base revision (default `main`). */
  base?: string;
  /** More CLI arguments. */
  extra?: readonly string[];
  /** `check` (default) or `diff`. */
  command?: "check" | "diff";
  /** Pass `--quiet` (default true). */
  quiet?: boolean;
}

/** `pawl check --repo dir --base main --head head --now NOW --quiet ...extra`. */
export function check(
  repo: string,
  head: string,
  options: CheckOptions = {},
): Promise<PawlResult> {
  return pawl([
    options.command ?? "check",
    "--repo",
    repo,
    "--base",
    options.base ?? "main",
    "--head",
    head,
    "--now",
    options.now ?? NOW,
    ...(options.quiet === false ? [] : ["--quiet"]),
    ...(options.extra ?? []),
  ], options);
}

/** The blocking findings of a verdict. */
export function blocking(verdict: VerdictJson | undefined): FindingJson[] {
  return (verdict?.findings ?? []).filter((f) => f.blocking);
}

/** Sorted unique rule ids of findings. */
export function rules(findings: readonly FindingJson[]): string[] {
  return [...new Set(findings.map((f) => f.rule))].sort();
}

/** A readable dump of a run, for assertion messages. */
export function explain(result: PawlResult): string {
  return `exit ${result.code}\n--- stderr\n${
    result.stderr.slice(-3000)
  }\n--- out\n${(result.outText ?? "(none)").slice(0, 6000)}`;
}

/** Map `items` through `fn` with at most `limit` calls in flight, keeping order. */
export async function mapPool<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index]!);
    }
  };
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, worker),
  );
  return results;
}

/** Live (not zombie) processes of `uid`, as "pid command" lines. */
export async function processesOf(uid: number): Promise<string[]> {
  const out = await new Deno.Command("ps", {
    args: ["-u", String(uid), "-o", "pid=,stat=,args="],
    stdout: "piped",
    stderr: "null",
  }).output();
  const lines: string[] = [];
  for (const line of new TextDecoder().decode(out.stdout).split("\n")) {
    const match = /^\s*(\d+)\s+(\S+)\s+(.*)$/.exec(line);
    if (match === null || match[2]!.startsWith("Z")) continue;
    lines.push(`${match[1]} ${match[3]}`);
  }
  return lines;
}

/**
 * Processes of the uids `first`..`last` that outlived their runs: each uid
 * is looked at while holding its lease lock (as pawl takes it), so a run
 * from another checkout that is using the uid right now is waited for
 * rather than mistaken for a leftover.
 */
export async function leftoversOf(
  first: number,
  last: number,
): Promise<string[]> {
  const found: string[] = [];
  for (let uid = first; uid <= last; uid++) {
    using lock = await Deno.open(`${DEFAULT_UID_LOCK_DIR}/${uid}.lock`, {
      read: true,
      write: true,
      create: true,
      mode: 0o600,
    });
    await lock.lock(true);
    found.push(...(await processesOf(uid)).map((p) => `uid ${uid}: ${p}`));
  }
  return found;
}
