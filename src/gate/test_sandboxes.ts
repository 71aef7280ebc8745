/**
 * The test stage's sandboxes and copies, asked for before the stage starts:
 * the first sandbox and the spares are leased and probed while the clone
 * is made and the static rules run, the head's copies for the suite and
 * the properties are exported once the commits are known, and the suite's
 * interpreter is started warm once the contracts are read. The stage
 * takes them over; a judgement that ends before it closes them.
 *
 * @module
 */
import type { Git } from "../git/git.ts";
import type { StaticInput } from "../layouts/dialect.ts";
import { installObserver, type ObserverPlugin } from "../run/observer.ts";
import {
  type PreparedPytestRun,
  preparePytestRun,
  prestartPytestRun,
  SANDBOX_PATH,
} from "../run/run_pytest.ts";
import type { IsolationRequest } from "../sandbox/probe_isolation.ts";
import { freshSeed } from "../seeds/fresh_seed.ts";
import { CLONE_DIR } from "./clone_stage.ts";
import { type CopyBytecode, copyBytecode } from "./copy_bytecode.ts";
import { SPARES } from "./early_sandboxes.ts";
import type {
  GateSandbox,
  SandboxFactory,
  SandboxRequest,
  Workspace,
} from "./gate_ports.ts";
import { type HeadCopies, headCopies } from "./head_copies.ts";
import type { Contracts } from "./load_contracts.ts";
import {
  ALONE_WORK_DIR,
  planTestRuns,
  SUITE_WORK_DIR,
  type TestRuns,
} from "./plan_test_runs.ts";
import { prefetchedWorkDirs, type WorkDirs } from "./prefetched_work_dirs.ts";
import type { Commits } from "./read_commits.ts";
import { type SpareSandbox, spareSandbox } from "./spare_lanes.ts";
import type { Instant } from "../core/parse_now.ts";
import { coldStartReason, warmModulesUnshadowed } from "./warm_start.ts";

/** What the sandboxes are asked for with. */
export interface TestSandboxOptions {
  /** The clock. */
  now: Instant;
  /** Requested sandbox strength. */
  isolation: IsolationRequest;
  /** Paths to hide from the sandbox (besides the clone). */
  hiddenPaths?: readonly string[] | undefined;
  /** PATH inside the sandbox, when not the default system PATH. */
  sandboxPath?: string | undefined;
  /** The judgement's temp dirs. */
  workspace: Workspace;
}

/** What the test stage asks its sandboxes for: the clone is hidden too. */
export function testSandboxRequest(
  options: Pick<TestSandboxOptions, "isolation" | "hiddenPaths" | "workspace">,
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
    options?: Pick<TestSandboxOptions, "sandboxPath">,
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
    options: Pick<TestSandboxOptions, "now" | "sandboxPath">,
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
export interface CopiesAhead {
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
export interface RunAhead {
  /** pawl's plugin, installed (used only when the runner is pytest). */
  observer: Promise<ObserverPlugin>;
  /** The first sandbox's report directory, still root's. */
  reports: Promise<string>;
}

/**
 * Give back what the test stage took: the spares no lane took, the
 * prepared suite run no run took, the copies and the first sandbox.
 */
export async function releaseTaken(
  asked: ReturnType<TestSandboxes["take"]>,
  ahead: CopiesAhead,
): Promise<void> {
  await Promise.all(asked.spares.map((s) => s.discard()));
  await (await asked.suite?.catch(() => undefined))?.discard();
  await ahead.bytecode.close();
  await ahead.workDirs.settle();
  await settleAhead(ahead.ahead);
  await (await ahead.copying.catch(() => undefined))?.remove();
  await (await asked.first.catch(() => undefined))?.close?.();
}

/** Wait for what {@linkcode RunAhead} was making; never throws. */
export async function settleAhead(ahead: RunAhead): Promise<void> {
  await Promise.allSettled([ahead.observer, ahead.reports]);
}

/**
 * Start exporting the copies the suite and the properties' own run take
 * (their names do not depend on the plan); the test stage plans the rest.
 */
export function startCopies(
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
  options: Pick<TestSandboxOptions, "now" | "sandboxPath">,
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
    // As the suite's runner makes it (stage_runners.ts).
    traceLines: true,
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
