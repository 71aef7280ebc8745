/**
 * Judge one pull request: clone, load the contracts, run the static
 * rules, run the tests, build the verdict. Hash first, run tests second.
 * Everything outside comes in through the ports, so a command, a service
 * or a test can drive the same pipeline; what can start before the stage
 * that needs it is started by {@linkcode JudgementAhead}.
 *
 * @module
 */
import type { GatePorts } from "./gate_ports.ts";
import type { Judgement, JudgeOptions } from "./judge_options.ts";
import { JudgementAhead } from "./judgement_ahead.ts";
import { loadContracts } from "./load_contracts.ts";
import { readCommits } from "./read_commits.ts";
import type { StartedClone } from "./start_clone.ts";
import { staticStage } from "./static_stage.ts";
import { verdictStage } from "./verdict_stage.ts";

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
  const ahead = await JudgementAhead.start(options, ports, started);
  try {
    const git = await ahead.clone();
    try {
      const commits = await readCommits(git, options, progress);
      ahead.commitsRead(git, commits);
      const contracts = await loadContracts(git, commits, options);
      await ahead.contractsRead(commits, contracts);
      const statics = await staticStage(git, { commits, contracts }, {
        ...options,
        ...ahead.forStatics(),
        progress,
      });
      const tests = ahead.testing === undefined
        ? null
        : await ahead.testing.testStage(git, { commits, contracts, statics }, {
          ...options,
          ...ahead.forTests(),
          progress,
        });
      return verdictStage({ commits, contracts, statics, tests }, options);
    } finally {
      // Never leave the hashing children running behind an error.
      await ahead.settleHashing();
      await git.close?.();
    }
  } finally {
    await ahead.close();
  }
}
