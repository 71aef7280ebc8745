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
import {
  type HashedShare,
  hashShare,
  type Sha256BlobsRequest,
} from "./_hash_share.ts";
import type { Sha256BlobsAnswer } from "./_sha256_blobs_worker.ts";
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
 * by `options.workers` workers sharing one queue, which this thread joins
 * once `options.helpAfter` settles.
 */
export async function sha256BlobsInWorker(
  oids: readonly string[],
  options: HashOptions,
): Promise<Map<string, string>> {
  return (await sha256BlobsInWorkers(oids, options)).digests;
}

/** Options for {@linkcode sha256BlobsInWorkers}. */
export interface HashOptions extends Sha256BlobsOptions {
  /**
   * Settles when this thread has nothing else to do: it then takes a share
   * of the oids the workers have not taken yet (see {@linkcode hashShare}).
   */
  helpAfter?: Promise<unknown>;
  /**
   * The blobs' total size, when known: at most {@linkcode IN_THREAD_MAX_BYTES}
   * (and {@linkcode IN_THREAD_MAX_BLOBS} blobs) are hashed on this thread
   * at once, with no worker.
   */
  bytes?: number;
}

/**
 * The largest job hashed on the calling thread, in bytes: a worker's start
 * (a fresh isolate loading the hashing code, some 30 ms of CPU) costs more
 * than inflating and hashing this much, which takes a few ms.
 */
export const IN_THREAD_MAX_BYTES = 1024 * 1024;

/** The most blobs hashed on the calling thread (each is one request to git). */
export const IN_THREAD_MAX_BLOBS = 256;

/** {@linkcode sha256BlobsInWorker}, also saying how many were read directly. */
export async function sha256BlobsInWorkers(
  oids: readonly string[],
  options: HashOptions,
): Promise<HashedBlobs> {
  const unique = [...new Set(oids)];
  for (const oid of unique) assertOid(oid, "hash blob");
  if (unique.length === 0) return { digests: new Map(), direct: 0 };

  const next = new SharedArrayBuffer(4);
  const request = { oids: unique, options: gitOptions(options), next };
  if (
    options.bytes !== undefined && options.bytes <= IN_THREAD_MAX_BYTES &&
    unique.length <= IN_THREAD_MAX_BLOBS
  ) {
    const share = await hashShare(request);
    return { digests: new Map(share.digests), direct: share.direct };
  }
  const count = Math.max(1, Math.min(options.workers, unique.length));
  const workers: Worker[] = [];
  try {
    // The first failure ends the wait; `finally` stops the other workers.
    const onWorkers = Promise.all(
      Array.from({ length: count }, () => {
        const worker = new Worker(
          new URL("./_sha256_blobs_worker.ts", import.meta.url),
          { type: "module" },
        );
        workers.push(worker);
        return ask(worker, request);
      }),
    );
    const [theirs, ours] = await Promise.all([
      onWorkers,
      helpLater(request, options, onWorkers),
    ]);
    const answers = [...theirs, ours];
    const digests = new Map<string, string>();
    let direct = 0;
    for (const answer of answers) {
      for (const [oid, digest] of answer.digests) digests.set(oid, digest);
      direct += answer.direct;
    }
    return { digests, direct };
  } finally {
    // After a failure, a share still running on this thread takes no more.
    Atomics.store(new Int32Array(next), 0, unique.length);
    for (const worker of workers) worker.terminate();
  }
}

/** `options` without the main thread's own ones, as a worker receives them. */
function gitOptions(options: HashOptions): Sha256BlobsOptions {
  const { helpAfter: _, bytes: _bytes, ...rest } = options;
  return rest;
}

/**
 * The main thread's share of `request`, taken once `options.helpAfter`
 * settles if the workers are not done by then (nothing otherwise). The
 * threads take oids from one counter, so what each hashes differs from run
 * to run, never what is hashed.
 */
async function helpLater(
  request: Sha256BlobsRequest,
  options: HashOptions,
  onWorkers: Promise<unknown>,
): Promise<HashedShare> {
  const none: HashedShare = { digests: [], direct: 0 };
  if (options.helpAfter === undefined) return none;
  const free = await Promise.race([
    options.helpAfter.then(() => true, () => true),
    onWorkers.then(() => false, () => false),
  ]);
  const left = Atomics.load(new Int32Array(request.next), 0) <
    request.oids.length;
  return free && left ? await hashShare(request) : none;
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
