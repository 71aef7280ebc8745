/**
 * `pawl demo`: build the sample repository in a temp dir and run the real
 * gate — tests included — on each agent patch. No network; nothing is
 * written outside the temp dir.
 *
 * @module
 */
import { type DocumentedOptions, optionsHelp } from "./options_help.ts";
import { plural } from "../core/plural.ts";
import { parseNowOption } from "./read_option_value.ts";
import type { Verdict } from "../core/verdict.ts";
import { judgePullRequest } from "../gate/judge_pull_request.ts";
import { realGatePorts } from "../gate/real_gate_ports.ts";
import type { IsolationRequest } from "../sandbox/probe_isolation.ts";
import { parseCommandArgs } from "./parse_command_args.ts";
import { buildSampleRepo } from "../demo/build_sample_repo.ts";
import type { CliIo } from "./cli_io.ts";
import { EXIT } from "./exit_code.ts";
import { readSandboxLease } from "./read_sandbox_lease.ts";
import { cliProgress, SILENT_PROGRESS } from "./progress.ts";
import { type DemoRow, formatDemoTable } from "./_demo_table.ts";
import { describeTestUser } from "./_describe_test_user.ts";
import type { IsolationReport } from "../sandbox/sandbox.ts";
import { QUIET_OPTION } from "./_shared_options.ts";

/** The sample's fixed orchestrator clock, so the demo is reproducible. */
export const DEMO_NOW = "2026-11-30T12:00:00Z";

/** The options of `demo`. */
export const DEMO_OPTIONS = {
  now: {
    type: "string",
    default: DEMO_NOW,
    doc: { value: "T", text: `the clock (default ${DEMO_NOW})` },
  },
  isolation: {
    type: "string",
    doc: {
      value: "MODE",
      text: "auto (default), bwrap, unshare, uid, or none",
    },
  },
  ...QUIET_OPTION,
} as const satisfies DocumentedOptions;

/** Usage text for `demo`. */
export const DEMO_USAGE = `Usage:
  pawl demo [--now RFC3339] [--isolation MODE] [--quiet]

Builds a sample repository (an invoice parser with a human-owned
tests/agent_contract.yaml) in a temporary directory and runs the real gate,
tests included, on each of its agent patches. Needs git and a python3 with
pytest and Hypothesis; nothing is written outside the temporary directory.

Options:
${optionsHelp(DEMO_OPTIONS)}
Exit codes: 0 every patch was decided, 2 one could not be.
`;

