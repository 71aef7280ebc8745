/**
 * `pawl check` and `pawl diff`: judge one pull request.
 *
 * @module
 */
import { clientFromEnv } from "../github/client_from_env.ts";
import { parseArgs } from "node:util";
import { type Instant, parseNow } from "../core/parse_now.ts";
import type { ClockRecord, Verdict } from "../core/verdict.ts";
import {
  type IsolationRequest,
  runCheckWithLedger,
} from "../check/run_check.ts";
import { formatLedger } from "../seeds/ledger_row.ts";
import { parseCommandArgs, UsageError } from "./parse_command_args.ts";
import { readSandboxLease } from "./read_sandbox_lease.ts";
import { renderText } from "../report/render_text.ts";
import type { CliIo } from "./cli_io.ts";
import { exitCodeFor } from "./exit_code.ts";
import { createProgress, SILENT_PROGRESS } from "./progress.ts";
import { writeOutputFile } from "./write_output_file.ts";
import { writeSignedOutputs } from "./write_signed_outputs.ts";
import { readSigningKey, type SigningKey } from "../sign/signing_key.ts";
import { renderSarif } from "../report/render_sarif.ts";
import { renderJunit } from "../report/render_junit.ts";
import { renderMarkdown } from "../report/render_markdown.ts";
import { renderUndecided } from "../report/render_undecided.ts";
import { GitError } from "../git/git_error.ts";
import type { Progress } from "./progress.ts";
import {
  buildPublication,
  EVENT_CLOCK_FIELD,
  formatPullRequestRef,
  gitAuthEnv,
  type GitHub,
  type Outcome,
  publishVerdict,
  type PullRequestRef,
  pullRequestSource,
  readEvent,
  resolvePullRequest,
} from "../github/mod.ts";

const ISOLATIONS: readonly IsolationRequest[] = [
  "auto",
  "bwrap",
  "unshare",
  "uid",
  "none",
];

/** Usage text for `check` and `diff`. */
export const CHECK_USAGE = `Usage:
  pawl check --repo <path|url> --base <rev> --head <rev> --now <RFC3339> [options]
  pawl check --pr <OWNER/REPO#N|PR URL> --now <RFC3339> [options]
  pawl check --now <RFC3339> | --now-from event     (GitHub Actions pull_request event)
  pawl diff  ...the same forms: static rules only

Options:
  --pr REF                 a GitHub pull request: OWNER/REPO#N or its URL; base and
                           head are the commit ids the API reports
  --now-from SOURCE        flag (default: --now) or event: the event payload's
                           pull_request.updated_at (recorded in the verdict)
  --publish, --no-publish  publish to the pull request (check run "pawl", commit
                           status, one sticky comment); default: when the pull
                           request came from GitHub and GITHUB_TOKEN is set
  --out FILE               write the verdict as JSON
  --json                   print the verdict JSON on stdout (logs stay on stderr)
  --allow-fixture-rotate   a human allows fixture rotation in this run
  --isolation MODE         auto (default), bwrap, unshare, uid, or none
  --sandbox-path PATH      PATH inside the sandbox (default /usr/local/bin:/usr/bin:/bin)
  --sandbox-uids RANGE     FIRST-LAST: the uids each run leases its own from
                           (default env PAWL_SANDBOX_UIDS, else 64123-64186)
  --ledger FILE            append one seed-ledger JSON line per property run
  --key FILE               sign the verdict with this Ed25519 PKCS#8 PEM key
                           (or env PAWL_SIGNING_KEY holding the PEM)
  --out-signed FILE        write the signed DSSE envelope (in-toto Statement v1)
  --out-test-result FILE   also write the verdict as a signed in-toto test-result
                           statement (check only: diff runs no tests)
  --sarif FILE             write SARIF 2.1.0 for code-scanning upload
  --junit FILE             write JUnit XML (one testcase per rule family)
  --markdown FILE          write the Markdown report (also appended to
                           $GITHUB_STEP_SUMMARY when that is set)
  --quiet                  no progress on stderr
  --no-color               plain terminal report

Exit codes: 0 accept, 1 reject, 2 could not decide.
"diff" runs every static rule and executes nothing from the repository.
Environment: GITHUB_TOKEN, GITHUB_API_URL (GitHub Enterprise), and in Actions
GITHUB_EVENT_PATH, GITHUB_EVENT_NAME, GITHUB_REPOSITORY. Publishing failures are
reported on stderr and never change the exit code.
`;

