/**
 * Judge one pull request: clone, load the contracts, run the static
 * rules, run the tests, build the verdict. Hash first, run tests second.
 * Everything outside comes in through the ports, so a command, a service
 * or a test can drive the same pipeline.
 *
 * @module
 */
import type { GatePorts, Workspace } from "./gate_ports.ts";
import { hashFixtureRoot } from "./hash_fixture_root.ts";
import { jobDirName } from "./job_dir_name.ts";
import type { Judgement, JudgeOptions } from "./judge_options.ts";
import { cloneStage } from "./clone_stage.ts";
import { loadContracts } from "./load_contracts.ts";
import { prefetchModuleNames } from "./read_module_names.ts";
import { testEnvironment } from "./test_environment.ts";
import { DEFAULT_SETTINGS } from "../settings/settings.ts";
import { readCommits } from "./read_commits.ts";
import { staticStage } from "./static_stage.ts";
import type * as TestStage from "./test_stage.ts";
import { verdictStage } from "./verdict_stage.ts";
import { WarmUp } from "./warm_up.ts";
import { loadAllDialects } from "../layouts/mod.ts";
import type { StartedClone } from "./start_clone.ts";

/**
 * Judge one pull request. Throws for anything that means "could not
 * decide"; every weakening becomes a finding in the returned verdict.
 * `started` is the clone of these options' target already under way (see
 * `start_clone.ts`); the judgement takes it over and removes its
 * workspace as its own.
 */
export async function judgePullRequest(
  options: JudgeOptions,
  ports: GatePorts,
  started?: StartedClone,
): Promise<Judgement> {
  const { progress } = ports;
  // The runner's analyses of earlier judgements' sources, opened while the
  // clone is made.
  const analysisCache = ports.analysisCache?.();
  analysisCache?.catch(() => {});
  // The static rules ask the tests' interpreter for its module names: the
  // usual one answers while the clone is made (the base's own, if it names
  // another, once its settings are read).
  prefetchModuleNames(testEnvironment(DEFAULT_SETTINGS, options));
  // While git clones this thread waits: load every layout's code meanwhile.
  // A clone made already leaves only the layouts the base holds to load.
  if (started?.settled !== true) loadAllDialects().catch(() => {});
  let workspace: Workspace;
  let testing: typeof TestStage | undefined;
  try {
    // pawl diff runs no tests: it never loads the test stage and sandbox.
    testing = options.runTests ? await import("./test_stage.ts") : undefined;
    workspace = await (started?.workspace ??
      jobDirName(options).then(ports.workspace));
  } catch (error) {
    await started?.abandon();
    throw error;
  }
  // The test stage's sandboxes are leased and probed while the clone is
  // made and the static rules run (each run hides the clone once it exists).
  const sandboxes = testing?.openTestSandboxes(
    ports.sandbox,
    testing.testSandboxRequest({ ...options, workspace }),
    { workspace },
  );
  try {
    // Without tests this thread is idle while git clones: compile the
    // readers meanwhile. With tests it is opening the sandboxes then.
    // A clone started before the gate loaded may be made already.
    const warmUp = options.runTests || started?.settled === true
      ? undefined
      : new WarmUp();
    const git = await (started?.git ??
      cloneStage(options, { ...ports, workspace })).finally(
        () => warmUp?.stop(),
      );
    try {
      const commits = await readCommits(git, options, progress);
      // The suite's and the properties' copies are exported meanwhile too.
      sandboxes?.exportCopies(git, commits, options);
      // Start hashing the usual fixture root now, so git inflates and a
      // worker hashes while the contracts and sources are parsed.
      const parsed = Promise.withResolvers<void>();
      const early = hashFixtureRoot(git, commits.headTree, {
        helpAfter: parsed.promise,
      });
      try {
        const contracts = await loadContracts(git, commits, options);
        // The suite's interpreter starts while the static rules run: its
        // spawn goes first (bounded), as their parsing holds this thread.
        const prestarted = sandboxes?.prestart({ commits, contracts }, options);
        prefetchModuleNames(testEnvironment(contracts.settings, options));
        await prestarted;
        const statics = await staticStage(git, { commits, contracts }, {
          ...options,
          early,
          analysisCache,
          onParsed: parsed.resolve,
          progress,
        });
        const tests = testing !== undefined
          ? await testing.testStage(git, { commits, contracts, statics }, {
            ...options,
            sandbox: ports.sandbox,
            sandboxes,
            workspace,
            progress,
            mutationCache: ports.mutationCache,
          })
          : null;
        return verdictStage({ commits, contracts, statics, tests }, options);
      } catch (error) {
        // Never leave the hashing children running behind an error.
        await early.catch(() => {});
        throw error;
      }
    } finally {
      await git.close?.();
    }
  } finally {
    await sandboxes?.close();
    await workspace.remove();
    // The analyses made here are written while the rest ran.
    await (await analysisCache?.catch(() => undefined))?.flush();
  }
}
