/**
 * One thread's share of a hashing job: take the next oid from a counter
 * shared with the other threads on the job, hash it, repeat. Run by each
 * hashing worker and, once it has nothing else to do, by the main thread
 * ({@linkcode sha256BlobsInWorkers}). Loose blobs and blobs stored whole in
 * a pack are read from the object store directly ({@linkcode StoredBlobs});
 * the rest go through one `git cat-file` ({@linkcode sha256BlobsWithGit}).
 *
 * @module
 */
import { StoredBlobs } from "./_stored_blobs.ts";
import {
  type Sha256BlobsOptions,
  sha256BlobsWithGit,
} from "./_sha256_blobs.ts";

/** A hashing job, as each thread on it receives it. */
export interface Sha256BlobsRequest {
  /** Blob ids to hash, shared by every thread on the job. */
  oids: readonly string[];
  /** Where and how to run git. */
  options: Sha256BlobsOptions;
  /** One Int32 shared by the threads: the index of the next oid to take. */
  next: SharedArrayBuffer;
}

/** What one thread hashed. */
export interface HashedShare {
  digests: [string, string][];
  /** How many of them were read from the object store rather than through git. */
  direct: number;
}

/**
 * Hash oids taken from `next` until none is left; see the module doc.
 * Several threads may run this on one request at once.
 */
export async function hashShare(
  { oids, options, next }: Sha256BlobsRequest,
): Promise<HashedShare> {
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
