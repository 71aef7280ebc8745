/**
 * Finding a registered property function the way seed 003's checker does:
 * `Path(*module.split(".")).with_suffix(".py")`, then the first
 * module-level `def` (not `async def`) of that name.
 *
 * @module
 */
import type { Tree } from "../../git/git.ts";
import type {
  PythonFunction,
  PythonModule,
} from "../../python/python_module.ts";

/**
 * The file seed 003's checker opens for a dotted module: `a.b.c` →
 * `a/b/c.py` (never a package's `__init__.py`).
 *
 * @example
 * ```ts
 * import { registryModulePath } from "./registered_function.ts";
 * if (registryModulePath("tests.properties.test_parse") !== "tests/properties/test_parse.py") throw new Error();
 * ```
 */
export function registryModulePath(module: string): string {
  return `${module.split(".").join("/")}.py`;
}

/** What {@linkcode registeredFunction} found. */
export type RegisteredFunction =
  /** The module file is not a regular file in the tree, or was not analysed. */
  | { status: "module_missing"; path: string }
  /** No module-level function of that name. */
  | { status: "test_missing"; path: string; module: PythonModule }
  /** The name is bound by `async def`, which the seed's checker never finds. */
  | { status: "async"; path: string; fn: PythonFunction }
  /** Found; `fn.shadowedLines` lists earlier definitions of the name. */
  | { status: "ok"; path: string; fn: PythonFunction };

/** Where {@linkcode registeredFunction} looks. */
export interface RegisteredFunctionOptions {
  /** The commit's tree. */
  tree: Tree;
  /** Analyses of the commit's Python files, keyed by path. */
  modules: ReadonlyMap<string, PythonModule>;
}

/**
 * Resolve a registered `module` / `function` in a tree and its analyses.
 * Only regular files count (a symlinked module is missing), and only
 * module-level functions (a method of the same name is not the property).
 *
 * @example
 * ```ts
 * import { registeredFunction } from "./registered_function.ts";
 * const target = { module: "tests.test_p", function: "test_p" };
 * const found = registeredFunction(target, { tree: new Map(), modules: new Map() });
 * if (found.status !== "module_missing" || found.path !== "tests/test_p.py") throw new Error();
 * ```
 */
export function registeredFunction(
  target: { module: string; function: string },
  options: RegisteredFunctionOptions,
): RegisteredFunction {
  const { tree, modules } = options;
  const name = target.function;
  const path = registryModulePath(target.module);
  const kind = tree.get(path)?.kind;
  const analysed = modules.get(path);
  if ((kind !== "file" && kind !== "executable") || analysed === undefined) {
    return { status: "module_missing", path };
  }
  const fn = analysed.functions.get(name);
  if (fn === undefined) {
    return { status: "test_missing", path, module: analysed };
  }
  if (/^async\b/.test(fn.source)) return { status: "async", path, fn };
  return { status: "ok", path, fn };
}
