/**
 * Reading a pull request through the REST API.
 *
 * @module
 */
import type { GitHub } from "./github_client.ts";
import {
  formatPullRequestRef,
  type PullRequestRef,
} from "./parse_pull_request_ref.ts";
import {
  type PullRequest,
  PullRequestDataError,
  readPullRequest,
} from "./pull_request.ts";

/**
 * Fetch `ref` (`GET /repos/{o}/{r}/pulls/{n}`) and read the fields pawl
 * judges by: the base and head commit ids the API reports (never the
 * branch names, which may move) and the base repository's clone URL.
 *
 * @example
 * ```ts
 * import { fetchPullRequest } from "./fetch_pull_request.ts";
 * import type { GitHub } from "./github_client.ts";
 * const api = {
 *   getPullRequest: () => Promise.resolve({
 *     number: 7, state: "open", updated_at: "2026-11-30T11:00:00Z",
 *     base: { ref: "main", sha: "a".repeat(40), repo: { full_name: "o/r", clone_url: "https://github.com/o/r.git" } },
 *     head: { ref: "fix", sha: "b".repeat(40), repo: { full_name: "o/r" } },
 *   }),
 * } as unknown as GitHub;
 * const pr = await fetchPullRequest(api, { owner: "o", repo: "r", number: 7 });
 * if (pr.head.sha !== "b".repeat(40)) throw new Error("unexpected");
 * ```
 */
export async function fetchPullRequest(
  github: GitHub,
  ref: PullRequestRef,
): Promise<PullRequest> {
  const name = formatPullRequestRef(ref);
  const pull = readPullRequest(
    await github.getPullRequest(ref),
    `the GitHub API for "${name}"`,
  );
  if (pull.number !== ref.number) {
    throw new PullRequestDataError(
      `Cannot read the pull request from the GitHub API for "${name}": it answered with number ${pull.number}`,
    );
  }
  return pull;
}
