/**
 * The base's `[environment] python` must run inside the sandbox before any
 * test does: an interpreter that exists only on the host (under a private
 * `/tmp`, under `/root`, closed to the sandbox uid), or a program that is
 * not a Python, says nothing about the pull request, so pawl cannot decide
 * rather than reading the missing report as a reject.
 *
 * @module
 */
import { describeSandboxView } from "../sandbox/describe_sandbox_view.ts";
import type { Sandbox } from "../sandbox/sandbox.ts";
import { SANDBOX_PATH, TestRunnerMissingError } from "./run_pytest.ts";

/** What the probe prints when the interpreter ran as a Python. */
const MARK = "pawl-interpreter-ok";
/**
 * The probe's code. Python joins the mark from two halves, so a program that
 * echoes its arguments does not print it.
 */
const PROBE = 'import sys; sys.stdout.write("pawl-interpreter-" + "ok")';

/** Options for {@linkcode checkInterpreter}. */
export interface CheckInterpreterOptions {
  /** A directory the sandbox may write; the probe's empty working directory goes here. */
  reportDir: string;
  /** PATH inside the sandbox. */
  path?: string | undefined;
  /** The repository's export, for the message. */
  workDir?: string | undefined;
}

/**
 * Run `python -I -c ...` in the sandbox, in an empty directory with a
 * minimal environment (nothing from the repository can answer for it);
 * throw {@linkcode TestRunnerMissingError} when it does not run as a
 * Python, explaining what the sandbox's file system holds.
 */
export async function checkInterpreter(
  sandbox: Sandbox,
  python: string,
  options: CheckInterpreterOptions,
): Promise<void> {
  let dir = `${options.reportDir}/interpreter-check`;
  for (let n = 1;; n++) {
    try {
      await Deno.mkdir(dir, { mode: 0o700 });
      break;
    } catch (error) {
      if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
      dir = `${options.reportDir}/interpreter-check-${n}`;
    }
  }
  await sandbox.prepareDir(dir);
  const path = options.path ?? SANDBOX_PATH;
  const result = await sandbox.run({
    argv: [python, "-I", "-c", PROBE],
    cwd: dir,
    env: { PATH: path, HOME: dir, TMPDIR: dir, LANG: "C.UTF-8" },
    writable: [],
    limits: { timeoutMs: 60_000 },
  });
  const output = `${result.outputHead}\n${result.outputTail}`;
  if (result.code === 0 && output.includes(MARK)) return;
  const view = describeSandboxView(sandbox.isolation, {
    workDir: options.workDir,
  });
  if (
    result.code === 126 || result.code === 127 ||
    /No such file or directory|command not found|Permission denied/.test(
      output,
    )
  ) {
    throw new TestRunnerMissingError("program", python, { path, view });
  }
  throw new TestRunnerMissingError("interpreter", python, {
    path,
    view,
    detail: result.timedOut
      ? "it did not answer within 60 s"
      : `it exited with ${
        result.code ?? result.signal
      } instead of running a one-line Python script${
        tail(output) === "" ? "" : `: ${tail(output)}`
      }`,
  });
}

function tail(output: string): string {
  const lines = output.split("\n").map((l) => l.trim()).filter((l) => l !== "");
  return lines.slice(-3).join(" / ").slice(0, 300);
}
