/**
 * The commonest first-run failure of a src-layout project: the tests
 * import the package, and Python finds an installed copy (or none) because
 * the checkout's `src/` is not on the import path. When a test run's
 * output says so, the finding or error says what to set.
 *
 * @module
 */
import type { Finding } from "../core/finding.ts";
import type { Tree } from "../git/git.ts";

/** Options for {@linkcode importPathHint}. */
export interface ImportPathHintOptions {
  /** The tree the tests ran from (read from git objects, not the run's copy). */
  tree: Tree;
  /** The base's `[environment] pythonpath`. */
  pythonpath: readonly string[];
}

/**
 * A sentence telling the user to add `[environment] pythonpath`, when
 * `text` (a traceback or a run's output) shows a package of the tree being
 * imported from an installed copy or not found, or `undefined`.
 *
 * @example
 * ```ts
 * import { importPathHint } from "./import_path_hint.ts";
 * const tree = new Map([["src/attr/__init__.py", { path: "src/attr/__init__.py", kind: "file" as const, oid: "0", size: 0 }]]);
 * const hint = importPathHint(
 *   "ImportError: cannot import name 'PY_3_10_PLUS' from 'attr._compat' (/usr/lib/python3/dist-packages/attr/_compat.py)",
 *   { tree, pythonpath: [] },
 * );
 * if (!hint?.includes('pythonpath = ["src"]')) throw new Error();
 * ```
 */
export function importPathHint(
  text: string,
  options: ImportPathHintOptions,
): string | undefined {
  const names = new Map<string, string>();
  for (const m of text.matchAll(/No module named '([A-Za-z_]\w*)/g)) {
    names.set(m[1] as string, "found no module of that name");
  }
  for (
    const m of text.matchAll(
      /\/(?:site|dist)-packages\/([A-Za-z_]\w*)(?:\/|\.py\b)/g,
    )
  ) {
    const name = m[1] as string;
    if (!names.has(name)) {
      names.set(name, "imported an installed copy from outside the tree");
    }
  }
  const configured = new Set(
    options.pythonpath.map((p) => p.replace(/\/+$/, "")),
  );
  for (const [name, what] of names) {
    const dir = packageDir(options.tree, name);
    if (dir === undefined || configured.has(dir)) continue;
    return `The tree has the package "${name}" in "${dir}/", but Python ${what}: to test the checkout, add [environment] pythonpath = ["${dir}"] to pawl.toml on the base branch`;
  }
  return undefined;
}

/**
 * A sentence for a base whose test files cannot import a module that is
 * neither in the tree nor installed where the sandbox runs (a test
 * dependency the runner lacks), or `undefined`: how to provide it, or how a
 * human excuses the files on this runner.
 *
 * @example
 * ```ts
 * import { missingDependencyHint } from "./import_path_hint.ts";
 * const hint = missingDependencyHint(
 *   "E   ModuleNotFoundError: No module named 'typing_extensions'",
 *   { tree: new Map(), files: ["tests/typing_test.py"] },
 * );
 * if (!hint?.includes('test = "tests/typing_test.py"')) throw new Error();
 * ```
 */
export function missingDependencyHint(
  text: string,
  options: { tree: Tree; files: readonly string[] },
): string | undefined {
  for (const m of text.matchAll(/No module named '([A-Za-z_][\w.]*)'/g)) {
    const name = (m[1] as string).split(".")[0] as string;
    if (inTree(options.tree, name)) continue;
    const first = options.files[0] ?? "tests/test_x.py";
    return `The tests import "${name}", which neither the tree nor the sandbox's Python has: install it where the sandbox sees it (a Debian package, [environment] python, or an [environment.setup] step in pawl.toml), or, if these files cannot run on this runner, excuse them in the base's pawl.toml ([[excuses]] test = "${first}" with owner, expires and reason)`;
  }
  return undefined;
}

/** Whether the tree has a top-level module or package `name` anywhere. */
function inTree(tree: Tree, name: string): boolean {
  for (const path of tree.keys()) {
    const parts = path.split("/");
    const last = parts[parts.length - 1];
    if (last === `${name}.py`) return true;
    if (last === "__init__.py" && parts[parts.length - 2] === name) return true;
  }
  return false;
}

/**
 * `findings` with the import-path hint added to each `tests` finding whose
 * message calls for it.
 */
export function withImportPathHints(
  findings: readonly Finding[],
  options: ImportPathHintOptions,
): Finding[] {
  return findings.map((f) => {
    if (f.layer !== "tests") return f;
    const hint = importPathHint(f.message, options);
    return hint === undefined ? f : { ...f, message: `${f.message}\n${hint}` };
  });
}

/** The top-level directory (not a test directory) holding package `name`. */
function packageDir(tree: Tree, name: string): string | undefined {
  const dirs: string[] = [];
  for (const path of tree.keys()) {
    const parts = path.split("/");
    if (parts.length === 3 && parts[1] === name && parts[2] === "__init__.py") {
      dirs.push(parts[0] as string);
    } else if (parts.length === 2 && parts[1] === `${name}.py`) {
      dirs.push(parts[0] as string);
    }
  }
  return dirs.filter((d) => !/test/i.test(d)).sort()[0];
}
