/**
 * The verdict (or "could not decide") on the pull request itself: a check
 * run, a commit status and one sticky comment; and while it is judged, that
 * check run in progress and a pending status.
 *
 * @module
 */
import type { Progress } from "../../core/progress.ts";
import type { Verdict } from "../../core/verdict.ts";
import type { GitHub } from "../../github/github_client.ts";
import {
  formatPullRequestRef,
  type PullRequestRef,
} from "../../github/parse_pull_request_ref.ts";
import {
  buildPublication,
  type Outcome,
  publishVerdict,
} from "../../github/publish_verdict.ts";
import { publishInProgress } from "../../github/publish_in_progress.ts";
import { renderMarkdown } from "../../report/render_markdown.ts";

/** Where to publish, as far as it is known when the run ends. */
export interface PublishTarget {
  /** The API client. */
  client?: GitHub | undefined;
  /** The pull request. */
  ref?: PullRequestRef | undefined;
  /** Its head commit, once known (an undecided outcome needs it). */
  headSha?: string | undefined;
  /** The token, masked in anything printed. */
  token?: string | undefined;
  /** Progress sink of the run. */
  progress?: Progress | undefined;
  /** The in-progress marks being sent ({@linkcode announceToPullRequest}). */
  announced?: Promise<void> | undefined;
}

/** What to publish. */
export type PublishedOutcome =
  | {
    /** A verdict. */
    kind: "verdict";
    /** The verdict. */
    verdict: Verdict;
    /** The signing key's id, named in the comment. */
    keyid?: string | undefined;
  }
  | {
    /** pawl could not decide. */
    kind: "undecided";
    /** Why. */
    error: unknown;
  };

/**
 * Start marking the pull request as being judged (an in-progress check run
 * and a pending status) without waiting: the promise is kept in
 * `target.announced`, which {@linkcode publishToPullRequest} awaits so the
 * verdict completes that check run. Never fails: a failure is reported
 * through `err` and changes nothing else.
 */
export function announceToPullRequest(
  target: PublishTarget,
  err: (text: string) => void,
): void {
  const { client, ref, headSha } = target;
  if (client === undefined || ref === undefined || headSha === undefined) {
    return;
  }
  target.announced = publishInProgress(
    client,
    { repo: { owner: ref.owner, repo: ref.repo }, number: ref.number },
    headSha,
  ).then((report) => {
    for (const error of report.errors) {
      err(
        `pawl: could not mark the pull request in progress: ${
          mask(target, error.message)
        }\n`,
      );
    }
  }, (error) => err(`pawl: ${mask(target, describe(error))}\n`));
}

/**
 * Publish one outcome. Never throws: a failure to publish is reported
 * through `err` and changes neither the decision nor the exit code.
 */
export async function publishToPullRequest(
  target: PublishTarget,
  published: PublishedOutcome,
  err: (text: string) => void,
): Promise<void> {
  let outcome: Outcome;
  if (published.kind === "verdict") {
    const { verdict, keyid } = published;
    let markdown: string;
    try {
      markdown = renderMarkdown(verdict, keyid === undefined ? {} : { keyid });
    } catch (error) {
      err(`pawl: cannot render the pull request comment: ${describe(error)}\n`);
      markdown = `## pawl: ${verdict.decision}\n`;
    }
    outcome = { kind: "verdict", verdict, markdown };
  } else {
    if (target.headSha === undefined) {
      err(
        `pawl: nothing published to GitHub: the pull request's head commit is not known\n`,
      );
      return;
    }
    outcome = {
      kind: "undecided",
      reason: describe(published.error),
      headSha: target.headSha,
    };
  }
  const { client, ref } = target;
  if (client === undefined || ref === undefined) return;
  await target.announced;
  const name = formatPullRequestRef(ref);
  try {
    target.progress?.step(`publishing to ${name}`);
    const report = await publishVerdict(
      client,
      { repo: { owner: ref.owner, repo: ref.repo }, number: ref.number },
      buildPublication(outcome),
    );
    const done = [
      report.checkRun === undefined
        ? undefined
        : `check run ${report.checkRun.id}`,
      report.status ? "commit status" : undefined,
      report.comment === undefined
        ? undefined
        : `comment ${report.comment.id} ${report.comment.action}`,
    ].filter((part) => part !== undefined);
    if (done.length > 0) {
      target.progress?.step(`published to ${name}: ${done.join(", ")}`);
    }
    for (const error of report.errors) {
      err(
        `pawl: could not publish to GitHub: ${mask(target, error.message)}\n`,
      );
    }
    if (report.errors.length > 0) {
      err(
        `pawl: publishing to ${name} failed in part; the decision and the exit code are unchanged\n`,
      );
    }
  } catch (error) {
    err(
      `pawl: could not publish to GitHub: ${mask(target, describe(error))}\n`,
    );
  } finally {
    target.progress?.end();
  }
}

function mask(target: PublishTarget, text: string): string {
  return target.token === undefined
    ? text
    : text.replaceAll(target.token, "***");
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
