/**
 * Stage 4: the tests. The base's test command on fresh exports of the head
 * tree, inside the sandbox, with the run's fresh seed; then the registered
 * properties again on their own; then every unexpired frozen seed
 * replayed. Each run's result is judged by a pure function
 * (`judge_properties.ts`, `judge_replay.ts`); this file only runs them.
 *
 * @module
 */
import type { Finding } from "../core/finding.ts";
import type { Instant } from "../core/parse_now.ts";
import type { Progress } from "../core/progress.ts";
import type {
  IsolationRecord,
  ReplayRecord,
  TestsReport,
} from "../core/verdict.ts";
import type { Git } from "../git/git.ts";
import type { PythonModule } from "../python/python_module.ts";
import { type PytestRun, runPytest } from "../run/run_pytest.ts";
import { runSuite } from "../run/run_suite.ts";
import type { IsolationRequest } from "../sandbox/probe_isolation.ts";
import { freshSeed } from "../seeds/fresh_seed.ts";
import type { LedgerRow } from "../seeds/ledger_row.ts";
import type { Settings } from "../settings/settings.ts";
import { CLONE_DIR } from "./clone_stage.ts";
import type { GateSandbox, SandboxFactory, Workspace } from "./gate_ports.ts";
import { headModuleReader } from "./head_module_reader.ts";
import { judgeProperties } from "./judge_properties.ts";
import { judgeReplay } from "./judge_replay.ts";
import { locateProperties } from "./locate_properties.ts";
import {
  type LayoutPlans,
  type PlannedRun,
  planTestRuns,
  sortedUnique,
} from "./plan_test_runs.ts";
import type { Contracts } from "./load_contracts.ts";
import type { Commits } from "./read_commits.ts";
import type { StaticResult } from "./static_stage.ts";

/** What the earlier stages found that the test stage runs on. */
export interface TestStageInput {
  /** The commits. */
  commits: Commits;
  /** The contracts: their plans and the base's settings. */
  contracts: Contracts;
  /** The static stage's result (the plans read it; its head analyses are reused). */
  statics: StaticResult;
}

/** What {@linkcode runAndJudge} works from. */
interface Prepared {
  git: Git;
  commits: Commits;
  settings: Settings;
  plans: LayoutPlans;
  headModules: ReadonlyMap<string, PythonModule>;
}

/** Options and ports of {@linkcode testStage}. */
export interface TestStageOptions {
  /** The clock. */
  now: Instant;
  /** Requested sandbox strength. */
  isolation: IsolationRequest;
  /** Paths to hide from the sandbox (besides the clone). */
  hiddenPaths?: readonly string[] | undefined;
  /** PATH inside the sandbox, when not the default system PATH. */
  sandboxPath?: string | undefined;
  /** Where the sandbox comes from. */
  sandbox: SandboxFactory;
  /** The judgement's temp dirs. */
  workspace: Workspace;
  /** Progress sink. */
  progress: Progress;
}

/** What the test stage adds to the verdict. */
export interface TestStageResult {
  /** Test findings. */
  findings: Finding[];
  /** Report for the verdict. */
  report: TestsReport;
  /** Sandbox used. */
  isolation: IsolationRecord;
  /** One seed-ledger row per property run and replay. */
  ledger: LedgerRow[];
}

/** Run the suite for one pull request, in a sandbox of its own. */
export async function testStage(
  git: Git,
  input: TestStageInput,
  options: TestStageOptions,
): Promise<TestStageResult> {
  const { workspace } = options;
  const { contracts, statics } = input;
  const prepared: Prepared = {
    git,
    commits: input.commits,
    settings: contracts.settings,
    plans: contracts.loaded.map((l) => ({
      layout: l.id,
      plan: l.plan(statics.input),
    })),
    headModules: statics.input.headModules,
  };
  const sandbox = await options.sandbox({
    isolation: options.isolation,
    hiddenPaths: [
      ...(options.hiddenPaths ?? []),
      `${workspace.root}/${CLONE_DIR}`,
    ],
  });
  try {
    return await runAndJudge(sandbox, prepared, options);
  } finally {
    await sandbox.close?.();
  }
}

