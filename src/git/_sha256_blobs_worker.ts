/**
 * Worker entry for {@linkcode sha256BlobsInWorker}: hashes blobs on this
 * worker's own event loop, so the main thread can parse meanwhile
 * ({@linkcode hashShare}).
 *
 * Receives `{ oids, options, next }` once, where `next` is a counter shared
 * by all hashing workers: each takes the next oid from it, so a worker that
 * drew small blobs keeps going while another hashes a large one. Answers
 * `{ digests, direct }` or `{ error }` (name, message and git details),
 * then closes.
 *
 * @module
 */
import {
  type HashedShare,
  hashShare,
  type Sha256BlobsRequest,
} from "./_hash_share.ts";
import { type FailedInWorker, toWorker } from "./worker_error.ts";

export type { Sha256BlobsRequest };

/** The one answer the worker posts. */
export type Sha256BlobsAnswer =
  | HashedShare
  | {
    error: FailedInWorker;
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
    answer = await hashShare(event.data);
  } catch (error) {
    answer = {
      error: toWorker(error),
    };
  }
  scope.postMessage(answer);
  scope.close();
};