/** Run `pawl check` (runTests) or `pawl diff` (static only). */
export async function checkCommand(
  args: readonly string[],
  io: CliIo,
  options: { runTests: boolean },
): Promise<number> {
  const github: GitHubState = {};
  try {
    return await judgeCommandLine(args, io, { ...options, github });
  } catch (caught) {
    const error = withTokenHint(caught, github);
    // A stale accept must never survive a run that could not decide, not
    // even one stopped by its own command line (a bad --now, an unknown
    // option): on exit 2, --out says "undecided".
    const message = error instanceof Error ? error.message : String(error);
    const paths = reportPaths(args);
    if (paths.out !== undefined) {
      await writeOutputFile(
        paths.out,
        JSON.stringify({ decision: "undecided", error: message }, null, 2) +
          "\n",
      ).catch(() => {});
    }
    // Likewise every report file asked for, so a stale "accept" comment or
    // SARIF upload cannot outlive this run.
    const undecided = renderUndecided(message);
    for (const kind of ["sarif", "junit", "markdown"] as const) {
      const path = paths[kind];
      if (path !== undefined) {
        await writeOutputFile(path, undecided[kind]).catch(() => {});
      }
    }
    // The pull request hears that pawl could not decide (never an accept).
    await publishUndecided(github, error, io);
    throw error;
  }
}

/** Output paths, found leniently so a command line that does not parse still has them. */
function reportPaths(
  args: readonly string[],
): Partial<Record<"out" | "sarif" | "junit" | "markdown", string>> {
  const out: Partial<Record<"out" | "sarif" | "junit" | "markdown", string>> =
    {};
  try {
    const { values } = parseArgs({
      args: [...args],
      strict: false,
      allowPositionals: true,
      options: {
        out: { type: "string" },
        sarif: { type: "string" },
        junit: { type: "string" },
        markdown: { type: "string" },
      },
    });
    for (const kind of ["out", "sarif", "junit", "markdown"] as const) {
      const path = values[kind];
      if (typeof path === "string" && path !== "" && !path.startsWith("-")) {
        out[kind] = path;
      }
    }
  } catch {
    // Nothing recognisable: nothing to overwrite.
  }
  return out;
}

