/**
 * The shell of `pawl audit`: list a repository's pull requests, select
 * them, keep the records that already answer, judge the rest through the
 * gate with a bounded pool of workers, and rebuild the report.
 *
 * @module
 */
import { plural } from "../core/plural.ts";
import type { Progress } from "../core/progress.ts";
import type { GatePorts } from "../gate/gate_ports.ts";
import type { JudgeOptions } from "../gate/judge_options.ts";
import { judgePullRequest } from "../gate/judge_pull_request.ts";
import type { GitHubClient, RepoRef } from "../github/github_client.ts";
import { pullRequestCheckout } from "../github/pull_request_checkout.ts";
import {
  type AuditPullRequest,
  readPullRequestList,
} from "./audit_pull_request.ts";
import {
  type AuditOutcome,
  type AuditRecord,
  buildAuditRecord,
} from "./audit_record.ts";
import type { AuditReport } from "./build_audit_report.ts";
import type { ClockPlan } from "./choose_clock.ts";
import {
  type AuditJob,
  planAuditJobs,
  writeAuditRecord,
} from "./plan_audit_jobs.ts";
import { runPool } from "./run_pool.ts";
import {
  selectPullRequests,
  type SelectPullRequestsOptions,
} from "./select_pull_requests.ts";
import { writeAuditReport } from "./write_audit_report.ts";

/** Options for {@linkcode runAudit}. */
export interface RunAuditOptions extends SelectPullRequestsOptions {
  /** `OWNER/REPO`, as given. */
  slug: string;
  /** The repository. */
  repo: RepoRef;
  /** The clock each pull request is judged at. */
  plan: ClockPlan;
  /** Where records and the report go. */
  outDir: string;
  /** Pull requests judged at once. */
  concurrency: number;
  /** Judge again even where a current record exists. */
  force: boolean;
  /** Judge again the pull requests recorded as undecided. */
  retryUndecided: boolean;
  /** Run the suites (false: the static rules only). */
  runTests: boolean;
  /** Sandbox strength. */
  isolation: JudgeOptions["isolation"];
  /** PATH inside the sandbox. */
  sandboxPath?: string | undefined;
  /** The runner's cache of setup-step results. */
  setupCache?: string | undefined;
  /** The token, for git's fetches. */
  token: string | undefined;
  /** Progress is one live line (a terminal) rather than a log. */
  terminal: boolean;
}

/** What {@linkcode runAudit} reaches the world through. */
export interface RunAuditPorts {
  /** The API client. */
  github: Pick<GitHubClient, "listPullRequests">;
  /** The API base URL, for progress. */
  apiUrl: string;
  /** Progress sink. */
  progress: Progress;
  /** The gate's ports; each judgement makes its own sandbox through them. */
  gate: GatePorts;
  /** Hides the token in anything recorded. */
  mask: (text: string) => string;
}

/** What an audit run did. */
export interface AuditRun {
  /** The selected pull requests, ascending. */
  selected: AuditPullRequest[];
  /** A record per selected pull request. */
  records: Map<number, AuditRecord>;
  /** How many were judged now. */
  judged: number;
  /** How many records were kept from earlier runs. */
  reused: number;
  /** Entries of the list that could not be read. */
  unreadable: string[];
  /** The report rebuilt from every record in the output directory. */
  report: AuditReport;
}