async function runAndJudge(
  sandbox: GateSandbox,
  input: Prepared,
  options: TestStageOptions,
): Promise<TestStageResult> {
  const { git, commits, plans } = input;
  const { progress, workspace } = options;
  let exports = 0;
  const freshWorkDir = async (): Promise<string> => {
    exports += 1;
    const dir = await workspace.export(git, commits.head, `work-${exports}`);
    await sandbox.prepareDir(dir);
    return dir;
  };
  const headModule = headModuleReader(git, commits.headTree, input.headModules);
  const reportDir = await workspace.mkdir("reports");
  await sandbox.prepareDir(reportDir);
  const runs = planTestRuns(input.settings, plans, {
    seed: freshSeed(commits.head, options.now.text),
    sandboxPath: options.sandboxPath,
  });
  const { seed, trials, limits } = runs;
  const onOutput = (chunk: Uint8Array) => progress.detail(lastLine(chunk));
  const pytest = async (run: PlannedRun, select: readonly string[]) =>
    await runPytest(sandbox, {
      workDir: await freshWorkDir(),
      reportDir,
      command: run.command,
      select,
      env: run.env,
      limits,
      onOutput,
    });

  const workDir = await freshWorkDir();
  progress.step(
    `running the tests (sandbox: ${sandbox.isolation.tier}, network ${sandbox.isolation.network}, seed ${seed})`,
  );
  const suite = await runSuite(sandbox, {
    workDir,
    reportDir,
    freshWorkDir,
    command: runs.suite.command,
    env: runs.suite.env,
    freezes: runs.suite.freezes,
    nonBlocking: runs.suite.nonBlocking,
    limits,
    onOutput,
    testLine: async (file, qualname) =>
      (await headModule(file))?.functions.get(qualname)?.line,
  });

  const located = await locateProperties(plans, commits.headTree, headModule);
  const runnable = located.flatMap((p) =>
    p.nodeId === undefined ? [] : [p.nodeId]
  );
  // Alone: only the properties' own modules are imported, so a test
  // elsewhere that forges the report cannot make a failing property pass.
  let alone: PytestRun | null = null;
  if (runnable.length > 0 && suite.reported) {
    progress.step(
      `running ${runnable.length} registered properties on their own`,
    );
    alone = await pytest(runs.alone, sortedUnique(runnable));
  }
  const ts = Math.floor(options.now.epochMs / 1000);
  const judged = judgeProperties(located, { suite: suite.cases, alone }, {
    seed,
    trials,
    ts,
    nonBlocking: new Set(runs.suite.nonBlocking),
  });

  // Every unexpired frozen seed must hold.
  const findings = [...suite.findings, ...judged.findings];
  const ledger = [...judged.ledger];
  const replays: ReplayRecord[] = [];
  for (const run of runs.replays) {
    progress.step(
      `replaying frozen seed ${run.replay.seed} (${run.replay.id})`,
    );
    const replay = judgeReplay(
      await pytest(run, [run.replay.test]),
      run.replay,
      { layout: run.layout, trials: run.trials, ts },
    );
    replays.push(replay.record);
    ledger.push(replay.row);
    if (replay.finding !== undefined) findings.push(replay.finding);
  }
  replays.sort((a, b) =>
    a.freeze < b.freeze ? -1 : a.freeze > b.freeze ? 1 : 0
  );

  return {
    findings,
    report: {
      summary: suite.summary,
      properties: judged.properties,
      reruns: suite.reruns,
      seeds: { fresh: seed, trials, replays },
    },
    isolation: {
      tier: sandbox.isolation.tier,
      network: sandbox.isolation.network,
    },
    ledger,
  };
}

function lastLine(chunk: Uint8Array): string {
  const text = new TextDecoder().decode(chunk).trimEnd();
  return text.slice(text.lastIndexOf("\n") + 1);
}
