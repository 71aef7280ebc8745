/**
 * The ports a worker drives: {@linkcode Announce} marks the pull request
 * as being judged, {@linkcode Judge} turns a job into an outcome (the
 * pipeline of `pawl check --pr`, or a fake), and {@linkcode Publish} puts
 * the outcome on the pull request.
 *
 * @module
 */
import type { Outcome } from "../github/publish_verdict.ts";
import type { JobSpec } from "./job.ts";
import type { Log } from "./logger.ts";

/** What a judge or publisher is handed besides the job. */
export interface JobContext {
  /** The installation token for the job's repository (undefined: none configured). */
  token: string | undefined;
  /** The API root (`https://api.github.com` or GitHub Enterprise's). */
  apiUrl: string;
  /** This attempt's number, from 1. */
  attempt: number;
  /** Structured log, already carrying the job's id. */
  log: Log;
}

/**
 * Judge one job. Throws {@linkcode TransientError} for a failure worth
 * retrying (GitHub or the clone failed); any other throw means "could
 * not decide" and ends the job with that reason.
 */
export type Judge = (job: JobSpec, context: JobContext) => Promise<Outcome>;

/**
 * Publish an outcome (check run, commit status, sticky comment); must be
 * idempotent per head commit, since a worker that dies after publishing
 * but before recording it makes another publish again. Throws when any
 * part failed (the job is then published again later).
 */
export type Publish = (
  job: JobSpec,
  outcome: Outcome,
  context: JobContext,
) => Promise<void>;

/**
 * Say on the pull request that the job is being judged (an in-progress
 * check run, a pending status). Must be idempotent per head commit, and
 * is completed in place by {@linkcode Publish}. Throws when a part failed.
 */
export type Announce = (job: JobSpec, context: JobContext) => Promise<void>;

/** A failure that may pass on its own (GitHub 5xx, network, clone). */
export class TransientError extends Error {
  /** Build the error. */
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "TransientError";
  }
}
