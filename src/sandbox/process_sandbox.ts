/**
 * The real `Sandbox`: runs each command under bubblewrap or unshare(1) as a
 * dedicated uid with rlimits, a wall-clock limit and an output cap, and
 * kills every process of that uid when the command ends.
 *
 * @module
 */
import {
  ALWAYS_HIDDEN,
  DEFAULT_LIMITS,
  DEFAULT_PATH,
  DEFAULT_TMP_BYTES,
} from "./_defaults.ts";
import {
  delay,
  killProcessGroup,
  liveProcessesOf,
  runCaptured,
  sweepUid,
  SYSTEM_DIRS,
} from "./_exec.ts";
import { lchown } from "node:fs/promises";
import { OutputCollector } from "./_output_collector.ts";
import { buildSandboxArgv } from "./_sandbox_argv.ts";
import {
  canDropBoundingSet,
  findTools,
  type FoundTools,
  resolveHidden,
} from "./_setup.ts";
import {
  type IsolationRequest,
  probeIsolation,
  type ProbeIsolationOptions,
} from "./probe_isolation.ts";
import {
  handoverBytes,
  MAX_WARM_REPORT_BYTES,
  parseWarmReport,
  warmArgv,
  warmModule,
} from "./_warm_python.ts";
import type {
  IsolationReport,
  PrepareDirOptions,
  PrestartOptions,
  Sandbox,
  SandboxCommand,
  SandboxLimits,
  SandboxResult,
} from "./sandbox.ts";
import {
  SandboxCommandError,
  SandboxInterruptedError,
  SandboxUnavailableError,
} from "./sandbox_errors.ts";
import type { UidLease } from "./lease_uid.ts";

/**
 * Limits applied to the fields a command leaves out: 10 min, 16 MiB of
 * output, 512 processes, 1 GiB files, 900 CPU seconds, 1024 open files.
 */
export const DEFAULT_SANDBOX_LIMITS: Readonly<SandboxLimits> = DEFAULT_LIMITS;

/** Options for {@linkcode ProcessSandbox.create}. */
export interface ProcessSandboxOptions
  extends Omit<ProbeIsolationOptions, "requested"> {
  /** The tier to use, or `auto` (the default) for the strongest that works. */
  requested?: IsolationRequest;
  /** Size in bytes of the private /tmp and /dev/shm under bwrap (default 512 MiB). */
  tmpBytes?: number;
  /**
   * How long to keep reading output after the command and the uid's
   * processes are gone, before giving up on the pipes (default 1000 ms).
   * Only matters at tier `none`, where escaped children cannot be swept.
   */
  drainGraceMs?: number;
  /**
   * How long a run waits for the interpreter {@linkcode ProcessSandbox.prestart}
   * held for it to report, before it kills it and starts cold (default
   * {@linkcode HELD_REPORT_WAIT_MS}).
   */
  heldReportWaitMs?: number;
  /**
   * The lease of the sandbox uid (its uid and gid are the default): every
   * sweep of the uid goes through it, sparing the process that marks the
   * uid as the lease's, and that process is added to the runs' process
   * limit. Without it the sweeps kill every process of the uid.
   */
  lease?: UidLease;
}

/**
 * Runs untrusted commands isolated as strongly as {@linkcode probeIsolation}
 * found possible. Runs on one instance are serialised, because the cleanup
 * kills every process of the sandbox uid: give concurrent gates distinct
 * uids.
 *
 * @example
 * ```ts ignore
 * const sandbox = await ProcessSandbox.create({ hiddenPaths: ["/etc/pawl"] });
 * await sandbox.prepareDir("/tmp/run-1");
 * const result = await sandbox.run({
 *   argv: ["python3", "-m", "pytest"],
 *   cwd: "/tmp/run-1",
 *   env: { PATH: "/usr/bin:/bin", HOME: "/tmp/run-1" },
 *   writable: [],
 *   limits: { timeoutMs: 60_000 },
 * });
 * ```
 */
