/**
 * Judge one pull request: clone, load the contracts, run the static
 * rules, run the tests, build the verdict. Hash first, run tests second.
 * Everything outside comes in through the ports, so a command, a service
 * or a test can drive the same pipeline.
 *
 * @module
 */
import type { GatePorts } from "./gate_ports.ts";
import { hashFixtureRoot } from "./hash_fixture_root.ts";
import { jobDirName } from "./job_dir_name.ts";
import type { Judgement, JudgeOptions } from "./judge_options.ts";
import { cloneStage } from "./clone_stage.ts";
import { loadContracts } from "./load_contracts.ts";
import { readCommits } from "./read_commits.ts";
import { staticStage } from "./static_stage.ts";
import { testStage } from "./test_stage.ts";
import { verdictStage } from "./verdict_stage.ts";
import { WarmUp } from "./warm_up.ts";

/**
 * Judge one pull request. Throws for anything that means "could not
 * decide"; every weakening becomes a finding in the returned verdict.
 */
export async function judgePullRequest(
  options: JudgeOptions,
  ports: GatePorts,
): Promise<Judgement> {
  const { progress } = ports;
  const workspace = await ports.workspace(jobDirName(options));
  try {
    // This thread is idle while git clones: compile the readers meanwhile.
    const warmUp = new WarmUp();
    const git = await cloneStage(options, { ...ports, workspace }).finally(
      () => warmUp.stop(),
    );
    try {
      const commits = await readCommits(git, options, progress);
      // Start hashing the usual fixture root now, so git inflates and a
      // worker hashes while the contracts and sources are parsed.
      const early = hashFixtureRoot(git, commits.headTree);
      try {
        const contracts = await loadContracts(git, commits, options);
        const statics = await staticStage(git, { commits, contracts }, {
          ...options,
          early,
          progress,
        });
        const tests = options.runTests
          ? await testStage(git, { commits, contracts, statics }, {
            ...options,
            sandbox: ports.sandbox,
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
    await workspace.remove();
  }
}
