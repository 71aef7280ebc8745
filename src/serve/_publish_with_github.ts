/**
 * The {@linkcode Publish} over pawl's GitHub publisher, made idempotent per
 * head commit: an existing check run named "pawl" on the head is updated
 * rather than a second one created, the sticky comment is updated, and
 * each part (check run, status, comment) is sent only once the one
 * before it succeeded. "Could not decide" is a
 * failing check run here, so a required check blocks the merge.
 *
 * @module
 */
import { Octokit } from "octokit";
import { createGitHubClient, type GitHub } from "../github/github_client.ts";
import {
  buildPublication,
  CHECK_NAME,
  publishVerdict,
} from "../github/publish_verdict.ts";
import { VERSION } from "../version.ts";
import type { Publish } from "./judge.ts";

/** Options for {@linkcode createGitHubPublish}. */
export interface GitHubPublishOptions {
  /** Milliseconds per "second" of the client's retry backoff (default 1000). */
  retryBaseMs?: number;
  /** Per-request time limit (default 30 s). */
  timeoutMs?: number;
}

/** Build the publisher. */
export function createGitHubPublish(
  options: GitHubPublishOptions = {},
): Publish {
  return async (job, outcome, context) => {
    const client = createGitHubClient({
      ...(context.token === undefined ? {} : { token: context.token }),
      apiUrl: context.apiUrl,
      retries: 1,
      ...(options.retryBaseMs === undefined
        ? {}
        : { retryBaseMs: options.retryBaseMs }),
      ...(options.timeoutMs === undefined
        ? {}
        : { timeoutMs: options.timeoutMs }),
    });
    const silent = () => {};
    const octokit = new Octokit({
      ...(context.token === undefined ? {} : { auth: context.token }),
      baseUrl: context.apiUrl.replace(/\/+$/, ""),
      userAgent: `pawl/${VERSION}`,
      log: { debug: silent, info: silent, warn: silent, error: silent },
      retry: { enabled: false },
      throttle: { enabled: false },
    });
    // Each part runs only when the one before it succeeded, so a retry
    // after a failure repeats no part that was already posted.
    let failed: unknown;
    const unlessFailed = <A extends unknown[], R>(
      call: (...args: A) => Promise<R>,
    ) =>
    async (...args: A): Promise<R> => {
      if (failed !== undefined) {
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
      createStatus: unlessFailed(client.createStatus),
      listIssueComments: unlessFailed(client.listIssueComments),
      createCheckRun: unlessFailed(async (repo, request) => {
        const { conclusion } = request;
        const listed = await octokit.request(
          "GET /repos/{owner}/{repo}/commits/{ref}/check-runs",
          { ...repo, ref: request.headSha, "check_name": CHECK_NAME },
        );
        const existing = listed.data.check_runs[0];
        if (existing === undefined) {
          return await client.createCheckRun(repo, { ...request, conclusion });
        }
        const updated = await octokit.request(
          "PATCH /repos/{owner}/{repo}/check-runs/{check_run_id}",
          {
            ...repo,
            "check_run_id": existing.id,
            status: "completed",
            conclusion,
            output: {
              title: request.output.title,
              summary: request.output.summary,
              annotations: request.output.annotations.map((a) => ({
                path: a.path,
                "start_line": a.startLine,
                "end_line": a.endLine,
                "annotation_level": a.level,
                message: a.message,
                ...(a.title === undefined ? {} : { title: a.title }),
              })),
            },
          },
        );
        return {
          id: Number(updated.data.id),
          htmlUrl: updated.data.html_url ?? "",
        };
      }),
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
      throw new Error(report.errors.map((e) => e.message).join("; "));
    }
    context.log("job.publish_done", {
      checkRun: report.checkRun?.id,
      comment: report.comment?.action,
    });
  };
}