export class ProcessSandbox implements Sandbox {
  /** What isolation this sandbox provides. */
  readonly isolation: IsolationReport;
  #tools: FoundTools;
  #hiddenPaths: readonly string[];
  #uid: number;
  #gid: number;
  #tmpBytes: number;
  #graceMs: number;
  #heldWaitMs: number;
  #dropBoundingSet: boolean;
  #lease: UidLease | undefined;
  #queue: Promise<unknown> = Promise.resolve();
  /** Processes started as the uid so far (each run's wrapper counts one). */
  #spawns = 0;
  /**
   * `#spawns` as it was when a sweep last found the uid empty, with no
   * spawn since it began; -1 while a sweep is under way or after one
   * failed.
   */
  #sweptAt = -1;
  /** The interpreter {@linkcode prestart} started, until a run takes it or it is killed. */
  #held: Held | undefined;

  private constructor(
    isolation: IsolationReport,
    tools: FoundTools,
    dropBoundingSet: boolean,
    options: ProcessSandboxOptions,
  ) {
    this.#dropBoundingSet = dropBoundingSet;
    this.isolation = isolation;
    this.#tools = tools;
    this.#hiddenPaths = [...ALWAYS_HIDDEN, ...(options.hiddenPaths ?? [])];
    this.#uid = isolation.uid ?? -1;
    this.#gid = isolation.gid ?? -1;
    this.#tmpBytes = options.tmpBytes ?? DEFAULT_TMP_BYTES;
    this.#graceMs = options.drainGraceMs ?? 1000;
    this.#heldWaitMs = options.heldReportWaitMs ?? HELD_REPORT_WAIT_MS;
    this.#lease = options.lease;
  }

  /**
   * Probe the machine and return a sandbox at the requested tier. Throws
   * {@linkcode SandboxUnavailableError} when the request cannot be met.
   */
  static async create(
    options: ProcessSandboxOptions = {},
  ): Promise<ProcessSandbox> {
    const lease = options.lease;
    const isolation = await probeIsolation({
      ...options,
      ...(lease === undefined
        ? {}
        : { uid: options.uid ?? lease.uid, gid: options.gid ?? lease.gid }),
      requested: options.requested ?? "auto",
    });
    const tools = await findTools(options.toolDirs ?? SYSTEM_DIRS);
    const sandbox = new ProcessSandbox(
      isolation,
      tools,
      await canDropBoundingSet(),
      options,
    );
    // Whatever still runs as the uid is killed now, while the sandbox is
    // made ahead of its first run, instead of in that run's start-up. A
    // uid /proc shows no live process of needs no kill: only a process of
    // the uid could start another.
    await sandbox.#sweepIfLive();
    return sandbox;
  }

  /**
   * Hide `paths` from every run from now on too, for a sandbox made
   * before they were known (the probe ran without them: it runs nothing
   * of the repository's).
   */
  hide(paths: readonly string[]): void {
    this.#hiddenPaths = [...this.#hiddenPaths, ...paths];
  }

