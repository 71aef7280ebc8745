/**
 * Small process helpers for the sandbox adapter: locating system tools by
 * absolute path, running a trusted helper with a deadline, killing a process
 * group, and scanning /proc.
 *
 * @module
 */
import { SandboxCleanupError } from "./sandbox_errors.ts";
import { findExecutable, SYSTEM_DIRS } from "./find_executable.ts";

export { findExecutable, SYSTEM_DIRS };

/** What a helper printed and how it ended. */
export interface Captured {
  /** Exit code (128 + signal number when killed). */
  code: number;
  /** Signal name when killed. */
  signal: string | null;
  /** Standard output, decoded. */
  stdout: string;
  /** Standard error, decoded and trimmed. */
  stderr: string;
  /** True when the deadline killed it. */
  timedOut: boolean;
}

/** Options for {@linkcode runCaptured}. */
export interface RunCapturedOptions {
  /** Kill the helper's process group after this many milliseconds. */
  timeoutMs?: number;
  /** Working directory (default `/`). */
  cwd?: string;
  /** The complete environment (default empty). */
  env?: Record<string, string>;
  /** Told once the process is started. */
  onSpawn?: () => void;
}

/**
 * Run a trusted helper (`id`, `chown`, a probe) to completion with an empty
 * environment and a deadline. Its output is small by construction.
 */
export async function runCaptured(
  program: string,
  args: readonly string[],
  options: RunCapturedOptions = {},
): Promise<Captured> {
  const child = new Deno.Command(program, {
    args: [...args],
    cwd: options.cwd ?? "/",
    clearEnv: true,
    env: options.env ?? {},
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    detached: true,
  }).spawn();
  options.onSpawn?.();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    void killProcessGroup(child.pid);
  }, options.timeoutMs ?? 10_000);
  try {
    const output = await child.output();
    const decoder = new TextDecoder();
    return {
      code: output.code,
      signal: output.signal,
      stdout: decoder.decode(output.stdout),
      stderr: decoder.decode(output.stderr).trim(),
      timedOut,
    };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * SIGKILL every process in the group led by `pgid`. `Deno.kill` needs an
 * unrestricted `--allow-run`; with a list, fall back to kill(1).
 */
export async function killProcessGroup(pgid: number): Promise<void> {
  if (!Number.isInteger(pgid) || pgid <= 1) return;
  try {
    Deno.kill(-pgid, "SIGKILL");
  } catch (error) {
    if (!(error instanceof Deno.errors.NotCapable)) return; // ESRCH: gone
    const kill = await findExecutable("kill", SYSTEM_DIRS);
    if (kill === undefined) return;
    const child = new Deno.Command(kill, {
      args: ["-KILL", "--", `-${pgid}`],
      clearEnv: true,
      env: {},
      stdin: "null",
      stdout: "null",
      stderr: "null",
    }).spawn();
    await child.status;
  }
}

/**
 * SIGKILL every process of `uid`, as that uid (`kill -1` reaches exactly
 * the processes it may signal, in every pid namespace below ours), until
 * /proc shows none alive. Throws {@linkcode SandboxCleanupError} when some
 * survive repeated attempts, and a `RangeError` for root or a number that
 * is no uid: `kill -1` as root, or as whoever setpriv leaves in place for
 * -1, would end every process on the machine. (Only the uid decides what
 * `kill` may signal.)
 */
export async function sweepUid(
  uid: number,
  gid: number,
  tools: { setpriv: string; kill: string },
): Promise<void> {
  if (!Number.isInteger(uid) || uid < 1 || uid >= 4294967295) {
    throw new RangeError(
      `Refusing to sweep the processes of uid ${uid}: only a sandbox's own uid may be swept`,
    );
  }
  for (let attempt = 1;; attempt++) {
    await runCaptured(tools.setpriv, [
      `--reuid=${uid}`,
      `--regid=${gid}`,
      "--clear-groups",
      "--",
      tools.kill,
      "-KILL", // procps kill(1) mis-parses "-s KILL -1" and "-- -1"
      "-1",
    ], { timeoutMs: 10_000 });
    const live = await liveProcessesOf(uid);
    if (live.length === 0) return;
    if (attempt >= 20) throw new SandboxCleanupError(uid, live.length);
    await delay(5 * attempt);
  }
}

/** Resolve after `ms` milliseconds, or as soon as `signal` aborts. */
export function delay(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });
}

/** What /proc shows of one uid's processes. */
export interface UidScan {
  /** Live (not zombie) processes whose real uid is the uid. */
  live: { pid: number; gid: number }[];
  /**
   * Its tasks, as the kernel counts them against `RLIMIT_NPROC`: every
   * thread of those processes, and each zombie not yet reaped.
   */
  tasks: number;
}

/**
 * The processes of `uid` that /proc shows (this pid namespace's and those
 * below it), from one scan. Processes that vanish during it are skipped.
 */
export async function scanUid(uid: number): Promise<UidScan> {
  const names: string[] = [];
  for await (const entry of Deno.readDir("/proc")) {
    if (/^[0-9]+$/.test(entry.name)) names.push(entry.name);
  }
  // Read at once: one wait for all of them, not one per process.
  const statuses = await Promise.all(
    names.map((name) =>
      Deno.readTextFile(`/proc/${name}/status`).catch(() => undefined)
    ),
  );
  const scan: UidScan = { live: [], tasks: 0 };
  for (const [i, status] of statuses.entries()) {
    if (status === undefined) continue;
    if (/^Uid:\s*([0-9]+)/m.exec(status)?.[1] !== String(uid)) continue;
    const state = /^State:\s*(\S)/m.exec(status)?.[1];
    const threads = Number(/^Threads:\s*([0-9]+)/m.exec(status)?.[1] ?? 1);
    scan.tasks += Math.max(threads, 1);
    if (state === "Z" || state === "X") continue;
    const gid = Number(/^Gid:\s*([0-9]+)/m.exec(status)?.[1] ?? -1);
    scan.live.push({ pid: Number(names[i]), gid });
  }
  return scan;
}

/**
 * The pids of live (not zombie) processes whose real uid is `uid`, from a
 * scan of /proc. Processes that vanish during the scan are skipped.
 */
export async function liveProcessesOf(uid: number): Promise<number[]> {
  return (await scanUid(uid)).live.map((p) => p.pid);
}
