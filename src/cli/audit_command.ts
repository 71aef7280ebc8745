/**
 * `pawl audit`: judge a range of past pull requests of a GitHub
 * repository, each at a clock the auditor chooses, with a bounded pool of
 * workers, each judgement in a sandbox uid of its own; one record per pull request in the
 * output directory, then the report built from every record there.
 * `pawl audit report` rebuilds only the report (after shards were copied
 * together). Audits never publish to GitHub. This file maps the flags to
 * `runAudit`'s options and ports and prints.
 *
 * @module
 */
import { type DocumentedOptions, optionsHelp } from "./options_help.ts";
import { plural } from "../core/plural.ts";
import {
  AuditOptionError,
  type AuditRecord,
  auditReportLine,
  parsePullRequestNumbers,
  parseShard,
  parseSince,
  renderAuditJson,
  runAudit,
  writeAuditReport,
} from "../audit/mod.ts";
import { realGatePorts } from "../gate/real_gate_ports.ts";
import { clientFromEnv } from "../github/client_from_env.ts";
import type { CliIo } from "./cli_io.ts";
import { EXIT } from "./exit_code.ts";
import {
  parseCommandArgs,
  requiredOption,
  UsageError,
} from "./parse_command_args.ts";
import { readOptionValue } from "./read_option_value.ts";
import { readSandboxLease } from "./read_sandbox_lease.ts";
import { cliProgress } from "./progress.ts";
import { readIsolation } from "./read_isolation.ts";
import { resolve } from "node:path";
import { defaultSetupCache } from "../setup/default_setup_cache.ts";
import { readClockPlan, readInteger, readRepo } from "./_audit_flags.ts";
import {
  HELP_OPTION,
  ISOLATION_OPTION,
  QUIET_OPTION,
  SANDBOX_PATH_OPTION,
} from "./_shared_options.ts";

/** Pull requests judged at once when `--concurrency` is not given. */
export const DEFAULT_AUDIT_CONCURRENCY = 2;

const MAX_CONCURRENCY = 64;