  /**
   * `chown -R` `dir` to the sandbox uid (symlinks are not followed); with
   * `sharedFiles` only its real directories. A no-op at tier `none`.
   */
  async prepareDir(
    dir: string,
    options: PrepareDirOptions = {},
  ): Promise<void> {
    if (this.isolation.tier === "none") return;
    if (options.sharedFiles === true) {
      await chownDirectories(dir, this.#uid, this.#gid);
      return;
    }
    // A small tree (a report directory, a home, a small repository's
    // copy) is handed over here: a process each time costs more.
    const levels = await smallTree(dir, IN_PROCESS_CHOWN_MAX);
    if (levels !== undefined) {
      try {
        // Deepest first: while an entry is handed over, every directory
        // above it is still root's, so nothing running as the uid could
        // swap one for a symlink under the walk.
        for (const level of levels.toReversed()) {
          await Promise.all(
            level.map((path) => lchown(path, this.#uid, this.#gid)),
          );
        }
      } catch (error) {
        throw new SandboxUnavailableError(
          `Cannot prepare "${dir}" for uid ${this.#uid}: ${
            error instanceof Error ? error.message : String(error)
          }`,
          { cause: error },
        );
      }
      return;
    }
    const chown = this.#tools.chown;
    if (chown === undefined) {
      throw new SandboxUnavailableError(
        `Cannot prepare "${dir}" for uid ${this.#uid}: "chown" was not found`,
      );
    }
    const out = await runCaptured(
      chown,
      ["-R", "-P", "-h", "--", `${this.#uid}:${this.#gid}`, dir],
      { timeoutMs: 300_000 },
    );
    if (out.code !== 0) {
      throw new SandboxUnavailableError(
        `Cannot prepare "${dir}" for uid ${this.#uid}: chown exited with code ${out.code}: ${
          out.stderr.slice(0, 500)
        }`,
      );
    }
  }

  /** Run one command to completion, or until a limit kills it. */
  run(command: SandboxCommand): Promise<SandboxResult> {
    const next = this.#queue.then(() => this.#run(command));
    this.#queue = next.catch(() => {});
    return next;
  }

  /**
   * Start `command`'s interpreter now, held before it runs anything of the
   * repository's (see `_warm_python.ts`); a no-op unless the command is
   * `<python> -m <module> ...`. Whatever was held before is killed.
   * Settles once the process is spawned, or was not; never rejects.
   */
  prestart(command: SandboxCommand, options: PrestartOptions): Promise<void> {
    if (warmModule(command.argv) === undefined) return Promise.resolve();
    const next = this.#queue.then(() => this.#prestart(command, options));
    this.#queue = next.catch(() => {});
    return next.then(() => {}, () => {});
  }

  /**
   * Kill the held interpreter, if any, and sweep the uid; call before the
   * uid is given up. Never throws for a missing one.
   */
  discardHeld(): Promise<void> {
    const next = this.#queue.then(async () => {
      const held = this.#held;
      this.#held = undefined;
      if (held === undefined) return;
      await killHeld(held);
      await this.#sweep();
    });
    this.#queue = next.catch(() => {});
    return next;
  }

  async #prestart(
    command: SandboxCommand,
    options: PrestartOptions,
  ): Promise<void> {
    const old = this.#held;
    this.#held = undefined;
    if (old !== undefined) await killHeld(old);
    const warm = warmArgv(command.argv);
    const start = await this.#wrap({ ...command, argv: warm });
    if (this.#sweptAt !== this.#spawns || this.#lease?.marked === false) {
      await this.#sweep();
    }
    this.#spawns++;
    const child = new Deno.Command(start.argv[0]!, {
      args: start.argv.slice(1),
      cwd: start.cwd,
      clearEnv: true,
      env: {},
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
      detached: true,
    }).spawn();
    const stdout = child.stdout.getReader();
    const stderr = child.stderr.getReader();
    const stderrFirst = stderr.read();
    const state = { spoiled: false };
    // Anything on stderr before the handover, or an exit, means the run
    // cannot be the cold one's: it goes cold.
    stderrFirst.then(() => state.spoiled = true, () => state.spoiled = true);
    child.status.then(() => state.spoiled = true, () => state.spoiled = true);
    const ready = (async () => {
      const line = await readReportLine(stdout, MAX_WARM_REPORT_BYTES);
      const report = line === undefined ? undefined : parseWarmReport(line);
      if (report === undefined || !report.ready) return false;
      try {
        return options.accept(report.modules);
      } catch {
        return false;
      }
    })().catch(() => false);
    this.#held = {
      child,
      wrapper: wrapperKey(start.argv, warm.length),
      program: command.argv[0]!,
      module: command.argv[2]!,
      stdout,
      stderr,
      stderrFirst,
      ready,
      state,
    };
  }

  async #run(command: SandboxCommand): Promise<SandboxResult> {
    const program = command.argv[0] ?? "";
    const wrapped = await this.#wrap(command);
    const { limits, cwd, argv } = wrapped;
    const held = this.#held;
    this.#held = undefined;
    if (held !== undefined) {
      const taken = await takeOver(held, command.argv, argv, this.#heldWaitMs);
      if (taken) {
        return await this.#supervise(held.child, command, limits, held);
      }
      await killHeld(held);
    }
    // Nothing a previous run left behind may share this run's process
    // budget: the uid is swept unless a sweep found it empty since the
    // last process started as it (the previous run's own final sweep, or
    // the one when the sandbox was made). Only a process of the uid can
    // start another, and `kill -1` reaches every one at once. A lease's
    // mark that died (the tests killed it) is renewed first.
    if (this.#sweptAt !== this.#spawns || this.#lease?.marked === false) {
      await this.#sweep();
    }
    let child: Deno.ChildProcess;
    this.#spawns++;
    try {
      child = new Deno.Command(argv[0]!, {
        args: argv.slice(1),
        cwd,
        clearEnv: true,
        env: {},
        stdin: "null",
        stdout: "piped",
        stderr: "piped",
        detached: true, // setsid: the child leads its own process group
      }).spawn();
    } catch (error) {
      throw new SandboxUnavailableError(
        `Cannot run "${program}" in the sandbox: ${
          error instanceof Error ? error.message : String(error)
        }`,
        { cause: error },
      );
    }
    return await this.#supervise(child, command, limits);
  }

  /** The full argv of `command` in this sandbox, with its limits and cwd. */
  async #wrap(
    command: SandboxCommand,
  ): Promise<{ argv: string[]; limits: SandboxLimits; cwd: string }> {
    const program = command.argv[0] ?? "";
    const limits = resolveLimits(program, command.limits);
    const env: Record<string, string> = { ...command.env };
    env["PATH"] ??= DEFAULT_PATH;
    const cwd = await canonicalDir(program, command.cwd, "working directory");
    const writable: string[] = [];
    for (const dir of command.writable) {
      writable.push(await canonicalDir(program, dir, "writable directory"));
    }
    const readOnly: string[] = [];
    for (const dir of command.readOnly ?? []) {
      readOnly.push(await canonicalDir(program, dir, "read-only directory"));
    }
    const argv = buildSandboxArgv({
      tier: this.isolation.tier,
      uid: this.#uid,
      gid: this.#gid,
      tools: {
        ...this.#tools,
        prlimit: required(this.#tools.prlimit, "prlimit"),
        env: required(this.#tools.env, "env"),
      },
      cwd,
      writable,
      readOnly,
      hidden: await resolveHidden(this.#hiddenPaths),
      env,
      argv: command.argv,
      limits,
      residentProcesses: this.#lease === undefined ? 0 : 1,
      shareNetwork: command.network === "shared",
      background: command.priority === "background",
      tmpBytes: this.#tmpBytes,
      dropBoundingSet: this.#dropBoundingSet,
    });
    return { argv, limits, cwd };
  }

  async #supervise(
    child: Deno.ChildProcess,
    command: SandboxCommand,
    limits: SandboxLimits,
    held?: Held,
  ): Promise<SandboxResult> {
    const collector = new OutputCollector(limits.maxOutputBytes);
    let timedOut = false;
    let outputExceeded = false;
    let callbackFailed = false;
    let callbackError: unknown;
    let stopping: Promise<void> | undefined;
    const stop = (): Promise<void> => stopping ??= this.#kill(child.pid);
    const readers: ReadableStreamDefaultReader<Uint8Array>[] = [];
    const pump = async (
      reader: ReadableStreamDefaultReader<Uint8Array>,
      pending?: Promise<ReadableStreamReadResult<Uint8Array>>,
    ): Promise<void> => {
      readers.push(reader);
      try {
        for (let first = pending;; first = undefined) {
          const { done, value } = await (first ?? reader.read());
          if (done) return;
          const accepted = collector.add(value);
          if (accepted.length > 0 && command.onOutput !== undefined) {
            try {
              command.onOutput(accepted);
            } catch (error) {
              if (!callbackFailed) callbackError = error;
              callbackFailed = true;
            }
          }
          if (collector.exceeded && !outputExceeded) {
            outputExceeded = true;
            stop().catch(() => {}); // surfaced below
          }
        }
      } catch {
        // the stream was cancelled after the grace period
      }
    };
    const pumps = held === undefined
      ? Promise.all([
        pump(child.stdout.getReader()),
        pump(child.stderr.getReader()),
      ])
      : Promise.all([
        pump(held.stdout),
        pump(held.stderr, held.stderrFirst),
      ]);
    const timer = setTimeout(() => {
      timedOut = true;
      stop().catch(() => {}); // surfaced below
    }, limits.timeoutMs);
    let status: Deno.CommandStatus;
    try {
      status = await child.status;
    } finally {
      clearTimeout(timer);
    }
    let cleanupFailed = false;
    let cleanupError: unknown;
    try {
      if (stopping !== undefined) await stopping;
      if (this.isolation.tier === "none") {
        // No uid to sweep: take down what stayed in the group.
        await killProcessGroup(child.pid);
      }
      await this.#sweep();
    } catch (error) {
      cleanupFailed = true;
      cleanupError = error;
    }
    await this.#drain(pumps, readers);
    if (cleanupFailed) throw cleanupError;
    if (callbackFailed) throw callbackError;
    const outside = stopping === undefined ? outsideSignal(status) : undefined;
    if (outside !== undefined) {
      throw new SandboxInterruptedError(command.argv[0] ?? "", outside);
    }
    const decoder = new TextDecoder();
    return {
      code: status.signal === null ? status.code : null,
      signal: status.signal,
      timedOut,
      outputExceeded,
      outputHead: decoder.decode(collector.headBytes()),
      outputTail: decoder.decode(collector.tailBytes()),
      outputBytes: collector.seenBytes,
      ...(held === undefined ? {} : { warm: true as const }),
    };
  }

  /**
   * Kill the command's process group, then every process of the uid. The
   * group holds bwrap (or unshare) and, under bwrap, the pid namespace's
   * init, whose death ends the namespace and everything in it; the uid
   * sweep then catches anything that lived outside it.
   */
  async #kill(pid: number): Promise<void> {
    await killProcessGroup(pid);
    await this.#sweep();
  }

  /** {@linkcode ProcessSandbox.#sweep}, when /proc shows a live process of the uid. */
  async #sweepIfLive(): Promise<void> {
    if (this.isolation.tier === "none") return;
    const spawns = this.#spawns;
    const lease = this.#lease;
    const live = lease === undefined
      ? (await liveProcessesOf(this.#uid)).length > 0
      : !lease.marked || (await lease.othersRunning()).length > 0;
    if (live) return await this.#sweep();
    if (this.#spawns === spawns) this.#sweptAt = spawns;
  }

  /**
   * SIGKILL every process of the sandbox uid ({@linkcode sweepUid}), but
   * the lease's mark ({@linkcode UidLease.sweep}).
   */
  async #sweep(): Promise<void> {
    if (this.isolation.tier === "none") return;
    const spawns = this.#spawns;
    this.#sweptAt = -1;
    if (this.#lease !== undefined) {
      await this.#lease.sweep();
    } else {
      await sweepUid(this.#uid, this.#gid, {
        setpriv: required(this.#tools.setpriv, "setpriv"),
        kill: required(this.#tools.kill, "kill"),
      });
    }
    if (this.#spawns === spawns) this.#sweptAt = spawns;
  }

  /** Finish reading; give up on pipes still held open after the grace period. */
  async #drain(
    pumps: Promise<unknown>,
    readers: readonly ReadableStreamDefaultReader<Uint8Array>[],
  ): Promise<void> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const grace = new Promise<"grace">((resolve) => {
      timer = setTimeout(() => resolve("grace"), this.#graceMs);
    });
    try {
      const first = await Promise.race([pumps.then(() => "done"), grace]);
      if (first === "grace") {
        await Promise.all(readers.map((r) => r.cancel().catch(() => {})));
        await pumps;
      }
    } finally {
      clearTimeout(timer);
    }
  }
}

/** An interpreter started ahead of its run ({@linkcode ProcessSandbox.prestart}). */
interface Held {
  child: Deno.ChildProcess;
  /** Its full argv without the command's own: what the run's must equal. */
  wrapper: string;
  program: string;
  module: string;
  stdout: ReadableStreamDefaultReader<Uint8Array>;
  stderr: ReadableStreamDefaultReader<Uint8Array>;
  /** The first read of stderr, pending until the run reads on from it. */
  stderrFirst: Promise<ReadableStreamReadResult<Uint8Array>>;
  /** Whether it reported in time, imported the module, and was accepted. */
  ready: Promise<boolean>;
  /** Set once it wrote to stderr or exited. */
  state: { spoiled: boolean };
}

/**
 * How long a run waits for its held interpreter to report before it kills
 * it and starts cold: the import is well under a second.
 */
export const HELD_REPORT_WAIT_MS = 10_000;

/**
 * Hand `argv` to `held` when it is the same run but for the arguments
 * after the module (same wrapper: sandbox, uid, limits, environment, cwd
 * and mounts) and the held interpreter is ready and unspoiled.
 */
async function takeOver(
  held: Held,
  argv: readonly string[],
  full: readonly string[],
  waitMs: number,
): Promise<boolean> {
  if (
    argv[0] !== held.program || warmModule(argv) !== held.module ||
    wrapperKey(full, argv.length) !== held.wrapper
  ) return false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const ready = await Promise.race([
    held.ready,
    new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), waitMs);
    }),
  ]).finally(() => clearTimeout(timer));
  // Let an exit or a write to stderr that already happened be seen.
  await delay(0);
  if (!ready || held.state.spoiled) return false;
  try {
    const writer = held.child.stdin.getWriter();
    await writer.write(handoverBytes(argv));
    await writer.close();
  } catch {
    return false;
  }
  return true;
}

