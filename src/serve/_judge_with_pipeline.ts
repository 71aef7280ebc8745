/**
 * The {@linkcode Judge} over the pipeline of `pawl check --pr`: clone the
 * base repository (the installation token authenticates git, only its
 * transport sees it), judge base and head in the pipeline's own fresh temp
 * dir and sandbox, with the delivery's timestamp as the clock, recorded
 * in the verdict as the event field it came from.
 *
 * @module
 */
import { parseNow } from "../core/parse_now.ts";
import { judgePullRequest } from "../gate/judge_pull_request.ts";
import { realGatePorts } from "../gate/real_gate_ports.ts";
import { GitError } from "../git/git_error.ts";
import { gitAuthEnv } from "../github/git_auth_env.ts";
import type { Outcome } from "../github/publish_verdict.ts";
import { renderMarkdown } from "../report/render_markdown.ts";
import { signVerdict } from "../sign/sign_verdict.ts";
import type { SandboxLeaseSettings } from "../sandbox/lease_uid.ts";
import type { IsolationRequest } from "../sandbox/probe_isolation.ts";
import {
  SandboxInterruptedError,
  SandboxUidLostError,
  SandboxUidsBusyError,
} from "../sandbox/sandbox_errors.ts";
import type { SigningKey } from "../sign/signing_key.ts";
import type { Judge } from "./judge.ts";
import { TransientError } from "./judge.ts";

/** Options for {@linkcode createPipelineJudge}. */
export interface PipelineJudgeOptions {
  /** Sandbox strength (default `auto`). */
  isolation?: IsolationRequest;
  /** Parent of each judgement's temp dir. */
  tempRoot?: string;
  /** PATH inside the sandbox. */
  sandboxPath?: string;
  /** The runner's cache of `[environment.setup]` results. */
  setupCache?: string;
  /** Signs each verdict; its envelope is written to `verdictDir`. */
  signing?: { key: SigningKey; path?: string };
  /** Where signed envelopes go (`<owner>/<repo>/<head>.dsse.json`). */
  verdictDir?: string;
  /** The range each judgement leases its sandbox uid from. */
  sandboxLease?: SandboxLeaseSettings;
  /** Judgements running at once beside this one (the workers but one). */
  othersWaiting?: number;
  /**
   * A clone or fetch moving under 1 KB/s for this long is abandoned (and
   * the job retried), so a GitHub that stops answering holds no worker
   * (default 60).
   */
  gitStallSeconds?: number;
}

/** Build the judge. */
export function createPipelineJudge(options: PipelineJudgeOptions = {}): Judge {
  return async (job, context) => {
    const now = parseNow(job.now, `"${job.clockField}" of the event payload`);
    let result;
    try {
      result = await judgePullRequest(
        {
          repo: job.cloneUrl,
          base: job.baseSha,
          head: job.headSha,
          now,
          clock: { source: "event", field: job.clockField },
          allowFixtureRotate: false,
          isolation: options.isolation ?? "auto",
          runTests: true,
          shallow: true,
          // A fork's head commit is in the base repository only under this ref.
          refs: [`refs/pull/${job.number}/head`],
          gitEnv: {
            ...gitAuthEnv(job.cloneUrl, context.token),
            GIT_HTTP_LOW_SPEED_LIMIT: "1000",
            GIT_HTTP_LOW_SPEED_TIME: String(options.gitStallSeconds ?? 60),
          },
          // Stryker disable next-line ConditionalExpression: the stages read a sandboxPath of undefined as none given
          ...(options.sandboxPath === undefined
            ? {}
            : { sandboxPath: options.sandboxPath }),
          // Stryker disable next-line ConditionalExpression: the setup stage reads a setupCache of undefined as none given
          ...(options.setupCache === undefined
            ? {}
            : { setupCache: options.setupCache }),
          ...(options.signing?.path === undefined
            ? {}
            : { hiddenPaths: [options.signing.path] }),
        },
        realGatePorts({
          // The pipeline's steps become log lines of the job; live detail is dropped.
          progress: {
            step: (label) => context.log("job.step", { step: label }),
            detail: () => {},
            note: (text) => context.log("job.note", { note: text }),
            end: () => {},
          },
          // Stryker disable next-line ConditionalExpression: realGatePorts reads a tempRoot of undefined as none given
          ...(options.tempRoot === undefined
            ? {}
            : { tempRoot: options.tempRoot }),
          sandbox: {
            // Stryker disable next-line ConditionalExpression: the sandbox factory spreads a lease of undefined as none given
            ...(options.sandboxLease === undefined
              ? {}
              : { lease: options.sandboxLease }),
            othersWaiting: options.othersWaiting ?? 0,
          },
        }),
      );
    } catch (error) {
      // Worth another attempt: the clone failed, the tests were killed from
      // outside (the run says nothing), every sandbox uid was busy, or
      // another container's pawl took the uid from under the run.
      if (
        (error instanceof GitError &&
          // Stryker disable next-line Regex: only the clone's errors say "Cannot clone" or "Cannot fetch", always first; elsewhere the words could only be inside a quoted path
          /^Cannot (?:clone|fetch)/.test(error.message)) ||
        error instanceof SandboxInterruptedError ||
        error instanceof SandboxUidsBusyError ||
        error instanceof SandboxUidLostError
      ) {
        throw new TransientError(error.message, { cause: error });
      }
      throw error;
    }
    const { verdict } = result;
    const keyid = options.signing?.key.keyid;
    // Stryker disable next-line ConditionalExpression: start_serve gives a signing key only together with its verdict dir
    if (options.signing !== undefined && options.verdictDir !== undefined) {
      const envelope = await signVerdict(verdict, options.signing.key);
      // GitHub's names are case-insensitive: only they are normalised, the
      // data dir is taken as given.
      const dir =
        `${options.verdictDir}/${job.owner.toLowerCase()}/${job.repo.toLowerCase()}`;
      await Deno.mkdir(dir, { recursive: true });
      await Deno.writeTextFile(
        `${dir}/${job.headSha}.dsse.json`,
        JSON.stringify(envelope, null, 2) + "\n",
      );
    }
    const outcome: Outcome = {
      kind: "verdict",
      verdict,
      // Stryker disable next-line ConditionalExpression: renderMarkdown reads a keyid of undefined as none given
      markdown: renderMarkdown(verdict, keyid === undefined ? {} : { keyid }),
    };
    return outcome;
  };
}
