/**
 * Workers: a bounded number of loops that claim a job, keep its lease
 * alive, judge it, record the outcome, publish it and mark it published.
 * Transient failures (GitHub or git unavailable, rate limits) go back to
 * the queue with capped exponential backoff for as long as the job's
 * deadline allows, so an outage only delays a verdict; a job still failing
 * at its deadline ends as "could not decide" saying so. Publishing a
 * recorded outcome is retried the same way until it lands. A token GitHub
 * turns away is dropped and a fresh one tried once.
 *
 * @module
 */
import type { Outcome } from "../github/publish_verdict.ts";
import type { ClaimedJob, JobQueue } from "./queue.ts";
import {
  type Announce,
  type JobContext,
  type Judge,
  type Publish,
  TransientError,
} from "./judge.ts";
import type { Log } from "./logger.ts";
import type { Metrics } from "./metrics.ts";
import { isTokenRejection, retryAfterMs } from "./github_failure.ts";
import {
  backoffMs,
  DEFAULT_RETRY_SCHEDULE,
  formatDuration,
  jitter,
  mayRetry,
  type RetrySchedule,
} from "./retry_schedule.ts";

/** Options for {@linkcode WorkerPool}. */
export interface WorkerPoolOptions {
  /** The queue. */
  queue: JobQueue;
  /** Judges a job. */
  judge: Judge;
  /** Publishes an outcome. */
  publish: Publish;
  /** Marks the pull request as being judged (none: nothing shown until the verdict). */
  announce?: Announce;
  /** How many jobs at once (default 2). */
  concurrency?: number;
  /** This process's name in leases (default a random id). */
  name?: string;
  /** Lease length (default 60 s); heartbeats every third of it. */
  leaseMs?: number;
  /** Longest wait for new work when idle (default 1 s). */
  pollMs?: number;
  /** First backoff (default 5 s), doubled per attempt. */
  backoffMs?: number;
  /** Longest single backoff (default 5 minutes). */
  backoffCapMs?: number;
  /** How long a job keeps retrying before "could not decide" (default 2 h). */
  deadlineMs?: number;
  /** The server's clock, epoch ms (leases and backoff only). */
  clock?: () => number;
  /** Uniform in [0, 1): spreads the backoff (default `Math.random`). */
  random?: () => number;
  /** The installation token for a job (undefined: none). */
  token?: (installationId: number | undefined) => Promise<string | undefined>;
  /** Drop `token` from the cache: GitHub turned it away. */
  forgetToken?: (installationId: number | undefined, token: string) => void;
  /** API root handed to judge and publisher. */
  apiUrl?: string;
  /** Structured log. */
  log: Log;
  /** Counters. */
  metrics: Metrics;
}

/** Running workers. */
export class WorkerPool {
  #options: WorkerPoolOptions;
  #stopping = false;
  #loops: Promise<void>[] = [];
  #wakers = new Set<() => void>();
  #held = new Map<string, string>();
  #publishFailures = new Map<string, number>();
  #beats = new Set<ReturnType<typeof setInterval>>();

  /** Build the pool (not started). */
  constructor(options: WorkerPoolOptions) {
    this.#options = options;
  }