/** Kill a held interpreter's process group and wait for it; never throws. */
async function killHeld(held: Held): Promise<void> {
  await killProcessGroup(held.child.pid).catch(() => {});
  await held.child.status.catch(() => undefined);
  await Promise.all([
    held.stdout.cancel().catch(() => {}),
    held.stderr.cancel().catch(() => {}),
    held.child.stdin.close().catch(() => {}),
  ]);
}

function wrapperKey(full: readonly string[], commandLength: number): string {
  return JSON.stringify(full.slice(0, full.length - commandLength));
}

/**
 * The first line of `reader` (without its newline), or undefined when it
 * ends first, exceeds `max` bytes, or more follows it in the same read.
 */
async function readReportLine(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  max: number,
): Promise<string | undefined> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return undefined;
    const end = value.indexOf(0x0a);
    // Nothing may follow the line before pawl answers it.
    if (end >= 0 && end !== value.length - 1) return undefined;
    const part = end >= 0 ? value.subarray(0, end) : value;
    chunks.push(part);
    total += part.length;
    if (total > max) return undefined;
    if (end >= 0) break;
  }
  const bytes = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    bytes.set(c, at);
    at += c.length;
  }
  return new TextDecoder().decode(bytes);
}

/**
 * Signals that end a run from outside: an administrator, a supervisor, the
 * out-of-memory killer. pawl's own limits are told apart by the caller
 * (pawl knows when it killed) or die of other signals (SIGXCPU, SIGXFSZ).
 */
