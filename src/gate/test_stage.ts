/**
 * Stage 4: the tests. The recipe (`plan_test_stage.ts`) plans every run
 * before anything runs: the base's test command on fresh exports of the
 * head tree inside the sandbox with the run's fresh seed, the registered
 * properties again on their own, every unexpired frozen seed replayed,
 * and what earlier results call for at the base. One scheduler
 * (`run_scheduler.ts`) makes them, the runners (`stage_runners.ts`) run
 * them, and pure judges (`judge_test_stage.ts`) say what they mean. This
 * file only wires the three to the sandboxes and copies it was handed.
 *
 * @module
 */
import type { Instant } from "../core/parse_now.ts";
import type { Progress } from "../core/progress.ts";
import {
  type ChangedLines,
  readChangedLines,
} from "../coverage/read_changed_lines.ts";
import type { Git } from "../git/git.ts";
import type { MutationCache } from "../mutation/mutation_cache.ts";
import type { ObserverPlugin } from "../run/observer.ts";
import type { IsolationRequest } from "../sandbox/probe_isolation.ts";
import { freshSeed } from "../seeds/fresh_seed.ts";
import type { SandboxFactory, Workspace } from "./gate_ports.ts";
import { headModuleReader } from "./head_module_reader.ts";
import { judgeTestStage, type StageJudgeInput } from "./judge_test_stage.ts";
import { calmRerunNeeded, headFailures } from "./judge_test_stage.ts";
import type { Contracts } from "./load_contracts.ts";
import type { HeadCopies } from "./head_copies.ts";
import type { HeadModuleReader } from "./locate_properties.ts";
import {
  locateRunProperties,
  type RunProperties,
} from "./locate_run_properties.ts";
import { mutationDecides } from "./mutation_hook.ts";
import { codeUnderTest } from "./tested_code.ts";
import { callsDiffer } from "./judge_call_replay.ts";
import { modulePath } from "../contract/module_path.ts";
import { oracleTree, type OracleTreeOf } from "./oracle_tree.ts";
import {
  type LayoutPlans,
  planTestRuns,
  type TestRuns,
} from "./plan_test_runs.ts";
import { planTestStage } from "./plan_test_stage.ts";
import type { Commits } from "./read_commits.ts";
import { type SchedulerPorts, scheduleRuns } from "./run_scheduler.ts";
import { setupStage, type SetupStageResult } from "./setup_stage.ts";
import { openLanes } from "./spare_lanes.ts";
import { stageCopies } from "./stage_copies.ts";
import type { StagePlan } from "./stage_plan.ts";
import { stageReproducers } from "./stage_reproducers.ts";
import { stageRunners } from "./stage_runners.ts";
import type { StaticResult } from "./static_stage.ts";
import {
  type CopiesAhead,
  openTestSandboxes,
  releaseTaken,
  startCopies,
  type TestSandboxes,
  testSandboxRequest,
} from "./test_sandboxes.ts";
import type { TestStageResult } from "./test_stage_result.ts";

export {
  openTestSandboxes,
  PRESTART_WAIT_MS,
  type TestSandboxes,
  testSandboxRequest,
} from "./test_sandboxes.ts";
export type { TestStageResult } from "./test_stage_result.ts";

/** What the earlier stages found that the test stage runs on. */
export interface TestStageInput {
  /** The commits. */
  commits: Commits;
  /** The contracts: their plans and the base's settings. */
  contracts: Contracts;
  /** The static stage's result (the plans read it; its head analyses are reused). */
  statics: StaticResult;
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
  /** The runner's cache of `[environment.setup]` results. */
  setupCache?: string | undefined;
  /** Where the sandbox comes from. */
  sandbox: SandboxFactory;
  /** The sandboxes, when they were asked for ahead ({@linkcode openTestSandboxes}). */
  sandboxes?: TestSandboxes | undefined;
  /** The judgement's temp dirs. */
  workspace: Workspace;
  /** Progress sink. */
  progress: Progress;
  /** Opens the runner's cache of mutant results, if it has one. */
  mutationCache?: (() => Promise<MutationCache>) | undefined;
}

