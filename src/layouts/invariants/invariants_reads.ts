/**
 * The files the shell must analyse and hash before seed 003's checks run.
 *
 * @module
 */
import type { Tree } from "../../git/git.ts";
import {
  checkFixturePath,
  REPOSITORY_ROOT,
} from "../../contract/check_fixture_path.ts";
import { fixtureLockEntries } from "./check_fixture_lock.ts";
import { effectiveFreezes } from "./effective_freezes.ts";
import type { InvariantsContract } from "./invariants_contract.ts";
import { registryModulePath } from "./registered_function.ts";

/** What {@linkcode invariantsReads} asks of the shell. */
export interface InvariantsReads {
  /** Head Python files to analyse: registered modules and frozen tests' files. */
  headModules: string[];
  /** Base Python files to analyse: the base registry's modules (for decorator comparisons). */
  baseModules: string[];
  /** Head files to SHA-256: locked fixtures and frozen tests' files (whole-file body hashes). */
  headDigests: string[];
}

/** The two trees {@linkcode invariantsReads} resolves paths in. */
export interface InvariantsTrees {
  /** The base commit's tree. */
  baseTree: Tree;
  /** The head commit's tree. */
  headTree: Tree;
}

/**
 * Which files the shell must parse and hash for one pull request. Only
 * safe paths that are regular files (no symlink on the way) are listed,
 * each once, sorted.
 *
 * @example
 * ```ts
 * import { invariantsReads } from "./invariants_reads.ts";
 * const path = "testdata/a.json";
 * const lock = { policy: { allowRotateOnAgentPr: false }, files: new Map([[path, "0".repeat(64)], ["../x", "0".repeat(64)]]), lineOf: () => undefined };
 * const reads = invariantsReads({
 *   registry: { base: undefined, head: null },
 *   lock: { base: lock, head: lock },
 *   freezes: { base: undefined, head: null },
 * }, { baseTree: new Map(), headTree: new Map([[path, { path, kind: "file" as const, oid: "1", size: 1 }]]) });
 * if (reads.headDigests.join() !== path) throw new Error();
 * ```
 */
export function invariantsReads(
  contract: InvariantsContract,
  trees: InvariantsTrees,
): InvariantsReads {
  const { registry, lock, freezes } = contract;
  const regular = (tree: Tree, paths: Iterable<string>) => {
    const out = new Set<string>();
    for (const path of paths) {
      const status = checkFixturePath(path, tree, { root: REPOSITORY_ROOT });
      if (status.status === "ok") out.add(path);
    }
    return [...out].sort();
  };
  const modulesOf = (properties: readonly { module: string }[] | undefined) =>
    (properties ?? []).map((p) => registryModulePath(p.module));
  const frozenFiles = [
    ...effectiveFreezes(freezes).map((f) => f.test?.file),
    // Stryker disable next-line ArrayDeclaration: the fallback stands for no usable head list; an entry that is not a freeze has no test and names no file
    ...(freezes.head?.freezes ?? []).map((f) => f.test?.file),
  ].filter((file): file is string => file !== undefined);
  return {
    headModules: regular(trees.headTree, [
      ...modulesOf(registry.base?.properties),
      ...modulesOf(registry.head?.properties),
      ...frozenFiles,
    ]),
    baseModules: regular(trees.baseTree, modulesOf(registry.base?.properties)),
    headDigests: regular(trees.headTree, [
      ...fixtureLockEntries(lock),
      ...frozenFiles,
    ]),
  };
}
