/**
 * The recorded calls made again in a clean interpreter in the sandbox:
 * `python3 -c` with the replayer's text (no file name on the stack), the
 * run's environment without any pytest, Hypothesis, pawl or seed
 * variable, no pawl plugin on the path, and the import roots the test run
 * had. The outcomes come back over a socket pawl listens on.
 *
 * @module
 */
import type { Sandbox, SandboxLimits } from "../../sandbox/sandbox.ts";
import { ObserverChannel, type ObserverPlugin } from "../observer.ts";
import { pytestEnvironment } from "../run_pytest.ts";
import { callReplayerSource } from "./call_sources.ts";
import {
  parseReplayStream,
  type Recording,
  type ReplayStream,
} from "./call_streams.ts";
import { writeSpec } from "./record_calls.ts";

/** Calls one `passes` replay makes in all, at most (the first pass included). */
export const REPLAY_CALLS = 3000;
/**
 * CPU seconds one `passes` replay spends on the passes after the first, at
 * most: the process's own time, so a busy machine does not judge fewer
 * calls (a call that sleeps spends none; the sandbox's timeout bounds it).
 */
export const REPLAY_SECONDS = 10;

/** Options of {@linkcode replayCalls}. */
export interface ReplayCallsOptions {
  /** The fresh copy of the tree the calls run on (the working directory). */
  workDir: string;
  /** A directory the sandbox may write (a fresh HOME goes there). */
  reportDir: string;
  /** The test run's environment, before it is cleaned. */
  env: Readonly<Record<string, string>>;
  /** The test command, whose interpreter runs the calls when it is a Python. */
  command: readonly string[];
  /** Variables pawl seeds a run with (`[seeds] env_seed`, `env_trials`). */
  seedEnv: readonly string[];
  /** Sandbox limits. */
  limits?: Partial<SandboxLimits>;
  /** pawl's observer: its root holds the plan, its channels the socket. */
  observer: ObserverPlugin;
  /** `passes`: the sequence, then again; `twice`: each call twice in a row. */
  mode: "passes" | "twice";
}

/** Replay `recording`'s calls once in a fresh interpreter. */
export async function replayCalls(
  sandbox: Sandbox,
  recording: Recording,
  options: ReplayCallsOptions,
): Promise<ReplayStream> {
  const channel = await ObserverChannel.open(options.observer);
  // Stryker disable next-line ArrayDeclaration: the finally block below always sets the lines before they are read
  let lines: string[][] = [];
  try {
    // Stryker disable next-line StringLiteral: only the start of a temporary directory's name
    const plan = await writeSpec(options.observer.root, "c", {
      socket: channel.path,
      token: channel.token,
      roots: recording.roots,
      limit: REPLAY_CALLS,
      seconds: REPLAY_SECONDS,
      calls: recording.calls.map((c) => [...c.fn, c.args]),
    });
    const home = await Deno.makeTempDir({ dir: options.reportDir });
    await sandbox.prepareDir(home);
    await sandbox.run({
      argv: [
        interpreter(options.command),
        "-c",
        await callReplayerSource(),
        plan,
        options.mode,
      ],
      cwd: options.workDir,
      env: pytestEnvironment(options.workDir, home, {
        env: cleanEnvironment(options.env, options.seedEnv),
      }),
      writable: [options.reportDir],
      readOnly: [options.observer.root],
      ...(options.limits === undefined ? {} : { limits: options.limits }),
    });
  } finally {
    lines = await channel.finishLines();
  }
  return parseReplayStream(lines, channel.token);
}

/** The test command's interpreter when it names one, else `python3`. */
export function interpreter(command: readonly string[]): string {
  // Stryker disable next-line StringLiteral: any text that is not a Python's name gives python3 as well
  const first = command[0] ?? "";
  const name = first.slice(first.lastIndexOf("/") + 1);
  return /^python[0-9.]*$/.test(name) ? first : "python3";
}

/**
 * `env` without what only a test run has: pytest's, Hypothesis', pawl's
 * and the contract's variables and the seed variables pawl sets.
 */
export function cleanEnvironment(
  env: Readonly<Record<string, string>>,
  seedEnv: readonly string[],
): Record<string, string> {
  const seeds = new Set(seedEnv);
  return Object.fromEntries(
    Object.entries(env).filter(([name]) =>
      !seeds.has(name) && !/^(PYTEST|_?PAWL|HYPOTHESIS|CONTRACT_)/i.test(name)
    ),
  );
}
