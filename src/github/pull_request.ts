/**
 * The parts of a GitHub pull request pawl judges by, read from the REST
 * API's pull request object (the same object an Actions `pull_request`
 * event carries).
 *
 * @module
 */
import { z } from "zod";

/** A pull request as pawl needs it. */
export interface PullRequest {
  /** Pull request number. */
  number: number;
  /** `open` or `closed`. */
  state: string;
  /** `updated_at`, as GitHub wrote it (RFC 3339). */
  updatedAt: string;
  /** The pull request's web address, when given. */
  htmlUrl?: string;
  /** The branch it merges into, in the base repository. */
  base: {
    /** Branch name (informational: the SHA is judged). */
    ref: string;
    /** The base commit the API reported. */
    sha: string;
    /** `OWNER/REPO` of the base repository. */
    repo: string;
    /** Where to clone the base repository from. */
    cloneUrl: string;
  };
  /** The proposed change. */
  head: {
    /** Branch name (informational: the SHA is judged). */
    ref: string;
    /** The head commit the API reported. */
    sha: string;
    /** `OWNER/REPO` of the head repository (null when it was deleted). */
    repo: string | null;
  };
  /** Whether the head lives in another repository (a fork). */
  fromFork: boolean;
}

/** A pull request object lacks a field pawl needs, or has a bad value. */
export class PullRequestDataError extends TypeError {
  /** Build the error. */
  constructor(message: string) {
    super(message);
    this.name = "PullRequestDataError";
  }
}

const sha = z.string().regex(/^(?:[0-9a-f]{40}|[0-9a-f]{64})$/, {
  message: "expected a full commit id",
});
const cloneUrl = z.string().regex(/^(?:https?|file):\/\/[^\s]+$/i, {
  message: "expected an https:// (or file://) URL",
});

// GitHub's objects carry dozens of fields and gain more over time, so
// unknown keys are dropped here rather than refused (unlike pawl's own
// files, whose schemas are strict).
const schema = z.object({
  number: z.int().positive(),
  state: z.string(),
  updated_at: z.string(),
  html_url: z.string().optional(),
  base: z.object({
    ref: z.string(),
    sha,
    repo: z.object({ full_name: z.string(), clone_url: cloneUrl }),
  }),
  head: z.object({
    ref: z.string(),
    sha,
    repo: z.object({ full_name: z.string() }).nullable(),
  }),
});

/**
 * Read a pull request object (`GET /repos/{o}/{r}/pulls/{n}`, or an event
 * payload's `pull_request`). `source` names where it came from for errors.
 *
 * @example
 * ```ts
 * import { readPullRequest } from "./pull_request.ts";
 * const pr = readPullRequest({
 *   number: 7, state: "open", updated_at: "2026-11-30T11:00:00Z",
 *   base: { ref: "main", sha: "a".repeat(40), repo: { full_name: "o/r", clone_url: "https://github.com/o/r.git" } },
 *   head: { ref: "fix", sha: "b".repeat(40), repo: { full_name: "fork/r" } },
 * }, "the API");
 * if (!pr.fromFork || pr.head.sha !== "b".repeat(40)) throw new Error("unexpected");
 * ```
 */
export function readPullRequest(value: unknown, source: string): PullRequest {
  const result = schema.safeParse(value);
  if (!result.success) {
    const issue = result.error.issues[0];
    const where = issue === undefined || issue.path.length === 0
      ? ""
      : ` at "${issue.path.join(".")}"`;
    throw new PullRequestDataError(
      `Cannot read the pull request from ${source}: ${
        issue?.message ?? "invalid data"
      }${where}`,
    );
  }
  const data = result.data;
  const headRepo = data.head.repo?.full_name ?? null;
  return {
    number: data.number,
    state: data.state,
    updatedAt: data.updated_at,
    ...(data.html_url === undefined ? {} : { htmlUrl: data.html_url }),
    base: {
      ref: data.base.ref,
      sha: data.base.sha,
      repo: data.base.repo.full_name,
      cloneUrl: data.base.repo.clone_url,
    },
    head: { ref: data.head.ref, sha: data.head.sha, repo: headRepo },
    fromFork: headRepo === null ||
      headRepo.toLowerCase() !== data.base.repo.full_name.toLowerCase(),
  };
}
