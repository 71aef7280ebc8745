/**
 * How each kind of run in the test stage's plan is made: the suite (with
 * its freezes' reruns and its interpreter started ahead), a pytest run of
 * a selection (the properties on their own, the base's oracle, a replay,
 * the failures repeated at the base), the checks at the base of what the
 * suite could not tell, and the oracle-strength rule. A runner only runs:
 * what the results mean is for the judges.
 *
 * @module
 */
import type { Progress } from "../core/progress.ts";
import type { Git } from "../git/git.ts";
import { checkBaseCollection } from "../run/check_base_collection.ts";
import { checkBaseObserver } from "../run/check_base_observer.ts";
import { checkInterpreter } from "../run/check_interpreter.ts";
import { failureKey, failureReason } from "../run/failure_reason.ts";
import type { ChangedLines } from "../coverage/read_changed_lines.ts";
import { type ObserverPlugin, writeChangedLines } from "../run/observer.ts";
import { ledgerLineCount, readLedgerRows } from "../run/read_ledger_rows.ts";
import {
  type PreparedPytestRun,
  runPytest,
  type RunPytestOptions,
} from "../run/run_pytest.ts";
import { runSuite } from "../run/run_suite.ts";
import { recordCalls } from "../run/calls/record_calls.ts";
import { replayCalls } from "../run/calls/replay_calls.ts";
import type { Settings } from "../settings/settings.ts";
import type { HeadModuleReader } from "./locate_properties.ts";
import { importPathHint, missingDependencyHint } from "./import_path_hint.ts";
import {
  mutationHook,
  type MutationHookInput,
  type MutationHookPorts,
} from "./mutation_hook.ts";
import type { TestRuns } from "./plan_test_runs.ts";
import type { Commits } from "./read_commits.ts";
import type { RunContext } from "./run_scheduler.ts";
import type { RunOutcome, StageRun, StageRunKind } from "./stage_plan.ts";
import { suiteOf } from "./stage_plan.ts";
import { unreportedAtBase } from "./unreported_at_base.ts";

/** What the runners run with. */
export interface StageRunnersInput {
  git: Git;
  commits: Commits;
  settings: Settings;
  /** The planned commands, seed and limits. */
  runs: TestRuns;
  /** pawl's plugin, watching every pytest run (none with another runner). */
  observer: ObserverPlugin | undefined;
  progress: Progress;
  /** Reads the head's sources (the suite locates failing tests with it). */
  headModule: HeadModuleReader;
  /** The changed lines of the code under test, which the suite's run traces. */
  changed: ChangedLines;
  /** The suite's run, prepared ahead with its interpreter held. */
  preparedSuite: Promise<PreparedPytestRun | undefined> | undefined;
  /** The oracle-strength rule's input, less what the stage plans. */
  mutation: Omit<MutationHookInput, "limits" | "observer">;
  /** The ports the oracle-strength rule runs through, less the sandbox. */
  mutationPorts: Omit<MutationHookPorts, "sandbox">;
  /** What the calls' record and replay need. */
  calls: {
    /** Tree-relative `.py` files of the code under test (outside the test side). */
    codeFiles: readonly string[];
    /** Variables pawl seeds a run with, kept out of the replay. */
    seedEnv: readonly string[];
  };
}

type Runner = (
  run: StageRun,
  context: RunContext,
  input: StageRunnersInput,
) => Promise<RunOutcome>;

/** Make `run` with the runner of its kind. */
export function stageRunners(
  input: StageRunnersInput,
): (run: StageRun, context: RunContext) => Promise<RunOutcome> {
  return (run, context) => RUNNERS[run.kind](run, context, input);
}

/** How `run` is made in `context`'s slot, copy left out. */
function pytestOptions(
  run: StageRun,
  context: RunContext,
  input: StageRunnersInput,
): Omit<RunPytestOptions, "workDir" | "select"> {
  const { progress } = input;
  const label = run.tree === "base" ? undefined : run.tally;
  return {
    reportDir: context.slot.reportDir,
    command: run.run.command,
    env: run.run.env,
    limits: input.runs.limits,
    // What the base says is pawl's to know, not the reader's to watch.
    ...(run.tree === "base" ? {} : { onOutput: onOutput(input.progress) }),
    // Progress only: counts of the tests as the observer streams them.
    ...(label === undefined ? {} : { tally: () => progress.tests?.(label) }),
    ...(input.observer === undefined ? {} : { observer: input.observer }),
    ...(run.countAsserts === true ? { countAsserts: true } : {}),
  };
}

