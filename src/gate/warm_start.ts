/**
 * When a test run's interpreter may start warm (see
 * `src/sandbox/_warm_python.ts`), decided from the base's settings and the
 * head tree pawl read from git before exporting it. Pure.
 *
 * A warm interpreter imports `runpy` and `pytest` (what `python3 -m
 * pytest` imports before any code of the repository's runs) with the
 * working copy and every search path inside it left off `sys.path`. A cold
 * run searches those first, so it is the same run only when none of them
 * holds a name the warm one looked up. Hypothesis is not among them: its
 * pytest plugin (`_hypothesis_pytestplugin`) does not import it, so a cold
 * run imports it only when a conftest or a test module does, after
 * pytest's own `sys.path` inserts, from wherever the repository's code
 * then makes it come; a warm import could not be the same.
 *
 * @module
 */
import type { Tree } from "../git/git.ts";
import type { Settings } from "../settings/settings.ts";
import { DEFAULT_PYTEST_COMMAND } from "../run/run_pytest.ts";

/**
 * Why the runs of these settings always start cold, or undefined when
 * they may start warm: only pawl's own `python3 -m pytest` command (no
 * custom `[tests] command`, no `[environment] python`, whose check runs
 * first, no setup step), no `pythonpath` (its entries are on `sys.path`
 * from the interpreter's start, when `site` imports `sitecustomize` and
 * the start-up modules: a tree holding one would run before the handover,
 * while its copy is still root's), and no `PYTHON*` variable of the base's
 * (`PYTHONSAFEPATH` and `PYTHONINSPECT` start `-c` and `-m` differently,
 * `PYTHONHOME` and `PYTHONSTARTUP` name files) nor `PATH` (which finds the
 * interpreter).
 */
export function coldStartReason(settings: Settings): string | undefined {
  if (settings.tests.runner !== "pytest") return "the runner is not pytest";
  if (settings.tests.command !== undefined) {
    const same = settings.tests.command.length ===
        DEFAULT_PYTEST_COMMAND.length &&
      settings.tests.command.every((a, i) => a === DEFAULT_PYTEST_COMMAND[i]);
    if (!same) return "the base names its own test command";
  }
  const { python, pythonpath, env, setup } = settings.environment;
  if (python !== undefined) return "the base names an interpreter";
  if (setup !== undefined) return "the base has a setup step";
  if (pythonpath.length > 0) return "the base sets pythonpath";
  const started = Object.keys(env).find((name) =>
    name.startsWith("PYTHON") || name === "PATH"
  );
  if (started !== undefined) return `the environment sets ${started}`;
  return undefined;
}

/**
 * Whether a warm interpreter that looked up `modules` is the cold run:
 * true when no directory a cold run searches before the system's (the
 * tree's root, for `-m`, and each `pythonpath` entry) holds an entry named
 * like one of them (`name`, `name.py`, `name.cpython-311-x86_64-linux-gnu.so`,
 * `name.pyc`, a package or namespace directory `name/`), nor distribution
 * metadata or a `.pth` file there.
 */
export function warmModulesUnshadowed(
  modules: readonly string[],
  tree: Tree,
  pythonpath: readonly string[],
): boolean {
  const names = new Set(modules);
  const dirs = [".", ...pythonpath];
  for (const path of tree.keys()) {
    for (const dir of dirs) {
      const rest = dir === "."
        ? path
        : path.startsWith(`${dir}/`)
        ? path.slice(dir.length + 1)
        : undefined;
      if (rest === undefined) continue;
      const top = rest.split("/")[0]!;
      if (shadows(top, names)) return false;
    }
  }
  return true;
}

const METADATA = [".dist-info", ".egg-info", ".egg-link", ".egg", ".pth"];

function shadows(entry: string, names: ReadonlySet<string>): boolean {
  if (METADATA.some((suffix) => entry.endsWith(suffix))) return true;
  const dot = entry.indexOf(".");
  return names.has(dot < 0 ? entry : entry.slice(0, dot));
}

/**
 * Why pawl leaves compiling these settings' runs' modules to the runs
 * (see `src/run/bytecode_compiler.ts`), or undefined when it compiles
 * them: only for the runs a warm interpreter could take (the same
 * `python3 -m pytest`, found on the same PATH, with no variable that
 * changes how it compiles), no `PYTEST*` variable (`PYTEST_ADDOPTS` can
 * change how asserts are rewritten), and no top-level `pytest` or
 * `_pytest` of the tree's (nor distribution metadata or a `.pth`) that the
 * run could import in place of the pytest whose rewriter pawl uses.
 */
export function compileBytecodeReason(
  settings: Settings,
  headTree: Tree,
): string | undefined {
  const cold = coldStartReason(settings);
  if (cold !== undefined) return cold;
  const pytest = Object.keys(settings.environment.env).find((name) =>
    name.startsWith("PYTEST")
  );
  if (pytest !== undefined) return `the environment sets ${pytest}`;
  if (mayHoldOwnPytest(headTree)) return "the tree may hold its own pytest";
  return undefined;
}

/**
 * Whether `headTree` holds a top-level `pytest` or `_pytest` (or
 * distribution metadata or a `.pth`) a run could import in place of the
 * pytest whose rewriter pawl compiles with: the part of
 * {@linkcode compileBytecodeReason} the tree decides alone.
 */
export function mayHoldOwnPytest(headTree: Tree): boolean {
  return !warmModulesUnshadowed(["pytest", "_pytest"], headTree, []);
}
