/**
 * The code under test as the call recorder sees it: the `.py` files of the
 * head outside the test side (neither a test file nor under a test root,
 * at head or at base, nor in the base's oracle test side), and whether the
 * pull request changes that code: a `.py` file there, or a file in one of
 * its packages (data the code reads). A README or a document is no code.
 *
 * @module
 */
import type { Tree } from "../git/git.ts";
import { isTestSide, treeLayout } from "../harness/harness_paths.ts";

/** What {@linkcode codeUnderTest} found. */
export interface CodeUnderTest {
  /** Tree-relative `.py` files of the head's code under test, sorted. */
  files: string[];
  /** Whether a code file or a file of a code package differs between base and head. */
  changed: boolean;
}

/**
 * The head's code under test, and whether the pull request changes it.
 *
 * @example
 * ```ts
 * import { codeUnderTest } from "./tested_code.ts";
 * const file = (path: string, oid: string) => [path, { path, oid, kind: "file" as const, size: 1 }] as const;
 * const head = new Map([file("pkg/a.py", "1"), file("tests/test_a.py", "2")]);
 * const base = new Map([file("pkg/a.py", "0"), file("tests/test_a.py", "2")]);
 * const c = codeUnderTest(base, head, { registered: ["tests/test_a.py"] });
 * if (c.files.join() !== "pkg/a.py" || !c.changed) throw new Error();
 * ```
 */
export function codeUnderTest(
  baseTree: Tree,
  headTree: Tree,
  options: {
    registered: readonly string[];
    pythonpath?: readonly string[];
    isTestSide?: (path: string) => boolean;
  },
): CodeUnderTest {
  const layout = {
    registered: options.registered,
    pythonpath: options.pythonpath ?? [],
  };
  const head = treeLayout(headTree, layout);
  const base = treeLayout(baseTree, layout);
  const testSide = (path: string): boolean =>
    isTestSide(path, head) || isTestSide(path, base) ||
    (options.isTestSide?.(path) ?? false);
  const files = [...headTree.keys()].filter((path) =>
    path.endsWith(".py") && !testSide(path)
  ).sort();
  const paths = new Set([...baseTree.keys(), ...headTree.keys()]);
  const inPackage = (path: string): boolean => {
    const parts = path.split("/").slice(0, -1);
    return parts.some((_, i) => {
      const init = `${parts.slice(0, i + 1).join("/")}/__init__.py`;
      return headTree.has(init) || baseTree.has(init);
    });
  };
  const changed = [...paths].some((path) =>
    !testSide(path) && (path.endsWith(".py") || inPackage(path)) &&
    baseTree.get(path)?.oid !== headTree.get(path)?.oid
  );
  return { files, changed };
}