async function judgeCommandLine(
  args: readonly string[],
  io: CliIo,
  options: { runTests: boolean; github: GitHubState },
): Promise<number> {
  const v = parseCommandArgs(args, {
    repo: { type: "string" },
    base: { type: "string" },
    head: { type: "string" },
    now: { type: "string" },
    out: { type: "string" },
    json: { type: "boolean", default: false },
    "allow-fixture-rotate": { type: "boolean", default: false },
    isolation: { type: "string", default: "auto" },
    "sandbox-path": { type: "string" },
    "sandbox-uids": { type: "string" },
    quiet: { type: "boolean", default: false },
    "no-color": { type: "boolean", default: false },
    ledger: { type: "string" },
    key: { type: "string" },
    "out-signed": { type: "string" },
    "out-test-result": { type: "string" },
    sarif: { type: "string" },
    junit: { type: "string" },
    markdown: { type: "string" },
    pr: { type: "string" },
    "now-from": { type: "string" },
    publish: { type: "boolean", default: false },
    "no-publish": { type: "boolean", default: false },
  });
  const progress = v.quiet
    ? SILENT_PROGRESS
    : createProgress({ terminal: io.terminal, write: io.err });
  // A pull request from GitHub (--pr or the Actions event) brings its own
  // repository, commits and, with --now-from event, clock.
  const pull = await openPullRequest(v, io, progress, options.github);
  if (pull === undefined) {
    for (const key of ["repo", "base", "head"] as const) {
      if (v[key] === undefined || v[key] === "") {
        throw new UsageError(
          `Missing required option "--${key}"\n\n${CHECK_USAGE}`,
        );
      }
    }
  }
  const now = pull?.now ?? parseNow(v.now);
  const isolation = v.isolation as IsolationRequest;
  if (!ISOLATIONS.includes(isolation)) {
    throw new UsageError(
      `Unknown isolation "${v.isolation}": expected one of ${
        ISOLATIONS.join(", ")
      }`,
    );
  }
  const sandboxLease = readSandboxLease(v["sandbox-uids"], io.env);
  // The key is read before anything from the repository runs, and its
  // directory is hidden from the sandbox.
  const signing = await loadSigningKey(v.key, io);
  if (v["out-signed"] !== undefined && signing === undefined) {
    throw new UsageError(
      `"--out-signed" needs a signing key: pass "--key FILE" or set PAWL_SIGNING_KEY`,
    );
  }
  if (v["out-test-result"] !== undefined) {
    if (!options.runTests) {
      throw new UsageError(
        `"--out-test-result" needs a test run: pawl diff runs no tests, so there is no test result to sign; use pawl check`,
      );
    }
    if (signing === undefined) {
      throw new UsageError(
        `"--out-test-result" needs a signing key: pass "--key FILE" or set PAWL_SIGNING_KEY`,
      );
    }
  }
  try {
    const { verdict, ledger } = await runCheckWithLedger({
      ...(pull === undefined
        ? {
          repo: v.repo as string,
          base: v.base as string,
          head: v.head as string,
        }
        : pull.checkOptions),
      now,
      allowFixtureRotate: v["allow-fixture-rotate"],
      isolation,
      runTests: options.runTests,
      progress,
      ...(v["sandbox-path"] === undefined
        ? {}
        : { sandboxPath: v["sandbox-path"] }),
      sandboxLease,
      ...(io.env["TMPDIR"] ? { tempRoot: io.env["TMPDIR"] } : {}),
      ...(signing?.path === undefined ? {} : { hiddenPaths: [signing.path] }),
    });
    progress.end();
    if (v.ledger !== undefined && ledger.length > 0) {
      await Deno.writeTextFile(v.ledger, formatLedger(ledger), {
        append: true,
      });
    }
    const json = JSON.stringify(verdict, null, 2) + "\n";
    if (v.out !== undefined) await writeOutputFile(v.out, json);
    if (signing !== undefined) {
      await writeSignedOutputs(verdict, signing.key, {
        verdict: v["out-signed"],
        testResult: v["out-test-result"],
      });
    }
    if (v.sarif !== undefined) {
      await writeOutputFile(v.sarif, renderSarif(verdict));
    }
    if (v.junit !== undefined) {
      await writeOutputFile(v.junit, renderJunit(verdict));
    }
    const summary = io.env["GITHUB_STEP_SUMMARY"];
    if (v.markdown !== undefined || (summary !== undefined && summary !== "")) {
      const markdown = renderMarkdown(
        verdict,
        signing === undefined ? {} : { keyid: signing.key.keyid },
      );
      if (v.markdown !== undefined) await writeOutputFile(v.markdown, markdown);
      if (summary !== undefined && summary !== "") {
        await Deno.writeTextFile(summary, markdown, { append: true });
      }
    }
    if (v.json) {
      io.out(json);
    } else {
      io.out(renderText(verdict, { color: io.terminal && !v["no-color"] }));
    }
    await publishVerdictOf(options.github, verdict, {
      io,
      ...(signing === undefined ? {} : { keyid: signing.key.keyid }),
    });
    progress.end();
    return exitCodeFor(verdict.decision);
  } catch (error) {
    progress.end();
    throw error;
  }
}

/** A signing key and the file it came from (undefined for the environment). */
interface LoadedKey {
  key: SigningKey;
  path: string | undefined;
}

async function loadSigningKey(
  path: string | undefined,
  io: CliIo,
): Promise<LoadedKey | undefined> {
  if (path !== undefined) {
    let pem: string;
    try {
      pem = await Deno.readTextFile(path);
    } catch (error) {
      throw new UsageError(
        `Cannot read signing key "${path}": ${
          error instanceof Error ? error.message : String(error)
        }`,
      );
    }
    // The sandbox hides the key file itself, by its resolved path.
    return {
      key: await readSigningKey(pem, path),
      path: await Deno.realPath(path),
    };
  }
  const pem = io.env["PAWL_SIGNING_KEY"];
  if (pem === undefined || pem === "") return undefined;
  return {
    key: await readSigningKey(pem, "PAWL_SIGNING_KEY"),
    path: undefined,
  };
}

/**
 * What is known about a GitHub pull request while a run goes on, so that
 * a run that cannot decide still reports on it.
 */
interface GitHubState {
  /** The API client. */
  client?: GitHub;
  /** The token, to mask it in anything printed. */
  token?: string;
  /** Whether to publish. */
  publish?: boolean;
  /** The pull request. */
  ref?: PullRequestRef;
  /** Its head commit, once known. */
  headSha?: string;
  /** Progress sink of the run. */
  progress?: Progress;
}

/** The parsed command line, as far as GitHub is concerned. */
interface GitHubFlags {
  repo?: string | undefined;
  base?: string | undefined;
  head?: string | undefined;
  now?: string | undefined;
  pr?: string | undefined;
  "now-from"?: string | undefined;
  publish?: boolean | undefined;
  "no-publish"?: boolean | undefined;
}