/** Audit the selected pull requests of `options.repo`. */
export async function runAudit(
  options: RunAuditOptions,
  ports: RunAuditPorts,
): Promise<AuditRun> {
  const { progress } = ports;
  const { slug, shard } = options;
  progress.step(`listing the pull requests of ${slug} from ${ports.apiUrl}`);
  const listed = await ports.github.listPullRequests(options.repo, {
    state: "all",
    onPage: (n) => progress.detail(`${n} listed`),
  });
  const list = readPullRequestList(listed, `the GitHub API for "${slug}"`);
  for (const message of list.unreadable) {
    progress.note(`left out of the audit: ${message}`);
  }
  const selected = selectPullRequests(list.pulls, {
    ...(options.numbers === undefined ? {} : { numbers: options.numbers }),
    ...(options.since === undefined ? {} : { since: options.since }),
    ...(shard === undefined ? {} : { shard }),
  });
  const found = new Set(list.pulls.map((p) => p.number));
  for (const range of options.numbers ?? []) {
    if (range.first === range.last && !found.has(range.first)) {
      progress.note(
        `pull request #${range.first} is not in the list of ${slug}`,
      );
    }
  }

  await Deno.mkdir(options.outDir, { recursive: true });
  const { records, jobs, reused } = await planAuditJobs(selected, {
    ...options,
    progress,
  });
  progress.step(
    `${plural(selected.length, "pull request")} selected${
      shard === undefined ? "" : ` (shard ${shard.index}/${shard.count})`
    }, ${reused} already recorded; judging ${jobs.length}, ${
      Math.min(options.concurrency, Math.max(1, jobs.length))
    } at a time`,
  );

  const tally = { done: 0, reject: 0, undecided: 0 };
  const running = new Set<number>();
  // A terminal gets one live line with what is running; a CI log one
  // line per pull request judged, saying which and where.
  const show = (judged?: string) => {
    const summary =
      `judged ${tally.done}/${jobs.length}, ${tally.reject} rejected, ${tally.undecided} undecided`;
    if (!options.terminal) {
      if (judged !== undefined) progress.step(`${summary} (${judged})`);
      return;
    }
    progress.step(summary);
    if (running.size > 0) {
      progress.detail(
        `judging ${[...running].map((n) => `#${n}`).join(", ")}`,
      );
    }
  };
  await runPool(jobs, { concurrency: options.concurrency }, async (job) => {
    running.add(job.pr.number);
    show();
    // The uids the judgement's tests ran as, for the log: its own sandbox's
    // first, then any spare one its property runs borrowed. A sandbox is
    // opened before the plan says whether it is needed, so a uid is noted
    // when something runs in it.
    const uids: number[] = [];
    const outcome = await judgeJob(job, options, {
      gate: {
        ...ports.gate,
        sandbox: async (request) => {
          const sandbox = await ports.gate.sandbox(request);
          const uid = sandbox.isolation.uid;
          const run = sandbox.run.bind(sandbox);
          return Object.assign(sandbox, {
            run: (command: Parameters<typeof run>[0]) => {
              if (uid !== undefined && !uids.includes(uid)) {
                if (request.spare === true) uids.push(uid);
                else uids.unshift(uid);
              }
              return run(command);
            },
          });
        },
      },
      mask: ports.mask,
    });
    const record = buildAuditRecord(slug, job.pr, job.chosen.clock, outcome);
    await writeAuditRecord(job.path, record);
    records.set(job.pr.number, record);
    running.delete(job.pr.number);
    tally.done += 1;
    if (record.decision === "reject") tally.reject += 1;
    if (record.decision === "undecided") tally.undecided += 1;
    show(
      `#${job.pr.number}: ${record.decision}${
        uids.length === 0
          ? ""
          : `, sandbox ${uids.length === 1 ? "uid" : "uids"} ${uids.join(", ")}`
      }`,
    );
  });

  const report = await writeAuditReport(options.outDir);
  return {
    selected,
    records,
    judged: jobs.length,
    reused,
    unreadable: list.unreadable,
    report,
  };
}

/**
 * Judge one pull request as `pawl check --pr` would, at the chosen clock.
 * Never throws: anything that stops a decision is the record's reason.
 */
async function judgeJob(
  job: AuditJob,
  options: RunAuditOptions,
  ports: { gate: GatePorts; mask: (text: string) => string },
): Promise<AuditOutcome> {
  const { pr, chosen } = job;
  try {
    const { verdict } = await judgePullRequest({
      ...pullRequestCheckout({
        number: pr.number,
        cloneUrl: pr.base.cloneUrl,
        base: pr.base.sha,
        head: pr.head.sha,
      }, options.token),
      now: chosen.now,
      ...(chosen.verdictClock === undefined
        ? {}
        : { clock: chosen.verdictClock }),
      allowFixtureRotate: false,
      isolation: options.isolation,
      runTests: options.runTests,
      ...(options.sandboxPath === undefined
        ? {}
        : { sandboxPath: options.sandboxPath }),
      ...(options.setupCache === undefined
        ? {}
        : { setupCache: options.setupCache }),
    }, ports.gate);
    return { kind: "verdict", verdict };
  } catch (error) {
    return {
      kind: "undecided",
      reason: ports.mask(
        error instanceof Error ? error.message : String(error),
      ),
    };
  }
}
