/**
 * Say which permission is missing when git cannot fetch a pull request.
 *
 * @module
 */
import { GitError } from "../git/git_error.ts";
import type { PullRequestRef } from "./parse_pull_request_ref.ts";

/**
 * A git failure to fetch a pull request's repository that looks like
 * missing access gets the permission the token needs added to its
 * message; any other error is returned as it is.
 */
export function withTokenHint(
  error: unknown,
  pull: { ref?: PullRequestRef | undefined; token?: string | undefined },
): unknown {
  if (
    pull.ref === undefined || !(error instanceof GitError) ||
    !/^Cannot (?:clone|fetch)/.test(error.message) ||
    !/authentication|could not read username|403|401|not found|terminal prompts disabled/i
      .test(error.message)
  ) return error;
  const slug = `${pull.ref.owner}/${pull.ref.repo}`;
  return new GitError(
    `${error.message}: ${
      pull.token === undefined
        ? `set GITHUB_TOKEN to a token that can read "${slug}"`
        : `the token (GITHUB_TOKEN) needs "contents: read" on "${slug}"`
    }`,
    {
      args: error.args,
      stderr: error.stderr,
      ...(error.exitCode === undefined ? {} : { exitCode: error.exitCode }),
      cause: error,
    },
  );
}