/** The options of `audit`. */
export const AUDIT_OPTIONS = {
  repo: {
    type: "string",
    doc: {
      value: "OWNER/REPO",
      text: "the repository (GITHUB_API_URL for GitHub Enterprise)",
    },
  },
  prs: {
    type: "string",
    doc: {
      value: "LIST",
      text: 'numbers and ranges: "3,5,9", "120..180", "400.."',
    },
  },
  since: {
    type: "string",
    doc: {
      value: "DATE",
      text:
        'pull requests created at or after DATE ("2026-11-01" or\nRFC 3339); with --prs, both must hold',
    },
  },
  now: {
    type: "string",
    doc: { value: "T", text: "judge every pull request at T" },
  },
  "now-from": {
    type: "string",
    doc: {
      value: "SOURCE",
      text:
        "merged-at or created-at: each at its own merged_at or\ncreated_at; under merged-at one never merged is skipped",
    },
  },
  "out-dir": {
    type: "string",
    default: "pawl-audit",
    doc: {
      value: "DIR",
      text: "where records and the report go (default ./pawl-audit)",
    },
  },
  concurrency: {
    type: "string",
    default: String(DEFAULT_AUDIT_CONCURRENCY),
    doc: {
      value: "N",
      text:
        `pull requests judged at once (default ${DEFAULT_AUDIT_CONCURRENCY})`,
    },
  },
  shard: {
    type: "string",
    doc: {
      value: "I/N",
      text: "only pull requests whose number % N is I (I from 0)",
    },
  },
  force: {
    type: "boolean",
    default: false,
    doc: { text: "judge again even where a current record exists" },
  },
  "retry-undecided": {
    type: "boolean",
    default: false,
    doc: { text: "judge again the pull requests recorded as undecided" },
  },
  static: {
    type: "boolean",
    default: false,
    doc: { text: 'the static rules only, as "pawl diff" (executes nothing)' },
  },
  ...ISOLATION_OPTION,
  ...SANDBOX_PATH_OPTION,
  "sandbox-uids": {
    type: "string",
    doc: {
      value: "RANGE",
      text:
        "FIRST-LAST: the uids each judgement leases its own\nfrom (default env PAWL_SANDBOX_UIDS, else 64123-64186);\nkeep them free of anything else (every run kills all\nprocesses of its uid)",
    },
  },
  "sandbox-uid": {
    type: "string",
    doc: {
      value: "UID",
      text: "the same as --sandbox-uids UID-(UID+N-1) for\n--concurrency N",
    },
  },
  "setup-cache": {
    type: "string",
    doc: {
      value: "DIR",
      text:
        "where [environment.setup] results are cached on this\nrunner (default env PAWL_SETUP_CACHE, else\n/var/cache/pawl/setup as root)",
    },
  },
  json: {
    type: "boolean",
    default: false,
    doc: { text: "print audit.json on stdout" },
  },
  ...QUIET_OPTION,
  ...HELP_OPTION,
} as const satisfies DocumentedOptions;

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
${optionsHelp(AUDIT_OPTIONS)}
A record that already answers the same question (same commits, same clock)
is kept: a stopped audit resumes where it left off.
Exit codes: 0 every selected pull request was decided (accept or reject;
skipped ones aside), 2 one could not be decided, the list could not be read,
or the command line is wrong.
Environment: GITHUB_TOKEN, GITHUB_API_URL.
`;

/** The options of `audit report`. */
export const AUDIT_REPORT_OPTIONS = {
  "out-dir": AUDIT_OPTIONS["out-dir"],
  json: AUDIT_OPTIONS.json,
  quiet: AUDIT_OPTIONS.quiet,
  help: AUDIT_OPTIONS.help,
} as const satisfies DocumentedOptions;

/** Run `pawl audit` (or `pawl audit report`); returns the exit code. */
export async function auditCommand(
  args: readonly string[],
  io: CliIo,
): Promise<number> {
  if (args[0] === "report") return await auditReportCommand(args.slice(1), io);
  const v = parseCommandArgs(args, AUDIT_OPTIONS);
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
  const { prs, since: sinceText, shard: shardText } = v;
  const numbers = prs === undefined ? undefined : readOptionValue(
    () => parsePullRequestNumbers(prs),
    AuditOptionError,
  );
  const since = sinceText === undefined
    ? undefined
    : readOptionValue(() => parseSince(sinceText), AuditOptionError);
  const shard = shardText === undefined
    ? undefined
    : readOptionValue(() => parseShard(shardText), AuditOptionError);
  const plan = readClockPlan(v.now, v["now-from"], AUDIT_USAGE);
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
  const isolation = readIsolation(v.isolation);
  const outDir = v["out-dir"].replace(/(.)\/+$/, "$1");
  const progress = cliProgress(io, { quiet: v.quiet });
  const { client, apiUrl, token } = clientFromEnv(io.env, {
    onWait: (message) => progress.note(message),
  });
  const mask = (text: string) =>
    token === undefined ? text : text.replaceAll(token, "***");
  try {
    const run = await runAudit({
      slug,
      repo,
      ...(numbers === undefined ? {} : { numbers }),
      ...(since === undefined ? {} : { since }),
      ...(shard === undefined ? {} : { shard }),
      plan,
      outDir,
      concurrency,
      force: v.force,
      retryUndecided: v["retry-undecided"],
      runTests: !v.static,
      isolation,
      sandboxPath: v["sandbox-path"],
      setupCache: resolve(
        v["setup-cache"] ?? defaultSetupCache(io.env, { uid: Deno.uid() }),
      ),
      token,
      terminal: io.terminal,
    }, {
      github: client,
      apiUrl,
      progress,
      mask,
      // Each judgement leases its own sandbox uid from the range.
      gate: realGatePorts({
        sandbox: { lease: sandboxLease, othersWaiting: concurrency - 1 },
        ...(io.env["TMPDIR"] ? { tempRoot: io.env["TMPDIR"] } : {}),
      }),
    });
    progress.end();
    const { selected, report } = run;
    const mine = selected.map((pr) => run.records.get(pr.number)!);
    const count = (d: AuditRecord["decision"]) =>
      mine.filter((r) => r.decision === d).length;
    if (v.json) {
      io.out(renderAuditJson(report));
    } else {
      io.out(
        `pawl audit ${slug}: ${
          plural(selected.length, "pull request")
        } selected${
          shard === undefined ? "" : ` (shard ${shard.index}/${shard.count})`
        }, ${run.judged} judged now, ${run.reused} from earlier runs\n` +
          `  ${count("accept")} accept, ${count("reject")} reject, ${
            count("undecided")
          } undecided, ${count("skipped")} skipped\n` +
          auditReportLine(outDir, report),
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
    return count("undecided") > 0 || run.unreadable.length > 0
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
  const v = parseCommandArgs(args, AUDIT_REPORT_OPTIONS);
  if (v.help) {
    io.out(AUDIT_USAGE);
    return 0;
  }
  const outDir = v["out-dir"].replace(/(.)\/+$/, "$1");
  const report = await writeAuditReport(outDir, { requireRecords: true });
  const c = report.counts;
  if (v.json) {
    io.out(renderAuditJson(report));
  } else {
    io.out(
      `pawl audit report: ${
        plural(c.total, "pull request")
      }: ${c.accept} accept, ${c.reject} reject, ${c.undecided} undecided, ${c.skipped} skipped\n` +
        auditReportLine(outDir, report),
    );
  }
  if (!v.quiet) {
    for (const message of report.unreadable) io.err(`pawl: ${message}\n`);
  }
  return c.undecided > 0 || report.unreadable.length > 0 ? EXIT.undecided : 0;
}
