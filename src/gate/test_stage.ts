/**
 * Stage 4: the tests. The base's test command on fresh exports of the head
 * tree, inside the sandbox, with the run's fresh seed; then the registered
 * properties again on their own; then every unexpired frozen seed
 * replayed. Each run's result is judged by a pure function
 * (`judge_properties.ts`, `judge_replay.ts`); this file only runs them.
 *
 * @module
 */
import { type HeadCopies, headCopies } from "./head_copies.ts";
import { type CopyBytecode, copyBytecode } from "./copy_bytecode.ts";
import { prefetchedWorkDirs, type WorkDirs } from "./prefetched_work_dirs.ts";
import { type Finding, finding } from "../core/finding.ts";
import type { Instant } from "../core/parse_now.ts";
import { type Progress, TESTS_STEP } from "../core/progress.ts";
import type {
  IsolationRecord,
  MutationReport,
  ReplayRecord,
  TestsReport,
} from "../core/verdict.ts";
import type { Git } from "../git/git.ts";
import type { PythonModule } from "../python/python_module.ts";
import {
  type PreparedPytestRun,
  preparePytestRun,
  prestartPytestRun,
  type PytestRun,
  runPytest,
  type RunPytestOptions,
  SANDBOX_PATH,
} from "../run/run_pytest.ts";
import { casesForNodeId } from "../run/test_id.ts";
import type { StaticInput } from "../layouts/dialect.ts";
import { coldStartReason, warmModulesUnshadowed } from "./warm_start.ts";
import { runSuite, type SuiteOutcome } from "../run/run_suite.ts";
import {
  BaseProblemError,
  checkBaseCollection,
} from "../run/check_base_collection.ts";
import { checkBaseObserver } from "../run/check_base_observer.ts";
import { checkInterpreter } from "../run/check_interpreter.ts";
import { isHarnessPath, treeLayout } from "../harness/harness_paths.ts";
import {
  composeOracleTree,
  testSidePredicate,
} from "../run/compose_oracle_tree.ts";
import { exportOracleTree } from "../run/export_oracle_tree.ts";
import type { Observation } from "../run/observation.ts";
import { installObserver, type ObserverPlugin } from "../run/observer.ts";
import { ledgerLineCount, readLedgerRows } from "../run/read_ledger_rows.ts";
import { removeBytecode } from "../run/remove_bytecode.ts";
import {
  type OracleFailure,
  type PropertyRunsResult,
  replaySeedFindings,
  runPropertyRuns,
} from "../run/run_property_runs.ts";
import { modulePath } from "../contract/module_path.ts";
import type { IsolationRequest } from "../sandbox/probe_isolation.ts";
import type { Sandbox } from "../sandbox/sandbox.ts";
import { freshSeed } from "../seeds/fresh_seed.ts";
import type { LedgerRow } from "../seeds/ledger_row.ts";
import type { Settings } from "../settings/settings.ts";
import { CLONE_DIR } from "./clone_stage.ts";
import { SPARES } from "./early_sandboxes.ts";
import { setupStage, type SetupStageResult } from "./setup_stage.ts";
import { environmentRecord } from "./environment_record.ts";
import type {
  GateSandbox,
  SandboxFactory,
  SandboxRequest,
  Workspace,
} from "./gate_ports.ts";
import { headModuleReader } from "./head_module_reader.ts";
import {
  importPathHint,
  missingDependencyHint,
  withImportPathHints,
} from "./import_path_hint.ts";
import { judgeProperties } from "./judge_properties.ts";
import { needsCalmRerun } from "./needs_calm_rerun.ts";
import { settleRewrites } from "./settle_rewrites.ts";
import type { AssertionRewrite } from "../contract/check_registered_tests.ts";
import { type HeadFailure, sharedWithBase } from "./shared_with_base.ts";
import { attributeFindings } from "./attribute_findings.ts";
import { failureKey, failureReason } from "../run/failure_reason.ts";
import { judgeReplay } from "./judge_replay.ts";
import { mutationDecides, mutationHook } from "./mutation_hook.ts";
import type { MutationRun } from "../mutation/render_mutation_report.ts";
import type { MutationCache } from "../mutation/mutation_cache.ts";
import { type LocatedProperty, locateProperties } from "./locate_properties.ts";
import {
  ALONE_WORK_DIR,
  type LayoutPlans,
  type PlannedRun,
  planTestRuns,
  sortedUnique,
  SUITE_WORK_DIR,
  type TestRuns,
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
  /** The static stage's base analyses (of the modules the layouts read, and the changed files). */
  baseModules: ReadonlyMap<string, PythonModule>;
  /** Node ids the base's excuses deselect from every run. */
  excused: readonly string[];
  /** Whether the contracts or the static stage already found a reason to reject. */
  staticReject: boolean;
  /** Rewritten assertions the kill sets settle once mutation ran. */
  rewrites: readonly AssertionRewrite[];
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
  /** Every mutant's outcome, when `[mutation]` ran. */
  mutationRun?: MutationRun;
  /**
   * When `[mutation]` ran: the properties whose head test kills every
   * mutant their base test kills, with how many (the evidence that
   * settles a rewritten assertion).
   */
  keptKills?: ReadonlyMap<string, number>;
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
    rewrites: statics.rewrites,
    commits: input.commits,
    settings: contracts.settings,
    plans: contracts.loaded.map((l) => ({
      layout: l.id,
      plan: l.plan(statics.input),
    })),
    headModules: statics.input.headModules,
    baseModules: statics.input.baseModules,
    excused: statics.excuses.deselect,
    // A rewritten assertion blocks unless the kill sets will decide it.
    staticReject:
      [...contracts.findings, ...statics.findings].some((f) => f.blocking) ||
      (statics.rewrites.length > 0 && !mutationDecides(contracts.settings)),
  };
  const request = testSandboxRequest(options);
  // Every run's working copy has the name the plan gives it, so runs that
  // overlap get the same names as runs that follow one another; copies
  // made on demand (reruns, the base's collection, mutants) come after.
  const runs = planTestRuns(prepared.settings, prepared.plans, {
    seed: freshSeed(input.commits.head, options.now.text),
    sandboxPath: options.sandboxPath,
    excused: prepared.excused,
  });
  const hasProperties = prepared.plans.some((p) =>
    p.plan.properties.length > 0
  );
  const oracle = oracleTree(input.commits, prepared.plans);
  const asked = (options.sandboxes ??
    openTestSandboxes(options.sandbox, request)).take();
  const offered = asked.spares;
  const preparedSuite = asked.suite;
  const names = runs.workDirs;
  let made = names.firstFree - 1;
  const workName = (): string => `work-${++made}`;
  // The copies are exported while the sandbox is still being made (or
  // were, since the commits were known).
  const { copying, workDirs, ahead, bytecode } = asked.copies ??
    startCopies(git, input.commits, { workspace, sandbox: asked.first });
  bytecode.decide(prepared.settings, runs.suite.env["PATH"]);
  workDirs.plan([
    names.suite,
    ...(hasProperties ? [names.alone] : []),
    ...names.replays,
  ]);
  // The suite's copy and the properties' are exported at once: with a
  // spare sandbox both runs start together.
  workDirs.begin(hasProperties ? 2 : 1);
  let sandbox: GateSandbox | undefined;
  const copiesAhead: Promise<unknown>[] = [];
  try {
    sandbox = await asked.first;
    const copies = await copying;
    // The properties' own run takes the first spare, the base's oracle the
    // second; a spare no run will use goes back at once.
    const spares = offered.slice(
      0,
      !hasProperties ? 0 : oracle.tree.differs ? 2 : 1,
    );
    await Promise.all(offered.slice(spares.length).map((s) => s.discard()));
    const first = sandbox;
    const dirs: RunDirs = {
      take: async (name, lane) => {
        const dir = await workDirs.take(name);
        await copies.prepare(dir, lane);
        return dir;
      },
      fresh: async () => {
        const dir = await copies.copy(workName());
        await copies.prepare(dir, first);
        return dir;
      },
      workName,
      copies,
      ahead: copiesAhead,
    };
    // The base's setup step first, in a step of its own (src/setup/).
    const setup = await setupStage(sandbox, prepared, options);
    const result = await runAndJudge(setup, prepared, options, {
      runs,
      dirs,
      oracle,
      spares,
      ahead,
      suite: preparedSuite,
    });
    return setup.record === undefined ? result : {
      ...result,
      findings: [...setup.findings, ...result.findings],
      report: { ...result.report, setup: setup.record },
    };
  } finally {
    await Promise.all(offered.map((s) => s.discard()));
    await (await preparedSuite?.catch(() => undefined))?.discard();
    await bytecode.close();
    await workDirs.settle();
    await settleAhead(ahead);
    await Promise.allSettled(copiesAhead);
    await (await copying.catch(() => undefined))?.remove();
    await sandbox?.close?.();
  }
}

