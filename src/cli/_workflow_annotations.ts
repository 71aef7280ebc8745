/**
 * Whether a run in GitHub Actions prints its findings as workflow commands
 * (annotations): when nothing else will show them on the pull request,
 * because the run does not publish, or because the pull request comes from
 * a fork and the `pull_request` event's token cannot write checks,
 * statuses or comments.
 *
 * @module
 */

/** What decides it. */
export interface AnnotationContext {
  /** The run's environment (`GITHUB_ACTIONS`, `GITHUB_EVENT_NAME`). */
  env: Readonly<Record<string, string>>;
  /** Whether the run publishes to the pull request. */
  publish: boolean;
  /** The event payload (`GITHUB_EVENT_PATH`), when it could be read. */
  event?: unknown;
}

/**
 * True in GitHub Actions when the findings would otherwise reach the pull
 * request nowhere: no publishing, or a `pull_request` event whose head
 * repository is not the base repository (a fork, or one since deleted).
 *
 * @example
 * ```ts
 * import { wantsWorkflowAnnotations } from "./_workflow_annotations.ts";
 * const env = { GITHUB_ACTIONS: "true", GITHUB_EVENT_NAME: "pull_request" };
 * const event = { pull_request: { head: { repo: { full_name: "fork/r" } }, base: { repo: { full_name: "o/r" } } } };
 * if (!wantsWorkflowAnnotations({ env, publish: true, event })) throw new Error();
 * if (wantsWorkflowAnnotations({ env: {}, publish: false })) throw new Error();
 * ```
 */
export function wantsWorkflowAnnotations(context: AnnotationContext): boolean {
  if (context.env["GITHUB_ACTIONS"] !== "true") return false;
  if (!context.publish) return true;
  if (context.env["GITHUB_EVENT_NAME"] !== "pull_request") return false;
  const pull = field(context.event, "pull_request");
  const head = field(field(field(pull, "head"), "repo"), "full_name");
  const base = field(field(field(pull, "base"), "repo"), "full_name");
  return typeof base === "string" && head !== base;
}

function field(value: unknown, key: string): unknown {
  return typeof value === "object" && value !== null
    ? (value as Record<string, unknown>)[key]
    : undefined;
}

/** The event payload the runner names, or undefined when there is none to read. */
export async function readActionsEventPayload(
  env: Readonly<Record<string, string>>,
): Promise<unknown> {
  const path = env["GITHUB_EVENT_PATH"];
  if (path === undefined || path === "") return undefined;
  try {
    return JSON.parse(await Deno.readTextFile(path));
  } catch {
    return undefined;
  }
}
