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
  };
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
