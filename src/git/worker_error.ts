/**
 * An error crossing from a worker thread: structured cloning keeps neither
 * the class nor a `GitError`'s details, so a worker posts this plain form
 * and the caller rebuilds the error from it.
 *
 * @module
 */
import { GitError } from "./git_error.ts";

/** An error as a worker posts it: name, message and any git details. */
export interface FailedInWorker {
  name: string;
  message: string;
  args?: readonly string[];
  stderr?: string;
  exitCode?: number;
}

/**
 * The plain form of `error`, for `postMessage`.
 *
 * @example
 * ```ts
 * import { equal } from "node:assert/strict";
 * import { GitError } from "./git_error.ts";
 * import { fromWorker, toWorker } from "./worker_error.ts";
 * const error = fromWorker(toWorker(new GitError("Cannot clone", { exitCode: 128 })));
 * equal(error instanceof GitError && error.exitCode, 128);
 * ```
 */
export function toWorker(error: unknown): FailedInWorker {
  return error instanceof GitError
    ? {
      name: error.name,
      message: error.message,
      args: error.args,
      stderr: error.stderr,
      ...(error.exitCode === undefined ? {} : { exitCode: error.exitCode }),
    }
    : {
      name: error instanceof Error ? error.name : "Error",
      message: error instanceof Error ? error.message : String(error),
    };
}

/** The error a worker posted, rebuilt (a `GitError` with its details). */
export function fromWorker(error: FailedInWorker): Error {
  const { name, message, ...details } = error;
  if (name === "GitError") return new GitError(message, details);
  const rebuilt = new Error(message);
  rebuilt.name = name;
  return rebuilt;
}
