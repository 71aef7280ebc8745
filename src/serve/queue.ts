/**
 * The durable queue behind `pawl serve`: one interface, two backends
 * (SQLite in a data directory; PostgreSQL shared by replicas).
 *
 * A job's identity is (repository, pull request, base, head), so a
 * redelivery or a duplicate event finds its job and queues nothing. A
 * newer event for the same pull request supersedes its queued and running
 * jobs, and judged ones no worker holds (waiting to publish again, or
 * their worker died): a superseded job's result is discarded, its worker
 * no longer owns it. An event older than the pull request's newest is
 * stale. Workers
 * claim a job under a lease they renew with heartbeats; a job whose lease
 * expires (its worker died) is claimed again. Claims are serialized per
 * pull request: while one job of it runs or publishes (or waits to be
 * taken up again after its worker died), no other job of it is claimed.
 * Before publishing, a worker confirms its job is still the pull
 * request's newest; one a newer event overtook is superseded instead, so
 * an older result is never published over a newer one. The outcome is
 * recorded before it is published, so a worker that dies after judging
 * makes the next one publish, not judge again.
 *
 * Times are epoch milliseconds from the caller (the server's clock, for
 * leases and backoff only: never a judgement's clock).
 *
 * @module
 */
import type { Outcome } from "../github/publish_verdict.ts";
import type { JobRecord, JobSpec, JobState } from "./job.ts";

/** What {@linkcode JobQueue.enqueue} did. */
export type EnqueueStatus =
  /** A new job. */
  | "queued"
  /** The job exists already (a redelivery or a duplicate event). */
  | "duplicate"
  /** A finished "could not decide" that a person asked to run again. */
  | "requeued"
  /** The pull request has a newer event already. */
  | "stale";

/** The result of {@linkcode JobQueue.enqueue}. */
export interface EnqueueResult {
  /** What happened. */
  status: EnqueueStatus;
  /** The job's id. */
  id: string;
  /** Ids of the jobs this one superseded. */
  superseded: string[];
}

/** Options for {@linkcode JobQueue.enqueue}. */
export interface EnqueueOptions {
  /** Now, epoch ms. */
  now: number;
  /** A rerequest: run a finished "could not decide" again. */
  rerequest: boolean;
}

/** A job a worker holds. */
export interface ClaimedJob extends JobRecord {
  /** Running (judge it) or judged (publish the recorded outcome). */
  state: "running" | "judged";
}

/** Lease timing. */
export interface LeaseOptions {
  /** Now, epoch ms. */
  now: number;
  /** How long the lease lasts from now. */
  leaseMs: number;
}

/** The queue. */
export interface JobQueue {
  /** Add the job `spec` describes, unless it exists or is stale. */
  enqueue(spec: JobSpec, options: EnqueueOptions): Promise<EnqueueResult>;
  /** Take the oldest claimable job, or undefined. */
  claim(worker: string, options: LeaseOptions): Promise<ClaimedJob | undefined>;
  /** Renew a lease; false when the worker no longer owns the job. */
  heartbeat(
    id: string,
    worker: string,
    options: LeaseOptions,
  ): Promise<boolean>;
  /**
   * Give a running job back for another attempt at `runAfter` (or a
   * judged one for another publishing attempt); false when not owned.
   */
  release(
    id: string,
    worker: string,
    options: { runAfter: number; error: string },
  ): Promise<boolean>;
  /**
   * Record a running job's outcome (it becomes judged, still leased);
   * false when not owned (superseded, or the lease was lost): discard it.
   */
  recordOutcome(
    id: string,
    worker: string,
    outcome: Outcome,
    options: LeaseOptions,
  ): Promise<boolean>;
  /**
   * Before publishing a judged job: renew its lease and answer true when
   * `worker` still holds it and no newer job of its pull request exists.
   * A job a newer one overtook becomes superseded (its outcome is dropped,
   * never posted); false then, and when not owned.
   */
  confirmNewest(
    id: string,
    worker: string,
    options: LeaseOptions,
  ): Promise<boolean>;
  /** A judged job was published; false when not owned. */
  markPublished(id: string, worker: string): Promise<boolean>;
  /** One job. */
  get(id: string): Promise<JobRecord | undefined>;
  /** Every job (tests, operations). */
  list(): Promise<JobRecord[]>;
  /** How many jobs are in each state. */
  counts(): Promise<Record<JobState, number>>;
  /**
   * For each unfinished state (queued, running, judged) holding a job,
   * when its oldest job was queued (epoch ms, the server's clock).
   */
  oldestQueuedAt(): Promise<Partial<Record<JobState, number>>>;
  /** Whether the backing store answers. */
  ping(): Promise<boolean>;
  /** Release the connection(s). */
  close(): Promise<void>;
}
