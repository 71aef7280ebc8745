/**
 * The embedded {@linkcode JobQueue}: one SQLite file (`node:sqlite`) in
 * the data directory, for one server on one machine.
 *
 * @module
 */
import { DatabaseSync } from "node:sqlite";
import type { Outcome } from "../github/publish_verdict.ts";
import {
  jobId,
  type JobRecord,
  type JobSpec,
  type JobState,
  pullKey,
} from "./job.ts";
import type {
  ClaimedJob,
  EnqueueOptions,
  EnqueueResult,
  JobQueue,
  LeaseOptions,
} from "./queue.ts";
import {
  emptyCounts,
  eventMs,
  type JobRow,
  oldestByState,
  oldestQueuedSql,
  recordOf,
} from "./_rows.ts";

const SCHEMA = `
CREATE TABLE IF NOT EXISTS jobs (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  pull TEXT NOT NULL,
  event_ms INTEGER NOT NULL,
  spec TEXT NOT NULL,
  state TEXT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  run_after INTEGER NOT NULL DEFAULT 0,
  lease_owner TEXT,
  lease_until INTEGER NOT NULL DEFAULT 0,
  outcome TEXT,
  last_error TEXT
);
CREATE INDEX IF NOT EXISTS jobs_pull ON jobs (pull, state);
CREATE INDEX IF NOT EXISTS jobs_state ON jobs (state, run_after);
`;

/**
 * A job `j` a worker may take at `?` (three times): queued and due, or
 * held under a lease that ran out; and no other job of its pull request
 * held under a live lease, or held earlier (a dead worker's job is taken
 * up first). `BEGIN IMMEDIATE` makes each claim the only writer, so the
 * check sees every earlier claim.
 */
const CLAIMABLE = `((j.state = 'queued' AND j.run_after <= ?)
    OR (j.state IN ('running', 'judged') AND j.lease_until < ?))
  AND NOT EXISTS (SELECT 1 FROM jobs k WHERE k.pull = j.pull
    AND k.id <> j.id AND k.state IN ('running', 'judged')
    AND (k.lease_until >= ? OR k.seq < j.seq))`;