/** A pull request from GitHub, ready to judge. */
interface OpenedPullRequest {
  /** What {@linkcode runCheckWithLedger} needs to clone and judge it. */
  checkOptions: {
    repo: string;
    base: string;
    head: string;
    shallow: boolean;
    refs: string[];
    gitEnv: Record<string, string>;
    clock?: ClockRecord;
  };
  /** The clock, when it came from the event. */
  now?: Instant;
}

/**
 * Find and read the pull request when it comes from GitHub (`--pr`, or
 * the Actions event when neither `--pr` nor `--repo` is given); undefined
 * for a plain `--repo` run. Fills `state` as things become known.
 */
async function openPullRequest(
  v: GitHubFlags,
  io: CliIo,
  progress: Progress,
  state: GitHubState,
): Promise<OpenedPullRequest | undefined> {
  if (v.publish && v["no-publish"]) {
    throw new UsageError(`"--publish" and "--no-publish" exclude each other`);
  }
  const nowFrom = v["now-from"] ?? "flag";
  if (nowFrom !== "flag" && nowFrom !== "event") {
    throw new UsageError(
      `Unknown clock source "${nowFrom}": expected "flag" (--now) or "event"`,
    );
  }
  if (nowFrom === "event" && v.now !== undefined) {
    throw new UsageError(
      `"--now" and "--now-from event" exclude each other: the clock is one or the other`,
    );
  }
  const source = pullRequestSource({
    pr: v.pr,
    repoGiven: v.repo !== undefined,
    env: io.env,
  });
  if (source === undefined) {
    if (v.publish) {
      throw new UsageError(
        `"--publish" needs a pull request from GitHub: pass "--pr OWNER/REPO#N" or run in a GitHub Actions pull_request workflow`,
      );
    }
    if (nowFrom === "event") {
      throw new UsageError(
        `"--now-from event" needs a GitHub Actions event: GITHUB_EVENT_PATH and GITHUB_REPOSITORY are not set (or "--repo" was given)`,
      );
    }
    return undefined;
  }
  for (const key of ["repo", "base", "head"] as const) {
    if (v[key] !== undefined) {
      throw new UsageError(
        `"--${key}" cannot be combined with a pull request from GitHub: its repository and commits come from ${
          source.kind === "flag" ? '"--pr"' : "the Actions event"
        }`,
      );
    }
  }
  if (v.publish && !io.env["GITHUB_TOKEN"]) {
    throw new UsageError(`"--publish" needs a token: set GITHUB_TOKEN`);
  }
  const { client, apiUrl, token } = clientFromEnv(io.env, {
    onWait: (message) => progress.note(message),
  });
  Object.assign(state, {
    client,
    publish: token !== undefined && !v["no-publish"],
    progress,
    ...(token === undefined ? {} : { token }),
  });
  try {
    progress.step(
      source.kind === "flag"
        ? `reading pull request ${
          formatPullRequestRef(source.ref)
        } from ${apiUrl}`
        : `reading the ${
          source.context.eventName ?? "pull_request"
        } event ${source.context.eventPath}`,
    );
    const resolved = await resolvePullRequest(source, {
      github: client,
      readTextFile: (path) => Deno.readTextFile(path),
      onKnown: (known) => {
        state.ref = known.ref;
        if (known.headSha !== undefined) state.headSha = known.headSha;
      },
    });
    let now: Instant | undefined;
    let clock: ClockRecord | undefined;
    if (nowFrom === "event") {
      const event = resolved.event ?? await eventFor(resolved.ref, io);
      now = parseNow(
        event.updatedAt,
        `"${EVENT_CLOCK_FIELD}" of the event payload`,
      );
      clock = { source: "event", field: EVENT_CLOCK_FIELD };
    }
    const pr = resolved.pullRequest;
    progress.step(
      `judging ${formatPullRequestRef(resolved.ref)}: base ${
        resolved.baseSha.slice(0, 12)
      } (${pr.base.ref}), head ${resolved.headSha.slice(0, 12)} (${
        pr.fromFork ? `${pr.head.repo ?? "a deleted fork"}:` : ""
      }${pr.head.ref})`,
    );
    return {
      checkOptions: {
        repo: pr.base.cloneUrl,
        base: resolved.baseSha,
        head: resolved.headSha,
        shallow: true,
        // A fork's head commit is in the base repository only under this ref.
        refs: [`refs/pull/${resolved.ref.number}/head`],
        gitEnv: gitAuthEnv(pr.base.cloneUrl, token),
        ...(clock === undefined ? {} : { clock }),
      },
      ...(now === undefined ? {} : { now }),
    };
  } catch (error) {
    progress.end();
    throw error;
  }
}

