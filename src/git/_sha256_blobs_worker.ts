/**
 * Worker entry for {@linkcode sha256BlobsInWorker}: hashes blobs on this
 * worker's own event loop, so the main thread can parse meanwhile. Loose
 * blobs and blobs stored whole in a pack are read from the object store
 * directly ({@linkcode StoredBlobs}); the rest go through one
 * `git cat-file` ({@linkcode sha256BlobsWithGit}).
 *
 * Receives `{ oids, options, next }` once, where `next` is a counter shared
 * by all hashing workers: each takes the next oid from it, so a worker that
 * drew small blobs keeps going while another hashes a large one. Answers
 * `{ digests, direct }` or `{ error }` (name, message and git details),
 * then closes.
 *
 * @module
 */
import { StoredBlobs } from "./_stored_blobs.ts";
import {
  type Sha256BlobsOptions,
  sha256BlobsWithGit,
} from "./_sha256_blobs.ts";
import { type FailedInWorker, toWorker } from "./worker_error.ts";

/** The request the main thread posts. */
export interface Sha256BlobsRequest {
  /** Blob ids to hash, shared by every worker. */
  oids: readonly string[];
  /** Where and how to run git. */
  options: Sha256BlobsOptions;
  /** One Int32 shared by the workers: the index of the next oid to take. */
  next: SharedArrayBuffer;
}

/** The one answer the worker posts. */
export type Sha256BlobsAnswer =
  | {
    digests: [string, string][];
    /** How many of them were read from the object store rather than through git. */
    direct: number;
  }
  | {
    error: FailedInWorker;
  };

const scope = globalThis as unknown as {
  onmessage: ((event: MessageEvent<Sha256BlobsRequest>) => void) | null;
  postMessage(answer: Sha256BlobsAnswer): void;
  close(): void;
};

async function hashShare(
  { oids, options, next }: Sha256BlobsRequest,
): Promise<Sha256BlobsAnswer> {
  const cursor = new Int32Array(next);
  const digests = new Map<string, string>();
  const rest: string[] = [];
  const store = options.gitDir === undefined
    ? undefined
    : await StoredBlobs.open(options.gitDir);
  try {
    while (true) {
      const index = Atomics.add(cursor, 0, 1);
      if (index >= oids.length) break;
      const oid = oids[index] as string;
      const digest = await store?.sha256(oid);
      if (digest === undefined) rest.push(oid);
      else digests.set(oid, digest);
    }
  } finally {
    store?.close();
  }
  const direct = digests.size;
  if (rest.length > 0) {
    const more = await sha256BlobsWithGit(rest, { ...options, workers: 1 });
    for (const [oid, digest] of more) digests.set(oid, digest);
  }
  return { digests: [...digests], direct };
}

scope.onmessage = async (event) => {
  scope.onmessage = null;
  let answer: Sha256BlobsAnswer;
  try {
    answer = await hashShare(event.data);
  } catch (error) {
    answer = {
      error: toWorker(error),
    };
  }
  scope.postMessage(answer);
  scope.close();
};
