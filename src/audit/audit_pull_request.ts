/**
 * A pull request as an audit needs it: what `pawl check --pr` reads, plus
 * its title and the two timestamps an audit may take its clock from.
 *
 * @module
 */
import { z } from "zod";
import { parseRfc3339 } from "../core/parse_rfc3339.ts";
import {
  type PullRequest,
  PullRequestDataError,
  readPullRequest,
} from "../github/pull_request.ts";

/** One pull request of the list, read. */
export interface AuditPullRequest extends PullRequest {
  /** Title, as its author wrote it (untrusted text). */
  title: string;
  /** `created_at` (RFC 3339). */
  createdAt: string;
  /** `merged_at` (RFC 3339), or null when it was never merged. */
  mergedAt: string | null;
}

/** The pull request list, read: the entries that could be, and why the others could not. */
export interface PullRequestList {
  /** Readable pull requests, in list order, each number once. */
  pulls: AuditPullRequest[];
  /** One message per entry that could not be read. */
  unreadable: string[];
}

const instant = z.string().refine((text) => parseRfc3339(text) !== undefined, {
  message: "expected an RFC 3339 timestamp",
});

// GitHub's objects carry many more fields: unknown keys are dropped.
const schema = z.object({
  title: z.string(),
  created_at: instant,
  merged_at: instant.nullable().optional(),
});

/**
 * Read one object of `GET /repos/{o}/{r}/pulls`; `source` names where it
 * came from for errors. Throws {@linkcode PullRequestDataError}.
 *
 * @example
 * ```ts
 * import { readAuditPullRequest } from "./audit_pull_request.ts";
 * const pr = readAuditPullRequest({
 *   number: 7, state: "closed", title: "Fix", updated_at: "2026-11-30T11:00:00Z",
 *   created_at: "2026-11-01T09:00:00Z", merged_at: "2026-11-30T11:30:00Z",
 *   base: { ref: "main", sha: "a".repeat(40), repo: { full_name: "o/r", clone_url: "https://github.com/o/r.git" } },
 *   head: { ref: "fix", sha: "b".repeat(40), repo: { full_name: "o/r" } },
 * }, "the API");
 * if (pr.mergedAt !== "2026-11-30T11:30:00Z" || pr.title !== "Fix") throw new Error("unexpected");
 * ```
 */
export function readAuditPullRequest(
  value: unknown,
  source: string,
): AuditPullRequest {
  const pull = readPullRequest(value, source);
  const result = schema.safeParse(value);
  if (!result.success) {
    const issue = result.error.issues[0];
    const where = issue === undefined || issue.path.length === 0
      ? ""
      : ` at "${issue.path.join(".")}"`;
    throw new PullRequestDataError(
      `Cannot read pull request #${pull.number} from ${source}: ${
        issue?.message ?? "invalid data"
      }${where}`,
    );
  }
  return {
    ...pull,
    title: result.data.title,
    createdAt: result.data.created_at,
    mergedAt: result.data.merged_at ?? null,
  };
}

/**
 * Read a whole pull request list. An entry that cannot be read is
 * reported, not fatal; a number listed twice (the list shifted between
 * pages) is kept once.
 *
 * @example
 * ```ts
 * import { readPullRequestList } from "./audit_pull_request.ts";
 * const list = readPullRequestList([{ number: 3 }], "the API");
 * if (list.pulls.length !== 0 || list.unreadable.length !== 1) throw new Error("unexpected");
 * ```
 */
export function readPullRequestList(
  values: readonly unknown[],
  source: string,
): PullRequestList {
  const pulls: AuditPullRequest[] = [];
  const unreadable: string[] = [];
  const seen = new Set<number>();
  for (const value of values) {
    try {
      const pull = readAuditPullRequest(value, source);
      if (seen.has(pull.number)) continue;
      seen.add(pull.number);
      pulls.push(pull);
    } catch (error) {
      if (!(error instanceof PullRequestDataError)) throw error;
      unreadable.push(error.message);
    }
  }
  return { pulls, unreadable };
}
