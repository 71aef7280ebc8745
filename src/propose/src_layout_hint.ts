/**
 * A src-layout project (its package under `src/`) is tested on its
 * checkout only when `src/` is on the import path; otherwise Python
 * imports an installed copy, or nothing. `propose` says so before the
 * first `pawl check` fails on it.
 *
 * @module
 */
import type { Tree } from "../git/git.ts";

/** Options for {@linkcode srcLayoutHint}. */
export interface SrcLayoutHintOptions {
  /** The commit's `[environment] pythonpath` (empty without `pawl.toml`). */
  pythonpath: readonly string[];
  /** The commit's `[tests] command`, when it sets one (it may set the path itself). */
  command?: readonly string[] | undefined;
}

/**
 * The sentence telling the user to set `[environment] pythonpath = ["src"]`
 * when `tree` has a package under `src/` and neither `pythonpath` nor a
 * test command of the commit's `pawl.toml` takes care of it, else
 * `undefined`.
 *
 * @example
 * ```ts
 * import { srcLayoutHint } from "./src_layout_hint.ts";
 * const path = "src/attr/__init__.py";
 * const tree = new Map([[path, { path, kind: "file" as const, oid: "0", size: 0 }]]);
 * if (!srcLayoutHint(tree, { pythonpath: [] })?.includes('pythonpath = ["src"]')) throw new Error();
 * if (srcLayoutHint(tree, { pythonpath: ["src"] }) !== undefined) throw new Error();
 * ```
 */
export function srcLayoutHint(
  tree: Tree,
  options: SrcLayoutHintOptions,
): string | undefined {
  if (options.pythonpath.includes("src") || options.command !== undefined) {
    return undefined;
  }
  const packages: string[] = [];
  for (const [path, entry] of tree) {
    if (entry.kind !== "file" && entry.kind !== "executable") continue;
    const match = /^src\/([A-Za-z_][A-Za-z0-9_]*)\/__init__\.py$/.exec(path);
    if (match !== null) packages.push(match[1]!);
  }
  if (packages.length === 0) return undefined;
  packages.sort();
  const named = packages.slice(0, 3).map((p) => JSON.stringify(p)).join(", ");
  const more = packages.length > 3 ? ` and ${packages.length - 3} more` : "";
  const where = tree.has("pawl.toml")
    ? "add it to the [environment] table of pawl.toml"
    : 'create pawl.toml with "[environment]" and "pythonpath = ["src"]"';
  return `The ${
    packages.length === 1 ? "package" : "packages"
  } ${named}${more} ${
    packages.length === 1 ? "is" : "are"
  } under "src/" (a src layout): pawl tests the checkout only with [environment] pythonpath = ["src"] in pawl.toml on the base branch, else Python imports an installed copy or none; ${where} (pawl propose never writes pawl.toml)`;
}
