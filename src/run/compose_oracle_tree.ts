/**
 * The tree the base's oracle runs in: the head's code with every test-side
 * path as the base has it. A pure function over two tree listings.
 *
 * @module
 */
import { isBytecodePath } from "./remove_bytecode.ts";

/** One entry of a commit's tree listing (the shape of git's `TreeEntry`). */
export interface TreeEntry {
  /** Repository-relative path. */
  path: string;
  /** What the entry is. */
  kind: "file" | "executable" | "symlink" | "tree" | "submodule";
  /** Object id. */
  oid: string;
  /** Blob size in bytes. */
  size: number;
}

/** A commit's tree listing keyed by path (the shape of git's `Tree`). */
export type Tree = ReadonlyMap<string, TreeEntry>;

/** Options for {@linkcode composeOracleTree}. */
export interface ComposeOracleTreeOptions {
  /** Base files of the registered test modules (`tests/test_x.py`). */
  testModules: readonly string[];
  /** Further paths the harness rules count as harness (they come from the base too). */
  isHarness?: (path: string) => boolean;
}

/** Which paths of the oracle tree come from where. */
export interface OracleTree {
  /** Base entries (files, executables, symlinks) the head lacks or has otherwise, written over the head export. */
  fromBase: TreeEntry[];
  /** Head paths removed because they are test-side and the base has no such path. */
  dropFromHead: string[];
  /** Test roots: directories whose whole content is taken from the base. */
  testRoots: string[];
  /** Whether any test-side path differs base → head; when not, the oracle tree is the head tree. */
  differs: boolean;
}

/** pytest and Hypothesis configuration at the repository root. */
export const ROOT_CONFIG_FILES: readonly string[] = [
  "pytest.ini",
  ".pytest.ini",
  "pyproject.toml",
  "setup.cfg",
  "tox.ini",
];

const STARTUP_FILES = new Set(["sitecustomize.py", "usercustomize.py"]);

/**
 * The test root of a test module: its outermost ancestor directory whose
 * name says it holds tests (`tests`, `test`, `testing`, `unit_tests`, …),
 * or none when the module sits among code.
 */
export function testRootOf(module: string): string | undefined {
  const parts = module.split("/").slice(0, -1);
  // Stryker disable next-line EqualityOperator: one step past the end reads undefined, which names no test directory
  for (let i = 0; i < parts.length; i++) {
    // Stryker disable next-line StringLiteral: parts[i] is always there inside the loop; the fallback only satisfies the type checker
    if (/test/i.test(parts[i] ?? "")) return parts.slice(0, i + 1).join("/");
  }
  return undefined;
}

/**
 * A predicate for the test side of the tree: the registered test modules,
 * everything under their test roots, every `conftest.py`, the package
 * `__init__.py` files on the way to a test module, the root pytest and
 * Hypothesis configuration, interpreter start-up files (`*.pth`,
 * `sitecustomize.py`, `usercustomize.py`) and whatever `isHarness` adds.
 */
export function testSidePredicate(
  options: ComposeOracleTreeOptions,
): (path: string) => boolean {
  const roots = testRoots(options.testModules);
  const exact = new Set<string>([...options.testModules, ...ROOT_CONFIG_FILES]);
  for (const module of options.testModules) {
    const parts = module.split("/").slice(0, -1);
    for (let i = 0; i <= parts.length; i++) {
      const dir = parts.slice(0, i).join("/");
      exact.add(dir === "" ? "__init__.py" : `${dir}/__init__.py`);
    }
  }
  return (path) => {
    const name = path.slice(path.lastIndexOf("/") + 1);
    return exact.has(path) || name === "conftest.py" ||
      STARTUP_FILES.has(name) || name.endsWith(".pth") ||
      roots.some((root) => path.startsWith(`${root}/`)) ||
      (options.isHarness?.(path) ?? false);
  };
}

/**
 * Compose the oracle tree: a test-side path comes from the base (or is
 * absent when the base lacks it), every other path from the head. Bytecode
 * comes from neither. Trees and submodules are not listed; exporting the
 * head writes them.
 *
 * `pyproject.toml` is taken whole from the base: pawl runs the tests from
 * the exported tree and never builds or installs the project, so the
 * file's packaging tables do not reach the run, and its `[tool.pytest…]`
 * and `[tool.hypothesis]` tables must be the base's.
 *
 * @example
 * ```ts
 * import { composeOracleTree } from "./compose_oracle_tree.ts";
 * const entry = (path: string, oid: string) => ({ path, kind: "file" as const, oid, size: 1 });
 * const base = new Map([["tests/test_a.py", entry("tests/test_a.py", "1")], ["src/a.py", entry("src/a.py", "2")]]);
 * const head = new Map([["tests/test_a.py", entry("tests/test_a.py", "3")], ["src/a.py", entry("src/a.py", "4")]]);
 * const tree = composeOracleTree(base, head, { testModules: ["tests/test_a.py"] });
 * if (tree.fromBase[0]?.oid !== "1" || !tree.differs) throw new Error("unexpected");
 * ```
 */
export function composeOracleTree(
  base: Tree,
  head: Tree,
  options: ComposeOracleTreeOptions,
): OracleTree {
  const testSide = testSidePredicate(options);
  const fromBase: TreeEntry[] = [];
  const dropFromHead: string[] = [];
  let differs = false;
  const blobs = (e: TreeEntry) =>
    e.kind === "file" || e.kind === "executable" || e.kind === "symlink";
  const paths = new Set<string>();
  for (const tree of [base, head]) {
    for (const e of tree.values()) {
      if (blobs(e) && !isBytecodePath(e.path)) paths.add(e.path);
    }
  }
  for (const path of [...paths].sort()) {
    if (!testSide(path)) continue;
    const b = base.get(path);
    const h = head.get(path);
    const fromB = b !== undefined && blobs(b) ? b : undefined;
    // Stryker disable next-line ConditionalExpression: a listed path is a blob on one side; a head entry that is no blob differs from the base blob by kind anyway, and the base blob is taken
    const fromH = h !== undefined && blobs(h) ? h : undefined;
    // Stryker disable next-line OptionalChaining: the kinds are compared only when the oids agree, which a listed path (a blob on one side at least) reaches only with both sides there
    if (fromB?.oid === fromH?.oid && fromB?.kind === fromH?.kind) continue;
    differs = true;
    // Stryker disable ConditionalExpression: a listed path the base has no blob at is a head blob, so the head side is always there
    if (fromB !== undefined) fromBase.push(fromB);
    else if (fromH !== undefined) dropFromHead.push(path);
  }
  // Stryker restore ConditionalExpression
  // A test root the head turned into a file or symlink differs too.
  const roots = testRoots(options.testModules);
  for (const root of roots) {
    if (base.get(root)?.kind !== head.get(root)?.kind) differs = true;
  }
  return { fromBase, dropFromHead, testRoots: roots, differs };
}

function testRoots(modules: readonly string[]): string[] {
  const roots = new Set<string>();
  for (const m of modules) {
    const root = testRootOf(m);
    if (root !== undefined) roots.add(root);
  }
  return [...roots].sort();
}