/** Run the suite for one pull request, in a sandbox of its own. */
export async function testStage(
  git: Git,
  input: TestStageInput,
  options: TestStageOptions,
): Promise<TestStageResult> {
  const { commits, contracts, statics } = input;
  const plans: LayoutPlans = contracts.loaded.map((l) => ({
    layout: l.id,
    plan: l.plan(statics.input),
  }));
  const runs = planTestRuns(contracts.settings, plans, {
    seed: freshSeed(commits.head, options.now.text),
    sandboxPath: options.sandboxPath,
    excused: statics.excuses.deselect,
  });
  const asked = (options.sandboxes ??
    openTestSandboxes(options.sandbox, testSandboxRequest(options))).take();
  const ahead = asked.copies ??
    startCopies(git, commits, {
      workspace: options.workspace,
      sandbox: asked.first,
    });
  ahead.bytecode.decide(contracts.settings, runs.suite.env["PATH"]);
  const oracle = oracleTree(commits, plans);
  const hasProperties = plans.some((p) => p.plan.properties.length > 0);
  // The suite's copy and the properties' are exported at once: with a
  // spare sandbox both runs start together.
  ahead.workDirs.begin(hasProperties ? 2 : 1);
  // Spares no run can use go back at once: the properties' own run takes
  // the first, the base's oracle the second, the base's tests on the
  // base's code the next.
  // The code under test, once: whether it changed decides the runs that
  // check it across the change.
  const code = codeOf({ input, plans }, oracle);
  const used = !hasProperties ? 0 : 1 + (oracle.tree.differs ? 1 : 0) +
    (code.changed ? 1 : 0);
  await Promise.all(asked.spares.slice(used).map((s) => s.discard()));
  try {
    const sandbox = await asked.first;
    const copies = await ahead.copying;
    // The base's setup step first, in a step of its own (src/setup/).
    const setup = await setupStage(sandbox, {
      git,
      commits,
      settings: contracts.settings,
    }, options);
    const result = await runStage(setup, { git, input, plans, runs, code }, {
      ...options,
      oracle,
      ahead,
      copies,
      asked,
    });
    return setup.record === undefined ? result : {
      ...result,
      findings: [...setup.findings, ...result.findings],
      report: { ...result.report, setup: setup.record },
    };
  } finally {
    await releaseTaken(asked, ahead);
  }
}

/** What {@linkcode runStage} is handed. */
interface Handed {
  oracle: OracleTreeOf;
  ahead: CopiesAhead;
  copies: HeadCopies;
  asked: ReturnType<TestSandboxes["take"]>;
}

/** What the stage knows once its properties are located. */
interface Stage {
  git: Git;
  input: TestStageInput;
  plans: LayoutPlans;
  runs: TestRuns;
  located: RunProperties;
  headModule: HeadModuleReader;
  /** The changed lines of the code under test, which the suite's run traces. */
  changed: ChangedLines;
  /** The head's code under test, and whether the pull request changes it. */
  code: ReturnType<typeof codeUnderTest>;
}

/** Locate the properties, plan the runs, make them and judge them. */
async function runStage(
  setup: SetupStageResult,
  known: Omit<Stage, "located" | "headModule" | "changed">,
  options: TestStageOptions & Handed,
): Promise<TestStageResult> {
  const { git, plans, runs } = known;
  const { commits, contracts, statics } = known.input;
  const headModule = headModuleReader(
    git,
    commits.headTree,
    statics.input.headModules,
  );
  // The first sandbox's report directory and pawl's observer are made
  // ready while the properties are located.
  const [located, watched, changed] = await Promise.all([
    locateRunProperties(plans, commits, {
      headModule,
      baseModule: headModuleReader(
        git,
        commits.baseTree,
        statics.input.baseModules,
      ),
    }),
    watchedRuns(setup, known, options.ahead),
    contracts.settings.tests.runner === "pytest"
      ? readChangedLines(git, {
        baseTree: commits.baseTree,
        headTree: commits.headTree,
        isTestSide: options.oracle.isTestSide,
      })
      : new Map(),
  ]);
  const stage: Stage = { ...known, located, headModule, changed };
  const judge: StageJudgeInput = {
    commits,
    settings: contracts.settings,
    runs,
    ...located,
    changed,
    oracle: options.oracle,
    rewrites: statics.rewrites,
    ts: Math.floor(options.now.epochMs / 1000),
    workRoot: options.workspace.root,
    reproduce: await stageReproducers(runs, commits.headTree, commits.base),
  };
  const { sandbox } = setup;
  const plan = stagePlan(stage, judge, options.oracle, sandbox.isolation);
  const results = await scheduleRuns(
    plan,
    schedulerPorts(setup, stage, { ...options, ...watched }),
  );
  return {
    ...judgeTestStage(results, judge),
    isolation: {
      tier: sandbox.isolation.tier,
      network: sandbox.isolation.network,
    },
  };
}

/** The stage's plan, its follow-ups decided by the judges. */
function stagePlan(
  stage: Stage,
  judge: StageJudgeInput,
  oracle: OracleTreeOf,
  isolation: { tier: string; network: string },
): StagePlan {
  const { commits, contracts } = stage.input;
  const settings = contracts.settings;
  return planTestStage(stage.runs, {
    properties: stage.located.resolved,
    atBase: stage.located.atBase,
    oracleDiffers: oracle.tree.differs,
    codeChanged: stage.code.changed,
    observed: settings.tests.runner === "pytest",
    staticReject: staticallyRejected(stage.input),
    mutation: mutationDecides(settings),
    recordCalls: !staticallyRejected(stage.input, { probes: false }) &&
      settings.tests.runner === "pytest" &&
      stage.code.changed,
    callsDiffer,
    base: commits.base,
    baseHas: (path) => commits.baseTree.has(path),
    calmRerun: (r) => calmRerunNeeded(r, judge),
    failures: (r) => headFailures(r, judge).map((f) => f.nodeId),
    isolation,
  });
}

