/**
 * The audit report's data: every record in the output directory folded
 * into counts, decisions over time and the most common weakening rules
 * over time. Pure, and independent of the order records are given in, so
 * shards copied together give the report one machine would have.
 *
 * @module
 */
import { parseRfc3339 } from "../core/parse_rfc3339.ts";
import type { AuditDecision, AuditRecord } from "./audit_record.ts";
import type { AuditClock } from "./choose_clock.ts";

/** The report format's version. */
export const AUDIT_REPORT_VERSION = 1;

/**
 * Weakening rules shown one by one over time, by default; the rest share
 * one row ({@linkcode AuditReport.otherRules}).
 */
export const DEFAULT_TOP_RULES = 8;

/** One blocking or advisory finding of a pull request, as the report shows it. */
export interface AuditFinding {
  /** Rule id. */
  rule: string;
  /** The finding's message (untrusted text: renderers escape it). */
  message: string;
  /** Whether it blocked the merge. */
  blocking: boolean;
  /** Repository-relative file, when known. */
  path?: string;
  /** 1-based line, when known. */
  line?: number;
}

/** One pull request's row. */
export interface AuditReportRow {
  /** `OWNER/REPO`. */
  repo: string;
  /** Number. */
  number: number;
  /** Title (untrusted text: renderers escape it). */
  title: string;
  /** Web address, when known. */
  htmlUrl?: string;
  /** `open` or `closed`. */
  state: string;
  /** `created_at`. */
  createdAt: string;
  /** `merged_at`, or null. */
  mergedAt: string | null;
  /** Base commit judged. */
  base: string;
  /** Head commit judged. */
  head: string;
  /** The clock it was judged at. */
  clock: AuditClock;
  /** accept, reject, undecided or skipped. */
  decision: AuditDecision;
  /** Why it is undecided or skipped. */
  reason?: string;
  /** The rules of its blocking findings, most telling first, each once. */
  blockingRules: string[];
  /** Its verdict's findings, blocking first, with their messages. */
  findings: AuditFinding[];
}

/** One period of the decisions-over-time chart. */
export interface AuditPeriod {
  /** `2026-11-23` (the Monday, UTC) for weeks, `#7` for single pull requests. */
  label: string;
  /** Accepted pull requests. */
  accept: number;
  /** Rejected pull requests. */
  reject: number;
  /** Pull requests pawl could not decide. */
  undecided: number;
  /** The pull requests in the period, ascending. */
  pullRequests: number[];
}

/** One weakening rule's count overall and per period. */
export interface AuditRuleTrend {
  /** Rule id. */
  rule: string;
  /** Rejected pull requests it blocked. */
  pullRequests: number;
  /** The same, per period (aligned with {@linkcode AuditReport.periods}). */
  byPeriod: number[];
}

/**
 * The weakening rules past the top ones, as one row: which they are, how
 * many rejected pull requests at least one of them blocked, overall and per
 * period. With it, every rejected pull request shows up in the rules chart.
 */
export interface AuditOtherRules {
  /** The rule ids, most common first. */
  rules: string[];
  /** Rejected pull requests blocked by at least one of them. */
  pullRequests: number;
  /** The same, per period (aligned with {@linkcode AuditReport.periods}). */
  byPeriod: number[];
}

/** Everything `audit.json`, `audit.md` and `audit.html` show. */
export interface AuditReport {
  /** Format marker and version. */
  pawlAuditReport: typeof AUDIT_REPORT_VERSION;
  /** The repositories audited (normally one). */
  repos: string[];
  /** How many pull requests ended each way. */
  counts: {
    total: number;
    accept: number;
    reject: number;
    undecided: number;
    skipped: number;
  };
  /** Record files that could not be read (each a message). */
  unreadable: string[];
  /** `week` (Monday to Sunday, UTC) when the clocks span weeks, else `pull-request` (one per pull request, in order of the clock). */
  periodKind: "week" | "pull-request";
  /** Decisions per period, in time order. */
  periods: AuditPeriod[];
  /** The most common weakening rules, most common first. */
  topRules: AuditRuleTrend[];
  /** Every other weakening rule, as one row; null when the top rules are all of them. */
  otherRules: AuditOtherRules | null;
  /** Every pull request, ascending by repository and number. */
  pullRequests: AuditReportRow[];
}

/** Options for {@linkcode buildAuditReport}. */
export interface BuildAuditReportOptions {
  /** Messages for record files that could not be read. */
  unreadable?: readonly string[];
  /** How many rules to follow over time (default {@linkcode DEFAULT_TOP_RULES}). */
  topRules?: number;
}

const DAY_MS = 86_400_000;

/**
 * Fold `records` into the report.
 *
 * @example
 * ```ts
 * import { buildAuditReport } from "./build_audit_report.ts";
 * const report = buildAuditReport([]);
 * if (report.counts.total !== 0 || report.periods.length !== 0) throw new Error("unexpected");
 * ```
 */