/** The Actions event of `--pr` runs with `--now-from event`; it must be about the same pull request. */
async function eventFor(ref: PullRequestRef, io: CliIo) {
  const source = pullRequestSource({
    pr: undefined,
    repoGiven: false,
    env: io.env,
  });
  if (source?.kind !== "event") {
    throw new UsageError(
      `"--now-from event" needs a GitHub Actions event: GITHUB_EVENT_PATH and GITHUB_REPOSITORY are not set`,
    );
  }
  const event = await readEvent(source.context, (p) => Deno.readTextFile(p));
  if (
    formatPullRequestRef(event.ref).toLowerCase() !==
      formatPullRequestRef(ref).toLowerCase()
  ) {
    throw new UsageError(
      `"--now-from event" reads the clock of ${
        formatPullRequestRef(event.ref)
      }'s event, but "--pr" is ${formatPullRequestRef(ref)}`,
    );
  }
  return event;
}

/** Publish a verdict when the run is publishing; failures go to stderr only. */
async function publishVerdictOf(
  state: GitHubState,
  verdict: Verdict,
  options: { io: CliIo; keyid?: string },
): Promise<void> {
  if (!state.publish) return;
  let markdown: string;
  try {
    markdown = renderMarkdown(
      verdict,
      options.keyid === undefined ? {} : { keyid: options.keyid },
    );
  } catch (error) {
    options.io.err(
      `pawl: cannot render the pull request comment: ${describe(error)}\n`,
    );
    markdown = `## pawl: ${verdict.decision}\n`;
  }
  await publish(state, { kind: "verdict", verdict, markdown }, options.io);
}

/** Tell the pull request that pawl could not decide (exit 2). */
async function publishUndecided(
  state: GitHubState,
  error: unknown,
  io: CliIo,
): Promise<void> {
  if (!state.publish) return;
  if (state.headSha === undefined) {
    io.err(
      `pawl: nothing published to GitHub: the pull request's head commit is not known\n`,
    );
    return;
  }
  await publish(
    state,
    { kind: "undecided", reason: describe(error), headSha: state.headSha },
    io,
  );
}

/**
 * Send one outcome. Never throws: a failure to publish is reported on
 * stderr and changes neither the decision nor the exit code.
 */
async function publish(
  state: GitHubState,
  outcome: Outcome,
  io: CliIo,
): Promise<void> {
  const { client, ref } = state;
  if (client === undefined || ref === undefined) return;
  const mask = (text: string) =>
    state.token === undefined ? text : text.replaceAll(state.token, "***");
  const name = formatPullRequestRef(ref);
  try {
    state.progress?.step(`publishing to ${name}`);
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
      state.progress?.step(`published to ${name}: ${done.join(", ")}`);
    }
    for (const error of report.errors) {
      io.err(`pawl: could not publish to GitHub: ${mask(error.message)}\n`);
    }
    if (report.errors.length > 0) {
      io.err(
        `pawl: publishing to ${name} failed in part; the decision and the exit code are unchanged\n`,
      );
    }
  } catch (error) {
    io.err(`pawl: could not publish to GitHub: ${mask(describe(error))}\n`);
  } finally {
    state.progress?.end();
  }
}

/**
 * A git failure to fetch a pull request's repository that looks like
 * missing access gets the permission the token needs added to its message.
 */
function withTokenHint(error: unknown, state: GitHubState): unknown {
  if (
    state.ref === undefined || !(error instanceof GitError) ||
    !/^Cannot (?:clone|fetch)/.test(error.message) ||
    !/authentication|could not read username|403|401|not found|terminal prompts disabled/i
      .test(error.message)
  ) return error;
  const slug = `${state.ref.owner}/${state.ref.repo}`;
  return new GitError(
    `${error.message}: ${
      state.token === undefined
        ? `set GITHUB_TOKEN to a token that can read "${slug}"`
        : `the token (GITHUB_TOKEN) needs "contents: read" on "${slug}"`
    }`,
    {
      args: error.args,
      stderr: error.stderr,
      ...(error.exitCode === undefined ? {} : { exitCode: error.exitCode }),
      cause: error,
    },
  );
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
