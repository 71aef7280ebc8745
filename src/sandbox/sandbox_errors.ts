/**
 * Errors raised by the real sandbox adapter. Each one means the gate could
 * not decide, never that the tests failed.
 *
 * @module
 */

/**
 * The requested isolation is not available on this machine, e.g. pawl is not
 * running as root, or bubblewrap cannot create namespaces.
 *
 * @example
 * ```ts
 * import { SandboxUnavailableError } from "./sandbox_errors.ts";
 * const error = new SandboxUnavailableError(
 *   'Cannot isolate the tests with "bwrap": "bwrap" was not found',
 * );
 * console.assert(error.name === "SandboxUnavailableError");
 * ```
 */
export class SandboxUnavailableError extends Error {
  /** Why each tier that was tried could not be used. */
  readonly notes: readonly string[];

  /** Create the error with a sentence-case message and the probe notes. */
  constructor(
    message: string,
    options: { notes?: readonly string[]; cause?: unknown } = {},
  ) {
    super(
      message,
      options.cause === undefined ? undefined : { cause: options.cause },
    );
    this.name = "SandboxUnavailableError";
    this.notes = options.notes ?? [];
  }
}

/**
 * A command cannot be run as given: an empty argv, an invalid environment
 * name, a limit that is not a positive integer, or a writable path inside a
 * hidden one.
 */
export class SandboxCommandError extends TypeError {
  /** Create the error with a sentence-case message. */
  constructor(message: string) {
    super(message);
    this.name = "SandboxCommandError";
  }
}

/**
 * Processes of the sandbox uid survived every attempt to kill them, so a
 * later step could be tampered with.
 */
export class SandboxCleanupError extends Error {
  /** The sandbox uid whose processes survived. */
  readonly uid: number;
  /** How many processes were still alive. */
  readonly survivors: number;

  /** Create the error for `survivors` live processes of `uid`. */
  constructor(uid: number, survivors: number) {
    super(
      `Cannot stop the processes of uid ${uid}: ${survivors} still running after repeated SIGKILL`,
    );
    this.name = "SandboxCleanupError";
    this.uid = uid;
    this.survivors = survivors;
  }
}

/**
 * A sandbox uid range (`--sandbox-uids`, `PAWL_SANDBOX_UIDS`) that does not
 * read as `FIRST-LAST`: a usage error.
 */
export class SandboxUidRangeError extends TypeError {
  /** Create the error with a sentence-case message. */
  constructor(message: string) {
    super(message);
    this.name = "SandboxUidRangeError";
  }
}

/**
 * Every uid of the range was leased by other pawl runs for the whole wait,
 * so this judgement has no uid of its own to run the tests as.
 */
export class SandboxUidsBusyError extends Error {
  /** First uid of the range. */
  readonly first: number;
  /** Last uid of the range. */
  readonly last: number;

  /**
   * Create the error for the range `first`–`last` and its lock directory;
   * `elsewhere` of its uids were last found held by pawl runs that lock
   * elsewhere (another container on the same kernel).
   */
  constructor(
    range: { first: number; last: number },
    lockDir: string,
    waitedMs: number,
    elsewhere = 0,
  ) {
    const count = range.last - range.first + 1;
    const wider = `${range.first}-${range.first + Math.max(2 * count, 64) - 1}`;
    const where = elsewhere === 0
      ? `locks in "${lockDir}"`
      : `locks in "${lockDir}"; ${elsewhere} by pawl in another container on this kernel, or by processes of the uid this pawl cannot see`;
    super(
      `Cannot lease a sandbox uid: all ${count} of ${range.first}-${range.last} are held by other pawl runs (${where}) and none came free within ${
        Math.round(waitedMs / 1000)
      } s; widen the range with "--sandbox-uids ${wider}" or PAWL_SANDBOX_UIDS=${wider} (uids no one else uses), or run fewer judgements at once`,
    );
    this.name = "SandboxUidsBusyError";
    this.first = range.first;
    this.last = range.last;
  }
}

/**
 * The leased uid's anchor died (the tests may kill it where they share its
 * pid namespace) and, before pawl could claim the uid again, another pawl on
 * the same kernel took it: the two runs may have shared it.
 */
export class SandboxUidLostError extends Error {
  /** The sandbox uid. */
  readonly uid: number;

  /** Create the error for `uid`. */
  constructor(uid: number) {
    super(
      `Cannot keep sandbox uid ${uid}: the process marking it as this run's was killed (the tests can, at the "uid" tier) and another pawl on this kernel took the uid before pawl marked it again, so the runs may have shared it; run it again`,
    );
    this.name = "SandboxUidLostError";
    this.uid = uid;
  }
}

/**
 * The tests were killed by a signal pawl did not send (another process, an
 * administrator, the kernel's out-of-memory killer): the run says nothing
 * about the pull request.
 */
export class SandboxInterruptedError extends Error {
  /** The signal's name, e.g. `SIGKILL`. */
  readonly signal: string;

  /** Create the error for `program` killed by `signal`. */
  constructor(program: string, signal: string) {
    super(
      `Cannot judge the test run: "${program}" was killed by ${signal}, which pawl did not send (another process, an administrator or the out-of-memory killer), so the run says nothing about the pull request; run it again`,
    );
    this.name = "SandboxInterruptedError";
    this.signal = signal;
  }
}