export function buildAuditReport(
  records: readonly AuditRecord[],
  options: BuildAuditReportOptions = {},
): AuditReport {
  const rows = records.map(rowOf).sort((a, b) =>
    compare(a.repo, b.repo) || a.number - b.number
  );
  const counts = {
    total: rows.length,
    accept: 0,
    reject: 0,
    undecided: 0,
    skipped: 0,
  };
  for (const row of rows) counts[row.decision] += 1;

  // Pull requests with a clock, in order of it.
  const timed = rows.flatMap((row) => {
    const ms = row.clock.now === null ? undefined : parseRfc3339(row.clock.now);
    return row.decision === "skipped" || ms === undefined ? [] : [{ row, ms }];
  }).sort((a, b) => a.ms - b.ms || a.row.number - b.row.number);
  const weeks = new Set(timed.map((t) => weekOf(t.ms)));
  const periodKind = weeks.size >= 2 ? "week" : "pull-request";
  const periods: AuditPeriod[] = [];
  const periodOf = new Map<AuditReportRow, number>();
  if (periodKind === "week") {
    const first = Math.min(...weeks);
    const last = Math.max(...weeks);
    for (let day = first; day <= last; day += 7) {
      periods.push(emptyPeriod(isoDate(day)));
    }
    for (const { row, ms } of timed) {
      periodOf.set(row, (weekOf(ms) - first) / 7);
    }
  } else {
    for (const { row } of timed) {
      periodOf.set(row, periods.length);
      periods.push(emptyPeriod(`#${row.number}`));
    }
  }
  for (const [row, index] of periodOf) {
    const period = periods[index]!;
    if (row.decision !== "skipped") period[row.decision] += 1;
    period.pullRequests.push(row.number);
  }
  for (const period of periods) period.pullRequests.sort((a, b) => a - b);

  const trends = new Map<string, AuditRuleTrend>();
  for (const row of rows) {
    for (const rule of row.blockingRules) {
      let trend = trends.get(rule);
      if (trend === undefined) {
        trend = { rule, pullRequests: 0, byPeriod: periods.map(() => 0) };
        trends.set(rule, trend);
      }
      trend.pullRequests += 1;
      const index = periodOf.get(row);
      if (index !== undefined) trend.byPeriod[index]! += 1;
    }
  }
  const ranked = [...trends.values()]
    .sort((a, b) => b.pullRequests - a.pullRequests || compare(a.rule, b.rule));
  const shown = Math.max(0, options.topRules ?? DEFAULT_TOP_RULES);
  const topRules = ranked.slice(0, shown);
  const otherRules = ranked.length > shown
    ? others(rows, ranked.slice(shown), periods.length, periodOf)
    : null;

  return {
    pawlAuditReport: AUDIT_REPORT_VERSION,
    repos: [...new Set(rows.map((r) => r.repo))].sort(compare),
    counts,
    unreadable: [...(options.unreadable ?? [])].sort(compare),
    periodKind,
    periods,
    topRules,
    otherRules,
    pullRequests: rows,
  };
}

/** The rules past the top ones as one row, counting each pull request once. */
function others(
  rows: readonly AuditReportRow[],
  rest: readonly AuditRuleTrend[],
  periods: number,
  periodOf: ReadonlyMap<AuditReportRow, number>,
): AuditOtherRules {
  const rules = new Set(rest.map((t) => t.rule));
  const out: AuditOtherRules = {
    rules: [...rules],
    pullRequests: 0,
    byPeriod: Array.from({ length: periods }, () => 0),
  };
  for (const row of rows) {
    if (!row.blockingRules.some((rule) => rules.has(rule))) continue;
    out.pullRequests += 1;
    const index = periodOf.get(row);
    if (index !== undefined) out.byPeriod[index]! += 1;
  }
  return out;
}

function rowOf(record: AuditRecord): AuditReportRow {
  const pr = record.pullRequest;
  const findings = [...(record.verdict?.findings ?? [])]
    .sort((a, b) => Number(b.blocking) - Number(a.blocking))
    .map((f): AuditFinding => ({
      rule: f.rule,
      message: f.message,
      blocking: f.blocking,
      ...(f.path === undefined ? {} : { path: f.path }),
      ...(f.line === undefined ? {} : { line: f.line }),
    }));
  const rules = record.decision === "reject"
    ? (record.verdict?.findings ?? []).filter((f) => f.blocking).map((f) =>
      f.rule
    )
    : [];
  return {
    repo: record.repo,
    number: pr.number,
    title: pr.title,
    ...(pr.htmlUrl === undefined ? {} : { htmlUrl: pr.htmlUrl }),
    state: pr.state,
    createdAt: pr.createdAt,
    mergedAt: pr.mergedAt,
    base: pr.base,
    head: pr.head,
    clock: record.clock,
    decision: record.decision,
    ...(record.reason === undefined ? {} : { reason: record.reason }),
    blockingRules: [...new Set(rules)],
    findings,
  };
}

function emptyPeriod(label: string): AuditPeriod {
  return { label, accept: 0, reject: 0, undecided: 0, pullRequests: [] };
}

/** The day number (days since 1970-01-01, UTC) of the Monday of `ms`'s week. */
function weekOf(ms: number): number {
  const day = Math.floor(ms / DAY_MS);
  // 1970-01-01 was a Thursday: three days after a Monday.
  return day - ((day + 3) % 7 + 7) % 7;
}

function isoDate(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
