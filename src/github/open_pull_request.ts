/**
 * A pull request from GitHub (`--pr` or the Actions event), read and
 * turned into what the gate judges: its checkout and, when asked, the
 * event's clock.
 *
 * @module
 */
import { type Instant, parseNow } from "../core/parse_now.ts";
import type { Progress } from "../core/progress.ts";
import { UsageError } from "../core/usage_error.ts";
import type { ClockRecord } from "../core/verdict.ts";
import type { GitHub } from "./github_client.ts";
import {
  formatPullRequestRef,
  type PullRequestRef,
} from "./parse_pull_request_ref.ts";
import {
  type PullRequestCheckout,
  pullRequestCheckout,
} from "./pull_request_checkout.ts";
import { EVENT_CLOCK_FIELD } from "./read_actions_event.ts";
import {
  type PullRequestSource,
  pullRequestSource,
  readEvent,
  resolvePullRequest,
} from "./resolve_pull_request.ts";

/** Options for {@linkcode openPullRequest}. */
export interface OpenPullRequestOptions {
  /** The API client. */
  github: GitHub;
  /** The API base URL, for progress. */
  apiUrl: string;
  /** The token, for git's fetch. */
  token: string | undefined;
  /** Take the clock from the event's `pull_request.updated_at`. */
  clockFromEvent: boolean;
  /** The environment (to find the Actions event for a `--pr` run's clock). */
  env: Readonly<Record<string, string>>;
  /** Reads the event payload file. */
  readTextFile: (path: string) => Promise<string>;
  /** Progress sink. */
  progress: Progress;
  /** Told the pull request and its head commit as soon as they are known. */
  onKnown?: (known: { ref: PullRequestRef; headSha?: string }) => void;
}

/** A pull request from GitHub, ready to judge. */
export interface OpenedPullRequest {
  /** The pull request. */
  ref: PullRequestRef;
  /** What the gate clones. */
  checkout: PullRequestCheckout;
  /** The clock and its record, when it came from the event. */
  clock?: { now: Instant; record: ClockRecord };
}

/** Read the pull request `source` names and map it to its checkout. */
export async function openPullRequest(
  source: PullRequestSource,
  options: OpenPullRequestOptions,
): Promise<OpenedPullRequest> {
  const { progress } = options;
  try {
    progress.step(
      source.kind === "flag"
        ? `reading pull request ${
          formatPullRequestRef(source.ref)
        } from ${options.apiUrl}`
        : `reading the ${
          source.context.eventName ?? "pull_request"
        } event ${source.context.eventPath}`,
    );
    const resolved = await resolvePullRequest(source, {
      github: options.github,
      readTextFile: options.readTextFile,
      ...(options.onKnown === undefined ? {} : { onKnown: options.onKnown }),
    });
    let clock: OpenedPullRequest["clock"];
    if (options.clockFromEvent) {
      const event = resolved.event ?? await eventFor(resolved.ref, options);
      clock = {
        now: parseNow(
          event.updatedAt,
          `"${EVENT_CLOCK_FIELD}" of the event payload`,
        ),
        record: { source: "event", field: EVENT_CLOCK_FIELD },
      };
    }
    const pr = resolved.pullRequest;
    progress.step(
      `judging ${formatPullRequestRef(resolved.ref)}: base ${
        resolved.baseSha.slice(0, 12)
      } (${pr.base.ref}), head ${resolved.headSha.slice(0, 12)} (${
        pr.fromFork ? `${pr.head.repo ?? "a deleted fork"}:` : ""
      }${pr.head.ref})`,
    );
    return {
      ref: resolved.ref,
      checkout: pullRequestCheckout({
        number: resolved.ref.number,
        cloneUrl: pr.base.cloneUrl,
        base: resolved.baseSha,
        head: resolved.headSha,
      }, options.token),
      ...(clock === undefined ? {} : { clock }),
    };
  } catch (error) {
    progress.end();
    throw error;
  }
}

/** The Actions event of a `--pr` run whose clock comes from the event; it must be about the same pull request. */
async function eventFor(ref: PullRequestRef, options: OpenPullRequestOptions) {
  const source = pullRequestSource({
    pr: undefined,
    repoGiven: false,
    env: options.env,
  });
  if (source?.kind !== "event") {
    throw new UsageError(
      `"--now-from event" needs a GitHub Actions event: GITHUB_EVENT_PATH and GITHUB_REPOSITORY are not set`,
    );
  }
  const event = await readEvent(source.context, options.readTextFile);
  if (
    formatPullRequestRef(event.ref).toLowerCase() !==
      formatPullRequestRef(ref).toLowerCase()
  ) {
    throw new UsageError(
      `"--now-from event" reads the clock of ${
        formatPullRequestRef(event.ref)
      }'s event, but "--pr" is ${formatPullRequestRef(ref)}`,
    );
  }
  return event;
}
