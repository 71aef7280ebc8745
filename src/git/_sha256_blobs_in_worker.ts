/**
 * {@linkcode sha256BlobsWithGit}'s job on worker threads. Reading the
 * object store and the `git cat-file` pipes needs an event loop that is
 * free: on the main thread a long parse would leave git waiting, so hashing
 * could not overlap with anything.
 *
 * @module
 */
import { assertOid } from "./_cat_file_process.ts";
import type { Sha256BlobsOptions } from "./_sha256_blobs.ts";
import type {
  Sha256BlobsAnswer,
  Sha256BlobsRequest,
} from "./_sha256_blobs_worker.ts";
import { GitError } from "./git_error.ts";
import { fromWorker } from "./worker_error.ts";

/** Digests by oid, and how many were read from the object store directly. */
export interface HashedBlobs {
  /** Hex SHA-256 of each blob's content, keyed by oid. */
  digests: Map<string, string>;
  /** Blobs read from the object store rather than through `git cat-file`. */
  direct: number;
}

/**
 * Hex SHA-256 of each blob's content, keyed by oid, hashed off this thread
 * by `options.workers` workers sharing one queue.
 */
export async function sha256BlobsInWorker(
  oids: readonly string[],
  options: Sha256BlobsOptions,
): Promise<Map<string, string>> {
  return (await sha256BlobsInWorkers(oids, options)).digests;
}

/** {@linkcode sha256BlobsInWorker}, also saying how many were read directly. */
export async function sha256BlobsInWorkers(
  oids: readonly string[],
  options: Sha256BlobsOptions,
): Promise<HashedBlobs> {
  const unique = [...new Set(oids)];
  for (const oid of unique) assertOid(oid, "hash blob");
  if (unique.length === 0) return { digests: new Map(), direct: 0 };

  const count = Math.max(1, Math.min(options.workers, unique.length));
  const next = new SharedArrayBuffer(4);
  const workers: Worker[] = [];
  try {
    // The first failure ends the wait; `finally` stops the other workers.
    const answers = await Promise.all(
      Array.from({ length: count }, () => {
        const worker = new Worker(
          new URL("./_sha256_blobs_worker.ts", import.meta.url),
          { type: "module" },
        );
        workers.push(worker);
        return ask(worker, { oids: unique, options, next });
      }),
    );
    const digests = new Map<string, string>();
    let direct = 0;
    for (const answer of answers) {
      for (const [oid, digest] of answer.digests) digests.set(oid, digest);
      direct += answer.direct;
    }
    return { digests, direct };
  } finally {
    for (const worker of workers) worker.terminate();
  }
}

async function ask(
  worker: Worker,
  request: Sha256BlobsRequest,
): Promise<{ digests: [string, string][]; direct: number }> {
  const answer = await new Promise<Sha256BlobsAnswer>((resolve, reject) => {
    worker.onmessage = (event: MessageEvent<Sha256BlobsAnswer>) =>
      resolve(event.data);
    worker.onerror = (event) => {
      event.preventDefault();
      reject(
        new GitError(
          `Cannot hash blobs: the hashing worker failed: ${event.message}`,
        ),
      );
    };
    worker.onmessageerror = () =>
      reject(
        new GitError(
          "Cannot hash blobs: unreadable answer from the hashing worker",
        ),
      );
    worker.postMessage(request);
  });
  if ("digests" in answer) return answer;
  throw fromWorker(answer.error);
}
