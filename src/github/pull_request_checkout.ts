/**
 * How to fetch a GitHub pull request's two commits: the one mapping from a
 * pull request to what the gate clones, shared by `check --pr`, the Actions
 * event and `audit`.
 *
 * @module
 */
import { gitAuthEnv } from "./git_auth_env.ts";

/** Where a pull request's commits are and how to fetch them. */
export interface PullRequestCheckout {
  /** The base repository's clone URL. */
  repo: string;
  /** The base commit id. */
  base: string;
  /** The head commit id. */
  head: string;
  /** Fetch only the two commits, one commit deep. */
  shallow: true;
  /** A fork's head commit is in the base repository only under this ref. */
  refs: string[];
  /** git transport environment carrying the token (never the sandbox's). */
  gitEnv: Record<string, string>;
}

/** The pull request, as far as fetching it goes. */
export interface PullRequestCommits {
  /** Its number in the base repository. */
  number: number;
  /** The base repository's clone URL. */
  cloneUrl: string;
  /** The base commit id to judge. */
  base: string;
  /** The head commit id to judge. */
  head: string;
}

/**
 * The checkout of a pull request: a shallow fetch of its base and head
 * commits plus `refs/pull/N/head`, authenticated with `token` when given.
 *
 * @example
 * ```ts
 * import { pullRequestCheckout } from "./pull_request_checkout.ts";
 * const checkout = pullRequestCheckout({
 *   number: 7,
 *   cloneUrl: "https://github.com/octo/widgets.git",
 *   base: "a".repeat(40),
 *   head: "b".repeat(40),
 * }, undefined);
 * if (checkout.refs[0] !== "refs/pull/7/head") throw new Error();
 * ```
 */
export function pullRequestCheckout(
  pr: PullRequestCommits,
  token: string | undefined,
): PullRequestCheckout {
  return {
    repo: pr.cloneUrl,
    base: pr.base,
    head: pr.head,
    shallow: true,
    refs: [`refs/pull/${pr.number}/head`],
    gitEnv: gitAuthEnv(pr.cloneUrl, token),
  };
}