const OUTSIDE_SIGNALS: ReadonlyMap<number, string> = new Map([
  [9, "SIGKILL"],
  [15, "SIGTERM"],
]);

/**
 * The signal that killed a run pawl did not stop, when it is one from
 * outside: the top process's own death, or the 128+N exit status with
 * which bubblewrap (and a shell) report the death of the command.
 */
function outsideSignal(status: Deno.CommandStatus): string | undefined {
  if (status.signal !== null) {
    return [...OUTSIDE_SIGNALS.values()].includes(status.signal)
      ? status.signal
      : undefined;
  }
  return status.code > 128 ? OUTSIDE_SIGNALS.get(status.code - 128) : undefined;
}

function resolveLimits(
  program: string,
  partial: Partial<SandboxLimits> | undefined,
): SandboxLimits {
  const limits: SandboxLimits = { ...DEFAULT_LIMITS, ...(partial ?? {}) };
  for (const [name, value] of Object.entries(limits)) {
    const min = name === "maxOutputBytes" ? 0 : 1;
    if (!Number.isSafeInteger(value) || value < min) {
      throw new SandboxCommandError(
        `Cannot run "${program}" in the sandbox: limit "${name}" must be an integer of at least ${min}, got "${value}"`,
      );
    }
  }
  return limits;
}

