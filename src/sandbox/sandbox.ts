/**
 * Running untrusted commands. The repository's tests are hostile: they may
 * hang, fork without bound, print gigabytes, reach for the network or for
 * the signing key. A `Sandbox` bounds all of that.
 *
 * @module
 */

/** How strongly the sandbox isolates, strongest first. */
export type IsolationTier =
  /** bubblewrap: own pid, net, ipc, uts and mount namespaces, plus uid drop. */
  | "bwrap"
  /** unshare(1): own pid and net namespaces, plus uid drop. */
  | "unshare"
  /** Only a dedicated unprivileged uid and rlimits (e.g. inside Docker, where the container supplies network and pid limits). */
  | "uid"
  /** No isolation at all; only with an explicit `--isolation none`. */
  | "none";

/** What the sandbox found it can do on this machine. */
export interface IsolationReport {
  /** The tier in use. */
  tier: IsolationTier;
  /** Whether the network is cut off by the sandbox itself. */
  network: "isolated" | "inherited";
  /** uid the tests run as (undefined for tier `none`). */
  uid?: number;
  /** gid the tests run as (undefined for tier `none`). */
  gid?: number;
  /** Human-readable notes (why a stronger tier was unavailable). */
  notes: string[];
}

/** Limits for one sandboxed run. */
export interface SandboxLimits {
  /** Wall-clock limit in milliseconds. */
  timeoutMs: number;
  /** Combined stdout+stderr bytes before the run is killed. */
  maxOutputBytes: number;
  /** RLIMIT_NPROC for the sandbox uid. */
  maxProcesses: number;
  /** RLIMIT_FSIZE in bytes. */
  maxFileBytes: number;
  /** RLIMIT_CPU in seconds. */
  cpuSeconds: number;
  /** RLIMIT_NOFILE. */
  maxOpenFiles: number;
}

/** One command to run inside the sandbox. */
export interface SandboxCommand {
  /** argv; argv[0] is looked up on the sandbox PATH. */
  argv: readonly string[];
  /** Working directory (must be writable by the sandbox uid). */
  cwd: string;
  /** The complete environment (nothing is inherited). */
  env: Readonly<Record<string, string>>;
  /** Directories the command may write (cwd is always writable). */
  writable: readonly string[];
  /**
   * Directories the command may read but not write, made visible even where
   * the sandbox hides the host's (e.g. pawl's plugin under a private /tmp).
   */
  readOnly?: readonly string[];
  /** Limits; defaults apply to omitted fields. */
  limits?: Partial<SandboxLimits>;
  /**
   * `shared` keeps the runner's network for this command alone (a setup
   * step the base allowed it to); `isolated`, the default, gives the
   * command a network namespace of its own where the tier has one.
   */
  network?: "isolated" | "shared";
  /**
   * `background` runs the command at a lower CPU priority (nice 10 for
   * its processes, and for its session's scheduling group where the
   * kernel groups by session): a run beside another whose result comes
   * first takes the cores that one leaves. `normal`, the default, leaves
   * it as pawl's own. Only ever lowered: the command may put its group
   * back to the default, never above.
   */
  priority?: "normal" | "background";
  /** Called with each chunk of output, for progress display (already capped). */
  onOutput?: (chunk: Uint8Array) => void;
}

/** How a sandboxed run ended. */
export interface SandboxResult {
  /** Exit code, or null when killed by a signal. */
  code: number | null;
  /** Signal name when killed. */
  signal: string | null;
  /** True when the wall-clock limit was hit. */
  timedOut: boolean;
  /** True when the output cap was hit. */
  outputExceeded: boolean;
  /** The first and last bytes of combined output, for the report. */
  outputHead: string;
  /** The last bytes of combined output. */
  outputTail: string;
  /** Total bytes of output seen. */
  outputBytes: number;
  /**
   * Set when an interpreter started ahead ({@linkcode Sandbox.prestart})
   * ran the command; the run is the same as a cold one's either way.
   */
  warm?: true;
}

/** Options for {@linkcode Sandbox.prepareDir}. */
export interface PrepareDirOptions {
  /**
   * The tree's files are hard links shared with other copies: hand over
   * its directories only, so the uid may add, remove and rename entries
   * but cannot write a shared file's bytes (it stays root's, mode 0644).
   */
  sharedFiles?: boolean;
}

/** Options for {@linkcode Sandbox.prestart}. */
export interface PrestartOptions {
  /**
   * Told every top-level module name the warm interpreter looked up or
   * loaded beyond a bare interpreter's (see `_warm_python.ts`); returns
   * whether the run may still go warm (false: it starts cold).
   */
  accept: (modules: readonly string[]) => boolean;
}

/** Runs commands in isolation; the real adapter and a fake implement it. */
export interface Sandbox {
  /** What isolation this sandbox provides. */
  readonly isolation: IsolationReport;
  /**
   * Make `dir` (and everything under it) owned and writable by the sandbox
   * uid, so tests can write into their disposable tree. With
   * `sharedFiles`, only the directories are handed over: the files are
   * hard links shared with other copies and stay read-only to the uid.
   */
  prepareDir(dir: string, options?: PrepareDirOptions): Promise<void>;
  /** Run one command to completion (or until a limit kills it). */
  run(command: SandboxCommand): Promise<SandboxResult>;
  /**
   * Start `command`'s interpreter now, before its run is asked for, when
   * it is `<python> -m <module> ...`: it imports what `-m <module>` would
   * before running any code of the repository's, then waits. The next
   * {@linkcode Sandbox.run} takes it over when that command is the same
   * but for the arguments after the module, and `accept` agreed; any other
   * run first kills it. Optional: a sandbox without it runs every command
   * cold, as one that cannot tell does. Settles (never rejects) once the
   * interpreter's process is spawned or the sandbox gave up on it.
   */
  prestart?(command: SandboxCommand, options: PrestartOptions): Promise<void>;
}
