/**
 * A scripted in-memory `Sandbox` for this folder's tests: each run calls a
 * script that may write a JUnit report where pytest would have, and returns
 * how the run ended.
 *
 * @module
 */
import type {
  IsolationReport,
  Sandbox,
  SandboxCommand,
  SandboxResult,
} from "../sandbox/sandbox.ts";
import type { TestCaseResult } from "./parse_junit.ts";

/** What a script sees of one run. */
export interface ScriptCall {
  /** The command as the code under test built it. */
  command: SandboxCommand;
  /** 0-based index of this run. */
  index: number;
  /** The `--junitxml=` path, when the command has one. */
  reportPath: string | undefined;
}

/** Decides how one run ends; may write files (the report) first. */
export type Script = (
  call: ScriptCall,
) => Partial<SandboxResult> | Promise<Partial<SandboxResult>>;

/** A `Sandbox` that runs nothing and answers from a script. */
export class ScriptedSandbox implements Sandbox {
  /** No isolation: nothing runs. */
  readonly isolation: IsolationReport = {
    tier: "none",
    network: "inherited",
    notes: ["scripted sandbox for tests"],
  };
  /** Every command run, in order. */
  readonly calls: SandboxCommand[] = [];
  /** Every directory prepared, in order. */
  readonly prepared: string[] = [];
  #script: Script;

  /** Create a sandbox that answers every run with `script`. */
  constructor(script: Script) {
    this.#script = script;
  }

  /** Record the directory; nothing to change ownership of. */
  prepareDir(dir: string): Promise<void> {
    this.prepared.push(dir);
    return Promise.resolve();
  }

  /** Record the command and answer from the script. */
  async run(command: SandboxCommand): Promise<SandboxResult> {
    const index = this.calls.length;
    this.calls.push(command);
    const flag = command.argv.find((a) => a.startsWith("--junitxml="));
    const partial = await this.#script({
      command,
      index,
      reportPath: flag?.slice("--junitxml=".length),
    });
    return {
      code: 0,
      signal: null,
      timedOut: false,
      outputExceeded: false,
      outputHead: "",
      outputTail: "",
      outputBytes: 0,
      ...partial,
    };
  }
}

/** A case for {@linkcode junitXml}. */
export type CaseSpec =
  & Pick<TestCaseResult, "classname" | "name">
  & Partial<Pick<TestCaseResult, "outcome" | "message">>;

/** A pytest-shaped xunit2 report with the given cases. */
export function junitXml(cases: readonly CaseSpec[]): string {
  const body = cases.map((c) => {
    const attrs = `classname="${escape(c.classname)}" name="${
      escape(c.name)
    }" time="0.001"`;
    const message = escape(c.message ?? "");
    switch (c.outcome ?? "passed") {
      case "passed":
        return `<testcase ${attrs} />`;
      case "failed":
        return `<testcase ${attrs}><failure message="${message}">trace</failure></testcase>`;
      case "error":
        return `<testcase ${attrs}><error message="${message}">trace</error></testcase>`;
      case "skipped":
        return `<testcase ${attrs}><skipped type="pytest.skip" message="${message}">why</skipped></testcase>`;
      case "xfailed":
        return `<testcase ${attrs}><skipped type="pytest.xfail" message="${message}" /></testcase>`;
    }
  }).join("");
  return `<?xml version="1.0" encoding="utf-8"?><testsuites name="pytest tests"><testsuite name="pytest" tests="${cases.length}">${body}</testsuite></testsuites>`;
}

function escape(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;").replaceAll('"', "&quot;")
    .replaceAll("\n", "&#10;");
}

/** The two directories a pytest run of these tests needs. */
export interface RunDirs {
  /** The tree pytest runs in. */
  workDir: string;
  /** Where the run's report is written. */
  reportDir: string;
}

/** Runs `body` with a fresh work and report directory, removed after. */
export async function withRunDirs(
  body: (dirs: RunDirs) => Promise<void>,
): Promise<void> {
  const root = await Deno.makeTempDir({ prefix: "pawl-run-dirs-" });
  try {
    await Deno.mkdir(`${root}/work`);
    await Deno.mkdir(`${root}/report`);
    await body({ workDir: `${root}/work`, reportDir: `${root}/report` });
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}
