/**
 * The base's oracle tree: the head's code with the base's test side (the
 * registered test modules and replayed tests as the base has them, and
 * everything the static rules count as harness at the base).
 *
 * @module
 */
import { modulePath } from "../contract/module_path.ts";
import { isHarnessPath, treeLayout } from "../harness/harness_paths.ts";
import {
  composeOracleTree,
  type OracleTree,
  testSidePredicate,
} from "../run/compose_oracle_tree.ts";
import { type LayoutPlans, sortedUnique } from "./plan_test_runs.ts";
import type { Commits } from "./read_commits.ts";

/** The oracle tree and the test side it takes from the base. */
export interface OracleTreeOf {
  /** What the oracle's copy writes over the head's export. */
  tree: OracleTree;
  /** Whether a repository path is on the test side. */
  isTestSide: (path: string) => boolean;
}

/**
 * The base's oracle tree (head code, base test side), from the registered
 * test modules and replayed tests as the base has them.
 */
export function oracleTree(commits: Commits, plans: LayoutPlans): OracleTreeOf {
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
