/**
 * The row shape both queue backends store, and its conversion.
 *
 * @module
 */
import type { Outcome } from "../github/publish_verdict.ts";
import { JOB_STATES, type JobRecord, type JobState } from "./job.ts";

/** A `jobs` row as a driver returns it. */
export interface JobRow {
  id: string;
  spec: string;
  state: string;
  attempts: number | string | bigint;
  outcome: string | null;
  "last_error": string | null;
  "queued_at"?: number | string | bigint | null;
}

/** The record a row holds. */
export function recordOf(row: JobRow): JobRecord {
  const state = row.state as JobState;
  if (!JOB_STATES.includes(state)) {
    throw new Error(`Unknown job state "${row.state}" for job "${row.id}"`);
  }
  return {
    id: row.id,
    spec: JSON.parse(row.spec),
    state,
    attempts: Number(row.attempts),
    ...(row.outcome === null
      ? {}
      : { outcome: JSON.parse(row.outcome) as Outcome }),
    ...(row.last_error === null ? {} : { lastError: row.last_error }),
    ...(Number(row.queued_at ?? 0) > 0
      ? { queuedAt: Number(row.queued_at) }
      : {}),
  };
}

/** Rows of (state, oldest queued_at) as a map of the states present. */
export function oldestByState(
  rows: Record<string, unknown>[],
): Partial<Record<JobState, number>> {
  const oldest: Partial<Record<JobState, number>> = {};
  for (const row of rows) {
    const at = Number(row["at"]);
    if (Number.isFinite(at) && at > 0) oldest[row["state"] as JobState] = at;
  }
  return oldest;
}

/** The query behind `oldestQueuedAt()`, for a table named `table`. */
export function oldestQueuedSql(table: string): string {
  return `SELECT state, min(queued_at) AS at FROM ${table}
    WHERE state IN ('queued', 'running', 'judged') AND queued_at > 0
    GROUP BY state`;
}

/** Zero for every state. */
export function emptyCounts(): Record<JobState, number> {
  return Object.fromEntries(JOB_STATES.map((s) => [s, 0])) as Record<
    JobState,
    number
  >;
}

/** The job's event time, for ordering events of one pull request. */
export function eventMs(now: string): number {
  const ms = Date.parse(now);
  return Number.isFinite(ms) ? ms : 0;
}
