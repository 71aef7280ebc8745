/**
 * A pull request must not shadow what the base's setup step installed: a
 * new top-level module of that name on the tests' import path (the
 * repository root, `src/`, a test file's rootdir) would be imported in its
 * place. The interpreter the static rules ask knows nothing of the setup
 * step's output, so this rule runs once that output exists. Pure.
 *
 * @module
 */
import { type Finding, finding } from "../core/finding.ts";
import type { Tree } from "../git/git.ts";
import {
  topLevelName,
  topLevelNamesByRoot,
  treeLayout,
} from "../harness/harness_paths.ts";

/** Options for {@linkcode checkSetupShadowing}. */
export interface CheckSetupShadowingOptions {
  /** The base's tree listing. */
  baseTree: Tree;
  /** The head's tree listing. */
  headTree: Tree;
  /** Names the static rules already judge (the interpreter's own). */
  known?: ReadonlySet<string>;
}

/**
 * One `harness.package_shadowed` finding per head path that defines a
 * top-level module the base does not have in that path root and the setup
 * step installed.
 *
 * @example
 * ```ts
 * import { checkSetupShadowing } from "./check_setup_shadowing.ts";
 * const entry = (path: string) => ({ path, kind: "file" as const, oid: "0", size: 1 });
 * const found = checkSetupShadowing(["attrs"], {
 *   baseTree: new Map(),
 *   headTree: new Map([["attrs.py", entry("attrs.py")]]),
 * });
 * if (found[0]?.rule !== "harness.package_shadowed") throw new Error();
 * ```
 */
export function checkSetupShadowing(
  installed: readonly string[],
  options: CheckSetupShadowingOptions,
): Finding[] {
  const names = new Set(installed.filter((n) => !options.known?.has(n)));
  if (names.size === 0) return [];
  const roots = new Set([
    ...treeLayout(options.baseTree).pathRoots,
    ...treeLayout(options.headTree).pathRoots,
  ]);
  const atBase = topLevelNamesByRoot(options.baseTree, roots);
  const out: Finding[] = [];
  const reported = new Set<string>();
  for (const path of [...options.headTree.keys()].sort()) {
    for (const root of roots) {
      const name = topLevelName(path, root) ??
        namespaceName(path, root);
      if (name === undefined || !names.has(name)) continue;
      if (atBase.get(root)?.has(name) === true) continue;
      const key = `${root}\0${name}`;
      if (reported.has(key)) continue;
      reported.add(key);
      out.push(finding(
        "harness.package_shadowed",
        `The pull request added "${path}", a top-level module "${name}" on the tests' import path that shadows the module of that name the base's setup step installed: rename it`,
        { path },
      ));
    }
  }
  return out;
}

/** `<root>/<name>/….py`: a namespace package (or a package) named `name`. */
function namespaceName(path: string, root: string): string | undefined {
  const prefix = root === "" ? "" : `${root}/`;
  if (!path.startsWith(prefix) || !path.endsWith(".py")) return undefined;
  const parts = path.slice(prefix.length).split("/");
  if (parts.length < 2) return undefined;
  const first = parts[0] as string;
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(first) ? first : undefined;
}
