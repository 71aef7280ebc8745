/**
 * `pawl check` and `pawl diff`: judge one pull request. This file maps the
 * flags to the gate's options and ports, calls the gate, and prints; the
 * outputs are written by `outputs/`, a GitHub pull request is read by
 * `github/`.
 *
 * @module
 */
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { parseNowOption } from "./read_option_value.ts";
import { judgePullRequest } from "../gate/judge_pull_request.ts";
import { realGatePorts } from "../gate/real_gate_ports.ts";
import { withTokenHint } from "../github/with_token_hint.ts";
import { loadSigningKey } from "../sign/load_signing_key.ts";
import type { CliIo } from "./cli_io.ts";
import { exitCodeFor } from "./exit_code.ts";
import { stageTimer } from "./stage_timer.ts";
import {
  givesFlag,
  parseCommandArgs,
  requiredOption,
  UsageError,
} from "./parse_command_args.ts";
import { readSandboxLease } from "./read_sandbox_lease.ts";
import { TESTS_STEP } from "../core/progress.ts";
import { cliProgress, type HeldProgress, type Progress } from "./progress.ts";
import { useColor } from "./use_color.ts";
import { describeTestUser } from "./_describe_test_user.ts";
import type { IsolationReport } from "../sandbox/sandbox.ts";
import {
  openPullRequestFromFlags,
  type PullRequestRun,
} from "./_pull_request_flags.ts";
import { readIsolation } from "./read_isolation.ts";
import { defaultSetupCache } from "../setup/default_setup_cache.ts";
import { CHECK_OPTIONS } from "./_check_options.ts";
import {
  clonesTarget,
  type StartedClone,
  type StartedTarget,
} from "../gate/start_clone.ts";

/** A clone started by the entry, with the progress it reports to. */
export interface EarlyClone {
  /** The clone under way. */
  clone: StartedClone;
  /** The clone's progress, held until the command takes the clone over. */
  held: HeldProgress;
  /** The command's own progress (what `held` is released to). */
  progress: Progress;
  /** The workspaces' parent the clone was started under. */
  tempRoot: string | undefined;
}

function parseCheckArgs(args: readonly string[]) {
  return parseCommandArgs(args, CHECK_OPTIONS);
}

/** Run `pawl check` (runTests) or `pawl diff` (static only). */
export async function checkCommand(
  args: readonly string[],
  io: CliIo,
  options: { runTests: boolean; early?: EarlyClone },
): Promise<number> {
  const github: PullRequestRun = {};
  try {
    return await judgeCommandLine(args, io, { ...options, github });
  } catch (caught) {
    const error = withTokenHint(caught, github);
    // Even a run stopped by its own command line (a bad --now, an unknown
    // option) leaves every output it asked for saying "undecided".
    const reason = error instanceof Error ? error.message : String(error);
    const [
      { undecidedVerdictJson, writeUndecidedOutputs },
      { writeUndecidedMutationReport },
      { undecidedLocation },
    ] = await Promise.all([
      import("../gate/outputs/write_undecided_outputs.ts"),
      import("../gate/outputs/write_undecided_mutation_report.ts"),
      import("../report/render_undecided.ts"),
    ]);
    await writeUndecidedOutputs(
      reason,
      reportPaths(args),
      undecidedLocation(error),
    );
    // "--json" promises the verdict on stdout whatever the exit code, so a
    // pipe into a JSON reader gets the undecided one too.
    if (givesFlag(args, CHECK_OPTIONS, "json")) {
      io.out(undecidedVerdictJson(reason));
    }
    await writeUndecidedMutationReport(
      lenientPath(args, "mutation-report"),
      reason,
    );
    await annotateInActions(
      io,
      github.publish === true,
      givesFlag(args, CHECK_OPTIONS, "json"),
      async () => {
        const { undecidedWorkflowCommand } = await import(
          "../report/render_workflow_commands.ts"
        );
        return undecidedWorkflowCommand(reason, undecidedLocation(error));
      },
    );
    if (github.publish) {
      const { publishToPullRequest } = await import(
        "../gate/outputs/publish_to_pull_request.ts"
      );
      await publishToPullRequest(github, { kind: "undecided", error }, io.err);
    }
    throw error;
  }
}