async function canonicalDir(
  program: string,
  path: string,
  what: string,
): Promise<string> {
  if (!path.startsWith("/")) {
    throw new SandboxCommandError(
      `Cannot run "${program}" in the sandbox: ${what} "${path}" is not absolute`,
    );
  }
  try {
    const real = await Deno.realPath(path);
    if ((await Deno.stat(real)).isDirectory) return real;
  } catch {
    // reported below
  }
  throw new SandboxCommandError(
    `Cannot run "${program}" in the sandbox: ${what} "${path}" is not a directory`,
  );
}

function required(path: string | undefined, name: string): string {
  if (path === undefined) {
    throw new SandboxUnavailableError(
      `Cannot run the tests in the sandbox: "${name}" was not found`,
    );
  }
  return path;
}

/**
 * Trees with at most this many entries are handed to the uid by pawl
 * itself (lchown(2) of each entry); larger ones by `chown -R`.
 */
export const IN_PROCESS_CHOWN_MAX = 512;

/**
 * The paths of the tree at `dir` by depth (`[[dir], its entries, ...]`),
 * not following symlinks, when `dir` is a real directory and the tree has
 * at most `max` entries and every directory in it is root's (nothing
 * running as the uid can change the tree under the walk); else undefined.
 */
async function smallTree(
  dir: string,
  max: number,
): Promise<string[][] | undefined> {
  let info: Deno.FileInfo;
  try {
    info = await Deno.lstat(dir);
  } catch {
    return undefined; // chown(1) says what is wrong
  }
  if (!rootOnly(info)) return undefined;
  const levels: string[][] = [[dir]];
  let count = 1;
  for (let dirs = [dir]; dirs.length > 0;) {
    const level: string[] = [];
    const below: string[] = [];
    for (const parent of dirs) {
      for await (const entry of Deno.readDir(parent)) {
        const path = `${parent}/${entry.name}`;
        if (++count > max) return undefined;
        level.push(path);
        if (entry.isDirectory && !entry.isSymlink) below.push(path);
      }
    }
    if (level.length > 0) levels.push(level);
    // Only directories nothing but root can write.
    const safe = await Promise.all(
      below.map((path) => Deno.lstat(path).then(rootOnly, () => false)),
    );
    if (safe.includes(false)) return undefined;
    dirs = below;
  }
  return levels;
}

/** A real directory of root's that others cannot write. */
function rootOnly(info: Deno.FileInfo): boolean {
  return info.isDirectory && info.uid === 0 && ((info.mode ?? 0o2) & 0o2) === 0;
}

/**
 * Give every real directory under `dir` (and `dir`) to `uid:gid`; files
 * and symlinks keep their owner. Called on a fresh copy nothing runs in
 * yet, so the tree cannot change under the walk.
 */
async function chownDirectories(
  dir: string,
  uid: number,
  gid: number,
): Promise<void> {
  const pending = [dir];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    await Deno.chown(next, uid, gid);
    for await (const entry of Deno.readDir(next)) {
      if (entry.isDirectory && !entry.isSymlink) {
        pending.push(`${next}/${entry.name}`);
      }
    }
  }
}
