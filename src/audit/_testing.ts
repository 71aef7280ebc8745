/**
 * Test builders for this folder: pull request objects as the API spells
 * them, and records made with the real {@linkcode buildAuditRecord} and
 * {@linkcode buildVerdict}.
 *
 * @module
 */
import { finding } from "../core/finding.ts";
import type { RuleId } from "../core/rules.ts";
import { buildVerdict } from "../core/verdict.ts";
import {
  type AuditPullRequest,
  readAuditPullRequest,
} from "./audit_pull_request.ts";
import {
  type AuditDecision,
  type AuditRecord,
  buildAuditRecord,
} from "./audit_record.ts";

/** Base commit id of the test pull requests. */
export const BASE = "a".repeat(40);

/** Head commit id of the test pull requests. */
export const HEAD = "b".repeat(40);

/** A pull request object as `GET /repos/o/r/pulls` lists it; override any field. */
export function apiPull(
  number: number,
  overrides: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    number,
    state: "closed",
    title: `Pull request ${number}`,
    "html_url": `https://github.com/o/r/pull/${number}`,
    "created_at": "2026-11-01T09:00:00Z",
    "updated_at": "2026-11-30T11:00:00Z",
    "merged_at": "2026-11-30T11:30:00Z",
    base: {
      ref: "main",
      sha: BASE,
      repo: { "full_name": "o/r", "clone_url": "https://github.com/o/r.git" },
    },
    head: { ref: `pr-${number}`, sha: HEAD, repo: { "full_name": "o/r" } },
    ...overrides,
  };
}

/** {@linkcode apiPull}, read. */
export function pull(
  number: number,
  overrides: Record<string, unknown> = {},
): AuditPullRequest {
  return readAuditPullRequest(apiPull(number, overrides), "the test");
}

/** Options for {@linkcode record}. */
export interface RecordOptions {
  /** The clock (default `2026-11-30T11:30:00Z`, from merged-at). */
  now?: string;
  /** Blocking rules of a reject (default `property.removed`). */
  rules?: RuleId[];
  /** Title. */
  title?: string;
}

/** A record of pull request `number` that came to `decision`. */
export function record(
  number: number,
  decision: AuditDecision,
  options: RecordOptions = {},
): AuditRecord {
  const now = options.now ?? "2026-11-30T11:30:00Z";
  const pr = pull(number, {
    ...(options.title === undefined ? {} : { title: options.title }),
    "merged_at": decision === "skipped" ? null : now,
  });
  if (decision === "skipped") {
    return buildAuditRecord("o/r", pr, {
      source: "merged-at",
      field: "pull_request.merged_at",
      now: null,
    }, { kind: "skipped", reason: `Pull request #${number} was never merged` });
  }
  const clock = {
    source: "merged-at" as const,
    field: "pull_request.merged_at",
    now,
  };
  if (decision === "undecided") {
    return buildAuditRecord("o/r", pr, clock, {
      kind: "undecided",
      reason: `Cannot fetch "${HEAD}": <gone>`,
    });
  }
  const rules = decision === "reject"
    ? options.rules ?? ["property.removed"]
    : [];
  const verdict = buildVerdict(
    rules.map((rule) => finding(rule, `Rule "${rule}" fired`)),
    {
      pawl: { version: "0.1.0" },
      now,
      clock: { source: "merged-at", field: "pull_request.merged_at" },
      repo: "https://github.com/o/r.git",
      base: BASE,
      head: HEAD,
      contract: { layouts: [], files: [], digest: "", freezeBodyHashes: [] },
      options: { allowFixtureRotate: false, isolation: "auto" },
      isolation: null,
      tests: null,
    },
  );
  return buildAuditRecord("o/r", pr, clock, { kind: "verdict", verdict });
}
