/**
 * Each audited pull request's clock: one `--now` for all, or the pull
 * request's own `merged_at` / `created_at` (`--now-from`).
 *
 * @module
 */
import { type Instant, parseNow } from "../core/parse_now.ts";
import type { ClockRecord } from "../core/verdict.ts";

/** Where an audit takes its clocks from. */
export type ClockPlan =
  | { source: "flag"; now: Instant }
  | { source: "merged-at" | "created-at" };

/** The clock of one audited pull request, as the audit records it. */
export interface AuditClock {
  /** `flag` (`--now`), `merged-at` or `created-at`. */
  source: "flag" | "merged-at" | "created-at";
  /** The pull request field read (`pull_request.merged_at`), for the per-PR sources. */
  field?: string;
  /** The instant judged at (RFC 3339, as given), or null when there was none. */
  now: string | null;
}

/** The clock chosen for one pull request: judge it at `now`, or skip it and say why. */
export type ChosenClock =
  | {
    kind: "judge";
    /** The instant to judge at. */
    now: Instant;
    /** What the audit records. */
    clock: AuditClock;
    /** What the verdict records (absent for `--now`, as `pawl check` does). */
    verdictClock?: ClockRecord;
  }
  | {
    kind: "skip";
    /** What the audit records. */
    clock: AuditClock;
    /** Why the pull request was not judged. */
    reason: string;
  };

const FIELDS = {
  "merged-at": "pull_request.merged_at",
  "created-at": "pull_request.created_at",
} as const;

/**
 * Choose the clock for one pull request. Under `merged-at` a pull request
 * that was never merged is skipped with the reason, never judged against
 * another clock.
 *
 * @example
 * ```ts
 * import { chooseClock } from "./choose_clock.ts";
 * const pr = { number: 7, createdAt: "2026-11-01T09:00:00Z", mergedAt: null };
 * const chosen = chooseClock(pr, { source: "merged-at" });
 * if (chosen.kind !== "skip") throw new Error("unexpected");
 * const created = chooseClock(pr, { source: "created-at" });
 * if (created.kind !== "judge" || created.now.text !== "2026-11-01T09:00:00Z") throw new Error("unexpected");
 * ```
 */
export function chooseClock(
  pr: { number: number; createdAt: string; mergedAt: string | null },
  plan: ClockPlan,
): ChosenClock {
  if (plan.source === "flag") {
    return {
      kind: "judge",
      now: plan.now,
      clock: { source: "flag", now: plan.now.text },
    };
  }
  const field = FIELDS[plan.source];
  const text = plan.source === "merged-at" ? pr.mergedAt : pr.createdAt;
  if (text === null) {
    return {
      kind: "skip",
      clock: { source: plan.source, field, now: null },
      reason:
        `Pull request #${pr.number} was never merged: it has no "merged_at" to judge it at`,
    };
  }
  return {
    kind: "judge",
    now: parseNow(text, `"${field}" of pull request #${pr.number}`),
    clock: { source: plan.source, field, now: text },
    verdictClock: { source: plan.source, field },
  };
}
