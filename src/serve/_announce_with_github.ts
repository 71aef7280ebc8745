/**
 * The {@linkcode Announce} over GitHub: when a judgement starts, the
 * head's check run named "pawl" is marked in progress (reused when it
 * exists, so retries and restarts make no second one) and a pending
 * status is set.
 *
 * @module
 */
import { publishInProgress } from "../github/publish_in_progress.ts";
import type { Announce } from "./judge.ts";
import { jobClient, type JobClientOptions } from "./_job_client.ts";

/** Build the announcer. */
export function createGitHubAnnounce(
  options: JobClientOptions = {},
): Announce {
  return async (job, context) => {
    const report = await publishInProgress(
      jobClient(context, options),
      { repo: { owner: job.owner, repo: job.repo }, number: job.number },
      job.headSha,
    );
    const [first] = report.errors;
    if (first !== undefined) throw first;
    // Stryker disable next-line StringLiteral,ObjectLiteral,OptionalChaining: the log line's wording, which nothing reads back; the job client always starts a check run, so a report without errors has one
    context.log("job.in_progress", { checkRun: report.checkRun?.id });
  };
}
