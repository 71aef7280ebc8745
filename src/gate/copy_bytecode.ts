/**
 * Whether pawl compiles the bytecode of one judgement's working copies
 * (`src/run/bytecode_compiler.ts`), decided once the base's settings are
 * read: the copies exported before then wait for the decision, never for
 * the runs. Every path ends in a decision: {@linkcode CopyBytecode.close}
 * decides "no" when nothing did before, so no copy waits forever.
 *
 * @module
 */
import type { Tree } from "../git/git.ts";
import { programCandidates } from "../core/program_candidates.ts";
import type { BytecodeCompiler } from "../run/bytecode_compiler.ts";
import { isExecutableFile } from "../sandbox/find_executable.ts";
import { SANDBOX_PATH } from "../run/run_pytest.ts";
import type { Settings } from "../settings/settings.ts";
import type { GateSandbox, Workspace } from "./gate_ports.ts";
import { compileBytecodeReason, mayHoldOwnPytest } from "./warm_start.ts";

/** One judgement's decision and the compiler it started. */
export interface CopyBytecode {
  /** The compiler, once decided (undefined: the runs compile). */
  readonly compiler: Promise<BytecodeCompiler | undefined>;
  /**
   * Decide from the base's settings and the runs' PATH (the planned
   * suite's); only the first call counts.
   */
  decide(settings: Settings, path: string | undefined): void;
  /** Decide "no" unless decided, and end the compiler; never throws. */
  close(): Promise<void>;
}

/**
 * The decision for the copies of `headTree` that `sandbox`'s runs get.
 * With `options.path` (the PATH the runs get unless the base's settings
 * change it) the compiler starts at once, before the settings are read:
 * its start-up (an interpreter importing pytest's rewriter) then overlaps
 * the contracts' reading instead of delaying the first copy. The decision
 * keeps it when it is the compiler it would start, and ends it otherwise.
 */
export function copyBytecode(
  headTree: Tree,
  sandbox: Promise<GateSandbox>,
  workspace: Pick<Workspace, "root">,
  options: { path?: string | undefined } = {},
): CopyBytecode {
  const decided = Promise.withResolvers<BytecodeCompiler | undefined>();
  let done = false;
  const compiler = decided.promise.catch(() => undefined);
  const start = async (path: string) => {
    const made = await sandbox.catch(() => undefined);
    if (made?.startBytecodeCompiler === undefined) return undefined;
    const python = await findPython(path);
    if (python === undefined) return undefined;
    return await made.startBytecodeCompiler(
      python,
      `${workspace.root}/bytecode`,
    ).catch(() => undefined);
  };
  // Not when the tree alone rules compiling out.
  const ahead = options.path === undefined || mayHoldOwnPytest(headTree)
    ? undefined
    : { path: options.path, compiler: start(options.path) };
  ahead?.compiler.catch(() => undefined);
  return {
    compiler,
    decide: (settings, path) => {
      if (done) return;
      done = true;
      decided.resolve((async () => {
        const wanted = compileBytecodeReason(settings, headTree) === undefined;
        const runsPath = path ?? SANDBOX_PATH;
        if (ahead !== undefined) {
          if (wanted && ahead.path === runsPath) return await ahead.compiler;
          await (await ahead.compiler)?.close();
        }
        return wanted ? await start(runsPath) : undefined;
      })());
    },
    close: async () => {
      if (!done) {
        done = true;
        decided.resolve(undefined);
        await (await ahead?.compiler)?.close();
      }
      await (await compiler)?.close();
    },
  };
}

/** The `python3` the runs' `python3 -m pytest` finds on `path`, if any. */
async function findPython(path: string): Promise<string | undefined> {
  for (const candidate of programCandidates("python3", path)) {
    if (await isExecutableFile(candidate)) return candidate;
  }
  return undefined;
}
