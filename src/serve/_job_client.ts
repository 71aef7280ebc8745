/**
 * The GitHub client one job's publishing uses: the job's installation
 * token, the server's API root, one quick retry per request, and no rate
 * limit wait longer than a few seconds: longer waits go back to the queue
 * (which reads GitHub's Retry-After or reset), so no worker sleeps on them.
 *
 * @module
 */
import {
  createGitHubClient,
  type GitHubClient,
} from "../github/github_client.ts";
import type { JobContext } from "./judge.ts";

/** Options for {@linkcode jobClient}. */
export interface JobClientOptions {
  /** Milliseconds per "second" of the client's retry backoff (default 1000). */
  retryBaseMs?: number;
  /** Per-request time limit (default 30 s). */
  timeoutMs?: number;
}

/** The client for the job `context` describes. */
export function jobClient(
  context: JobContext,
  options: JobClientOptions = {},
): GitHubClient {
  return createGitHubClient({
    // Stryker disable next-line ConditionalExpression: the client reads a token of undefined as none given
    ...(context.token === undefined ? {} : { token: context.token }),
    apiUrl: context.apiUrl,
    retries: 1,
    maxRateLimitWaitSeconds: 5,
    // Stryker disable ConditionalExpression,EqualityOperator,ObjectLiteral: the pace of the retry only; no answer depends on it
    ...(options.retryBaseMs === undefined
      ? {}
      : { retryBaseMs: options.retryBaseMs }),
    // Stryker restore ConditionalExpression,EqualityOperator,ObjectLiteral
    // Stryker disable next-line ConditionalExpression: the client reads a time limit of undefined as its default
    ...(options.timeoutMs === undefined
      ? {}
      : { timeoutMs: options.timeoutMs }),
  });
}
