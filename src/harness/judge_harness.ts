/**
 * Every static rule about what runs around the tests, in one call: harness
 * files, code that probes for the harness, the gate's settings and CI,
 * added skips, and what pytest will really run for each registered test.
 *
 * @module
 */
import {
  type AssertionRewrite,
  checkRegisteredTests,
  type RegisteredTest,
} from "../contract/check_registered_tests.ts";
import type { Finding } from "../core/finding.ts";
import type { ChangedPath, Tree } from "../git/git.ts";
import type { PythonModule } from "../python/python_module.ts";
import { checkCodeProbes } from "./check_code_probes.ts";
import { checkGateConfig } from "./check_gate_config.ts";
import {
  checkHarness,
  type HarnessTexts,
  type ModuleNames,
} from "./check_harness.ts";
import { checkSkips } from "./check_skips.ts";
import { isTestSide, treeLayout } from "./harness_paths.ts";

/** Input of {@linkcode judgeHarness}. */
export interface JudgeHarnessInput {
  /** Paths that differ base → head. */
  changes: readonly ChangedPath[];
  /** Texts of the paths `harnessConfigPaths` named. */
  texts: HarnessTexts;
  /** Base tree. */
  baseTree: Tree;
  /** Head tree. */
  headTree: Tree;
  /** Base analyses (registered modules and changed files). */
  baseModules: ReadonlyMap<string, PythonModule>;
  /** Head analyses. */
  headModules: ReadonlyMap<string, PythonModule>;
  /** The sandbox interpreter's module names. */
  moduleNames: ModuleNames;
  /** Registered tests of every layout. */
  registered: readonly RegisteredTest[];
  /** The base `pawl.toml`'s `[environment] pythonpath`. */
  pythonpath?: readonly string[];
  /** The base `pawl.toml`'s `[harness] test_support`. */
  testSupport: readonly string[];
  /** The variables pawl hands a seed run (`[seeds] env_seed`, `env_trials`). */
  seedEnv?: readonly string[];
}

/** What {@linkcode judgeHarness} found. */
export interface HarnessJudgement {
  /** Findings. */
  findings: Finding[];
  /** Registered tests' rewritten assertions, for the mutation kill sets to decide. */
  rewrites: AssertionRewrite[];
}

/**
 * Run the harness, probe, gate-config, skip and registered-test rules.
 *
 * @example
 * ```ts
 * import { judgeHarness } from "./judge_harness.ts";
 * import { FALLBACK_MODULE_NAMES } from "./check_harness.ts";
 * const { findings: found } = judgeHarness({
 *   changes: [{ status: "A", path: "tests/__pycache__/test_a.cpython-311.pyc" }],
 *   texts: { base: new Map(), head: new Map() }, baseTree: new Map(), headTree: new Map(),
 *   baseModules: new Map(), headModules: new Map(), moduleNames: FALLBACK_MODULE_NAMES,
 *   registered: [], testSupport: [],
 * });
 * if (found[0]?.rule !== "harness.bytecode_added") throw new Error();
 * ```
 */
export function judgeHarness(input: JudgeHarnessInput): HarnessJudgement {
  const registered = registeredPaths(input.registered, input.headTree);
  const layouts = [input.headTree, input.baseTree].map((tree) =>
    treeLayout(tree, { registered })
  );
  const tests = checkRegisteredTests(input.registered, {
    baseModules: input.baseModules,
    headModules: input.headModules,
    baseTree: input.baseTree,
    headTree: input.headTree,
    isTestSide: (path) => layouts.some((layout) => isTestSide(path, layout)),
  });
  const findings = [
    ...checkGateConfig(input.changes, input.texts),
    ...checkHarness(input.changes, {
      texts: input.texts,
      headModules: input.headModules,
      baseModules: input.baseModules,
      baseTree: input.baseTree,
      headTree: input.headTree,
      moduleNames: input.moduleNames,
      registered,
      // Stryker disable next-line ConditionalExpression: checkHarness reads a pythonpath of undefined as none given
      ...(input.pythonpath === undefined
        ? {}
        : { pythonpath: input.pythonpath }),
    }),
    ...checkCodeProbes(input.changes, {
      headModules: input.headModules,
      baseModules: input.baseModules,
      headTree: input.headTree,
      baseTree: input.baseTree,
      registered,
      testSupport: input.testSupport,
      // Stryker disable next-line ConditionalExpression: checkCodeProbes reads a pythonpath of undefined as none given
      ...(input.pythonpath === undefined
        ? {}
        : { pythonpath: input.pythonpath }),
      // Stryker disable next-line ConditionalExpression: checkCodeProbes reads a seedEnv of undefined as none given
      ...(input.seedEnv === undefined ? {} : { seedEnv: input.seedEnv }),
    }),
    ...checkSkips(input.changes, {
      headModules: input.headModules,
      baseModules: input.baseModules,
    }),
    ...tests.findings,
  ];
  return { findings, rewrites: tests.rewrites };
}

/** The files of registered test modules that exist in the tree. */
function registeredPaths(
  tests: readonly RegisteredTest[],
  tree: Tree,
): string[] {
  const out = new Set<string>();
  for (const test of tests) {
    const stem = test.module.split(".").join("/");
    for (const path of [`${stem}/__init__.py`, `${stem}.py`]) {
      if (tree.has(path)) {
        out.add(path);
        break;
      }
    }
  }
  return [...out];
}
