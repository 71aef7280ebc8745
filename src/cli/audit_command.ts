/**
 * `pawl audit`: judge a range of past pull requests of a GitHub
 * repository, each at a clock the auditor chooses, with a bounded pool of
 * workers that each own a sandbox uid; one record per pull request in the
 * output directory, then the report built from every record there.
 * `pawl audit report` rebuilds only the report (after shards were copied
 * together). Audits never publish to GitHub.
 *
 * @module
 */
import { clientFromEnv } from "../github/client_from_env.ts";
import {
  type AuditOutcome,
  type AuditPullRequest,
  type AuditRecord,
  AuditRecordError,
  auditRecordFileName,
  auditRecordNumber,
  buildAuditRecord,
  buildAuditReport,
  chooseClock,
  type ChosenClock,
  type ClockPlan,
  isRecordCurrent,
  parsePullRequestNumbers,
  parseShard,
  parseSince,
  readAuditRecord,
  readPullRequestList,
  renderAuditHtml,
  renderAuditJson,
  renderAuditMarkdown,
  runPool,
  selectPullRequests,
} from "../audit/mod.ts";
import type { AuditReport } from "../audit/build_audit_report.ts";
import {
  type IsolationRequest,
  runCheckWithLedger,
} from "../check/run_check.ts";
import { UsageError } from "./parse_command_args.ts";
import { parseNow } from "../core/parse_now.ts";
import {
  gitAuthEnv,
  parsePullRequestRef,
  type RepoRef,
} from "../github/mod.ts";
import type { CliIo } from "./cli_io.ts";
import { EXIT } from "./exit_code.ts";
import { parseCommandArgs, requiredOption } from "./parse_command_args.ts";
import { createProgress, type Progress, SILENT_PROGRESS } from "./progress.ts";
import { writeOutputFile } from "./write_output_file.ts";
import { readSandboxLease } from "./read_sandbox_lease.ts";
import {
  leaseSandboxUid,
  type SandboxLeaseSettings,
} from "../sandbox/lease_uid.ts";

/** Pull requests judged at once when `--concurrency` is not given. */
export const DEFAULT_AUDIT_CONCURRENCY = 2;

const MAX_CONCURRENCY = 64;

const ISOLATIONS: readonly IsolationRequest[] = [
  "auto",
  "bwrap",
  "unshare",
  "uid",
  "none",
];

/** The report's files, in the output directory. */
const REPORT_FILES = {
  json: "audit.json",
  markdown: "audit.md",
  html: "audit.html",
} as const;

/** Usage text for `audit`. */
export const AUDIT_USAGE = `Usage:
  pawl audit --repo OWNER/REPO (--prs LIST | --since DATE)
             (--now <RFC3339> | --now-from merged-at|created-at) [options]
  pawl audit report [--out-dir DIR] [--json] [--quiet]

Judges past pull requests of a GitHub repository, each by the base and head
commits the API reports, at the clock you choose, and writes one record per
pull request (DIR/pr-<N>.json) and a report built from every record in DIR
(audit.md, audit.json, audit.html). Nothing is published to GitHub.

Options:
  --repo OWNER/REPO    the repository (GITHUB_API_URL for GitHub Enterprise)
  --prs LIST           numbers and ranges: "3,5,9", "120..180", "400.."
  --since DATE         pull requests created at or after DATE ("2026-11-01" or
                       RFC 3339); with --prs, both must hold
  --now T              judge every pull request at T
  --now-from SOURCE    merged-at or created-at: each at its own merged_at or
                       created_at; under merged-at one never merged is skipped
  --out-dir DIR        where records and the report go (default ./pawl-audit)
  --concurrency N      pull requests judged at once (default ${DEFAULT_AUDIT_CONCURRENCY})
  --shard I/N          only pull requests whose number % N is I (I from 0)
  --force              judge again even where a current record exists
  --retry-undecided    judge again the pull requests recorded as undecided
  --static             the static rules only, as "pawl diff" (executes nothing)
  --isolation MODE     auto (default), bwrap, unshare, uid, or none
  --sandbox-path PATH  PATH inside the sandbox (default /usr/local/bin:/usr/bin:/bin)
  --sandbox-uids RANGE FIRST-LAST: the uids each judgement leases its own
                       from (default env PAWL_SANDBOX_UIDS, else 64123-64186);
                       keep them free of anything else (every run kills all
                       processes of its uid)
  --sandbox-uid UID    the same as --sandbox-uids UID-(UID+N-1) for
                       --concurrency N
  --json               print audit.json on stdout
  --quiet              no progress on stderr

A record that already answers the same question (same commits, same clock)
is kept: a stopped audit resumes where it left off.
Exit codes: 0 every selected pull request was decided (accept or reject;
skipped ones aside), 2 one could not be decided, the list could not be read,
or the command line is wrong.
Environment: GITHUB_TOKEN, GITHUB_API_URL.
`;

