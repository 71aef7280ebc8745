/**
 * Where a dotted Python module lives in a git tree, as Python would find it.
 * Shared by the layouts that register tests by module and by the test stage.
 *
 * @module
 */
import type { Tree } from "../git/git.ts";

/**
 * The candidate files of a dotted module, in Python's own lookup order: a
 * regular package (`a/b/c/__init__.py`) wins over a module (`a/b/c.py`).
 *
 * @example
 * ```ts
 * import { modulePathCandidates } from "./module_path.ts";
 * if (modulePathCandidates("a.b").join() !== "a/b/__init__.py,a/b.py") throw new Error();
 * ```
 */
export function modulePathCandidates(module: string): [string, string] {
  const base = module.split(".").join("/");
  return [`${base}/__init__.py`, `${base}.py`];
}

/**
 * The file a dotted module resolves to in `tree`, or `undefined`. Only
 * regular files count: a symlinked module (or one under a symlinked
 * directory, which a git tree does not list) is not resolved.
 *
 * @example
 * ```ts
 * import { modulePath } from "./module_path.ts";
 * const path = "tests/properties/test_parse.py";
 * const tree = new Map([[path, { path, kind: "file" as const, oid: "1", size: 9 }]]);
 * if (modulePath("tests.properties.test_parse", tree) !== path) throw new Error();
 * ```
 */
export function modulePath(module: string, tree: Tree): string | undefined {
  return modulePathCandidates(module).find((candidate) => {
    const kind = tree.get(candidate)?.kind;
    return kind === "file" || kind === "executable";
  });
}
