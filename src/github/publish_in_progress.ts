/**
 * A sign of life on the pull request while it is judged: the check run
 * named `pawl` on the head marked `in_progress` (an unfinished one already
 * there reused, so retries and restarts never make two; a finished one
 * cannot be reopened, so judging the head again starts a new one, which
 * GitHub then shows) and a `pending` commit status.
 * {@linkcode publishVerdict} later completes that check run in place and
 * replaces the status.
 *
 * @module
 */
import type { FoundCheckRun, GitHub } from "./github_client.ts";
import { CHECK_NAME, type PublishTarget } from "./publish_verdict.ts";

/** What {@linkcode publishInProgress} did; each part succeeds or fails alone. */
export interface InProgressReport {
  /** The check run marked in progress, when that worked. */
  checkRun?: FoundCheckRun;
  /** Whether the pending status was set. */
  status: boolean;
  /** Every failure, in order; this never throws. */
  errors: Error[];
}

/** The title of the check run while the judgement runs. */
export const IN_PROGRESS_TITLE = "Judging";

/**
 * Mark `headSha` as being judged: the check run in progress, then a
 * pending status linking it. A GitHub without check run lookup (an
 * in-memory fake) gets a new check run.
 */
export async function publishInProgress(
  github: GitHub,
  target: PublishTarget,
  headSha: string,
): Promise<InProgressReport> {
  const report: InProgressReport = { status: false, errors: [] };
  const failed = (error: unknown) =>
    report.errors.push(
      error instanceof Error ? error : new Error(String(error)),
    );
  if (github.startCheckRun !== undefined) {
    try {
      const existing = await github.findCheckRun?.(
        target.repo,
        headSha,
        CHECK_NAME,
      );
      report.checkRun = await github.startCheckRun(
        target.repo,
        existing?.completed === false ? existing.id : undefined,
        {
          name: CHECK_NAME,
          headSha,
          output: {
            title: IN_PROGRESS_TITLE,
            summary:
              "pawl is judging this pull request: the test contract, the tests and the frozen seeds. The verdict replaces this.",
          },
        },
      );
    } catch (error) {
      failed(error);
    }
  }
  try {
    const link = report.checkRun?.htmlUrl;
    await github.createStatus(target.repo, headSha, {
      state: "pending",
      context: CHECK_NAME,
      description: "pawl is judging this pull request",
      ...(link === undefined ? {} : { targetUrl: link }),
    });
    report.status = true;
  } catch (error) {
    failed(error);
  }
  return report;
}