/**
 * In GitHub Actions, when the findings would otherwise reach the pull
 * request nowhere (no publishing, or a fork's read-only token), print them
 * as workflow commands: on stdout, or on stderr when stdout is the JSON.
 * Reporting only: a failure here is said on stderr and changes nothing.
 */
async function annotateInActions(
  io: CliIo,
  publish: boolean,
  json: boolean,
  render: () => Promise<string>,
): Promise<void> {
  if (io.env["GITHUB_ACTIONS"] !== "true") return;
  try {
    const { readActionsEventPayload, wantsWorkflowAnnotations } = await import(
      "./_workflow_annotations.ts"
    );
    const event = await readActionsEventPayload(io.env);
    if (!wantsWorkflowAnnotations({ env: io.env, publish, event })) return;
    const text = await render();
    if (json) io.err(text);
    else io.out(text);
  } catch (error) {
    io.err(
      `pawl: cannot print the findings as annotations: ${
        error instanceof Error ? error.message : String(error)
      }\n`,
    );
  }
}

/** The outputs a run that cannot decide still rewrites. */
const REPORT_KINDS = [
  "out",
  "sarif",
  "junit",
  "codequality",
  "markdown",
] as const;
type ReportKind = typeof REPORT_KINDS[number];

/** Output paths, found leniently so a command line that does not parse still has them. */
function reportPaths(
  args: readonly string[],
): Partial<Record<ReportKind, string>> {
  const out: Partial<Record<ReportKind, string>> = {};
  try {
    const { values } = parseArgs({
      args: [...args],
      strict: false,
      allowPositionals: true,
      options: {
        out: { type: "string" },
        sarif: { type: "string" },
        junit: { type: "string" },
        codequality: { type: "string" },
        markdown: { type: "string" },
      },
    });
    for (const kind of REPORT_KINDS) {
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

/** One output path, found leniently (see {@linkcode reportPaths}). */
function lenientPath(
  args: readonly string[],
  name: string,
): string | undefined {
  try {
    const { values } = parseArgs({
      args: [...args],
      strict: false,
      allowPositionals: true,
      options: { [name]: { type: "string" } },
    });
    const path = values[name];
    return typeof path === "string" && path !== "" && !path.startsWith("-")
      ? path
      : undefined;
  } catch {
    return undefined;
  }
}

async function judgeCommandLine(
  args: readonly string[],
  io: CliIo,
  options: { runTests: boolean; github: PullRequestRun; early?: EarlyClone },
): Promise<number> {
  const { early } = options;
  let started: StartedClone | undefined;
  try {
    return await judgeStarted(args, io, options, (target) => {
      // The entry's clone is taken over only when it is this target's.
      if (
        early !== undefined && target !== undefined &&
        early.tempRoot === (io.env["TMPDIR"] || undefined) &&
        clonesTarget(early.clone, target)
      ) {
        early.held.release();
        started = early.clone;
      }
      return started;
    });
  } finally {
    if (early !== undefined && started === undefined) {
      early.held.discard();
      await early.clone.abandon();
    }
  }
}

async function judgeStarted(
  args: readonly string[],
  io: CliIo,
  options: { runTests: boolean; github: PullRequestRun; early?: EarlyClone },
  takeOver: (target: StartedTarget | undefined) => StartedClone | undefined,
): Promise<number> {
  const v = parseCheckArgs(args);
  const progress = options.early?.progress ??
    cliProgress(io, { quiet: v.quiet });
  // A pull request from GitHub (--pr or the Actions event) brings its own
  // repository, commits and, with --now-from event, clock.
  const pull = await openPullRequestFromFlags(v, io, {
    progress,
    run: options.github,
  });
  if (pull !== undefined && options.github.publish) {
    // A sign of life on the pull request while it is judged.
    const { announceToPullRequest } = await import(
      "../gate/outputs/publish_to_pull_request.ts"
    );
    announceToPullRequest(options.github, io.err);
  }
  const target = pull?.checkout ?? {
    repo: requiredOption(v.repo, "repo"),
    base: requiredOption(v.base, "base"),
    head: requiredOption(v.head, "head"),
  };
  const now = pull?.clock?.now ?? parseNowOption(v.now);
  const isolation = readIsolation(v.isolation);
  const sandboxLease = readSandboxLease(v["sandbox-uids"], io.env);
  // The key is read before anything from the repository runs, and its
  // directory is hidden from the sandbox.
  const signing = await loadSigningKey(v.key, io.env);
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
  const started = takeOver(pull === undefined ? { ...target, now } : undefined);
  const sandboxes: IsolationReport[] = [];
  const late = afterVerdictCode();
  const timer = stageTimer(progress);
  try {
    const judgement = await judgePullRequest(
      {
        ...target,
        now,
        ...(pull?.clock === undefined ? {} : { clock: pull.clock.record }),
        allowFixtureRotate: v["allow-fixture-rotate"],
        isolation,
        runTests: options.runTests,
        ...(v["sandbox-path"] === undefined
          ? {}
          : { sandboxPath: v["sandbox-path"] }),
        ...(signing?.path === undefined ? {} : { hiddenPaths: [signing.path] }),
        setupCache: resolve(
          v["setup-cache"] ?? defaultSetupCache(io.env, { uid: Deno.uid() }),
        ),
      },
      realGatePorts({
        progress: late.startOnTests(timer.progress),
        sandbox: {
          lease: sandboxLease,
          onSandbox: (report) => sandboxes.push(report),
          bytecodeCache: io.env["PAWL_BYTECODE_CACHE"],
          onNote: (note) => progress.note(note),
        },
        ...(io.env["TMPDIR"] ? { tempRoot: io.env["TMPDIR"] } : {}),
        // Tests that run as pawl's own user could write the cache.
        analysisCache: isolation === "none" && options.runTests
          ? "off"
          : io.env["PAWL_ANALYSIS_CACHE"],
      }),
      started,
    );
    const timings = timer.timings();
    progress.end();
    const user = describeTestUser(sandboxes, Deno.uid());
    if (user !== undefined && !v.quiet) io.err(`pawl: ${user}\n`);
    const { verdict } = judgement;
    const [{ verdictJson, writeOutputs }, { renderText }, publishing] =
      await late.load();
    await writeOutputs(judgement, {
      out: v.out,
      outSigned: v["out-signed"],
      outTestResult: v["out-test-result"],
      ledger: v.ledger,
      sarif: v.sarif,
      junit: v.junit,
      codequality: v.codequality,
      markdown: v.markdown,
      stepSummary: io.env["GITHUB_STEP_SUMMARY"],
      mutationReport: v["mutation-report"],
    }, { signing: signing?.key, timings });
    io.out(
      v.json
        ? verdictJson(judgement)
        : renderText(verdict, { color: useColor(io, v["no-color"]) }),
    );
    await annotateInActions(
      io,
      options.github.publish === true,
      v.json,
      async () =>
        (await import("../report/render_workflow_commands.ts"))
          .renderWorkflowCommands(verdict),
    );
    if (options.github.publish) {
      await publishing.publishToPullRequest(options.github, {
        kind: "verdict",
        verdict,
        keyid: signing?.key.keyid,
      }, io.err);
    }
    progress.end();
    return exitCodeFor(verdict.decision);
  } catch (error) {
    progress.end();
    throw error;
  }
}

/**
 * The code a check uses only after its verdict (outputs, signing, the text
 * report, publishing): loaded while the tests run, when the gate reports
 * that they started, so it is ready when the verdict is; a `pawl diff`, or
 * a check that never gets there, loads it when it is first needed. A load
 * that fails is thrown where the code is used.
 */
function afterVerdictCode() {
  let loading:
    | Promise<
      [
        typeof import("../gate/outputs/write_outputs.ts"),
        typeof import("../report/render_text.ts"),
        typeof import("../gate/outputs/publish_to_pull_request.ts"),
      ]
    >
    | undefined;
  const load = () => {
    if (loading === undefined) {
      loading = Promise.all([
        import("../gate/outputs/write_outputs.ts"),
        import("../report/render_text.ts"),
        import("../gate/outputs/publish_to_pull_request.ts"),
      ]);
      loading.catch(() => {});
    }
    return loading;
  };
  return {
    load,
    /** `progress`, starting the load when the test runs start. */
    startOnTests: (progress: Progress): Progress => ({
      step(label) {
        if (label.startsWith(TESTS_STEP)) load();
        progress.step(label);
      },
      detail: (text) => progress.detail(text),
      note: (text) => progress.note(text),
      end: () => progress.end(),
      tests: (label) => progress.tests?.(label),
    }),
  };
}