/** What the test stage asks its sandboxes for: the clone is hidden too. */
export function testSandboxRequest(
  options: Pick<TestStageOptions, "isolation" | "hiddenPaths" | "workspace">,
): SandboxRequest {
  return {
    isolation: options.isolation,
    hiddenPaths: [
      ...(options.hiddenPaths ?? []),
      `${options.workspace.root}/${CLONE_DIR}`,
    ],
  };
}

/**
 * The sandboxes of one judgement's test stage, asked for before the stage
 * starts (while the static rules run), so their uids are leased and their
 * isolation probed by the time the first test runs.
 */
export interface TestSandboxes {
  /**
   * Start exporting the head's working copies for the suite and the
   * properties' own run, once the commits are known; at most once.
   */
  exportCopies(
    git: Git,
    commits: Commits,
    options?: Pick<TestStageOptions, "sandboxPath">,
  ): void;
  /**
   * Once the contracts are read (before the static rules run), start the
   * suite's interpreter warm in the first sandbox, with the environment
   * the plan will give it (see `warm_start.ts`); at most once, after
   * `exportCopies`. The suite's run takes it over only when its plan came
   * out the same; a cold start otherwise. Settles (never rejects) once the
   * interpreter's process is spawned or the prestart gave up, or after
   * {@linkcode PRESTART_WAIT_MS} at most: the static rules' parsing holds
   * this thread, so what the spawn still awaits when they start waits
   * until they end.
   */
  prestart(
    input: { commits: Commits; contracts: Contracts },
    options: Pick<TestStageOptions, "now" | "sandboxPath">,
  ): Promise<void>;
  /** Hand them to the test stage; once. */
  take(): {
    /** The suite's run, prepared ahead with its interpreter held, when `prestart` could. */
    suite?: Promise<PreparedPytestRun | undefined>;
    /** The first sandbox: the suite's. */
    first: Promise<GateSandbox>;
    /** Spares for the runs beside the suite (none without isolation). */
    spares: SpareSandbox[];
    /** The copies being exported, when `exportCopies` was called. */
    copies?: CopiesAhead;
  };
  /**
   * Close whatever was not taken, giving up any wait for a uid, and wait
   * for copies in flight; never throws.
   */
  close(): Promise<void>;
}