/** Run `pawl audit` (or `pawl audit report`); returns the exit code. */
export async function auditCommand(
  args: readonly string[],
  io: CliIo,
): Promise<number> {
  if (args[0] === "report") return await auditReportCommand(args.slice(1), io);
  const v = parseCommandArgs(args, {
    repo: { type: "string" },
    prs: { type: "string" },
    since: { type: "string" },
    now: { type: "string" },
    "now-from": { type: "string" },
    "out-dir": { type: "string", default: "pawl-audit" },
    concurrency: {
      type: "string",
      default: String(DEFAULT_AUDIT_CONCURRENCY),
    },
    shard: { type: "string" },
    force: { type: "boolean", default: false },
    "retry-undecided": { type: "boolean", default: false },
    static: { type: "boolean", default: false },
    isolation: { type: "string", default: "auto" },
    "sandbox-path": { type: "string" },
    "sandbox-uid": { type: "string" },
    "sandbox-uids": { type: "string" },
    json: { type: "boolean", default: false },
    quiet: { type: "boolean", default: false },
    help: { type: "boolean", short: "h", default: false },
  });
  if (v.help) {
    io.out(AUDIT_USAGE);
    return 0;
  }
  const slug = requiredOption(v.repo, "repo");
  const repo = readRepo(slug);
  if (v.prs === undefined && v.since === undefined) {
    throw new UsageError(
      `Missing "--prs" or "--since": say which pull requests to audit\n\n${AUDIT_USAGE}`,
    );
  }
  const numbers = v.prs === undefined
    ? undefined
    : parsePullRequestNumbers(v.prs);
  const since = v.since === undefined ? undefined : parseSince(v.since);
  const shard = v.shard === undefined ? undefined : parseShard(v.shard);
  const plan = readClockPlan(v.now, v["now-from"]);
  const concurrency = readInteger(
    v.concurrency,
    "--concurrency",
    1,
    MAX_CONCURRENCY,
  );
  if (v["sandbox-uid"] !== undefined && v["sandbox-uids"] !== undefined) {
    throw new UsageError(
      `"--sandbox-uid" and "--sandbox-uids" exclude each other: pass the range with "--sandbox-uids FIRST-LAST"`,
    );
  }
  const sandboxLease = v["sandbox-uid"] === undefined
    ? readSandboxLease(v["sandbox-uids"], io.env)
    : readSandboxLease(
      `${v["sandbox-uid"]}-${
        readInteger(v["sandbox-uid"], "--sandbox-uid", 1, 0xfffffffe) +
        concurrency - 1
      }`,
      io.env,
      "--sandbox-uid",
    );
  const isolation = v.isolation as IsolationRequest;
  if (!ISOLATIONS.includes(isolation)) {
    throw new UsageError(
      `Unknown isolation "${v.isolation}": expected one of ${
        ISOLATIONS.join(", ")
      }`,
    );
  }
  const outDir = v["out-dir"].replace(/(.)\/+$/, "$1");
  const progress = v.quiet
    ? SILENT_PROGRESS
    : createProgress({ terminal: io.terminal, write: io.err });
  const { client, apiUrl, token } = clientFromEnv(io.env, {
    onWait: (message) => progress.note(message),
  });
  const mask = (text: string) =>
    token === undefined ? text : text.replaceAll(token, "***");
  try {
    progress.step(`listing the pull requests of ${slug} from ${apiUrl}`);
    const listed = await client.listPullRequests(repo, {
      state: "all",
      onPage: (n) => progress.detail(`${n} listed`),
    });
    const list = readPullRequestList(listed, `the GitHub API for "${slug}"`);
    for (const message of list.unreadable) {
      progress.note(`left out of the audit: ${message}`);
    }
    const selected = selectPullRequests(list.pulls, {
      ...(numbers === undefined ? {} : { numbers }),
      ...(since === undefined ? {} : { since }),
      ...(shard === undefined ? {} : { shard }),
    });
    const found = new Set(list.pulls.map((p) => p.number));
    for (const range of numbers ?? []) {
      if (range.first === range.last && !found.has(range.first)) {
        progress.note(
          `pull request #${range.first} is not in the list of ${slug}`,
        );
      }
    }

    await Deno.mkdir(outDir, { recursive: true });
    const { records, jobs, reused } = await planJobs(selected, {
      slug,
      plan,
      outDir,
      force: v.force,
      retryUndecided: v["retry-undecided"],
      progress,
    });
    progress.step(
      `${selected.length} pull requests selected${
        shard === undefined ? "" : ` (shard ${shard.index}/${shard.count})`
      }, ${reused} already recorded; judging ${jobs.length}, ${
        Math.min(concurrency, Math.max(1, jobs.length))
      } at a time`,
    );

    const tally = { done: 0, reject: 0, undecided: 0 };
    const running = new Set<number>();
    // A terminal gets one live line with what is running; a CI log one
    // line per pull request judged, saying which and in which sandbox uid.
    const show = (judged?: string) => {
      const summary =
        `judged ${tally.done}/${jobs.length}, ${tally.reject} rejected, ${tally.undecided} undecided`;
      if (!io.terminal) {
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
    await runPool(jobs, { concurrency }, async (job) => {
      running.add(job.pr.number);
      show();
      const outcome = await judge(job, {
        sandboxLease,
        runTests: !v.static,
        isolation,
        token,
        mask,
        ...(v["sandbox-path"] === undefined
          ? {}
          : { sandboxPath: v["sandbox-path"] }),
        ...(io.env["TMPDIR"] ? { tempRoot: io.env["TMPDIR"] } : {}),
      });
      const record = buildAuditRecord(
        slug,
        job.pr,
        job.chosen.clock,
        outcome,
      );
      await writeRecord(job.path, record);
      records.set(job.pr.number, record);
      running.delete(job.pr.number);
      tally.done += 1;
      if (record.decision === "reject") tally.reject += 1;
      if (record.decision === "undecided") tally.undecided += 1;
      show(
        `#${job.pr.number}: ${record.decision}${
          outcome.uid === undefined ? "" : `, sandbox uid ${outcome.uid}`
        }`,
      );
    });

    const report = await writeReport(outDir);
    progress.end();
    const mine = selected.map((pr) => records.get(pr.number)!);
    const count = (d: AuditRecord["decision"]) =>
      mine.filter((r) => r.decision === d).length;
    if (v.json) {
      io.out(renderAuditJson(report));
    } else {
      io.out(
        `pawl audit ${slug}: ${selected.length} pull requests selected${
          shard === undefined ? "" : ` (shard ${shard.index}/${shard.count})`
        }, ${jobs.length} judged now, ${reused} from earlier runs\n` +
          `  ${count("accept")} accept, ${count("reject")} reject, ${
            count("undecided")
          } undecided, ${count("skipped")} skipped\n` +
          reportLine(outDir, report),
      );
    }
    for (const record of mine) {
      if (record.decision === "undecided") {
        io.err(
          `pawl: could not decide #${record.pullRequest.number}: ${
            mask(record.reason ?? "")
          }\n`,
        );
      }
    }
    return count("undecided") > 0 || list.unreadable.length > 0
      ? EXIT.undecided
      : 0;
  } catch (error) {
    progress.end();
    if (error instanceof Error) error.message = mask(error.message);
    throw error;
  }
}

/** `pawl audit report`: rebuild the report from every record in the directory. */
async function auditReportCommand(
  args: readonly string[],
  io: CliIo,
): Promise<number> {
  const v = parseCommandArgs(args, {
    "out-dir": { type: "string", default: "pawl-audit" },
    json: { type: "boolean", default: false },
    quiet: { type: "boolean", default: false },
    help: { type: "boolean", short: "h", default: false },
  });
  if (v.help) {
    io.out(AUDIT_USAGE);
    return 0;
  }
  const outDir = v["out-dir"].replace(/(.)\/+$/, "$1");
  const report = await writeReport(outDir, { requireRecords: true });
  const c = report.counts;
  if (v.json) {
    io.out(renderAuditJson(report));
  } else {
    io.out(
      `pawl audit report: ${c.total} pull requests: ${c.accept} accept, ${c.reject} reject, ${c.undecided} undecided, ${c.skipped} skipped\n` +
        reportLine(outDir, report),
    );
  }
  if (!v.quiet) {
    for (const message of report.unreadable) io.err(`pawl: ${message}\n`);
  }
  return c.undecided > 0 || report.unreadable.length > 0 ? EXIT.undecided : 0;
}

/** What an audit run still has to do. */
interface Plan {
  /** Records already settled: kept from earlier runs or skipped now. */
  records: Map<number, AuditRecord>;
  /** Pull requests to judge. */
  jobs: Job[];
  /** How many records were kept from earlier runs. */
  reused: number;
}

/**
 * Keep every record that already answers the question (unless forced),
 * record the pull requests the clock skips, and list the rest to judge.
 */
async function planJobs(
  selected: readonly AuditPullRequest[],
  options: {
    slug: string;
    plan: ClockPlan;
    outDir: string;
    force: boolean;
    retryUndecided: boolean;
    progress: Progress;
  },
): Promise<Plan> {
  const records = new Map<number, AuditRecord>();
  const jobs: Job[] = [];
  let reused = 0;
  for (const pr of selected) {
    const chosen = chooseClock(pr, options.plan);
    const path = `${options.outDir}/${auditRecordFileName(pr.number)}`;
    const earlier = await readRecordFile(path, options.progress);
    if (
      !options.force && earlier !== undefined &&
      isRecordCurrent(earlier, options.slug, pr, chosen.clock, {
        retryUndecided: options.retryUndecided,
      })
    ) {
      records.set(pr.number, earlier);
      reused += 1;
    } else if (chosen.kind === "skip") {
      const record = buildAuditRecord(options.slug, pr, chosen.clock, {
        kind: "skipped",
        reason: chosen.reason,
      });
      await writeRecord(path, record);
      records.set(pr.number, record);
    } else {
      jobs.push({ pr, chosen, path });
    }
  }
  return { records, jobs, reused };
}

/** One pull request to judge. */
interface Job {
  pr: AuditPullRequest;
  chosen: Extract<ChosenClock, { kind: "judge" }>;
  path: string;
}

/** How a worker judges. */
interface JudgeOptions {
  sandboxLease: SandboxLeaseSettings;
  runTests: boolean;
  isolation: IsolationRequest;
  token: string | undefined;
  mask: (text: string) => string;
  sandboxPath?: string;
  tempRoot?: string;
}

/**
 * Judge one pull request as `pawl check --pr` would, at the chosen clock,
 * in the worker's own sandbox uid. Never throws: anything that stops a
 * decision is the record's reason.
 */
async function judge(
  job: Job,
  options: JudgeOptions,
): Promise<AuditOutcome & { uid?: number }> {
  const { pr, chosen } = job;
  try {
    // The judgement's own sandbox uid, held until its last test run ends.
    await using lease = options.runTests && options.isolation !== "none"
      ? await leaseSandboxUid(options.sandboxLease)
      : undefined;
    const { verdict } = await runCheckWithLedger({
      repo: pr.base.cloneUrl,
      base: pr.base.sha,
      head: pr.head.sha,
      shallow: true,
      // A fork's head commit is in the base repository only under this ref.
      refs: [`refs/pull/${pr.number}/head`],
      gitEnv: gitAuthEnv(pr.base.cloneUrl, options.token),
      now: chosen.now,
      ...(chosen.verdictClock === undefined
        ? {}
        : { clock: chosen.verdictClock }),
      allowFixtureRotate: false,
      isolation: options.isolation,
      runTests: options.runTests,
      progress: SILENT_PROGRESS,
      ...(lease === undefined
        ? {}
        : { sandboxUid: lease.uid, sandboxGid: lease.gid }),
      ...(options.sandboxPath === undefined
        ? {}
        : { sandboxPath: options.sandboxPath }),
      ...(options.tempRoot === undefined ? {} : { tempRoot: options.tempRoot }),
    });
    return {
      kind: "verdict",
      verdict,
      ...(lease === undefined ? {} : { uid: lease.uid }),
    };
  } catch (error) {
    return {
      kind: "undecided",
      reason: options.mask(
        error instanceof Error ? error.message : String(error),
      ),
    };
  }
}

/**
 * The record at `path`, or undefined when there is none or it is not a
 * complete record (then it is judged again).
 */
async function readRecordFile(
  path: string,
  progress: Progress,
): Promise<AuditRecord | undefined> {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  }
  try {
    return readAuditRecord(text, path);
  } catch (error) {
    if (!(error instanceof AuditRecordError)) throw error;
    progress.note(`judging again: ${error.message}`);
    return undefined;
  }
}

async function writeRecord(path: string, record: AuditRecord): Promise<void> {
  await writeOutputFile(path, JSON.stringify(record, null, 2) + "\n");
}

/**
 * Build the report from every record in `outDir` and write its three
 * files; with `requireRecords`, a directory without a single record file
 * is an error and nothing is written.
 */
async function writeReport(
  outDir: string,
  options: { requireRecords?: boolean } = {},
): Promise<AuditReport> {
  const records: AuditRecord[] = [];
  const unreadable: string[] = [];
  let entries: Deno.DirEntry[];
  try {
    entries = await Array.fromAsync(Deno.readDir(outDir));
  } catch (error) {
    throw new UsageError(
      `Cannot build the audit report: cannot read the directory "${outDir}": ${
        error instanceof Error ? error.message : String(error)
      }`,
    );
  }
  for (const entry of entries) {
    if (!entry.isFile || auditRecordNumber(entry.name) === undefined) continue;
    const path = `${outDir}/${entry.name}`;
    try {
      records.push(readAuditRecord(await Deno.readTextFile(path), path));
    } catch (error) {
      if (!(error instanceof AuditRecordError)) throw error;
      unreadable.push(error.message);
    }
  }
  if (
    options.requireRecords === true && records.length + unreadable.length === 0
  ) {
    throw new UsageError(
      `Cannot build the audit report: "${outDir}" holds no audit records ("pr-<N>.json")`,
    );
  }
  const report = buildAuditReport(records, { unreadable });
  await writeOutputFile(
    `${outDir}/${REPORT_FILES.json}`,
    renderAuditJson(report),
  );
  await writeOutputFile(
    `${outDir}/${REPORT_FILES.markdown}`,
    renderAuditMarkdown(report),
  );
  await writeOutputFile(
    `${outDir}/${REPORT_FILES.html}`,
    renderAuditHtml(report),
  );
  return report;
}

function reportLine(outDir: string, report: AuditReport): string {
  return `report (${report.counts.total} records): ${
    Object.values(REPORT_FILES).map((f) => `${outDir}/${f}`).join(", ")
  }\n`;
}

/** `OWNER/REPO`, checked as `--pr` checks it. */
function readRepo(slug: string): RepoRef {
  if (!/^[^/#\s]+\/[^/#\s]+$/.test(slug)) {
    throw new UsageError(
      `Cannot read --repo "${slug}": expected "OWNER/REPO" of a GitHub repository`,
    );
  }
  try {
    const { owner, repo } = parsePullRequestRef(`${slug}#1`);
    return { owner, repo };
  } catch (error) {
    throw new UsageError(
      `Cannot read --repo "${slug}": ${
        error instanceof Error
          ? error.message.replace(/^Cannot read pull request "[^"]*": /, "")
          : String(error)
      }`,
    );
  }
}

/** The clock plan from `--now` / `--now-from`: exactly one of them. */
function readClockPlan(
  now: string | undefined,
  nowFrom: string | undefined,
): ClockPlan {
  if (nowFrom === undefined) {
    if (now === undefined) {
      throw new UsageError(
        `Cannot decide without a clock: pass "--now <RFC3339>" or "--now-from merged-at" (or "created-at")\n\n${AUDIT_USAGE}`,
      );
    }
    return { source: "flag", now: parseNow(now) };
  }
  if (nowFrom !== "merged-at" && nowFrom !== "created-at") {
    throw new UsageError(
      `Unknown clock source "${nowFrom}": expected "merged-at" or "created-at"`,
    );
  }
  if (now !== undefined) {
    throw new UsageError(
      `"--now" and "--now-from ${nowFrom}" exclude each other: the clock is one or the other`,
    );
  }
  return { source: nowFrom };
}

function readInteger(
  text: string,
  name: string,
  min: number,
  max: number,
): number {
  const value = Number(text);
  if (!/^[0-9]+$/.test(text) || value < min || value > max) {
    throw new UsageError(
      `Cannot read ${name} "${text}": expected a whole number from ${min} to ${max}`,
    );
  }
  return value;
}