/** Run the demo; exit 0 when every patch was decided, 2 otherwise. */
export async function demoCommand(
  args: readonly string[],
  io: CliIo,
): Promise<number> {
  const values = parseCommandArgs(args, DEMO_OPTIONS);
  const now = parseNowOption(values.now);
  const tools = await findTools(io.env["PATH"] ?? "");
  if (tools.missing.length > 0) {
    io.err(
      `pawl demo needs ${tools.missing.join(" and ")}.\n` +
        "  On Debian/Ubuntu: apt-get install git python3-pytest python3-hypothesis\n" +
        "  Or use the container: docker run --rm pawl demo\n",
    );
    return EXIT.undecided;
  }
  const sandboxLease = readSandboxLease(undefined, io.env);
  let isolation = (values.isolation ?? "auto") as IsolationRequest;
  let sandboxPath: string | undefined;
  if (values.isolation === undefined && Deno.uid() !== 0) {
    isolation = "none";
    io.err(
      "Note: pawl is not running as root, so the sample's own tests run without uid isolation " +
        "(--isolation none). Run as root or in the container for the full sandbox.\n",
    );
  } else if (values.isolation === undefined && !tools.systemPython) {
    // Only a private interpreter (e.g. pyenv under a 0700 home) has pytest:
    // the sandbox uid cannot use it, so the sample's tests run as you.
    isolation = "none";
    sandboxPath = io.env["PATH"];
    io.err(
      "Note: the only python3 with pytest and Hypothesis is one an unprivileged uid cannot use, " +
        "so the sample's own tests run without uid isolation (--isolation none). " +
        "For the full sandbox: apt-get install python3-pytest python3-hypothesis, or use the container.\n",
    );
  }
  const progress = cliProgress(io, { quiet: values.quiet });
  const temp = await Deno.makeTempDir({ prefix: "pawl-demo-" });
  try {
    progress.step("building the sample repository");
    const sample = await buildSampleRepo(`${temp}/invoices`);
    // Clear the live progress line first, so the header starts a line.
    progress.end();
    io.out(
      `Sample repository: an invoice parser with a human-owned tests/agent_contract.yaml; clock ${now.text}\n` +
        `Agent patches, each green under plain pytest:\n${
          sample.patches.map((p) => `  ${p.branch.padEnd(24)} ${p.title}`)
            .join("\n")
        }\n\n`,
    );
    const rows: DemoRow[] = [];
    const sandboxes: IsolationReport[] = [];
    for (const patch of sample.patches) {
      progress.step(`judging ${patch.branch}`);
      const { verdict } = await judgePullRequest(
        {
          repo: sample.dir,
          base: sample.base,
          head: patch.branch,
          now,
          allowFixtureRotate: false,
          isolation,
          ...(sandboxPath === undefined ? {} : { sandboxPath }),
          runTests: true,
        },
        realGatePorts({
          progress: values.quiet ? SILENT_PROGRESS : {
            ...progress,
            step: (label) => progress.detail(label),
          },
          sandbox: {
            lease: sandboxLease,
            onSandbox: (report) => sandboxes.push(report),
          },
        }),
      );
      const [rule, why] = reason(verdict);
      rows.push({
        patch: patch.branch,
        verdict: verdict.decision,
        rule,
        reason: why,
      });
    }
    progress.end();
    io.out(formatDemoTable(rows, io.columns));
    io.out(
      "\nEach row ran the real gate: contracts read from git objects, the suite run in the sandbox, findings diffed base → head.\n",
    );
    const user = describeTestUser(sandboxes, Deno.uid());
    if (user !== undefined) io.out(`${user}.\n`);
    return 0;
  } finally {
    progress.end();
    await Deno.remove(temp, { recursive: true }).catch(() => {});
  }
}

/** The deciding rule and its message (first blocking finding), or why it passed. */
function reason(verdict: Verdict): [string, string] {
  const blocking = verdict.findings.filter((f) => f.blocking);
  const first = blocking[0];
  if (first === undefined) {
    const t = verdict.tests;
    return [
      "-",
      t === null
        ? "contract held"
        : `contract held; ${plural(t.summary.passed, "test")} passed`,
    ];
  }
  const more = blocking.length > 1 ? ` (+${blocking.length - 1} more)` : "";
  return [first.rule, `${first.message}${more}`];
}

/** The system PATH the sandbox uses by default. */
const SYSTEM_PATH = "/usr/local/bin:/usr/bin:/bin";

interface Tools {
  /** Human names of what is missing altogether. */
  missing: string[];
  /** Whether python3 on the system PATH has pytest and Hypothesis. */
  systemPython: boolean;
}

async function findTools(callerPath: string): Promise<Tools> {
  const missing: string[] = [];
  const probe = ["-c", "import pytest, hypothesis"];
  if (!(await succeeds("git", ["--version"], callerPath))) missing.push("git");
  const systemPython = await succeeds("python3", probe, SYSTEM_PATH);
  if (!systemPython && !(await succeeds("python3", probe, callerPath))) {
    missing.push("python3 with pytest and Hypothesis");
  }
  return { missing, systemPython };
}

async function succeeds(
  cmd: string,
  args: string[],
  path: string,
): Promise<boolean> {
  try {
    const out = await new Deno.Command(cmd, {
      args,
      env: { PATH: path, LANG: "C.UTF-8" },
      clearEnv: true,
      stdin: "null",
      stdout: "null",
      stderr: "null",
    }).output();
    return out.success;
  } catch {
    return false;
  }
}
