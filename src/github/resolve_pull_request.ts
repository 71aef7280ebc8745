/**
 * Which pull request `pawl check` judges when it comes from GitHub:
 * `--pr`, or (with neither `--pr` nor `--repo`) the GitHub Actions event.
 *
 * @module
 */
import { fetchPullRequest } from "./fetch_pull_request.ts";
import type { GitHub } from "./github_client.ts";
import {
  parsePullRequestRef,
  type PullRequestRef,
} from "./parse_pull_request_ref.ts";
import type { PullRequest } from "./pull_request.ts";
import {
  type ActionsContext,
  actionsContext,
  type ActionsEvent,
  ActionsEventError,
  readActionsEvent,
} from "./read_actions_event.ts";

/** Where the pull request comes from. */
export type PullRequestSource =
  | {
    /** `--pr`. */
    kind: "flag";
    /** The parsed reference. */
    ref: PullRequestRef;
  }
  | {
    /** The Actions event payload. */
    kind: "event";
    /** Where the payload is. */
    context: ActionsContext;
  };

/** Options for {@linkcode pullRequestSource}. */
export interface PullRequestSourceOptions {
  /** `--pr`, if given. */
  pr: string | undefined;
  /** Whether `--repo` was given (a plain repository, not GitHub). */
  repoGiven: boolean;
  /** The environment (`GITHUB_API_URL`, `GITHUB_EVENT_PATH`, …). */
  env: Readonly<Record<string, string>>;
}

/**
 * Decide where the pull request comes from: `--pr` (parsed against
 * `GITHUB_API_URL`), else nothing when `--repo` was given, else the
 * Actions event when `GITHUB_EVENT_PATH` and `GITHUB_REPOSITORY` are set.
 *
 * @example
 * ```ts
 * import { pullRequestSource } from "./resolve_pull_request.ts";
 * const source = pullRequestSource({ pr: "octo/widgets#7", repoGiven: false, env: {} });
 * if (source?.kind !== "flag" || source.ref.number !== 7) throw new Error("unexpected");
 * ```
 */
export function pullRequestSource(
  options: PullRequestSourceOptions,
): PullRequestSource | undefined {
  if (options.pr !== undefined) {
    const apiUrl = options.env["GITHUB_API_URL"];
    return {
      kind: "flag",
      ref: parsePullRequestRef(options.pr, apiUrl ? { apiUrl } : {}),
    };
  }
  if (options.repoGiven) return undefined;
  const context = actionsContext(options.env);
  return context === undefined ? undefined : { kind: "event", context };
}

/** A pull request ready to judge. */
export interface ResolvedPullRequest {
  /** The pull request in its base repository. */
  ref: PullRequestRef;
  /** What the API (or the event payload) says about it. */
  pullRequest: PullRequest;
  /** The base commit to judge (from the API or the event, never a branch name). */
  baseSha: string;
  /** The head commit to judge. */
  headSha: string;
  /** The event, in Actions mode. */
  event?: ActionsEvent;
}

/** Options for {@linkcode resolvePullRequest}. */
export interface ResolvePullRequestOptions {
  /** The API, for `--pr` or an incomplete event payload. */
  github: GitHub;
  /** Reads the event payload file. */
  readTextFile: (path: string) => Promise<string>;
  /**
   * Told what is known as soon as it is known (the pull request, and the
   * head commit once read), so a run that cannot decide can still report
   * on the right commit.
   */
  onKnown?: (known: { ref: PullRequestRef; headSha?: string }) => void;
}

/**
 * Read the pull request `source` names. With `--pr` the base and head are
 * the API's commit ids; in Actions mode they are the event's (the commit
 * the workflow run is for), and the API is asked only when the payload
 * lacks the pull request object.
 */
export async function resolvePullRequest(
  source: PullRequestSource,
  options: ResolvePullRequestOptions,
): Promise<ResolvedPullRequest> {
  if (source.kind === "flag") {
    options.onKnown?.({ ref: source.ref });
    const pullRequest = await fetchPullRequest(options.github, source.ref);
    options.onKnown?.({ ref: source.ref, headSha: pullRequest.head.sha });
    return {
      ref: source.ref,
      pullRequest,
      baseSha: pullRequest.base.sha,
      headSha: pullRequest.head.sha,
    };
  }
  const event = await readEvent(source.context, options.readTextFile);
  options.onKnown?.({
    ref: event.ref,
    ...(event.headSha === undefined ? {} : { headSha: event.headSha }),
  });
  const pullRequest = event.pullRequest ??
    await fetchPullRequest(options.github, event.ref);
  const headSha = event.headSha ?? pullRequest.head.sha;
  options.onKnown?.({ ref: event.ref, headSha });
  return {
    ref: event.ref,
    pullRequest,
    baseSha: event.baseSha ?? pullRequest.base.sha,
    headSha,
    event,
  };
}

/** Read and parse the event payload `context` points at. */
export async function readEvent(
  context: ActionsContext,
  readTextFile: (path: string) => Promise<string>,
): Promise<ActionsEvent> {
  let text: string;
  try {
    text = await readTextFile(context.eventPath);
  } catch (error) {
    throw new ActionsEventError(
      `Cannot read the event payload ${JSON.stringify(context.eventPath)}: ${
        error instanceof Error ? error.message : String(error)
      }`,
    );
  }
  return readActionsEvent(text, context);
}
