/**
 * Seed 000's whole gate for one pull request, as one pure function: the
 * monotonic diff plus every head-state check, against the enforced
 * (base ∪ head) contract.
 *
 * @module
 */
import type { Finding } from "../../core/finding.ts";
import type { Tree } from "../../git/git.ts";
import type { PythonModule } from "../../python/python_module.ts";
import { checkFixtures, fixturePathsToHash } from "./check_fixtures.ts";
import { checkFreezes } from "./check_freezes.ts";
import { checkProperties } from "./check_properties.ts";
import { profileFilePaths } from "../../contract/hypothesis_profiles.ts";
import { modulePath } from "../../contract/module_path.ts";
import { diffAgentContract } from "./diff_agent_contract.ts";
import { enforcedAgentContract } from "./enforced_agent_contract.ts";
import type { AgentContract } from "./read_agent_contract.ts";

/** Everything {@linkcode checkAgentContract} judges. */
export interface CheckAgentContractInput {
  /** Repository-relative path of the contract file. */
  path: string;
  /** The contract at the base commit: the authority. */
  base: AgentContract;
  /**
   * The contract at the head commit, or `null` when it is missing or
   * invalid there; the caller reports that (`config.contract_removed`,
   * `config.contract_invalid`) and the head files are judged by the base.
   */
  head: AgentContract | null;
  /** The head commit's tree. */
  headTree: Tree;
  /** SHA-256 of every path `agentContractReads().fixtures` listed. */
  digests: ReadonlyMap<string, string>;
  /** Head analyses of every path `agentContractReads().modules` listed. */
  modules: ReadonlyMap<string, PythonModule>;
  /** Base analyses of every path `agentContractReads().baseModules` listed. */
  baseModules?: ReadonlyMap<string, PythonModule>;
  /** The orchestrator's clock, epoch milliseconds. */
  now: number;
  /** Fixture roots from the base's `pawl.toml` (default `tests/fixtures`). */
  fixtureRoots?: readonly string[] | undefined;
  /** The base's `[environment] env`, which may choose the Hypothesis profile. */
  env?: Readonly<Record<string, string>> | undefined;
}

/**
 * Judge one pull request against seed 000's contract.
 *
 * The base is the authority and the head may only add, so: the diff
 * {@linkcode diffAgentContract} reports every loosening of the file, and
 * the head files (tests, fixtures) and the freeze ledger are judged by
 * {@linkcode enforcedAgentContract}, the union of base and head at the
 * stricter setting. A base fixture removed or re-hashed in the head
 * contract is still hashed against its base digest, and a base property
 * removed or retargeted is still checked at its base target. Identical
 * findings are reported once.
 *
 * @example
 * ```ts
 * import { checkAgentContract } from "./check_agent_contract.ts";
 * import { NO_LINES, type AgentContract } from "./read_agent_contract.ts";
 * const base: AgentContract = {
 *   version: 1, properties: [], fixtures: [], freezes: [], maxActiveFreezes: 1, lines: NO_LINES,
 * };
 * const findings = checkAgentContract({
 *   path: "tests/agent_contract.yaml", base, head: { ...base, maxActiveFreezes: 2 },
 *   headTree: new Map(), digests: new Map(), modules: new Map(), now: 0,
 * });
 * if (findings.map((f) => f.rule).join() !== "freeze.cap_raised") throw new Error();
 * ```
 */
export function checkAgentContract(input: CheckAgentContractInput): Finding[] {
  const { path, base, head } = input;
  const enforced = enforcedAgentContract(base, head);
  const findings = [
    ...(head === null ? [] : diffAgentContract(base, head, { path })),
    ...checkProperties(enforced, {
      modules: input.modules,
      baseModules: input.baseModules,
      baseContract: base,
      path,
      env: input.env,
    }),
    ...checkFixtures(enforced, {
      tree: input.headTree,
      digests: input.digests,
      path,
      roots: input.fixtureRoots,
    }),
    ...checkFreezes(enforced, { now: input.now, path }),
  ];
  const seen = new Set<string>();
  return findings.filter((f) => {
    const key = JSON.stringify([f.rule, f.message, f.path, f.line]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Options for {@linkcode agentContractReads}. */
export interface AgentContractReadsOptions {
  /** The base commit's tree, to list base modules for the settings comparison. */
  baseTree?: Tree;
  /** Fixture roots from the base's `pawl.toml` (default `tests/fixtures`). */
  fixtureRoots?: readonly string[] | undefined;
}

/** The files the shell must read before calling {@linkcode checkAgentContract}. */
export interface AgentContractReads {
  /** Head Python files to analyse into `modules`. */
  modules: string[];
  /** Head fixture files to hash into `digests`. */
  fixtures: string[];
  /** Base Python files to analyse into `baseModules` (empty without `baseTree`). */
  baseModules: string[];
}

/**
 * Which files the shell must parse and hash for one pull request: the
 * modules of every enforced property as resolved in the head tree (and in
 * the base tree when given) with the conftest and package files that may
 * load a Hypothesis profile for them, and every safe regular-file fixture
 * path.
 *
 * @example
 * ```ts
 * import { agentContractReads } from "./check_agent_contract.ts";
 * import { NO_LINES, type AgentContract } from "./read_agent_contract.ts";
 * const base: AgentContract = {
 *   version: 1, fixtures: [], freezes: [], maxActiveFreezes: 0, lines: NO_LINES,
 *   properties: [{ id: "p", module: "tests.test_p", name: "test_p", minExamples: 1 }],
 * };
 * const path = "tests/test_p.py";
 * const tree = new Map([[path, { path, kind: "file" as const, oid: "1", size: 1 }]]);
 * if (agentContractReads(base, null, tree).modules.join() !== path) throw new Error();
 * ```
 */
export function agentContractReads(
  base: AgentContract,
  head: AgentContract | null,
  headTree: Tree,
  options: AgentContractReadsOptions = {},
): AgentContractReads {
  const enforced = enforcedAgentContract(base, head);
  const resolve = (tree: Tree) => {
    const paths = new Set<string>();
    for (const property of [...enforced.properties, ...base.properties]) {
      const found = modulePath(property.module, tree);
      if (found !== undefined) paths.add(found);
    }
    // The profiles these files load decide how many examples run.
    for (const path of profileFilePaths(tree, [...paths])) paths.add(path);
    return [...paths].sort();
  };
  return {
    modules: resolve(headTree),
    fixtures: fixturePathsToHash(enforced, headTree, {
      roots: options.fixtureRoots,
    }),
    baseModules: options.baseTree === undefined
      ? []
      : resolve(options.baseTree),
  };
}
