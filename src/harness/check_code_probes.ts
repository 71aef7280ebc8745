/**
 * The code under test must not look for the test harness: code that
 * behaves differently under pytest can pass every test and still be wrong.
 *
 * @module
 */
import { type Finding, finding } from "../core/finding.ts";
import type { ChangedPath, Tree } from "../git/git.ts";
import type { HarnessProbe, PythonModule } from "../python/python_module.ts";
import { isTestSide, topLevelNames, treeLayout } from "./harness_paths.ts";

/** Input of {@linkcode checkCodeProbes}. */
export interface CheckCodeProbesOptions {
  /** Head analyses of changed Python files. */
  headModules: ReadonlyMap<string, PythonModule>;
  /** Base analyses of changed Python files. */
  baseModules: ReadonlyMap<string, PythonModule>;
  /** Head tree. */
  headTree: Tree;
  /** Base tree. */
  baseTree: Tree;
  /** Registered test module paths. */
  registered?: readonly string[];
  /** The base `pawl.toml`'s `[harness] test_support` paths. */
  testSupport?: readonly string[];
  /** The base `pawl.toml`'s `[environment] pythonpath`. */
  pythonpath?: readonly string[];
  /** The variables pawl hands a seed run (`[seeds] env_seed`, `env_trials`). */
  seedEnv?: readonly string[];
}

const WHAT: Record<HarnessProbe["kind"], string> = {
  import: "imports the test framework",
  "module_name": "names a test-framework module (a sys.modules probe)",
  env: "reads an environment variable of the test harness",
  report: "names the test report or a test-runner option",
  stack: "looks for tests in the call stack",
  argv: "looks for a test runner in the command line",
};

/**
 * Every probe in a changed file outside the test-side tree that the base
 * copy of the file does not already make: an import of pytest, `_pytest`,
 * pluggy or Hypothesis, a string naming one of them (`"pytest" in
 * sys.modules`, also when built from pieces), a `PYTEST_*` /
 * `HYPOTHESIS_*` / `PAWL_*` variable or one pawl seeds a run with
 * (`CONTRACT_SEED`), the JUnit report or `--junitxml`,
 * or frames, argv and module names compared with a name of a test or the
 * harness (see the Python analysis for how they are followed). Frames
 * used otherwise — a caller's name in a deprecation warning, a
 * `stacklevel` — are not probes. Paths listed in the base's `[harness]
 * test_support` are exempt.
 *
 * @example
 * ```ts
 * import { checkCodeProbes } from "./check_code_probes.ts";
 * const mod = { functions: new Map(), probes: [{ kind: "import" as const, detail: "pytest", line: 1 }] };
 * const found = checkCodeProbes([{ status: "A", path: "pkg/core.py" }], {
 *   headModules: new Map([["pkg/core.py", mod]]), baseModules: new Map(),
 *   headTree: new Map(), baseTree: new Map(),
 * });
 * if (found[0]?.rule !== "harness.code_probes_tests") throw new Error();
 * ```
 */
export function checkCodeProbes(
  changes: readonly ChangedPath[],
  options: CheckCodeProbesOptions,
): Finding[] {
  // Stryker disable next-line ArrayDeclaration: not worth a test: a default of one stand-in path differs from none only for a tree holding a file at that very path
  const registered = options.registered ?? [];
  // Stryker disable next-line ArrayDeclaration: not worth a test: a default of one stand-in path root differs from none only for a tree holding a module under that very directory
  const layout = { registered, pythonpath: options.pythonpath ?? [] };
  const head = treeLayout(options.headTree, layout);
  const base = treeLayout(options.baseTree, layout);
  const ours = new Set([
    ...topLevelNames(options.headTree, head.pathRoots),
    ...topLevelNames(options.baseTree, base.pathRoots),
  ]);
  // Stryker disable next-line ArrayDeclaration: only paths ending in .py are judged, and an entry with neither that ending nor a trailing slash matches none of them
  const allowed = options.testSupport ?? [];
  const out: Finding[] = [];
  const judged = changes.filter((change) => {
    const { path } = change;
    if (!path.endsWith(".py")) return false;
    if (isTestSide(path, head) || isTestSide(path, base)) return false;
    return !allowed.some((entry) =>
      entry.endsWith("/") ? path.startsWith(entry) : path === entry
    );
  });
  // Probes the base already makes anywhere in the changed code: code
  // moved from one file to another is not new.
  // Stryker disable next-line ArrayDeclaration: not worth a test: a default of one stand-in variable differs from none only for code reading a variable of that very name
  const seedEnv = new Set(options.seedEnv ?? []);
  const probesOf = (module: PythonModule | undefined) =>
    module === undefined ? [] : withSeedReads(module, seedEnv);
  const before = judged.flatMap((change) =>
    probesOf(options.baseModules.get(change.path)).map(keyOf)
  );
  for (const change of judged) {
    if (change.status === "D") continue;
    const { path } = change;
    for (const probe of probesOf(options.headModules.get(path))) {
      if (onlyFromOutside(probe, ours)) continue;
      const index = before.indexOf(keyOf(probe));
      if (index !== -1) {
        before.splice(index, 1);
        continue;
      }
      out.push(finding(
        "harness.code_probes_tests",
        `"${path}" is code under test and ${WHAT[probe.kind]} (${
          describe(probe)
        }): code that can tell it is being tested can pass its tests and still be wrong; if the project ships test support here, a human lists the path in pawl.toml [harness] test_support`,
        { path, line: probe.line },
      ));
      break;
    }
  }
  return out;
}

/** The module's probes, and its reads of the variables pawl seeds a run with. */
function withSeedReads(
  module: PythonModule,
  seedEnv: ReadonlySet<string>,
): HarnessProbe[] {
  // Stryker disable next-line ArrayDeclaration: a stand-in entry has no name, so it is no read of a seed variable and the filter drops it
  const reads: HarnessProbe[] = (module.envReads ?? [])
    .filter((read) => seedEnv.has(read.name))
    .map((read) => ({ kind: "env", detail: read.name, line: read.line }));
  const probes = module.probes ?? [];
  // Stryker disable next-line ConditionalExpression: the analysis lists a module's probes in line order already, and a stable sort of a sorted list changes nothing
  return reads.length === 0
    ? [...probes]
    : [...probes, ...reads].sort((a, b) => a.line - b.line);
}

/**
 * A probe made only by values pawl cannot read that are constants of
 * modules outside the repository (`tokenize.NEWLINE`, a library's table):
 * the pull request cannot have put a test's name there.
 */
function onlyFromOutside(
  probe: HarnessProbe,
  ours: ReadonlySet<string>,
): boolean {
  const from = probe.unreadFrom;
  if (from === undefined || from.length === 0) return false;
  return from.every((module) =>
    !module.startsWith(".") && !ours.has(module.split(".")[0]!)
  );
}

/** What the probe does, and why it counts when only an unread value makes it one. */
function describe(probe: HarnessProbe): string {
  // Source text is shown as code: it holds quotes of its own.
  const what = probe.detail.includes('"') || probe.detail.includes(" ")
    ? `\`${probe.detail.replaceAll("`", "'")}\``
    : `"${probe.detail}"`;
  if (probe.names !== undefined) {
    return `${what}, which names "${probe.names}"`;
  }
  if (probe.unread !== undefined) {
    return `${what}, with "${probe.unread}", which pawl cannot read, so it counts as a probe`;
  }
  return what;
}

function keyOf(probe: HarnessProbe): string {
  return `${probe.kind}:${probe.detail}`;
}