/**
 * Whether a rule that reads only sources already rejects: a blocking
 * finding of the contracts or the static rules, or a rewritten assertion
 * the kill sets will not decide. With `probes: false`, a probe of the
 * harness spelled out in the code does not count where pytest runs the
 * tests: the calls the tests make into that code, replayed where no test
 * watches, may explain it (`judge_call_replay.ts`), so the replay and the
 * kill sets still run for it. The repeats at the base are not made for it
 * (a failure the base shares would otherwise turn its reject into exit 2).
 */
function staticallyRejected(
  input: Pick<Stage["input"], "contracts" | "statics">,
  options: { probes: boolean } = { probes: true },
): boolean {
  const { contracts, statics } = input;
  const replayed = !options.probes &&
    contracts.settings.tests.runner === "pytest";
  return [...contracts.findings, ...statics.findings].some((f) =>
    f.blocking && !(replayed && f.rule === "harness.code_probes_tests")
  ) ||
    (statics.rewrites.length > 0 && !mutationDecides(contracts.settings));
}

/** The head's code under test, as the call recorder sees it. */
function codeOf(
  stage: Pick<Stage, "input" | "plans">,
  oracle: OracleTreeOf,
): ReturnType<typeof codeUnderTest> {
  const { commits, contracts } = stage.input;
  const registered = stage.plans.flatMap(({ plan }) =>
    plan.properties.flatMap((p) => {
      const path = modulePath(p.module, commits.headTree) ??
        modulePath(p.module, commits.baseTree);
      return path === undefined ? [] : [path];
    })
  );
  return codeUnderTest(commits.baseTree, commits.headTree, {
    registered,
    pythonpath: contracts.settings.environment.pythonpath,
    isTestSide: oracle.isTestSide,
  });
}

/** The first sandbox's report directory, and pawl's observer of every pytest run. */
interface Watched {
  reportDir: string;
  observer: ObserverPlugin | undefined;
}

/** Hand the report directory made ahead to the first sandbox; take the observer. */
async function watchedRuns(
  setup: SetupStageResult,
  known: Pick<Stage, "input">,
  ahead: CopiesAhead,
): Promise<Watched> {
  const [observer, reportDir] = await Promise.all([
    // pawl's own plugin watches every pytest run (see src/run/observer.ts).
    known.input.contracts.settings.tests.runner === "pytest"
      ? ahead.ahead.observer
      : undefined,
    ahead.ahead.reports,
  ]);
  await setup.sandbox.prepareDir(reportDir);
  return { reportDir, observer };
}

/** The scheduler's sandboxes, lanes, copies and runners. */
function schedulerPorts(
  setup: SetupStageResult,
  stage: Stage,
  options: TestStageOptions & Handed & Watched,
): SchedulerPorts {
  const { runs, located } = stage;
  const { commits, contracts } = stage.input;
  const { sandbox } = setup;
  const { workspace, progress, oracle, ahead, reportDir, observer } = options;
  const settings = contracts.settings;
  let made = runs.workDirs.firstFree - 1;
  const workName = (): string => `work-${++made}`;
  const step = (line: string) => progress.step(line);
  return {
    first: { sandbox, owner: sandbox, reportDir },
    lanes: (spare) =>
      openLanes(sandbox, options.asked.spares, spare, {
        workspace,
        wrap: setup.wrap,
      }),
    copies: stageCopies({
      ...stage,
      commits,
      copies: options.copies,
      workDirs: ahead.workDirs,
      oracle,
      workspace,
      first: sandbox,
      workName,
    }),
    execute: stageRunners({
      ...stage,
      commits,
      settings,
      observer,
      progress,
      preparedSuite: options.asked.suite,
      mutation: {
        ...stage,
        commits,
        settings,
        decided: staticallyRejected(stage.input, { probes: false }),
        codeChanged: stage.code.changed,
        located: located.resolved,
        atBase: located.atBase,
        oracle,
        sandboxPath: options.sandboxPath,
      },
      calls: {
        codeFiles: stage.code.files,
        seedEnv: [settings.seeds.env_seed, settings.seeds.env_trials],
      },
      mutationPorts: {
        factory: options.sandbox,
        request: testSandboxRequest(options),
        workspace,
        workName,
        progress: step,
        cache: options.mutationCache,
      },
    }),
    progress: step,
  };
}
