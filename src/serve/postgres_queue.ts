/**
 * The shared {@linkcode JobQueue} for several replicas: PostgreSQL (npm
 * `pg`). Enqueueing, claiming and confirming before publishing all take
 * a transaction-scoped advisory lock per pull request, so replicas order
 * the events of one pull request and never claim two of its jobs at once
 * (a row lock alone does not: a claim's check that no other job of the
 * pull request is held reads a snapshot that misses a concurrent claim).
 * Claimers only try that lock, so they skip a pull request another one
 * is taking instead of waiting. Leases expire unless renewed. A restart
 * of the server only fails the queries in flight: the pool reconnects.
 *
 * @module
 */
// @ts-types="@types/pg"
import pg from "pg";
import type { Outcome } from "../github/publish_verdict.ts";
import { jobId, type JobRecord, type JobState, pullKey } from "./job.ts";
import type { ClaimedJob, EnqueueResult, JobQueue } from "./queue.ts";
import {
  emptyCounts,
  eventMs,
  type JobRow,
  oldestByState,
  oldestQueuedSql,
  recordOf,
} from "./_rows.ts";

const SCHEMA = `
CREATE TABLE IF NOT EXISTS pawl_jobs (
  seq BIGSERIAL PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  pull TEXT NOT NULL,
  event_ms BIGINT NOT NULL,
  spec TEXT NOT NULL,
  state TEXT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  run_after BIGINT NOT NULL DEFAULT 0,
  lease_owner TEXT,
  lease_until BIGINT NOT NULL DEFAULT 0,
  outcome TEXT,
  last_error TEXT
);
ALTER TABLE pawl_jobs ADD COLUMN IF NOT EXISTS queued_at BIGINT NOT NULL DEFAULT 0;
CREATE INDEX IF NOT EXISTS pawl_jobs_pull ON pawl_jobs (pull, state);
CREATE INDEX IF NOT EXISTS pawl_jobs_state ON pawl_jobs (state, run_after);
`;

/**
 * A job `j` a worker may take at `$1`: queued and due, or held under a
 * lease that ran out; and no other job of its pull request held under a
 * live lease, or held earlier (a dead worker's job is taken up first).
 */
const CLAIMABLE = `((j.state = 'queued' AND j.run_after <= $1)
    OR (j.state IN ('running', 'judged') AND j.lease_until < $1))
  AND NOT EXISTS (SELECT 1 FROM pawl_jobs k WHERE k.pull = j.pull
    AND k.id <> j.id AND k.state IN ('running', 'judged')
    AND (k.lease_until >= $1 OR k.seq < j.seq))`;

/** Another job of `j`'s pull request, about a newer event, is not superseded. */
const NEWER_EXISTS = `EXISTS (SELECT 1 FROM pawl_jobs k WHERE k.pull = j.pull
    AND k.id <> j.id AND k.state <> 'superseded'
    AND (k.event_ms > j.event_ms OR (k.event_ms = j.event_ms AND k.seq > j.seq)))`;

/** Options for {@linkcode openPostgresQueue}. */
export interface PostgresQueueOptions {
  /** Most connections this process opens (default 5). */
  maxConnections?: number;
  /** Told about connection errors (the pool recovers by itself). */
  onError?: (error: Error) => void;
}