/** Open (creating) the queue in the SQLite file `path`. */
export function openSqliteQueue(path: string): JobQueue {
  const db = new DatabaseSync(path);
  db.exec("PRAGMA journal_mode = WAL");
  // Stryker disable next-line StringLiteral: node:sqlite opens a database with synchronous FULL already; the pragma keeps it so if that default changes
  db.exec("PRAGMA synchronous = FULL");
  // Stryker disable next-line StringLiteral: node:sqlite opens a database with a busy timeout of 5000 ms already; the pragma keeps it so if that default changes
  db.exec("PRAGMA busy_timeout = 5000");
  db.exec(SCHEMA);
  const columns = db.prepare("PRAGMA table_info(jobs)").all();
  if (!columns.some((c) => c["name"] === "queued_at")) {
    // A queue file from before the column.
    db.exec(
      "ALTER TABLE jobs ADD COLUMN queued_at INTEGER NOT NULL DEFAULT 0",
    );
  }
  const tx = <T>(body: () => T): T => {
    db.exec("BEGIN IMMEDIATE");
    try {
      const result = body();
      db.exec("COMMIT");
      return result;
    } catch (error) {
      db.exec("ROLLBACK");
      throw error;
    }
  };
  const one = (sql: string, ...params: (string | number | null)[]) =>
    db.prepare(sql).get(...params) as Record<string, unknown> | undefined;
  const run = (sql: string, ...params: (string | number | null)[]) =>
    Number(db.prepare(sql).run(...params).changes);

  return rejectingThrows({
    enqueue(spec: JobSpec, options: EnqueueOptions): Promise<EnqueueResult> {
      const id = jobId(spec);
      const pull = pullKey(spec);
      const at = eventMs(spec.now);
      return Promise.resolve(tx((): EnqueueResult => {
        // Stryker disable next-line OptionalChaining: an aggregate without GROUP BY always returns one row
        const newest = one(
          "SELECT max(event_ms) AS ms FROM jobs WHERE pull = ? AND id <> ?",
          pull,
          id,
        )?.["ms"];
        // Stryker disable next-line ConditionalExpression: max() over no rows is NULL, and null > a number is false as well
        const stale = typeof newest === "number" && newest > at;
        const existing = one(
          "SELECT state, outcome FROM jobs WHERE id = ?",
          id,
        );
        if (existing !== undefined) {
          const undecided = existing["state"] === "published" &&
            // Stryker disable next-line ConditionalExpression: a job is published only after recordOutcome stored its outcome, so a published job's outcome is always a string
            typeof existing["outcome"] === "string" &&
            JSON.parse(existing["outcome"]).kind === "undecided";
          if (options.rerequest && undecided && !stale) {
            run(
              `UPDATE jobs SET state = 'queued', attempts = 0, outcome = NULL, last_error = NULL,
                 run_after = ?, queued_at = ?, lease_owner = NULL, lease_until = 0, spec = ?, event_ms = max(event_ms, ?) WHERE id = ?`,
              options.now,
              options.now,
              JSON.stringify(spec),
              at,
              id,
            );
            return { status: "requeued", id, superseded: [] };
          }
          return { status: "duplicate", id, superseded: [] };
        }
        if (stale) return { status: "stale", id, superseded: [] };
        if (options.rerequest) {
          // A re-run of commits never seen before: another job of the pull
          // request in progress may be about newer commits, so it wins.
          const busy = one(
            `SELECT 1 AS busy FROM jobs WHERE pull = ?
               AND state IN ('queued', 'running', 'judged')`,
            pull,
          );
          if (busy !== undefined) {
            return { status: "stale", id, superseded: [] };
          }
        }
        const overtaken = `pull = ? AND (state IN ('queued', 'running')
          OR (state = 'judged' AND (lease_owner IS NULL OR lease_until < ?)))`;
        const superseded = db.prepare(`SELECT id FROM jobs WHERE ${overtaken}`)
          .all(pull, options.now).map((r) => String(r["id"]));
        run(
          `UPDATE jobs SET state = 'superseded', lease_owner = NULL
             WHERE ${overtaken}`,
          pull,
          options.now,
        );
        run(
          `INSERT INTO jobs (id, pull, event_ms, spec, state, run_after, queued_at)
             VALUES (?, ?, ?, ?, 'queued', ?, ?)`,
          id,
          pull,
          at,
          JSON.stringify(spec),
          options.now,
          options.now,
        );
        return { status: "queued", id, superseded };
      }));
    },
    claim(
      worker: string,
      options: LeaseOptions,
    ): Promise<ClaimedJob | undefined> {
      const { now } = options;
      return Promise.resolve(tx(() => {
        const row = one(
          `SELECT id, state FROM jobs j WHERE ${CLAIMABLE}
             ORDER BY j.seq LIMIT 1`,
          now,
          now,
          now,
        );
        if (row === undefined) return undefined;
        run(
          `UPDATE jobs SET
             state = CASE WHEN state = 'judged' THEN 'judged' ELSE 'running' END,
             attempts = attempts + CASE WHEN state = 'judged' THEN 0 ELSE 1 END,
             lease_owner = ?, lease_until = ? WHERE id = ?`,
          worker,
          now + options.leaseMs,
          String(row["id"]),
        );
        return recordOf(
          one(
            "SELECT * FROM jobs WHERE id = ?",
            String(row["id"]),
          ) as unknown as JobRow,
        ) as ClaimedJob;
      }));
    },
    confirmNewest(id, worker, options) {
      return Promise.resolve(tx(() => {
        const overtaken = run(
          `UPDATE jobs SET state = 'superseded', lease_owner = NULL
             WHERE id = ? AND lease_owner = ? AND state = 'judged'
               AND EXISTS (SELECT 1 FROM jobs k WHERE k.pull = jobs.pull
                 AND k.id <> jobs.id AND k.state <> 'superseded'
                 AND (k.event_ms > jobs.event_ms
                   OR (k.event_ms = jobs.event_ms AND k.seq > jobs.seq)))`,
          id,
          worker,
        );
        // Stryker disable next-line ConditionalExpression: a job just superseded is no longer judged, so the renewal below changes no row and answers false as well
        if (overtaken > 0) return false;
        return run(
          `UPDATE jobs SET lease_until = ? WHERE id = ? AND lease_owner = ?
             AND state = 'judged'`,
          options.now + options.leaseMs,
          id,
          worker,
        ) > 0;
      }));
    },
    heartbeat(id, worker, options) {
      return Promise.resolve(
        run(
          `UPDATE jobs SET lease_until = ? WHERE id = ? AND lease_owner = ?
             AND state IN ('running', 'judged')`,
          options.now + options.leaseMs,
          id,
          worker,
        ) > 0,
      );
    },
    release(id, worker, options) {
      return Promise.resolve(
        run(
          `UPDATE jobs SET
             state = CASE WHEN state = 'judged' THEN 'judged' ELSE 'queued' END,
             run_after = ?, lease_until = ?, lease_owner = NULL, last_error = ?
             WHERE id = ? AND lease_owner = ? AND state IN ('running', 'judged')`,
          options.runAfter,
          options.runAfter,
          options.error,
          id,
          worker,
        ) > 0,
      );
    },
    recordOutcome(
      id: string,
      worker: string,
      outcome: Outcome,
      options: LeaseOptions,
    ) {
      return Promise.resolve(
        run(
          `UPDATE jobs SET state = 'judged', outcome = ?, lease_until = ?
             WHERE id = ? AND lease_owner = ? AND state = 'running'`,
          JSON.stringify(outcome),
          options.now + options.leaseMs,
          id,
          worker,
        ) > 0,
      );
    },
    markPublished(id, worker) {
      return Promise.resolve(
        run(
          `UPDATE jobs SET state = 'published', lease_owner = NULL, lease_until = 0
             WHERE id = ? AND lease_owner = ? AND state = 'judged'`,
          id,
          worker,
        ) > 0,
      );
    },
    get(id): Promise<JobRecord | undefined> {
      const row = one("SELECT * FROM jobs WHERE id = ?", id);
      return Promise.resolve(
        row === undefined ? undefined : recordOf(row as unknown as JobRow),
      );
    },
    list() {
      return Promise.resolve(
        db.prepare("SELECT * FROM jobs ORDER BY seq").all().map((row) =>
          recordOf(row as unknown as JobRow)
        ),
      );
    },
    counts() {
      const counts = emptyCounts();
      for (
        const row of db.prepare(
          "SELECT state, count(*) AS n FROM jobs GROUP BY state",
        ).all()
      ) {
        counts[row["state"] as JobState] = Number(row["n"]);
      }
      return Promise.resolve(counts);
    },
    oldestQueuedAt() {
      return Promise.resolve(
        oldestByState(db.prepare(oldestQueuedSql("jobs")).all()),
      );
    },
    ping() {
      try {
        // Stryker disable next-line OptionalChaining: SELECT 1 always returns its one row
        return Promise.resolve(one("SELECT 1 AS ok")?.["ok"] === 1);
      } catch {
        return Promise.resolve(false);
      }
    },
    close() {
      db.close();
      return Promise.resolve();
    },
  });
}

/**
 * `queue` with each method's synchronous throw turned into a rejected
 * promise, as {@linkcode JobQueue} promises. node:sqlite throws where it
 * fails (a full disk, a database still busy after its timeout, a closed
 * handle), and a caller that only attaches `.catch()`, as the worker pool's
 * heartbeat timer does, would meet an uncaught exception that ends the
 * server.
 */
function rejectingThrows(queue: JobQueue): JobQueue {
  const wrapped: Record<string, unknown> = {};
  for (const [name, method] of Object.entries(queue)) {
    wrapped[name] = (...args: unknown[]) => {
      try {
        return (method as (...args: unknown[]) => Promise<unknown>)(...args);
      } catch (error) {
        return Promise.reject(error);
      }
    };
  }
  return wrapped as unknown as JobQueue;
}
