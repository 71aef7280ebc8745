/**
 * Worker entry for {@linkcode sha256BlobsInWorker}: hashes blobs with
 * {@linkcode sha256BlobsWithGit} on this worker's own event loop, so the
 * `git cat-file` pipes are drained while the main thread parses.
 *
 * Receives `{ oids, options }` once, answers `{ digests }` (entries) or
 * `{ error }` (name, message and git details), then closes.
 *
 * @module
 */
import {
  type Sha256BlobsOptions,
  sha256BlobsWithGit,
} from "./_sha256_blobs.ts";
import { GitError } from "./git_error.ts";

/** The request the main thread posts. */
export interface Sha256BlobsRequest {
  /** Blob ids to hash. */
  oids: readonly string[];
  /** Where and how to run git. */
  options: Sha256BlobsOptions;
}

/** The one answer the worker posts. */
export type Sha256BlobsAnswer =
  | { digests: [string, string][] }
  | {
    error: {
      name: string;
      message: string;
      args?: readonly string[];
      stderr?: string;
      exitCode?: number;
    };
  };

const scope = globalThis as unknown as {
  onmessage: ((event: MessageEvent<Sha256BlobsRequest>) => void) | null;
  postMessage(answer: Sha256BlobsAnswer): void;
  close(): void;
};

scope.onmessage = async (event) => {
  scope.onmessage = null;
  let answer: Sha256BlobsAnswer;
  try {
    const { oids, options } = event.data;
    answer = { digests: [...await sha256BlobsWithGit(oids, options)] };
  } catch (error) {
    answer = {
      error: error instanceof GitError
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
        },
    };
  }
  scope.postMessage(answer);
  scope.close();
};