/** The head's working copies, being exported before the plan is known. */
interface CopiesAhead {
  /** The copies' maker. */
  copying: Promise<HeadCopies>;
  /** Each planned name's copy, handed out once. */
  workDirs: WorkDirs;
  /**
   * The suite's copy's directory as soon as it exists, while the export
   * still fills it (in place: the directory a process enters then is the
   * one its run gets whole).
   */
  suiteDir: Promise<string>;
  /** What the suite's run needs besides its copy, made meanwhile. */
  ahead: RunAhead;
  /** Whether pawl compiles the copies' bytecode: decided once the settings are read. */
  bytecode: CopyBytecode;
}

/** The observer and the suite's report directory, made before the stage needs them. */
interface RunAhead {
  /** pawl's plugin, installed (used only when the runner is pytest). */
  observer: Promise<ObserverPlugin>;
  /** The first sandbox's report directory, still root's. */
  reports: Promise<string>;
}

/** Wait for what {@linkcode RunAhead} was making; never throws. */
async function settleAhead(ahead: RunAhead): Promise<void> {
  await Promise.allSettled([ahead.observer, ahead.reports]);
}

/**
 * Start exporting the copies the suite and the properties' own run take
 * (their names do not depend on the plan); the test stage plans the rest.
 */
function startCopies(
  git: Git,
  commits: Commits,
  options: {
    workspace: Workspace;
    sandbox: Promise<GateSandbox>;
    path?: string | undefined;
  },
): CopiesAhead {
  const bytecode = copyBytecode(
    commits.headTree,
    options.sandbox,
    options.workspace,
    { path: options.path },
  );
  const copying = headCopies(git, commits.head, {
    workspace: options.workspace,
    sandbox: options.sandbox,
    headTree: commits.headTree,
    bytecode: bytecode.compiler,
  });
  copying.catch(() => undefined);
  // A copy made ahead stays root-owned until its run takes it: the run
  // before must not be able to write into the next run's tree.
  const suiteDir = Promise.withResolvers<string>();
  suiteDir.promise.catch(() => undefined);
  const workDirs = prefetchedWorkDirs(async (name) => {
    if (name !== SUITE_WORK_DIR) return await (await copying).copy(name);
    try {
      return await (await copying).copy(name, suiteDir.resolve);
    } finally {
      // A no-op once the directory was made.
      suiteDir.reject(new Error(`No copy "${name}" was made`));
    }
  }, { order: [SUITE_WORK_DIR, ALONE_WORK_DIR] });
  // Made now, handed to the uid when the tests start.
  const ahead: RunAhead = {
    observer: installObserver(options.workspace.root),
    reports: options.workspace.mkdir("reports"),
  };
  ahead.observer.catch(() => undefined);
  ahead.reports.catch(() => undefined);
  return { copying, workDirs, suiteDir: suiteDir.promise, ahead, bytecode };
}

/**
 * Prepare the suite's run as the plan will make it and start its
 * interpreter warm; undefined when the settings, the sandbox or a failure
 * on the way leave it to start cold. The plans are predicted from the
 * contracts alone (every layout's plan reads only the clock): a
 * prediction that comes out otherwise only means a cold start, since the
 * sandbox takes the interpreter over only for the same environment.
 * `spawning` settles once the interpreter's process is spawned.
 *
 * It waits for the copy's directory, not for the export filling it: the
 * interpreter runs only system code before the handover, with the copy off
 * `sys.path` (and no `pythonpath`: `warm_start.ts`), and the run that
 * takes it over starts only once the copy is whole and handed over.
 */
async function prestartSuite(
  first: Promise<GateSandbox>,
  copies: CopiesAhead,
  input: { commits: Commits; contracts: Contracts },
  options: Pick<TestStageOptions, "now" | "sandboxPath">,
): Promise<
  { prepared: PreparedPytestRun; spawning: Promise<void> } | undefined
> {
  const { commits, contracts } = input;
  const settings = contracts.settings;
  if (coldStartReason(settings) !== undefined) return undefined;
  const predicted = {
    now: options.now.epochMs,
    nowText: options.now.text,
    baseTree: commits.baseTree,
    headTree: commits.headTree,
    changes: contracts.changes,
    headModules: new Map(),
    baseModules: new Map(),
    digests: new Map(),
    allowFixtureRotate: false,
    testEnv: settings.environment.env,
  } satisfies StaticInput;
  let runs: TestRuns;
  try {
    runs = planTestRuns(
      settings,
      contracts.loaded.map((l) => ({ layout: l.id, plan: l.plan(predicted) })),
      {
        seed: freshSeed(commits.head, options.now.text),
        sandboxPath: options.sandboxPath,
      },
    );
  } catch {
    return undefined;
  }
  // The copies' bytecode is compiled for the same run.
  copies.bytecode.decide(settings, runs.suite.env["PATH"]);
  // Whichever comes last (usually the sandbox), the rest is ready by then.
  const [sandbox, observer, reportDir, workDir] = await Promise.all([
    first,
    copies.ahead.observer,
    copies.ahead.reports,
    copies.suiteDir,
  ]);
  if (sandbox.prestart === undefined) return undefined;
  await sandbox.prepareDir(reportDir);
  const prepared = await preparePytestRun(sandbox, {
    workDir,
    reportDir,
    command: runs.suite.command,
    env: runs.suite.env,
    limits: runs.limits,
    observer,
  });
  const pythonpath = settings.environment.pythonpath;
  const spawning = prestartPytestRun(
    sandbox,
    prepared,
    (modules) => warmModulesUnshadowed(modules, commits.headTree, pythonpath),
  );
  return { prepared, spawning };
}

/**
 * The longest the static rules wait for the suite's interpreter to be
 * spawned (see `TestSandboxes.prestart`), in ms: on the demo the spawn is
 * issued a few ms after the contracts are read; a prerequisite slower than
 * this (a sandbox still being probed) only means the spawn waits for the
 * static rules instead of the other way round.
 */
