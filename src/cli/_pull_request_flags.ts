/**
 * The GitHub flags of `pawl check` (`--pr`, `--now-from`, `--publish`,
 * `--no-publish`, and the Actions event): checked against each other, then
 * the pull request is read through `github/`.
 *
 * @module
 */
import { UsageError } from "../core/usage_error.ts";
import {
  type OpenedPullRequest,
  openPullRequest,
} from "../github/open_pull_request.ts";
import { pullRequestSource } from "../github/resolve_pull_request.ts";
import type { PublishTarget } from "../gate/outputs/publish_to_pull_request.ts";
import type { CliIo } from "./cli_io.ts";
import type { Progress } from "./progress.ts";

/** The flags this file reads. */
export interface PullRequestFlags {
  repo?: string | undefined;
  base?: string | undefined;
  head?: string | undefined;
  now?: string | undefined;
  pr?: string | undefined;
  "now-from"?: string | undefined;
  publish?: boolean | undefined;
  "no-publish"?: boolean | undefined;
}

/** What is known about the GitHub pull request as the run goes on, so a run that cannot decide still reports on it. */
export interface PullRequestRun extends PublishTarget {
  /** Whether to publish. */
  publish?: boolean;
}

/**
 * Find and read the pull request when it comes from GitHub (`--pr`, or
 * the Actions event when neither `--pr` nor `--repo` is given); undefined
 * for a plain `--repo` run. Fills `run` as things become known.
 */
export async function openPullRequestFromFlags(
  v: PullRequestFlags,
  io: CliIo,
  options: { progress: Progress; run: PullRequestRun },
): Promise<OpenedPullRequest | undefined> {
  const { progress, run } = options;
  if (v.publish && v["no-publish"]) {
    throw new UsageError(`"--publish" and "--no-publish" exclude each other`);
  }
  const nowFrom = v["now-from"] ?? "flag";
  if (nowFrom !== "flag" && nowFrom !== "event") {
    throw new UsageError(
      `Unknown clock source "${nowFrom}": expected "flag" (--now) or "event"`,
    );
  }
  if (nowFrom === "event" && v.now !== undefined) {
    throw new UsageError(
      `"--now" and "--now-from event" exclude each other: the clock is one or the other`,
    );
  }
  const source = pullRequestSource({
    pr: v.pr,
    repoGiven: v.repo !== undefined,
    env: io.env,
  });
  if (source === undefined) {
    if (v.publish) {
      throw new UsageError(
        `"--publish" needs a pull request from GitHub: pass "--pr OWNER/REPO#N" or run in a GitHub Actions pull_request workflow`,
      );
    }
    if (nowFrom === "event") {
      throw new UsageError(
        `"--now-from event" needs a GitHub Actions event: GITHUB_EVENT_PATH and GITHUB_REPOSITORY are not set (or "--repo" was given)`,
      );
    }
    return undefined;
  }
  for (const key of ["repo", "base", "head"] as const) {
    if (v[key] !== undefined) {
      throw new UsageError(
        `"--${key}" cannot be combined with a pull request from GitHub: its repository and commits come from ${
          source.kind === "flag" ? '"--pr"' : "the Actions event"
        }`,
      );
    }
  }
  if (v.publish && !io.env["GITHUB_TOKEN"]) {
    throw new UsageError(`"--publish" needs a token: set GITHUB_TOKEN`);
  }
  // octokit loads only for a pull request from GitHub: a local check or
  // diff starts without it.
  const { clientFromEnv } = await import("../github/client_from_env.ts");
  const { client, apiUrl, token } = clientFromEnv(io.env, {
    onWait: (message) => progress.note(message),
  });
  Object.assign(run, {
    client,
    publish: token !== undefined && !v["no-publish"],
    progress,
    ...(token === undefined ? {} : { token }),
  });
  return await openPullRequest(source, {
    github: client,
    apiUrl,
    token,
    clockFromEvent: nowFrom === "event",
    env: io.env,
    readTextFile: (path) => Deno.readTextFile(path),
    progress,
    onKnown: (known) => {
      run.ref = known.ref;
      if (known.headSha !== undefined) run.headSha = known.headSha;
    },
  });
}
