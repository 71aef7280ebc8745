/**
 * When a job that failed for a passing reason (GitHub unavailable, a
 * network error, a rate limit) is tried again: exponential backoff from
 * `baseMs`, each wait capped at `capMs`, for as long as the waits so far
 * fit in `deadlineMs`. The schedule counts nominal waits, so it survives a
 * restart with nothing but the job's attempt count; the actual wait is
 * jittered around the nominal one so replicas do not retry in step.
 *
 * @module
 */

/** The retry schedule of a job. */
export interface RetrySchedule {
  /** The first wait, ms. */
  baseMs: number;
  /** The longest single wait, ms. */
  capMs: number;
  /** How long a job may keep waiting in all, ms. */
  deadlineMs: number;
}

/** Defaults: 5 s doubling, at most 5 minutes a wait, for 2 hours. */
export const DEFAULT_RETRY_SCHEDULE: RetrySchedule = {
  baseMs: 5000,
  capMs: 5 * 60_000,
  deadlineMs: 2 * 60 * 60_000,
};

/**
 * The nominal wait after failed attempt `attempt` (from 1).
 *
 * @example
 * ```ts
 * import { backoffMs } from "./retry_schedule.ts";
 * const s = { baseMs: 5000, capMs: 300_000, deadlineMs: 7_200_000 };
 * if (backoffMs(3, s) !== 20_000 || backoffMs(12, s) !== 300_000) throw new Error();
 * ```
 */
export function backoffMs(attempt: number, schedule: RetrySchedule): number {
  const doublings = Math.min(Math.max(attempt - 1, 0), 40);
  return Math.min(schedule.baseMs * 2 ** doublings, schedule.capMs);
}

/** The nominal waits after attempts 1 to `attempts`, summed. */
export function waitedMs(attempts: number, schedule: RetrySchedule): number {
  let total = 0;
  for (let k = 1; k <= attempts; k++) total += backoffMs(k, schedule);
  return total;
}

/** Whether a job that has failed `attempts` times may wait once more. */
export function mayRetry(attempts: number, schedule: RetrySchedule): boolean {
  return waitedMs(attempts, schedule) <= schedule.deadlineMs;
}

/** `ms` spread over three quarters to five quarters of itself. */
export function jitter(ms: number, random: () => number): number {
  return Math.round(ms * (0.75 + 0.5 * random()));
}

/** A duration for people: `45 s`, `12 min`, `2 h`, `1 h 30 min`. */
export function formatDuration(ms: number): string {
  if (ms < 60_000) return `${Math.round(ms / 100) / 10} s`;
  const minutes = Math.round(ms / 60_000);
  if (minutes < 60) return `${minutes} min`;
  const rest = minutes % 60;
  return rest === 0
    ? `${minutes / 60} h`
    : `${Math.floor(minutes / 60)} h ${rest} min`;
}
