/**
 * A judgement in this process, for tests that wrap the real gate ports to
 * watch what the gate does with them.
 *
 * @module
 */
import { NOW } from "./_cli.ts";
import type { TestRepo } from "./_repo.ts";
import { judgePullRequest } from "../src/gate/judge_pull_request.ts";
import type { GatePorts } from "../src/gate/gate_ports.ts";
import type { Verdict } from "../src/core/verdict.ts";
import { parseNow } from "../src/core/parse_now.ts";

/** The verdict's JSON for `head` against `main` of `repo`, tests run, at {@linkcode NOW}. */
export async function judgedJson(
  repo: TestRepo,
  head: string,
  ports: GatePorts,
): Promise<string> {
  const { verdict }: { verdict: Verdict } = await judgePullRequest({
    repo: repo.dir,
    base: "main",
    head,
    now: parseNow(NOW),
    allowFixtureRotate: false,
    isolation: "auto",
    runTests: true,
  }, ports);
  return JSON.stringify(verdict);
}
