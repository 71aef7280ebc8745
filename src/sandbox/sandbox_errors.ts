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