export const PRESTART_WAIT_MS = 30;

/** `done`, or nothing after `ms`; never rejects. */
async function within(done: Promise<unknown>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const bound = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  try {
    await Promise.race([done.then(() => {}, () => {}), bound]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Ask `factory` for the test stage's sandboxes now: the first one, then
 * the spares (none when no isolation is asked for: the tests then run as
 * pawl's own user, one run at a time). A factory that leases uids leases
 * them in that order. The stage takes them; a judgement that ends before
 * its test stage closes them.
 */
export function openTestSandboxes(
  factory: SandboxFactory,
  request: SandboxRequest,
  options: { workspace?: Workspace } = {},
): TestSandboxes {
  const abort = new AbortController();
  // One probe of each tier for the three, so they get the same tier.
  const asked = { ...request, signal: abort.signal, trials: new Map() };
  const first = factory(asked);
  first.catch(() => undefined);
  const spares = request.isolation === "none"
    ? []
    : Array.from({ length: SPARES }, () => spareSandbox(factory, asked));
  let copies: CopiesAhead | undefined;
  let taken = false;
  let suite: Promise<PreparedPytestRun | undefined> | undefined;
  return {
    prestart: (input, prestart) => {
      if (taken || copies === undefined || suite !== undefined) {
        return Promise.resolve();
      }
      const started = prestartSuite(first, copies, input, prestart);
      suite = started.then((s) => s?.prepared);
      suite.catch(() => undefined);
      return within(
        started.then((s) => s?.spawning),
        PRESTART_WAIT_MS,
      );
    },
    exportCopies: (git, commits, exported = {}) => {
      if (taken || copies !== undefined || options.workspace === undefined) {
        return;
      }
      copies = startCopies(git, commits, {
        workspace: options.workspace,
        sandbox: first,
        // The PATH the runs get unless the base's settings say otherwise.
        path: exported.sandboxPath ?? SANDBOX_PATH,
      });
      copies.workDirs.begin(2);
    },
    take: () => {
      if (taken) throw new Error("The test sandboxes were already taken");
      taken = true;
      return {
        first,
        spares,
        ...(copies === undefined ? {} : { copies }),
        ...(suite === undefined ? {} : { suite }),
      };
    },
    close: async () => {
      if (taken) return;
      taken = true;
      abort.abort();
      await (await suite?.catch(() => undefined))?.discard();
      await Promise.all([
        first.then((s) => s.close?.(), () => undefined).catch(() => undefined),
        ...spares.map((s) => s.discard()),
        (async () => {
          if (copies === undefined) return;
          await copies.bytecode.close();
          await copies.workDirs.settle();
          await settleAhead(copies.ahead);
          await (await copies.copying.catch(() => undefined))?.remove();
        })(),
      ]);
    },
  };
}

/**
 * A spare sandbox being made: taken once by the run it is for, or
 * discarded (closed when it was made). A factory that cannot make one
 * (no uid free at once) leaves it undefined.
 */
interface SpareSandbox {
  /** The sandbox, or undefined when none could be made; once. */
  take(): Promise<GateSandbox | undefined>;
  /** Close it unless it was taken; never throws. */
  discard(): Promise<void>;
}

function spareSandbox(
  factory: SandboxFactory,
  request: SandboxRequest,
): SpareSandbox {
  const made = factory({ ...request, spare: true }).catch(() => undefined);
  let taken = false;
  return {
    take: () => {
      if (taken) return Promise.resolve(undefined);
      taken = true;
      return made;
    },
    discard: async () => {
      if (taken) return;
      taken = true;
      await (await made)?.close?.().catch(() => undefined);
    },
  };
}

/** Where each run's working copy comes from. */
interface RunDirs {
  /** The planned copy `name`, handed to the sandbox (or to `lane`). */
  take: (name: string, lane?: Pick<Sandbox, "prepareDir">) => Promise<string>;
  /** A copy made on demand (a rerun), handed to the first sandbox. */
  fresh: () => Promise<string>;
  /** The next name for a directory made on demand. */
  workName: () => string;
  copies: HeadCopies;
  /** Copies made ahead for later runs: settled before the copies are removed. */
  ahead: Promise<unknown>[];
}

/** A sandbox for runs that overlap another's: its own uid and report directory. */
interface Lane {
  sandbox: Sandbox;
  /** The spare sandbox itself, which working copies are handed to. */
  owner: Pick<Sandbox, "prepareDir">;
  reportDir: string;
  close: () => Promise<void>;
}

async function runAndJudge(
  setup: SetupStageResult,
  input: Prepared,
  options: TestStageOptions,
  planned: {
    runs: TestRuns;
    dirs: RunDirs;
    oracle: ReturnType<typeof oracleTree>;
    spares: readonly SpareSandbox[];
    ahead: RunAhead;
    /** The suite's run, prepared ahead with its interpreter held. */
    suite: Promise<PreparedPytestRun | undefined> | undefined;
  },
): Promise<TestStageResult> {
  const { runs, dirs, oracle, spares, ahead } = planned;
  const { workName, copies } = dirs;
  const names = runs.workDirs;
  const sandbox = setup.sandbox;
  const { git, commits, plans } = input;
  const { progress, workspace } = options;
  // Both start from the static stage's analyses: a source it read (from
  // the runner's cache, often) is not parsed again, nor the parser loaded.
  const headModule = headModuleReader(git, commits.headTree, input.headModules);
  const baseModule = headModuleReader(
    git,
    commits.baseTree,
    input.baseModules,
  );
  // What the properties' own runs need comes from the trees alone, so
  // they can start beside the suite when a spare sandbox is free.
  const locating = (async () => {
    const located = await locateProperties(
      plans,
      commits.headTree,
      headModule,
    );
    const resolved = located.filter((p) => p.nodeId !== undefined);
    // The oracle runs the properties whose test the base has, in the same file.
    const atBase: LocatedProperty[] = [];
    for (const p of resolved) {
      if (
        p.file !== undefined &&
        modulePath(p.module, commits.baseTree) === p.file &&
        (await baseModule(p.file))?.functions.has(p.name) === true
      ) atBase.push(p);
    }
    return { located, resolved, atBase };
  })();
  locating.catch(() => undefined);
  // The oracle's copy is exported while the suite's is handed over and the
  // suite starts; it stays root's until the oracle's run takes it.
  const exportOracle = async (name = names.oracle) => {
    const dir = await copies.mkdir(name);
    await exportOracleTree(copies.source, commits.head, dir, oracle.tree, {
      headBytecode: copies.bytecode,
    });
    await copies.compile(dir);
    return dir;
  };
  const oracleCopy = (async () => {
    const { resolved, atBase } = await locating;
    const used = oracle.tree.differs && resolved.length > 0 &&
      atBase.length > 0;
    return used ? await exportOracle() : undefined;
  })();
  oracleCopy.catch(() => undefined);
  dirs.ahead.push(oracleCopy);
  // pawl's own plugin watches every pytest run (see src/run/observer.ts).
  const [observer, reportDir, workDir] = await Promise.all([
    input.settings.tests.runner === "pytest" ? ahead.observer : undefined,
    (async () => {
      const dir = await ahead.reports;
      await sandbox.prepareDir(dir);
      return dir;
    })(),
    dirs.take(names.suite),
  ]);
  const observed = observer === undefined ? {} : { observer };
  const { seed, trials, limits } = runs;
  const onOutput = (chunk: Uint8Array) => progress.detail(lastLine(chunk));
  const pytest = async (
    run: PlannedRun,
    select: readonly string[],
    workDir: string,
  ) =>
    await runPytest(sandbox, {
      workDir,
      reportDir,
      command: run.command,
      select,
      env: run.env,
      limits,
      onOutput,
      ...observed,
    });

  const python = input.settings.environment.python;
  if (python !== undefined) {
    await checkInterpreter(sandbox, python, {
      reportDir,
      path: runs.suite.env["PATH"],
      workDir,
    });
  }

  const { located, resolved: located_, atBase } = await locating;
  const withOracle = oracle.tree.differs && atBase.length > 0;
  const lanes: Lane[] = [];
  const lane = async (
    name: string,
    spare: SpareSandbox | undefined,
  ): Promise<Lane | undefined> => {
    if (spare === undefined) return undefined;
    const made = await spareLane(sandbox, await spare.take(), {
      workspace,
      reportName: name,
      wrap: setup.wrap,
      taken: lanes.map((l) => l.sandbox.isolation.uid),
    });
    if (made !== undefined) lanes.push(made);
    return made;
  };
  const [aloneSpare, oracleSpare] = spares;
  // Spares no run will use go back at once.
  if (located_.length === 0) await Promise.all(spares.map((s) => s.discard()));
  if (!withOracle) await oracleSpare?.discard();
  const observedProperty = (p: LocatedProperty) => ({
    id: p.id,
    nodeId: p.nodeId as string,
    path: p.file,
    line: p.line,
  });
  const propertyRuns = (
    head: { sandbox: Sandbox; owner?: Lane["owner"]; reportDir: string },
    oracleLane: Lane | undefined,
    again = false,
  ): Promise<PropertyRunsResult> =>
    runPropertyRuns(head.sandbox, {
      properties: located_.map(observedProperty),
      oracleProperties: atBase.map(observedProperty),
      // Run again, each run takes fresh copies of its own.
      headWorkDir: () =>
        again ? dirs.take(workName()) : dirs.take(names.alone, head.owner),
      oracleWorkDir: !oracle.tree.differs ? null : async () => {
        const dir = again
          ? await exportOracle(workName())
          : await oracleCopy ?? await exportOracle();
        await copies.prepare(dir, (oracleLane ?? head).owner);
        return dir;
      },
      oracleLane,
      run: {
        reportDir: head.reportDir,
        command: runs.alone.command,
        env: runs.alone.env,
        limits,
        onOutput,
        ...observed,
      },
      seed,
      trials,
      hypothesisSeeded: runs.alone.command.some((a) =>
        a.startsWith("--hypothesis-seed=")
      ),
      isTestSide: oracle.isTestSide,
      unchanged: (path) =>
        commits.baseTree.get(path)?.oid === commits.headTree.get(path)?.oid,
    });

  // Beside the suite, in a spare sandbox (and the oracle in a second one
  // when another uid is free): their results count only when the suite
  // reported, exactly as when they run after it.
  // Undefined when no spare sandbox was free: the runs then follow the suite.
  let early: Promise<PropertyRunsResult | undefined> | undefined;
  const closeLanes = async () => {
    await early?.catch(() => undefined);
    for (const l of lanes.splice(0)) await l.close();
  };
  try {
    if (located_.length > 0 && sandbox.isolation.tier !== "none") {
      early = (async () => {
        const side = await lane("reports-alone", aloneSpare);
        if (side === undefined) return undefined;
        const oracleSide = withOracle
          ? await lane("reports-oracle", oracleSpare)
          : undefined;
        return await propertyRuns(side, oracleSide);
      })();
      early.catch(() => undefined);
    }
    progress.step(
      `${TESTS_STEP} (sandbox: ${sandbox.isolation.tier}, network ${sandbox.isolation.network}, seed ${seed})`,
    );
    const suite = await runSuite(sandbox, {
      workDir,
      reportDir,
      freshWorkDir: dirs.fresh,
      command: runs.suite.command,
      env: runs.suite.env,
      freezes: runs.suite.freezes,
      nonBlocking: runs.suite.nonBlocking,
      limits,
      onOutput,
      ...observed,
      prepared: await planned.suite?.catch(() => undefined),
      testLine: async (file, qualname) =>
        (await headModule(file))?.functions.get(qualname)?.line,
    });
    // What the pull request left as the base has it may be broken there
    // already; each such check runs on a fresh export of the base.
    const unchangedAtBase = (path: string): boolean =>
      commits.baseTree.has(path) &&
      commits.baseTree.get(path)?.oid === commits.headTree.get(path)?.oid;
    const atBaseRun = {
      base: commits.base,
      baseWorkDir: async () => {
        const dir = await workspace.export(git, commits.base, workName());
        await removeBytecode(dir);
        await sandbox.prepareDir(dir);
        return dir;
      },
      run: {
        reportDir,
        command: runs.alone.command,
        env: runs.alone.env,
        limits,
        ...observed,
      },
    };
    const suiteAtBase = {
      ...atBaseRun,
      run: {
        ...atBaseRun.run,
        command: runs.suite.command,
        env: runs.suite.env,
      },
    };
    // A run pawl's observer never reached may owe that to the base's own
    // test command (exit 2) or to the pull request.
    // (When a rule that reads only sources already rejects, nothing is
    // repeated at the base: the decision is made.)
    const observerMissing: Finding[] = [];
    if (input.staticReject) {
      // nothing to attribute
    } else if (observer !== undefined && suite.observation?.hello !== true) {
      progress.step("loading pawl's observer at the base");
      await checkBaseObserver(sandbox, suiteAtBase);
      if (!suite.reported) observerMissing.push(observerKeptOut());
    } else if (!suite.reported) {
      // A run that left no usable report may leave none at the base either
      // (a conftest that fails to import): then it is not the pull request's.
      await unreportedAtBase(sandbox, { ...suiteAtBase, progress });
    }
    // A test file that cannot be collected may be broken at the base
    // already, the same way: then pawl cannot decide (exit 2).
    const collectErrorsAt = new Map(
      suite.findings.flatMap((f) =>
        f.rule === "tests.collection_error" && f.path !== undefined &&
          commits.baseTree.has(f.path)
          ? [
            [
              f.path,
              // The whole traceback: the finding quotes only its first lines.
              suite.observation?.collectErrors.find((e) => e.nodeId === f.path)
                ?.text ?? f.message,
            ] as const,
          ]
          : []
      ),
    );
    if (collectErrorsAt.size > 0) {
      progress.step(
        `collecting ${collectErrorsAt.size} failing test files at the base`,
      );
      await checkBaseCollection(sandbox, {
        ...atBaseRun,
        files: [...collectErrorsAt.keys()].sort(),
        // A file the pull request changed must fail there the same way.
        same: (file, text) =>
          unchangedAtBase(file) ||
          failureKey(failureReason(text)) ===
            failureKey(failureReason(collectErrorsAt.get(file) ?? "")),
        hint: (detail, files) =>
          importPathHint(detail, {
            tree: commits.baseTree,
            pythonpath: input.settings.environment.pythonpath,
          }) ??
            missingDependencyHint(detail, { tree: commits.baseTree, files }),
      });
    }
    const suiteFindings = [...suite.findings, ...observerMissing];

    // Alone: only the properties' own modules are imported, so a test
    // elsewhere that forges the report cannot make a failing property pass;
    // and again from the base's test side on the head's code (the base's
    // oracle), when the head changed any test-side path.
    let alone: PytestRun | null = null;
    let expectLedger = false;
    let seedBaseline: Observation | null = null;
    const oracleFindings: Finding[] = [];
    let mutation: MutationReport | undefined;
    let mutationRun: MutationRun | undefined;
    let calmAlone = false;
    let oracleFailures: OracleFailure[] = [];
    let keptKills: ReadonlyMap<string, number> | undefined;
    if (!suite.reported) await closeLanes();
    if (located_.length > 0 && suite.reported) {
      const beside = await early;
      progress.step(
        `${
          beside === undefined ? "running" : "judging"
        } ${located_.length} registered properties on their own${
          oracle.tree.differs ? ", and from the base's tests" : ""
        }`,
      );
      let result = beside ?? await propertyRuns(
        { sandbox, reportDir },
        withOracle ? await lane("reports-oracle", oracleSpare) : undefined,
      );
      const hadCompany = lanes.length > 0;
      // The spare uids go back before mutants and replays run.
      await closeLanes();
      const rerun = hadCompany && needsCalmRerun({
        beside: result,
        nodeIds: located_.map((p) => p.nodeId as string),
        suite: suite.cases,
        suiteTexts: suite.texts,
      });
      // A health check of the full run counts only if the calm run fails too.
      calmAlone = rerun && beside !== undefined;
      if (rerun) {
        progress.step(
          `running the ${located_.length} registered properties on their own again, alone at normal priority: the runs made beside the suite did not all pass`,
        );
        result = await propertyRuns({ sandbox, reportDir }, undefined, true);
      }
      alone = result.head;
      expectLedger = result.expectLedger;
      seedBaseline = result.seedBaseline;
      oracleFindings.push(...result.findings);
      oracleFailures = result.oracleFailures;
      // Oracle strength by mutation, when the base's [mutation] turns it on.
      const strength = await mutationHook({
        ...input,
        located: located_,
        atBase,
        oracle,
        seed,
        limits,
        sandboxPath: options.sandboxPath,
        observer,
      }, {
        sandbox,
        factory: options.sandbox,
        request: {
          isolation: options.isolation,
          hiddenPaths: [
            ...(options.hiddenPaths ?? []),
            `${workspace.root}/${CLONE_DIR}`,
          ],
        },
        workspace,
        workName,
        progress: (line) => progress.step(line),
        cache: options.mutationCache,
      });
      oracleFindings.push(...(strength?.findings ?? []));
      mutation = strength?.report;
      mutationRun = strength?.run;
      keptKills = strength?.keptKills;
    }
    const ts = Math.floor(options.now.epochMs / 1000);
    const collectErrors = new Map<string, string>();
    // The suite's own (scrubbed) collection-error findings carry the traceback.
    for (const f of suiteFindings) {
      if (f.rule !== "tests.collection_error" || f.path === undefined) continue;
      const lines = f.message.split("\n").slice(1);
      if (lines.length > 0) collectErrors.set(f.path, lines.join("\n"));
    }
    const judged = judgeProperties(located, {
      suite: suite.cases,
      alone,
      collectErrors,
      suiteTexts: suite.texts,
      aloneTexts: scrubTexts(alone?.observation?.texts, workspace.root),
      calmAlone,
    }, {
      seed,
      trials,
      ts,
      nonBlocking: new Set(runs.suite.nonBlocking),
    });

    // Every unexpired frozen seed must hold.
    const findings = [
      ...suiteFindings,
      ...judged.findings,
      ...oracleFindings,
    ];
    // Attribution by difference: every failure the head shows is run again
    // on the base tree the same way; one the base shares is not the pull
    // request's. When nothing else rejects, pawl cannot decide (exit 2).
    const shared = input.staticReject || !suite.reported
      ? new Map<string, string>()
      : await (
        failuresAtBase(sandbox, {
          ...atBaseRun,
          failures: [
            ...testFailures(suite, (file) => commits.baseTree.has(file)),
            ...judged.failures.flatMap((f) =>
              atBase.includes(f.property)
                ? [{ ...f, nodeId: f.property.nodeId as string }]
                : []
            ),
            // The oracle is the base's tests: at the base they run on its code.
            ...oracleFailures.map((f) => ({ ...f, nodeId: f.property.nodeId })),
          ],
          progress,
        })
      );
    const ledger = [...judged.ledger];
    const replays: ReplayRecord[] = [];
    for (const [i, run] of runs.replays.entries()) {
      progress.step(
        `replaying frozen seed ${run.replay.seed} (${run.replay.id})`,
      );
      const replayDir = await dirs.take(names.replays[i] ?? workName());
      const before = await ledgerLineCount(replayDir);
      const replayRun = await pytest(run, [run.replay.test], replayDir);
      const replay = judgeReplay(replayRun, run.replay, {
        layout: run.layout,
        trials: run.trials,
        ts,
      });
      findings.push(
        ...replaySeedFindings(
          replayRun,
          await readLedgerRows(replayDir, before),
          {
            id: run.replay.id,
            nodeId: run.replay.test,
            seed: run.replay.seed,
            trials: run.trials,
            hypothesisSeeded: run.command.some((a) =>
              a.startsWith("--hypothesis-seed=")
            ),
            expectLedger,
            baseline: seedBaseline,
          },
        ),
      );
      replays.push(replay.record);
      ledger.push(replay.row);
      if (replay.finding !== undefined) findings.push(replay.finding);
    }
    replays.sort((a, b) =>
      a.freeze < b.freeze ? -1 : a.freeze > b.freeze ? 1 : 0
    );
    const attributed = attributeFindings(findings, {
      base: commits.base,
      shared,
      properties: [...judged.failures, ...oracleFailures],
    });
    const rewritten = settleRewrites(input.rewrites, { keptKills });
    if (
      shared.size > 0 &&
      ![...attributed, ...rewritten].some((f) => f.blocking)
    ) {
      const [first] = shared;
      throw new BaseProblemError(
        commits.base,
        [...shared.keys()],
        first?.[1] ?? "",
        // A registered property may not be excused, only fixed.
        judged.failures.some((f) => shared.has(f.property.nodeId ?? "")) ||
          oracleFailures.length > 0
          ? "property"
          : "pass",
      );
    }

    return {
      findings: withImportPathHints(attributed, {
        tree: commits.headTree,
        pythonpath: input.settings.environment.pythonpath,
      }),
      report: {
        environment: environmentRecord(input.settings),
        summary: suite.summary,
        properties: judged.properties,
        reruns: suite.reruns,
        seeds: { fresh: seed, trials, replays },
        ...(mutation === undefined ? {} : { mutation }),
      },
      isolation: {
        tier: sandbox.isolation.tier,
        network: sandbox.isolation.network,
      },
      ledger,
      ...(mutationRun === undefined ? {} : { mutationRun }),
      ...(keptKills === undefined ? {} : { keptKills }),
    };
  } finally {
    await closeLanes();
  }
}

/**
 * The suite's failed and errored tests (none under a freeze) whose file
 * the base has, with their reasons, to be run again at the base.
 */
function testFailures(
  suite: SuiteOutcome,
  atBase: (file: string) => boolean,
): HeadFailure[] {
  return (suite.unfrozenFailures ?? []).flatMap((nodeId) => {
    if (!atBase(nodeId.split("::")[0] as string)) return [];
    const bad = casesForNodeId(suite.cases, nodeId).find((c) =>
      c.outcome === "failed" || c.outcome === "error"
    );
    if (bad === undefined) return [];
    const text = suite.texts?.get(nodeId) ?? bad.message ?? "";
    return [{
      nodeId,
      outcome: bad.outcome,
      ...(text === "" ? {} : { reason: failureReason(text) }),
    }];
  });
}

/** How a run is repeated on the base tree. */
interface AtBase {
  /** The base commit. */
  base: string;
  /** A fresh export of the base tree, prepared for the sandbox. */
  baseWorkDir: () => Promise<string>;
  /** The run, as at the head. */
  run: Omit<RunPytestOptions, "workDir" | "select">;
  progress: TestStageOptions["progress"];
}

/**
 * Run the suite on a fresh export of the base tree, the way it ran at the
 * head; throw `BaseProblemError` when it leaves no usable report there
 * either.
 */
async function unreportedAtBase(
  sandbox: Sandbox,
  options: AtBase,
): Promise<void> {
  options.progress.step(
    `running the tests at the base commit ${
      options.base.slice(0, 12)
    }: the run left no usable report`,
  );
  const atBase = await runSuite(sandbox, {
    ...options.run,
    workDir: await options.baseWorkDir(),
    freshWorkDir: options.baseWorkDir,
  });
  if (atBase.reported) return;
  throw new BaseProblemError(
    options.base,
    [],
    atBase.findings.map((f) => f.message).join("\n"),
    "run",
  );
}

/**
 * Run `failures` on a fresh export of the base tree, the way the
 * properties' own run is made (same command, seed and limits, normal
 * priority), and return those the base shares, with what it said.
 */
async function failuresAtBase(
  sandbox: Sandbox,
  options: AtBase & { failures: readonly HeadFailure[] },
): Promise<Map<string, string>> {
  const ids = sortedUnique(options.failures.map((f) => f.nodeId));
  if (ids.length === 0) return new Map();
  options.progress.step(
    `running ${ids.length} failing test${
      ids.length === 1 ? "" : "s"
    } again at the base commit ${options.base.slice(0, 12)}`,
  );
  const run = await runPytest(sandbox, {
    ...options.run,
    workDir: await options.baseWorkDir(),
    select: ids,
  });
  return sharedWithBase(options.failures, {
    cases: run.cases,
    texts: run.observation?.texts,
    stopped: run.result.timedOut || run.result.outputExceeded,
  });
}

/** Failure texts with pawl's job directory named `<work>`, as verdicts hold no temporary paths. */
function scrubTexts(
  texts: ReadonlyMap<string, string> | undefined,
  root: string,
): ReadonlyMap<string, string> | undefined {
  if (texts === undefined) return undefined;
  return new Map(
    [...texts].map(([id, t]) => [id, t.replaceAll(root, "<work>")]),
  );
}

/**
 * The suite's run left no report and never reached pawl's observer,
 * although the same command loads it on the base's tree.
 */
function observerKeptOut(): Finding {
  return finding(
    "harness.observer_missing",
    "pawl's observer plugin did not load in the full suite's run, although the base's test command loads it on the base's tree: a change of the pull request keeps it out before any test runs (a sitecustomize or usercustomize module, a .pth file, pytest configuration, or code that edits sys.path or the environment at start-up)",
  );
}

/**
 * A spare sandbox with a uid of its own (not the first sandbox's, nor one
 * in `taken`) and its own report directory, for a run that overlaps
 * another; undefined (the run then takes its turn in the first sandbox) at
 * tier `none`, or when no uid is free at once.
 */
async function spareLane(
  sandbox: Sandbox,
  spare: GateSandbox | undefined,
  lane: {
    workspace: Workspace;
    reportName: string;
    wrap: (other: Sandbox) => Sandbox;
    taken: readonly (number | undefined)[];
  },
): Promise<Lane | undefined> {
  if (spare === undefined || sandbox.isolation.tier === "none") {
    await spare?.close?.();
    return undefined;
  }
  const uid = spare.isolation.uid;
  if (
    spare.isolation.tier !== sandbox.isolation.tier ||
    uid === undefined || uid === sandbox.isolation.uid ||
    lane.taken.includes(uid)
  ) {
    await spare.close?.();
    return undefined;
  }
  try {
    const reportDir = await lane.workspace.mkdir(lane.reportName);
    await spare.prepareDir(reportDir);
    return {
      sandbox: inBackground(lane.wrap(spare)),
      owner: spare,
      reportDir,
      close: async () => {
        await spare.close?.();
      },
    };
  } catch (error) {
    await spare.close?.();
    throw error;
  }
}

/**
 * `sandbox` running every command at background priority: a lane's runs
 * go beside the suite, whose result comes first and which holds the most
 * tests, so the cores it wants go to it (the lanes keep whatever it leaves,
 * and all of them once it ends).
 */
function inBackground(sandbox: Sandbox): Sandbox {
  return {
    isolation: sandbox.isolation,
    prepareDir: (dir, options) => sandbox.prepareDir(dir, options),
    run: (command) => sandbox.run({ ...command, priority: "background" }),
  };
}

/**
 * The base's oracle tree (head code, base test side), from the registered
 * test modules and replayed tests as the base has them.
 */
function oracleTree(commits: Commits, plans: LayoutPlans) {
  const baseTree = commits.baseTree;
  const files = plans.flatMap(({ plan }) => [
    ...plan.properties.map((p) => modulePath(p.module, baseTree)),
    ...plan.replays.map((r) => r.test.split("::")[0]),
  ]).filter((f): f is string => f !== undefined && baseTree.has(f));
  const testModules = sortedUnique(files);
  // Everything the static rules count as harness at the base (an
  // `__init__.py` above any test file, configuration, start-up files)
  // comes from the base too.
  const layout = treeLayout(baseTree, { registered: testModules });
  const compose = {
    testModules,
    isHarness: (path: string) => isHarnessPath(path, layout),
  };
  return {
    tree: composeOracleTree(baseTree, commits.headTree, compose),
    isTestSide: testSidePredicate(compose),
  };
}

function lastLine(chunk: Uint8Array): string {
  const text = new TextDecoder().decode(chunk).trimEnd();
  return text.slice(text.lastIndexOf("\n") + 1);
}
