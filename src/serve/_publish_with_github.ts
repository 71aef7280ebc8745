/**
 * The {@linkcode Publish} over pawl's GitHub publisher, made idempotent per
 * head commit: the check run named "pawl" on the head (the one marked in
 * progress when the judgement started) is completed in place rather than
 * a second one created, the sticky comment is updated, and each part
 * (check run, status, comment) is sent only once the one before it
 * succeeded. "Could not decide" is a failing check run here, so a
 * required check blocks the merge.
 *
 * @module
 */
import type { GitHub } from "../github/github_client.ts";
import { buildPublication, publishVerdict } from "../github/publish_verdict.ts";
import type { Publish } from "./judge.ts";
import { jobClient, type JobClientOptions } from "./_job_client.ts";

/** Options for {@linkcode createGitHubPublish}. */
export type GitHubPublishOptions = JobClientOptions;

/** Build the publisher. */
export function createGitHubPublish(
  options: GitHubPublishOptions = {},
): Publish {
  return async (job, outcome, context) => {
    const client = jobClient(context, options);
    // Each part runs only when the one before it succeeded, so a retry
    // after a failure repeats no part that was already posted.
    let failed: unknown;
    const unlessFailed = <A extends unknown[], R>(
      call: (...args: A) => Promise<R>,
    ) =>
    async (...args: A): Promise<R> => {
      if (failed !== undefined) {
        // Stryker disable next-line StringLiteral: never read: once a part failed, the job throws that part's own error
        throw new Error("Not attempted: an earlier part failed");
      }
      try {
        return await call(...args);
      } catch (error) {
        failed = error;
        throw error;
      }
    };
    const once: GitHub = {
      ...client,
      findCheckRun: unlessFailed(client.findCheckRun),
      completeCheckRun: unlessFailed(client.completeCheckRun),
      createCheckRun: unlessFailed(client.createCheckRun),
      createStatus: unlessFailed(client.createStatus),
      listIssueComments: unlessFailed(client.listIssueComments),
    };
    const report = await publishVerdict(
      once,
      { repo: { owner: job.owner, repo: job.repo }, number: job.number },
      buildPublication(outcome),
    );
    if (failed !== undefined) {
      throw failed instanceof Error ? failed : new Error(String(failed));
    }
    if (report.errors.length > 0) {
      // Stryker disable next-line StringLiteral: only the wording of a message that joins two failed parts
      throw new Error(report.errors.map((e) => e.message).join("; "));
    }
    context.log("job.publish_done", {
      // Stryker disable next-line OptionalChaining: with no check run placed, the first part failed and the job threw above
      checkRun: report.checkRun?.id,
      // Stryker disable next-line OptionalChaining: with no comment placed, the last part failed and the job threw above
      comment: report.comment?.action,
    });
  };
}
