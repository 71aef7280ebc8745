/**
 * The run that records the calls the tests make into the code under test:
 * a pytest run of a selection with pawl's call recorder loaded beside its
 * observer. What the recorder must know (the code's files, the bounds,
 * the socket and its token) is in a file pawl writes root-owned and
 * read-only; the records come back over a socket pawl listens on, so
 * nothing the run leaves in its tree is read.
 *
 * @module
 */
import { ObserverChannel, type ObserverPlugin } from "../observer.ts";
import type { Sandbox } from "../../sandbox/sandbox.ts";
import { runPytest, type RunPytestOptions } from "../run_pytest.ts";
import { parseRecording, type Recording } from "./call_streams.ts";

/** Calls recorded of one function, at most. */
export const CALLS_PER_FUNCTION = 40;
/** Calls recorded in all, at most. */
export const CALLS_IN_ALL = 1500;
/** Bytes the recorder streams, at most (records past them are not made). */
export const RECORD_BYTES = 8 * 1024 * 1024;

/** Options of {@linkcode recordCalls}. */
export interface RecordCallsOptions extends RunPytestOptions {
  /** pawl's observer, with the recorder installed beside it. */
  observer: ObserverPlugin;
  /** Tree-relative paths of the code under test (`.py` files outside the test side). */
  codeFiles: readonly string[];
}

/**
 * Run the selection with the call recorder; null when the observer has
 * no recorder installed.
 */
export async function recordCalls(
  sandbox: Sandbox,
  options: RecordCallsOptions,
): Promise<Recording | null> {
  const { observer } = options;
  if (observer.recorder === undefined) return null;
  const channel = await ObserverChannel.open(observer);
  // Stryker disable next-line ArrayDeclaration: the finally block below always sets the lines before they are read
  let lines: string[][] = [];
  try {
    // Stryker disable next-line StringLiteral: only the start of a temporary directory's name
    const spec = await writeSpec(observer.root, "calls-record", {
      code: options.codeFiles,
      per: CALLS_PER_FUNCTION,
      total: CALLS_IN_ALL,
      bytes: RECORD_BYTES,
      socket: channel.path,
      token: channel.token,
    });
    await runPytest(sandbox, {
      ...options,
      command: [
        ...(options.command ?? ["python3", "-m", "pytest"]),
        "-p",
        observer.recorder,
      ],
      env: { ...options.env, PAWL_RECORD_SPEC: spec },
    });
  } finally {
    lines = await channel.finishLines();
  }
  return parseRecording(lines, channel.token);
}

/**
 * Write `value` as JSON in a fresh directory under `root` (pawl's,
 * root-owned, which the sandbox sees read-only), readable by every uid
 * and writable by none; its path.
 */
export async function writeSpec(
  root: string,
  prefix: string,
  value: unknown,
): Promise<string> {
  const dir = await Deno.makeTempDir({ dir: root, prefix: `${prefix}-` });
  await Deno.chmod(dir, 0o755);
  const path = `${dir}/spec.json`;
  // Stryker disable next-line ObjectLiteral,BooleanLiteral: the directory was made just above, so no file can be there yet; createNew only says so
  await Deno.writeTextFile(path, JSON.stringify(value), { createNew: true });
  await Deno.chmod(path, 0o444);
  await Deno.chmod(dir, 0o555);
  return path;
}
