/**
 * Seed 003's whole static gate for one pull request, as one pure function
 * over the three files and the head state.
 *
 * @module
 */
import type { Finding } from "../../core/finding.ts";
import type { Tree } from "../../git/git.ts";
import type { PythonModule } from "../../python/python_module.ts";
import { checkFixtureLock } from "./check_fixture_lock.ts";
import { checkFreezeList } from "./check_freeze_list.ts";
import { checkPropertyRegistry } from "./check_property_registry.ts";
import type { InvariantsContract } from "./invariants_contract.ts";

/** Everything {@linkcode checkInvariants} looks at besides the contract. */
export interface CheckInvariantsInput {
  /** The orchestrator's clock, epoch milliseconds. */
  now: number;
  /** The base commit's tree. */
  baseTree: Tree;
  /** The head commit's tree. */
  headTree: Tree;
  /** Head analyses of every path `invariantsReads().headModules` listed. */
  headModules: ReadonlyMap<string, PythonModule>;
  /** Base analyses of every path `invariantsReads().baseModules` listed. */
  baseModules: ReadonlyMap<string, PythonModule>;
  /** SHA-256 hex of the head bytes of every path `invariantsReads().headDigests` listed. */
  digests: ReadonlyMap<string, string>;
  /** A human started this run with `--allow-fixture-rotate`. */
  allowFixtureRotate: boolean;
  /** The base `pawl.toml`'s `[fixtures] roots` (default: the whole repository). */
  fixtureRoots?: readonly string[] | undefined;
}

/**
 * Judge one pull request against seed 003's three files: the property
 * registry ({@linkcode checkPropertyRegistry}), the fixture lock
 * ({@linkcode checkFixtureLock}) and the freeze list
 * ({@linkcode checkFreezeList}). Hash first: nothing here runs a test.
 *
 * @example
 * ```ts
 * import { checkInvariants } from "./check_invariants.ts";
 * const lock = { policy: { allowRotateOnAgentPr: false }, files: new Map(), lineOf: () => undefined };
 * const findings = checkInvariants({
 *   registry: { base: undefined, head: null },
 *   lock: { base: lock, head: { ...lock, policy: { allowRotateOnAgentPr: true } } },
 *   freezes: { base: undefined, head: null },
 * }, {
 *   now: 0, baseTree: new Map(), headTree: new Map(), headModules: new Map(),
 *   baseModules: new Map(), digests: new Map(), allowFixtureRotate: false,
 * });
 * if (findings.map((f) => f.rule).join() !== "fixture.policy_loosened") throw new Error();
 * ```
 */
export function checkInvariants(
  contract: InvariantsContract,
  input: CheckInvariantsInput,
): Finding[] {
  return [
    ...checkPropertyRegistry(contract.registry, input),
    ...checkFixtureLock(contract.lock, {
      headTree: input.headTree,
      digests: input.digests,
      allowFixtureRotate: input.allowFixtureRotate,
      roots: input.fixtureRoots,
    }),
    ...checkFreezeList(contract.freezes, input),
  ];
}
