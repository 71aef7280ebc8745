/**
 * What one judgement starts ahead of the stage that needs it, so no stage
 * waits for work that could have run meanwhile: the runner's analysis
 * cache and the interpreter's module names are read and every layout's
 * code loaded while git clones; the test stage's sandboxes are leased and
 * probed before the clone (each run hides the clone once it exists); the
 * suite's and the properties' copies are exported and the usual fixture
 * root hashed once the commits are known; the suite's interpreter starts
 * once the contracts are read. Each is told to the stages only through
 * their options: none of it decides anything, and none of it outlives the
 * judgement.
 *
 * @module
 */
import type { Git } from "../git/git.ts";
import { loadAllDialects } from "../layouts/mod.ts";
import { DEFAULT_SETTINGS } from "../settings/settings.ts";
import type { AnalysisCache } from "./analysis_cache.ts";
import { cloneStage } from "./clone_stage.ts";
import type { GatePorts, Workspace } from "./gate_ports.ts";
import { hashFixtureRoot } from "./hash_fixture_root.ts";
import { jobDirName } from "./job_dir_name.ts";
import type { JudgeOptions } from "./judge_options.ts";
import type { Contracts } from "./load_contracts.ts";
import { prefetchModuleNames } from "./read_module_names.ts";
import type { Commits } from "./read_commits.ts";
import type { StartedClone } from "./start_clone.ts";
import { testEnvironment } from "./test_environment.ts";
import type * as TestStage from "./test_stage.ts";
import { WarmUp } from "./warm_up.ts";

/** The work one judgement started ahead; see the module's text. */
export class JudgementAhead {
  /** The judgement's workspace. */
  readonly workspace: Workspace;
  /** The test stage's code, loaded only when tests run (`pawl diff` never loads it). */
  readonly testing: typeof TestStage | undefined;
  #options: JudgeOptions;
  #ports: GatePorts;
  #started: StartedClone | undefined;
  #analysisCache: Promise<AnalysisCache | undefined> | undefined;
  #sandboxes: TestStage.TestSandboxes | undefined;
  #hashing: Promise<Map<string, string>> | undefined;
  #parsed = Promise.withResolvers<void>();

  private constructor(
    init: {
      workspace: Workspace;
      testing: typeof TestStage | undefined;
      analysisCache: Promise<AnalysisCache | undefined> | undefined;
    },
    options: JudgeOptions,
    ports: GatePorts,
    started: StartedClone | undefined,
  ) {
    this.workspace = init.workspace;
    this.testing = init.testing;
    this.#analysisCache = init.analysisCache;
    this.#options = options;
    this.#ports = ports;
    this.#started = started;
    this.#sandboxes = init.testing?.openTestSandboxes(
      ports.sandbox,
      init.testing.testSandboxRequest({
        ...options,
        workspace: init.workspace,
      }),
      { workspace: init.workspace },
    );
  }

  /**
   * Start what a judgement can start before its clone: its workspace, the
   * test stage's sandboxes, and what the clone's wait leaves time for.
   * `started` is the clone already under way, taken over.
   */
  static async start(
    options: JudgeOptions,
    ports: GatePorts,
    started?: StartedClone,
  ): Promise<JudgementAhead> {
    // The runner's analyses of earlier judgements' sources.
    const analysisCache = ports.analysisCache?.();
    analysisCache?.catch(() => {});
    // The static rules ask the tests' interpreter for its module names: the
    // usual one answers while the clone is made.
    prefetchModuleNames(testEnvironment(DEFAULT_SETTINGS, options));
    // A clone made already leaves only the layouts the base holds to load.
    if (started?.settled !== true) loadAllDialects().catch(() => {});
    try {
      const testing = options.runTests
        ? await import("./test_stage.ts")
        : undefined;
      const workspace = await (started?.workspace ??
        jobDirName(options).then(ports.workspace));
      return new JudgementAhead(
        { workspace, testing, analysisCache },
        options,
        ports,
        started,
      );
    } catch (error) {
      await started?.abandon();
      throw error;
    }
  }

  /** The clone (the one under way, or a new one); the readers are compiled meanwhile. */
  async clone(): Promise<Git> {
    // Without tests this thread is idle while git clones; with tests it is
    // opening the sandboxes then. A clone started before may be made.
    const warmUp = this.#options.runTests || this.#started?.settled === true
      ? undefined
      : new WarmUp();
    return await (this.#started?.git ??
      cloneStage(this.#options, { ...this.#ports, workspace: this.workspace }))
      .finally(() => warmUp?.stop());
  }

  /** The commits are known: export the first copies, hash the fixture root. */
  commitsRead(git: Git, commits: Commits): void {
    this.#sandboxes?.exportCopies(git, commits, this.#options);
    // git inflates and a worker hashes while the sources are parsed.
    this.#hashing = hashFixtureRoot(git, commits.headTree, {
      helpAfter: this.#parsed.promise,
    });
  }

  /**
   * The contracts are read: the suite's interpreter starts while the
   * static rules run (its spawn goes first, bounded, as their parsing
   * holds this thread), and the base's interpreter is asked for its names.
   */
  async contractsRead(commits: Commits, contracts: Contracts): Promise<void> {
    const prestarted = this.#sandboxes?.prestart(
      { commits, contracts },
      this.#options,
    );
    prefetchModuleNames(testEnvironment(contracts.settings, this.#options));
    await prestarted;
  }

  /** What the static stage takes from the work started ahead. */
  forStatics(): {
    early: Promise<Map<string, string>>;
    analysisCache: Promise<AnalysisCache | undefined> | undefined;
    onParsed: () => void;
  } {
    if (this.#hashing === undefined) {
      throw new Error("The commits were not read before the static stage");
    }
    return {
      early: this.#hashing,
      analysisCache: this.#analysisCache,
      onParsed: this.#parsed.resolve,
    };
  }

  /** What the test stage takes from the work started ahead. */
  forTests(): Pick<
    TestStage.TestStageOptions,
    "sandbox" | "sandboxes" | "workspace" | "mutationCache"
  > {
    return {
      sandbox: this.#ports.sandbox,
      sandboxes: this.#sandboxes,
      workspace: this.workspace,
      mutationCache: this.#ports.mutationCache,
    };
  }

  /** Wait for the fixture root's hashing: no hashing child outlives the judgement. */
  async settleHashing(): Promise<void> {
    await this.#hashing?.catch(() => {});
  }

  /**
   * Give up what the stages did not take, remove the workspace, and write
   * the analyses made meanwhile; never throws.
   */
  async close(): Promise<void> {
    await this.#sandboxes?.close();
    await this.workspace.remove();
    await (await this.#analysisCache?.catch(() => undefined))?.flush();
  }
}