/** Connect to `url` (`postgres://…`), creating the table when missing. */
export async function openPostgresQueue(
  url: string,
  options: PostgresQueueOptions = {},
): Promise<JobQueue> {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.maxConnections ?? 5,
    connectionTimeoutMillis: 5000,
  });
  pool.on("error", (error) => options.onError?.(error));
  const tx = async <T>(body: (c: pg.PoolClient) => Promise<T>): Promise<T> => {
    const client = await pool.connect();
    // The pool listens only on idle connections: one the server ends while
    // it is checked out is told here, where it would otherwise be an
    // uncaught error that ends the process, and is then dropped.
    let lost: Error | undefined;
    const onLost = (error: Error) => {
      lost = error;
      options.onError?.(error);
    };
    client.on("error", onLost);
    try {
      await client.query("BEGIN");
      const result = await body(client);
      await client.query("COMMIT");
      return result;
    } catch (error) {
      await client.query("ROLLBACK").catch(() => {});
      throw error;
    } finally {
      client.off("error", onLost);
      client.release(lost);
    }
  };
  await tx(async (c) => {
    // Two replicas starting at once must not race on CREATE TABLE.
    await c.query("SELECT pg_advisory_xact_lock(7411)");
    await c.query(SCHEMA);
  });
  const changed = async (sql: string, params: unknown[]) =>
    ((await pool.query(sql, params)).rowCount ?? 0) > 0;

  return {
    enqueue(spec, options): Promise<EnqueueResult> {
      const id = jobId(spec);
      const pull = pullKey(spec);
      const at = eventMs(spec.now);
      return tx(async (c): Promise<EnqueueResult> => {
        await c.query("SELECT pg_advisory_xact_lock(hashtext($1))", [pull]);
        const newest = (await c.query(
          "SELECT max(event_ms) AS ms FROM pawl_jobs WHERE pull = $1 AND id <> $2",
          [pull, id],
        )).rows[0]?.ms;
        const stale = newest !== null && newest !== undefined &&
          Number(newest) > at;
        const existing = (await c.query(
          "SELECT state, outcome FROM pawl_jobs WHERE id = $1",
          [id],
        )).rows[0];
        if (existing !== undefined) {
          const undecided = existing.state === "published" &&
            typeof existing.outcome === "string" &&
            JSON.parse(existing.outcome).kind === "undecided";
          if (options.rerequest && undecided && !stale) {
            await c.query(
              `UPDATE pawl_jobs SET state = 'queued', attempts = 0, outcome = NULL,
                 last_error = NULL, run_after = $1, queued_at = $1, lease_owner = NULL,
                 lease_until = 0, spec = $2, event_ms = greatest(event_ms, $3) WHERE id = $4`,
              [options.now, JSON.stringify(spec), at, id],
            );
            return { status: "requeued", id, superseded: [] };
          }
          return { status: "duplicate", id, superseded: [] };
        }
        if (stale) return { status: "stale", id, superseded: [] };
        if (options.rerequest) {
          // A re-run of commits never seen before: another job of the pull
          // request in progress may be about newer commits, so it wins.
          const busy = (await c.query(
            `SELECT 1 FROM pawl_jobs WHERE pull = $1
               AND state IN ('queued', 'running', 'judged')`,
            [pull],
          )).rowCount;
          if ((busy ?? 0) > 0) return { status: "stale", id, superseded: [] };
        }
        const superseded = (await c.query(
          `UPDATE pawl_jobs SET state = 'superseded', lease_owner = NULL
             WHERE pull = $1 AND (state IN ('queued', 'running')
               OR (state = 'judged' AND (lease_owner IS NULL OR lease_until < $2)))
             RETURNING id`,
          [pull, options.now],
        )).rows.map((r) => String(r.id));
        await c.query(
          `INSERT INTO pawl_jobs (id, pull, event_ms, spec, state, run_after, queued_at)
             VALUES ($1, $2, $3, $4, 'queued', $5, $5)`,
          [id, pull, at, JSON.stringify(spec), options.now],
        );
        return { status: "queued", id, superseded };
      });
    },
    claim(worker, options): Promise<ClaimedJob | undefined> {
      const { now } = options;
      return tx(async (c) => {
        const candidates = (await c.query(
          `SELECT j.id, j.pull FROM pawl_jobs j WHERE ${CLAIMABLE}
             ORDER BY j.seq LIMIT 32`,
          [now],
        )).rows as { id: string; pull: string }[];
        const tried = new Set<string>();
        for (const { id, pull } of candidates) {
          if (tried.has(pull)) continue;
          tried.add(pull);
          // The pull request's lock, held to the commit: a claimer that
          // gets it next sees this claim. Another claimer (or an enqueue)
          // holding it means that pull request is being taken: skip it.
          const locked = (await c.query(
            "SELECT pg_try_advisory_xact_lock(hashtext($1)) AS ok",
            [pull],
          )).rows[0]?.ok === true;
          if (!locked) continue;
          // A new statement, so a new snapshot: the check sees every
          // claim committed before the lock was taken.
          const row = (await c.query(
            `UPDATE pawl_jobs j SET
               state = CASE WHEN state = 'judged' THEN 'judged' ELSE 'running' END,
               attempts = attempts + CASE WHEN state = 'judged' THEN 0 ELSE 1 END,
               lease_owner = $2, lease_until = $3
             WHERE j.id = $4 AND ${CLAIMABLE}
             RETURNING *`,
            [now, worker, now + options.leaseMs, id],
          )).rows[0] as JobRow | undefined;
          if (row !== undefined) return recordOf(row) as ClaimedJob;
        }
        return undefined;
      });
    },
    confirmNewest(id, worker, options) {
      return tx(async (c) => {
        const mine = (await c.query(
          "SELECT pull FROM pawl_jobs WHERE id = $1",
          [id],
        )).rows[0] as { pull: string } | undefined;
        if (mine === undefined) return false;
        // Ordered against enqueues of the same pull request.
        await c.query("SELECT pg_advisory_xact_lock(hashtext($1))", [
          mine.pull,
        ]);
        const overtaken = (await c.query(
          `UPDATE pawl_jobs j SET state = 'superseded', lease_owner = NULL
             WHERE j.id = $1 AND j.lease_owner = $2 AND j.state = 'judged'
               AND ${NEWER_EXISTS}`,
          [id, worker],
        )).rowCount ?? 0;
        if (overtaken > 0) return false;
        return ((await c.query(
          `UPDATE pawl_jobs SET lease_until = $1
             WHERE id = $2 AND lease_owner = $3 AND state = 'judged'`,
          [options.now + options.leaseMs, id, worker],
        )).rowCount ?? 0) > 0;
      });
    },
    heartbeat(id, worker, options) {
      return changed(
        `UPDATE pawl_jobs SET lease_until = $1 WHERE id = $2 AND lease_owner = $3
           AND state IN ('running', 'judged')`,
        [options.now + options.leaseMs, id, worker],
      );
    },
    release(id, worker, options) {
      return changed(
        `UPDATE pawl_jobs SET
           state = CASE WHEN state = 'judged' THEN 'judged' ELSE 'queued' END,
           run_after = $1, lease_until = $1, lease_owner = NULL, last_error = $2
           WHERE id = $3 AND lease_owner = $4 AND state IN ('running', 'judged')`,
        [options.runAfter, options.error, id, worker],
      );
    },
    recordOutcome(id: string, worker: string, outcome: Outcome, options) {
      return changed(
        `UPDATE pawl_jobs SET state = 'judged', outcome = $1, lease_until = $2
           WHERE id = $3 AND lease_owner = $4 AND state = 'running'`,
        [JSON.stringify(outcome), options.now + options.leaseMs, id, worker],
      );
    },
    markPublished(id, worker) {
      return changed(
        `UPDATE pawl_jobs SET state = 'published', lease_owner = NULL, lease_until = 0
           WHERE id = $1 AND lease_owner = $2 AND state = 'judged'`,
        [id, worker],
      );
    },
    async get(id): Promise<JobRecord | undefined> {
      const row = (await pool.query("SELECT * FROM pawl_jobs WHERE id = $1", [
        id,
      ])).rows[0] as JobRow | undefined;
      return row === undefined ? undefined : recordOf(row);
    },
    async list() {
      return (await pool.query("SELECT * FROM pawl_jobs ORDER BY seq")).rows
        .map((row) => recordOf(row as JobRow));
    },
    async counts() {
      const counts = emptyCounts();
      const rows = (await pool.query(
        "SELECT state, count(*) AS n FROM pawl_jobs GROUP BY state",
      )).rows;
      for (const row of rows) counts[row.state as JobState] = Number(row.n);
      return counts;
    },
    async oldestQueuedAt() {
      return oldestByState(
        (await pool.query(oldestQueuedSql("pawl_jobs"))).rows,
      );
    },
    async ping() {
      try {
        return (await pool.query("SELECT 1 AS ok")).rows[0]?.ok === 1;
      } catch {
        return false;
      }
    },
    async close() {
      await pool.end();
    },
  };
}
