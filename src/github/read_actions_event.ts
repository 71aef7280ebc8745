/**
 * GitHub Actions mode: the pull request comes from the workflow's event
 * payload (`GITHUB_EVENT_PATH`), so `pawl check` needs no `--pr`.
 *
 * @module
 */
import type { PullRequestRef } from "./parse_pull_request_ref.ts";
import { type PullRequest, readPullRequest } from "./pull_request.ts";

/** Events whose payload carries a `pull_request` pawl can judge. */
export const PULL_REQUEST_EVENTS: readonly string[] = [
  "pull_request",
  "pull_request_target",
];

/** The payload field `--now-from event` reads. */
export const EVENT_CLOCK_FIELD = "pull_request.updated_at";

/** Where the Actions runner put the event (from the environment). */
export interface ActionsContext {
  /** `GITHUB_EVENT_PATH`: the payload file. */
  eventPath: string;
  /** `GITHUB_REPOSITORY`: `OWNER/REPO` the workflow runs in. */
  repository: string;
  /** `GITHUB_EVENT_NAME`, when set. */
  eventName?: string;
}

/** A pull request event, read. */
export interface ActionsEvent {
  /** `GITHUB_EVENT_NAME` (or `pull_request` when unset). */
  eventName: string;
  /** The pull request, in the workflow's repository. */
  ref: PullRequestRef;
  /**
   * The payload's pull request object when it is complete (a real
   * payload always is); undefined means pawl must ask the API.
   */
  pullRequest: PullRequest | undefined;
  /** The commits the event is about, when the payload names them. */
  baseSha?: string;
  /** The head commit the event is about. */
  headSha?: string;
  /** `pull_request.updated_at`, when present. */
  updatedAt?: string;
}

/** The event payload is missing, malformed, or not about a pull request. */
export class ActionsEventError extends SyntaxError {
  /** Build the error. */
  constructor(message: string) {
    super(message);
    this.name = "ActionsEventError";
  }
}

/**
 * The Actions context from the environment, when both
 * `GITHUB_EVENT_PATH` and `GITHUB_REPOSITORY` are set.
 *
 * @example
 * ```ts
 * import { actionsContext } from "./read_actions_event.ts";
 * const context = actionsContext({
 *   GITHUB_EVENT_PATH: "/home/runner/work/_temp/_github_workflow/event.json",
 *   GITHUB_REPOSITORY: "octo/widgets",
 *   GITHUB_EVENT_NAME: "pull_request",
 * });
 * if (context?.repository !== "octo/widgets") throw new Error("unexpected");
 * ```
 */
export function actionsContext(
  env: Readonly<Record<string, string>>,
): ActionsContext | undefined {
  const eventPath = env["GITHUB_EVENT_PATH"];
  const repository = env["GITHUB_REPOSITORY"];
  if (!eventPath || !repository) return undefined;
  const eventName = env["GITHUB_EVENT_NAME"];
  return eventName ? { eventPath, repository, eventName } : {
    eventPath,
    repository,
  };
}

/**
 * Read a `pull_request` or `pull_request_target` event payload (the text
 * of `GITHUB_EVENT_PATH`).
 *
 * @example
 * ```ts
 * import { readActionsEvent } from "./read_actions_event.ts";
 * const event = readActionsEvent(JSON.stringify({
 *   action: "synchronize",
 *   pull_request: { number: 7, updated_at: "2026-11-30T11:00:00Z" },
 * }), { eventPath: "event.json", repository: "octo/widgets" });
 * if (event.ref.number !== 7 || event.updatedAt !== "2026-11-30T11:00:00Z") {
 *   throw new Error("unexpected");
 * }
 * ```
 */
export function readActionsEvent(
  text: string,
  context: ActionsContext,
): ActionsEvent {
  const where = `event payload ${JSON.stringify(context.eventPath)}`;
  const eventName = context.eventName ?? "pull_request";
  if (!PULL_REQUEST_EVENTS.includes(eventName)) {
    throw new ActionsEventError(
      `Cannot judge the ${where}: event "${eventName}" is not a pull request event (expected ${
        PULL_REQUEST_EVENTS.map((e) => `"${e}"`).join(" or ")
      }); pass "--pr" or "--repo"`,
    );
  }
  const slug = /^([^/\s]+)\/([^/\s]+)$/.exec(context.repository);
  if (slug === null) {
    throw new ActionsEventError(
      `Cannot read GITHUB_REPOSITORY "${context.repository}": expected "OWNER/REPO"`,
    );
  }
  let payload: unknown;
  try {
    payload = JSON.parse(text);
  } catch (error) {
    throw new ActionsEventError(
      `Cannot read the ${where}: ${
        error instanceof Error ? error.message : String(error)
      }`,
    );
  }
  const pull = field(payload, "pull_request");
  const number = field(pull, "number");
  if (
    typeof number !== "number" || !Number.isSafeInteger(number) || number < 1
  ) {
    throw new ActionsEventError(
      `Cannot read the ${where}: it has no "pull_request.number"`,
    );
  }
  const baseSha = field(field(pull, "base"), "sha");
  const headSha = field(field(pull, "head"), "sha");
  const updatedAt = field(pull, "updated_at");
  let pullRequest: PullRequest | undefined;
  try {
    pullRequest = readPullRequest(pull, `the ${where}`);
  } catch {
    pullRequest = undefined;
  }
  return {
    eventName,
    ref: { owner: slug[1]!, repo: slug[2]!, number },
    pullRequest,
    ...(typeof baseSha === "string" ? { baseSha } : {}),
    ...(typeof headSha === "string" ? { headSha } : {}),
    ...(typeof updatedAt === "string" ? { updatedAt } : {}),
  };
}

function field(value: unknown, key: string): unknown {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)[key]
    : undefined;
}