  /** Start the workers. */
  start(): void {
    const name = this.#options.name ?? crypto.randomUUID().slice(0, 8);
    for (let i = 0; i < (this.#options.concurrency ?? 2); i++) {
      this.#loops.push(this.#loop(`${name}/${i}`));
    }
  }

  /** Tell idle workers there is work. */
  wake(): void {
    for (const wake of this.#wakers) wake();
  }

  /** Jobs held right now (id → worker). */
  get held(): ReadonlyMap<string, string> {
    return this.#held;
  }

  /**
   * Stop claiming; wait up to `graceMs` for running jobs, then give the
   * rest back to the queue so another server takes them at once.
   */
  async stop(graceMs: number): Promise<void> {
    this.#stopping = true;
    this.wake();
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      Promise.all(this.#loops),
      new Promise((r) => timer = setTimeout(r, graceMs)),
    ]);
    clearTimeout(timer);
    // What is still held after the grace goes back to the queue (nothing,
    // when every worker finished): no longer this server's to keep, its
    // heartbeats end here, though its judgement may still be running.
    for (const beat of this.#beats) clearInterval(beat);
    this.#beats.clear();
    for (const [id, worker] of this.#held) {
      await this.#options.queue.release(id, worker, {
        runAfter: this.#now(),
        error: "The server shut down during the job",
      }).catch(() => false);
      this.#options.log("job.released", {
        job: id,
        worker,
        reason: "shutdown",
      });
    }
  }

  #now(): number {
    return (this.#options.clock ?? Date.now)();
  }

  async #loop(worker: string): Promise<void> {
    const { queue, log } = this.#options;
    const leaseMs = this.#options.leaseMs ?? 60_000;
    const pollMs = this.#options.pollMs ?? 1000;
    while (!this.#stopping) {
      let job: ClaimedJob | undefined;
      try {
        job = await queue.claim(worker, { now: this.#now(), leaseMs });
      } catch (error) {
        log("queue.unavailable", { worker, error: describe(error) });
        await this.#idle(pollMs);
        continue;
      }
      if (job === undefined) {
        await this.#idle(pollMs);
        continue;
      }
      this.#held.set(job.id, worker);
      try {
        await this.#run(job, worker, leaseMs);
      } catch (error) {
        // The queue failed mid-job: the lease runs out and the job is taken up again.
        log("job.interrupted", { job: job.id, worker, error: describe(error) });
        await this.#idle(pollMs);
      } finally {
        this.#held.delete(job.id);
      }
    }
  }

  #idle(ms: number): Promise<void> {
    if (this.#stopping) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.#wakers.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.#wakers.add(done);
    });
  }

  async #run(job: ClaimedJob, worker: string, leaseMs: number): Promise<void> {
    const { queue, metrics } = this.#options;
    const jobLog: Log = (event, fields = {}) =>
      this.#options.log(event, { job: job.id, worker, ...fields });
    let lost = false;
    const beat = setInterval(() => {
      queue.heartbeat(job.id, worker, { now: this.#now(), leaseMs })
        .then((owned) => {
          if (!owned && !lost) {
            lost = true;
            jobLog("job.lease_lost", {});
          }
        })
        .catch((error) =>
          jobLog("job.heartbeat_failed", { error: describe(error) })
        );
    }, Math.max(Math.floor(leaseMs / 3), 10));
    this.#beats.add(beat);
    try {
      const context: JobContext = {
        token: undefined,
        apiUrl: this.#options.apiUrl ?? "https://api.github.com",
        attempt: job.attempts,
        log: jobLog,
      };
      let outcome: Outcome | undefined = job.outcome;
      if (job.state === "running") {
        if (job.attempts === 1 && job.queuedAt !== undefined) {
          metrics.waited((this.#now() - job.queuedAt) / 1000);
        }
        jobLog("job.started", {
          githubEvent: job.spec.event,
          delivery: job.spec.deliveryId,
          attempt: job.attempts,
          now: job.spec.now,
        });
        outcome = await this.#judge(job, context, worker);
        if (outcome === undefined) return;
        if (
          !await queue.recordOutcome(job.id, worker, outcome, {
            now: this.#now(),
            leaseMs,
          })
        ) {
          metrics.job("discarded");
          jobLog("job.discarded", {
            reason: "superseded by a newer event, or the lease was lost",
          });
          return;
        }
      }
      if (outcome === undefined) {
        throw new Error(`Job "${job.id}" is judged but has no outcome`);
      }
      if (
        !await this.#persist(() =>
          queue.confirmNewest(job.id, worker, { now: this.#now(), leaseMs })
        )
      ) {
        metrics.job("discarded");
        jobLog("job.discarded", {
          reason:
            "a newer event of the pull request came first, or the lease was lost",
        });
        return;
      }
      try {
        await this.#withToken(
          job,
          context,
          () => this.#options.publish(job.spec, outcome, context),
        );
      } catch (error) {
        metrics.publishFailure();
        const failures = (this.#publishFailures.get(job.id) ?? 0) + 1;
        this.#publishFailures.set(job.id, failures);
        // A recorded outcome is never given up: it waits for GitHub.
        const runAfter = this.#retryAt(failures, error);
        jobLog("job.publish_failed", {
          error: describe(error),
          retryAt: new Date(runAfter).toISOString(),
        });
        await this.#persist(() =>
          queue.release(job.id, worker, { runAfter, error: describe(error) })
        );
        return;
      }
      this.#publishFailures.delete(job.id);
      if (!await this.#persist(() => queue.markPublished(job.id, worker))) {
        jobLog("job.publish_unrecorded", {
          reason: "the lease was lost after publishing",
        });
        return;
      }
      const decision = outcome.kind === "verdict"
        ? outcome.verdict.decision
        : "undecided";
      metrics.job(decision);
      if (job.queuedAt !== undefined) {
        metrics.published((this.#now() - job.queuedAt) / 1000);
      }
      jobLog("job.published", {
        decision,
        head: job.spec.headSha,
        ...(outcome.kind === "undecided" ? { reason: outcome.reason } : {}),
      });
    } finally {
      clearInterval(beat);
      this.#beats.delete(beat);
    }
  }

  /** The outcome, or undefined when the job went back to the queue. */
  async #judge(
    job: ClaimedJob,
    context: JobContext,
    worker: string,
  ): Promise<Outcome | undefined> {
    const { queue, metrics } = this.#options;
    const schedule = this.#schedule();
    const undecided = (reason: string): Outcome => ({
      kind: "undecided",
      reason,
      headSha: job.spec.headSha,
    });
    const gaveUp = (attempts: number, reason: string) =>
      undecided(
        `Gave up at the deadline of ${
          formatDuration(schedule.deadlineMs)
        } after ${attempts} attempts: ${reason}`,
      );
    // Attempts lost with their server (lease expired) count as failed ones.
    if (job.attempts > 1 && !mayRetry(job.attempts - 1, schedule)) {
      return gaveUp(
        job.attempts - 1,
        job.lastError ?? "the server judging it stopped each time",
      );
    }
    const started = performance.now();
    try {
      return await this.#withToken(job, context, async () => {
        await this.#announce(job, context);
        return await this.#options.judge(job.spec, context);
      });
    } catch (error) {
      if (!(error instanceof TransientError)) return undecided(describe(error));
      if (!mayRetry(job.attempts, schedule)) {
        return gaveUp(job.attempts, describe(error));
      }
      const runAfter = this.#retryAt(job.attempts, error);
      metrics.job("retried");
      context.log("job.retry", {
        error: describe(error),
        attempt: job.attempts,
        retryAt: new Date(runAfter).toISOString(),
      });
      await this.#persist(() =>
        queue.release(job.id, worker, { runAfter, error: describe(error) })
      );
      return undefined;
    } finally {
      metrics.duration((performance.now() - started) / 1000);
    }
  }

  /**
   * Run `call` with the job's token; when GitHub or git turned the token
   * away, drop it, get a fresh one and run `call` once more.
   */
  async #withToken<T>(
    job: ClaimedJob,
    context: JobContext,
    call: () => Promise<T>,
  ): Promise<T> {
    context.token = await this.#token(job);
    try {
      return await call();
    } catch (error) {
      const { forgetToken } = this.#options;
      const rejected = context.token;
      if (
        rejected === undefined || forgetToken === undefined ||
        !isTokenRejection(error)
      ) {
        throw error;
      }
      context.log("app.token_rejected", { error: describe(error) });
      forgetToken(job.spec.installationId, rejected);
      context.token = await this.#token(job);
      return await call();
    }
  }

  /**
   * Show the pull request is being judged. Only a rejected token stops the
   * judgement (to be renewed); anything else is logged, and the verdict
   * still comes.
   */
  async #announce(job: ClaimedJob, context: JobContext): Promise<void> {
    if (this.#options.announce === undefined) return;
    try {
      await this.#options.announce(job.spec, context);
    } catch (error) {
      if (isTokenRejection(error)) {
        throw new TransientError(describe(error), { cause: error });
      }
      context.log("job.in_progress_failed", { error: describe(error) });
    }
  }

  /**
   * Run a queue write, retrying for a while when the queue is unreachable
   * (a database restart), so finished work is not thrown away.
   */
  async #persist(write: () => Promise<boolean>): Promise<boolean> {
    for (let attempt = 1;; attempt++) {
      try {
        return await write();
      } catch (error) {
        if (attempt >= 30) throw error;
        this.#options.log("queue.retry", { error: describe(error), attempt });
        await new Promise((r) => setTimeout(r, 250));
      }
    }
  }

  async #token(job: ClaimedJob): Promise<string | undefined> {
    if (this.#options.token === undefined) return undefined;
    try {
      return await this.#options.token(job.spec.installationId);
    } catch (error) {
      throw new TransientError(
        `Cannot get an installation token for installation ${job.spec.installationId}: ${
          describe(error)
        }`,
        { cause: error },
      );
    }
  }

  #schedule(): RetrySchedule {
    const o = this.#options;
    return {
      baseMs: o.backoffMs ?? DEFAULT_RETRY_SCHEDULE.baseMs,
      capMs: o.backoffCapMs ?? DEFAULT_RETRY_SCHEDULE.capMs,
      deadlineMs: o.deadlineMs ?? DEFAULT_RETRY_SCHEDULE.deadlineMs,
    };
  }

  /** When to try again after `failures` failures, the last one `error`. */
  #retryAt(failures: number, error: unknown): number {
    const now = this.#now();
    const wait = jitter(
      backoffMs(failures, this.#schedule()),
      this.#options.random ?? Math.random,
    );
    // GitHub's own word (Retry-After, a rate limit's reset) comes first.
    return now + Math.max(wait, retryAfterMs(error, now) ?? 0);
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
