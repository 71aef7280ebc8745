/**
 * {@linkcode sha256BlobsWithGit} on a worker thread. Reading the
 * `git cat-file` pipes needs an event loop that is free: on the main thread
 * a long parse would leave the pipes full and git waiting, so hashing could
 * not overlap with anything.
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

/** Hex SHA-256 of each blob's content, keyed by oid, hashed off this thread. */
export async function sha256BlobsInWorker(
  oids: readonly string[],
  options: Sha256BlobsOptions,
): Promise<Map<string, string>> {
  const unique = [...new Set(oids)];
  for (const oid of unique) assertOid(oid, "hash blob");
  if (unique.length === 0) return new Map();

  const worker = new Worker(
    new URL("./_sha256_blobs_worker.ts", import.meta.url),
    { type: "module" },
  );
  try {
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
      const request: Sha256BlobsRequest = { oids: unique, options };
      worker.postMessage(request);
    });
    if ("digests" in answer) return new Map(answer.digests);
    const { name, message, ...details } = answer.error;
    if (name === "GitError") throw new GitError(message, details);
    const error = new Error(message);
    error.name = name;
    throw error;
  } finally {
    worker.terminate();
  }
}
