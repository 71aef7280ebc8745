/**
 * One audited pull request on disk (`pr-<N>.json`): the pull request as
 * the API described it, the clock it was judged at, and the decision — the
 * whole verdict for accept and reject, the reason for undecided and
 * skipped. It holds nothing about the run that made it (no machine, shard,
 * worker or time), so shards that judge the same inputs write the same
 * bytes.
 *
 * @module
 */
import type { Verdict } from "../core/verdict.ts";
import type { AuditPullRequest } from "./audit_pull_request.ts";
import type { AuditClock } from "./choose_clock.ts";

/** The record format's version. */
export const AUDIT_RECORD_VERSION = 1;

/** What an audit concluded about one pull request. */
export type AuditDecision = "accept" | "reject" | "undecided" | "skipped";

/** The pull request, as the record keeps it. */
export interface AuditRecordPullRequest {
  /** Number. */
  number: number;
  /** Title (untrusted text). */
  title: string;
  /** `open` or `closed`. */
  state: string;
  /** Web address, when the API gave one. */
  htmlUrl?: string;
  /** `created_at`. */
  createdAt: string;
  /** `merged_at`, or null. */
  mergedAt: string | null;
  /** Base branch name (informational). */
  baseRef: string;
  /** Head branch name (informational). */
  headRef: string;
  /** The base commit the API reported. */
  base: string;
  /** The head commit the API reported. */
  head: string;
  /** Whether the head came from a fork. */
  fromFork: boolean;
}

/** One `pr-<N>.json`. */
export interface AuditRecord {
  /** Format marker and version. */
  pawlAudit: typeof AUDIT_RECORD_VERSION;
  /** `OWNER/REPO`. */
  repo: string;
  /** The pull request. */
  pullRequest: AuditRecordPullRequest;
  /** The clock it was judged at (or would have been). */
  clock: AuditClock;
  /** The decision. */
  decision: AuditDecision;
  /** Why pawl could not decide, or why the pull request was skipped. */
  reason?: string;
  /** The verdict, for accept and reject. */
  verdict?: Verdict;
}

/** How one pull request's judgement ended. */
export type AuditOutcome =
  | { kind: "verdict"; verdict: Verdict }
  | { kind: "undecided"; reason: string }
  | { kind: "skipped"; reason: string };

/**
 * Build the record of one pull request.
 *
 * @example
 * ```ts
 * import { buildAuditRecord } from "./audit_record.ts";
 * import { readAuditPullRequest } from "./audit_pull_request.ts";
 * const pr = readAuditPullRequest({
 *   number: 7, state: "open", title: "Fix", updated_at: "2026-11-30T11:00:00Z", created_at: "2026-11-01T09:00:00Z",
 *   base: { ref: "main", sha: "a".repeat(40), repo: { full_name: "o/r", clone_url: "https://github.com/o/r.git" } },
 *   head: { ref: "fix", sha: "b".repeat(40), repo: { full_name: "o/r" } },
 * }, "the API");
 * const record = buildAuditRecord("o/r", pr, { source: "merged-at", field: "pull_request.merged_at", now: null }, {
 *   kind: "skipped", reason: "Pull request #7 was never merged",
 * });
 * if (record.decision !== "skipped" || record.pullRequest.head !== "b".repeat(40)) throw new Error("unexpected");
 * ```
 */
export function buildAuditRecord(
  repo: string,
  pr: AuditPullRequest,
  clock: AuditClock,
  outcome: AuditOutcome,
): AuditRecord {
  return {
    pawlAudit: AUDIT_RECORD_VERSION,
    repo,
    pullRequest: {
      number: pr.number,
      title: pr.title,
      state: pr.state,
      ...(pr.htmlUrl === undefined ? {} : { htmlUrl: pr.htmlUrl }),
      createdAt: pr.createdAt,
      mergedAt: pr.mergedAt,
      baseRef: pr.base.ref,
      headRef: pr.head.ref,
      base: pr.base.sha,
      head: pr.head.sha,
      fromFork: pr.fromFork,
    },
    clock,
    ...(outcome.kind === "verdict"
      ? { decision: outcome.verdict.decision, verdict: outcome.verdict }
      : { decision: outcome.kind, reason: outcome.reason }),
  };
}

/** The file name of pull request `number`'s record: `pr-<N>.json`. */
export function auditRecordFileName(number: number): string {
  return `pr-${number}.json`;
}

/** The pull request number of a record file name, or undefined for any other name. */
export function auditRecordNumber(fileName: string): number | undefined {
  const m = /^pr-([1-9][0-9]{0,9})\.json$/.exec(fileName);
  return m === null ? undefined : Number(m[1]);
}

/** Options for {@linkcode isRecordCurrent}. */
export interface IsRecordCurrentOptions {
  /** Whether an undecided record is judged again (`--retry-undecided`). */
  retryUndecided?: boolean;
}

/**
 * Whether `record` already answers the question the audit asks about
 * `pr` at `clock`: same repository, same base and head commits, same
 * clock. A record for other commits (the pull request moved) or another
 * clock is stale and judged again.
 *
 * @example
 * ```ts
 * import { isRecordCurrent } from "./audit_record.ts";
 * const record = {
 *   pawlAudit: 1 as const, repo: "o/r", decision: "skipped" as const, reason: "never merged",
 *   clock: { source: "merged-at" as const, field: "pull_request.merged_at", now: null },
 *   pullRequest: { number: 7, title: "t", state: "open", createdAt: "2026-11-01T09:00:00Z", mergedAt: null,
 *     baseRef: "main", headRef: "fix", base: "a".repeat(40), head: "b".repeat(40), fromFork: false },
 * };
 * const pr = { number: 7, base: { sha: "a".repeat(40) }, head: { sha: "c".repeat(40) } };
 * if (isRecordCurrent(record, "o/r", pr, record.clock)) throw new Error("the head moved");
 * ```
 */
export function isRecordCurrent(
  record: AuditRecord,
  repo: string,
  pr: { number: number; base: { sha: string }; head: { sha: string } },
  clock: AuditClock,
  options: IsRecordCurrentOptions = {},
): boolean {
  return record.repo.toLowerCase() === repo.toLowerCase() &&
    record.pullRequest.number === pr.number &&
    record.pullRequest.base === pr.base.sha &&
    record.pullRequest.head === pr.head.sha &&
    record.clock.source === clock.source &&
    record.clock.now === clock.now &&
    !(options.retryUndecided === true && record.decision === "undecided");
}
