/**
 * Errors raised when git cannot answer: the gate could not decide.
 *
 * @module
 */

/** Details of the git invocation behind a {@linkcode GitError}. */
export interface GitErrorOptions {
  /** The git arguments (after the hardening `-c` options), for diagnostics. */
  args?: readonly string[];
  /** What git wrote to stderr, trimmed (may be empty). */
  stderr?: string;
  /** git's exit code, when it exited. */
  exitCode?: number;
  /** The underlying error, if any. */
  cause?: unknown;
}

/**
 * git failed or could not answer the question asked, e.g. an unknown
 * revision or a missing object.
 *
 * @example
 * ```ts
 * import { equal } from "node:assert/strict";
 * import { GitError } from "./git_error.ts";
 * const error = new GitError('Cannot resolve revision "main": unknown revision', {
 *   args: ["rev-parse", "--verify", "main^{commit}"],
 *   stderr: "fatal: Needed a single revision",
 *   exitCode: 128,
 * });
 * equal(error.exitCode, 128);
 * ```
 */
export class GitError extends Error {
  /** The git arguments of the failing invocation (empty if none ran). */
  readonly args: readonly string[];
  /** git's stderr, trimmed (empty if none). */
  readonly stderr: string;
  /** git's exit code, if it exited. */
  readonly exitCode: number | undefined;

  /** Create an error with a sentence-case message and the invocation details. */
  constructor(message: string, options: GitErrorOptions = {}) {
    super(
      message,
      options.cause === undefined ? undefined : { cause: options.cause },
    );
    this.name = "GitError";
    this.args = options.args ?? [];
    this.stderr = options.stderr ?? "";
    this.exitCode = options.exitCode;
  }
}

/**
 * A blob is larger than the caller's `maxBytes` limit. The blob was not
 * read into memory.
 */
export class BlobTooLargeError extends RangeError {
  /** Object id of the blob. */
  readonly oid: string;
  /** Actual size in bytes. */
  readonly size: number;
  /** The limit that was exceeded. */
  readonly maxBytes: number;

  /** Create the error for blob `oid` of `size` bytes against `maxBytes`. */
  constructor(oid: string, size: number, maxBytes: number) {
    super(
      `Cannot read blob "${oid}": ${size} bytes exceed the limit of ${maxBytes} bytes`,
    );
    this.name = "BlobTooLargeError";
    this.oid = oid;
    this.size = size;
    this.maxBytes = maxBytes;
  }
}
