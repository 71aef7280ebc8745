/**
 * The entry of `pawl check` and `pawl diff`: for a local or remote
 * `--repo`, the workspace, the clone and the interpreter's module-name
 * probe start before the gate's code is loaded (about a sixth of a second
 * of module loading the clone no longer waits for), then
 * `check_command.ts` runs the command and takes the clone over. Its output
 * is held until the command line has been read in full: a command that
 * stops on a usage error prints exactly what it did before.
 *
 * @module
 */
import { parseNowOption } from "./read_option_value.ts";
import { startCloneInWorker } from "../gate/clone_in_worker.ts";
import { CHECK_OPTIONS } from "./_check_options.ts";
import type { CliIo } from "./cli_io.ts";
import { parseCommandArgs } from "./parse_command_args.ts";
import type { EarlyClone } from "./check_command.ts";
import { cliProgress, holdProgress } from "./progress.ts";

/** Run `pawl check` (runTests) or `pawl diff`, starting the clone first. */
export async function checkStart(
  args: readonly string[],
  io: CliIo,
  options: { runTests: boolean },
): Promise<number> {
  const early = startEarly(args, io);
  // The test stage's sandboxes are made meanwhile too (early_sandboxes.ts):
  // their uids leased and their isolation probe started before the gate's
  // code loads, as that keeps this thread busy.
  const sandboxes = options.runTests && early !== undefined
    ? await import("../gate/early_sandboxes.ts").then(
      (s) =>
        s.openEarlySandboxes(
          parseCommandArgs(args, CHECK_OPTIONS),
          io.env,
          early.clone.workspace,
        ),
      () => undefined,
    )
    : undefined;
  await sandboxes?.probing;
  let m: typeof import("./check_command.ts");
  try {
    // One load for everything a check needs first: the test stage and the
    // sandbox code are loaded by the gate only when it runs tests.
    [m] = await Promise.all([
      import("./check_command.ts"),
      ...(options.runTests
        ? [
          import("../gate/test_stage.ts"),
          import("../sandbox/lease_uid.ts"),
          import("../sandbox/process_sandbox.ts"),
        ]
        : []),
    ]);
  } catch (error) {
    early?.held.discard();
    await early?.clone.abandon();
    await sandboxes?.close();
    throw error;
  }
  try {
    return await m.checkCommand(args, io, {
      ...options,
      ...(early === undefined ? {} : { early }),
    });
  } finally {
    await sandboxes?.close();
  }
}

/**
 * Start the clone when the command line names a repository, two revisions
 * and a valid `--now`, and no pull request from GitHub; anything else (or
 * anything that does not parse) is left to the command, which reports it.
 */
function startEarly(
  args: readonly string[],
  io: CliIo,
): EarlyClone | undefined {
  let v;
  let now;
  try {
    v = parseCommandArgs(args, CHECK_OPTIONS);
    now = parseNowOption(v.now);
  } catch {
    return undefined;
  }
  const { repo, base, head } = v;
  if (
    repo === undefined || base === undefined || head === undefined ||
    v.pr !== undefined || (v["now-from"] ?? "flag") !== "flag" || v.publish
  ) {
    return undefined;
  }
  const progress = cliProgress(io, { quiet: v.quiet });
  const held = holdProgress(progress);
  const tempRoot = io.env["TMPDIR"] || undefined;
  const clone = startCloneInWorker({ repo, base, head, now }, {
    tempRoot,
    progress: held,
    ...(v["sandbox-path"] === undefined
      ? {}
      : { sandboxPath: v["sandbox-path"] }),
  });
  return { clone, held, progress, tempRoot };
}