const RUNNERS: Record<StageRunKind, Runner> = {
  suite: async (run, context, input) => {
    const { slot } = context;
    const workDir = await context.copy();
    const python = input.settings.environment.python;
    if (python !== undefined) {
      await checkInterpreter(slot.sandbox, python, {
        reportDir: slot.reportDir,
        path: run.run.env["PATH"],
        workDir,
      });
    }
    if (input.observer !== undefined && input.changed.size > 0) {
      await writeChangedLines(input.observer, {
        root: workDir,
        files: input.changed,
      });
    }
    const suite = await runSuite(slot.sandbox, {
      ...pytestOptions(run, context, input),
      workDir,
      traceLines: true,
      freshWorkDir: context.fresh,
      freezes: input.runs.suite.freezes,
      nonBlocking: input.runs.suite.nonBlocking,
      prepared: await input.preparedSuite?.catch(() => undefined),
      testLine: async (file, qualname) =>
        (await input.headModule(file))?.functions.get(qualname)?.line,
    });
    return { kind: "suite", suite };
  },
  pytest: async (run, context, input) => {
    const workDir = await context.copy();
    const before = run.ledger === true ? await ledgerLineCount(workDir) : 0;
    const result = await runPytest(context.slot.sandbox, {
      ...pytestOptions(run, context, input),
      workDir,
      select: context.select,
    });
    return {
      kind: "pytest",
      run: result,
      workDir: await Deno.realPath(workDir),
      rows: run.ledger === true ? await readLedgerRows(workDir, before) : [],
    };
  },
  "observer-at-base": async (run, context, input) => {
    await checkBaseObserver(context.slot.sandbox, {
      base: input.commits.base,
      baseWorkDir: context.copy,
      run: pytestOptions(run, context, input),
    });
    return { kind: "checked" };
  },
  "suite-at-base": async (run, context, input) => {
    await unreportedAtBase(context.slot.sandbox, {
      base: input.commits.base,
      baseWorkDir: context.copy,
      run: pytestOptions(run, context, input),
      progress: input.progress,
    });
    return { kind: "checked" };
  },
  "collection-at-base": async (run, context, input) => {
    const { commits } = input;
    const suite = suiteOf(context.results);
    const atHead = new Map(
      (suite?.findings ?? []).flatMap((f) =>
        f.rule === "tests.collection_error" && f.path !== undefined
          ? [
            [
              f.path,
              // The whole traceback: the finding quotes only its first lines.
              suite?.observation?.collectErrors.find((e) => e.nodeId === f.path)
                ?.text ?? f.message,
            ] as const,
          ]
          : []
      ),
    );
    const unchanged = (path: string): boolean =>
      commits.baseTree.has(path) &&
      commits.baseTree.get(path)?.oid === commits.headTree.get(path)?.oid;
    await checkBaseCollection(context.slot.sandbox, {
      base: commits.base,
      baseWorkDir: context.copy,
      run: pytestOptions(run, context, input),
      files: context.select,
      // A file the pull request changed must fail there the same way.
      same: (file, text) =>
        unchanged(file) ||
        failureKey(failureReason(text)) ===
          failureKey(failureReason(atHead.get(file) ?? "")),
      hint: (detail, files) =>
        importPathHint(detail, {
          tree: commits.baseTree,
          pythonpath: input.settings.environment.pythonpath,
        }) ?? missingDependencyHint(detail, { tree: commits.baseTree, files }),
    });
    return { kind: "checked" };
  },
  "record-calls": async (run, context, input) => {
    const { observer } = input;
    if (observer === undefined) {
      return { kind: "calls-recorded", recording: null };
    }
    const recording = await recordCalls(context.slot.sandbox, {
      ...pytestOptions(run, context, input),
      observer,
      workDir: await context.copy(),
      select: context.select,
      codeFiles: input.calls.codeFiles,
    });
    return { kind: "calls-recorded", recording };
  },
  "replay-calls": async (run, context, input) => {
    const recorded = context.results.get("calls-record");
    const recording = recorded?.kind === "calls-recorded"
      ? recorded.recording
      : null;
    if (input.observer === undefined || recording === null) {
      throw new RangeError(`Cannot replay the calls: nothing was recorded`);
    }
    const workDir = await context.copy();
    const options = {
      workDir,
      reportDir: context.slot.reportDir,
      env: run.run.env,
      command: run.run.command,
      seedEnv: input.calls.seedEnv,
      observer: input.observer,
      ...(input.runs.limits === undefined ? {} : { limits: input.runs.limits }),
    };
    const { sandbox } = context.slot;
    const passes = await replayCalls(sandbox, recording, {
      ...options,
      mode: "passes",
    });
    // The base's replay is only compared with the head's differences.
    if (run.tree === "base") return { kind: "calls-replayed", passes };
    const twice = await replayCalls(sandbox, recording, {
      ...options,
      mode: "twice",
    });
    return { kind: "calls-replayed", passes, twice };
  },
  mutation: async (_run, context, input) => {
    const strength = await mutationHook({
      ...input.mutation,
      limits: input.runs.limits,
      observer: input.observer,
    }, { ...input.mutationPorts, sandbox: context.slot.sandbox });
    return { kind: "mutation", strength };
  },
};

/** The last line of each chunk of a run's output, as progress detail. */
function onOutput(progress: Progress): (chunk: Uint8Array) => void {
  return (chunk) => {
    const text = new TextDecoder().decode(chunk).trimEnd();
    progress.detail(text.slice(text.lastIndexOf("\n") + 1));
  };
}
