/**
 * Which files run before any test: the test files pytest collects, the
 * `__init__.py` files on the way to them, the directories pytest puts on
 * `sys.path`, the test-side tree, and the top-level names the project
 * itself owns (its own packages are code, not harness).
 *
 * @module
 */
import { parse as parseToml } from "smol-toml";
import type { Tree } from "../git/git.ts";
import { iniSection } from "./_ini_section.ts";

/** Directory segments that mark a test-side tree. */
const TEST_DIRS = new Set(["tests", "test", "testing"]);

/** The last path segment. */
export function baseName(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}

function dirName(path: string): string {
  const slash = path.lastIndexOf("/");
  return slash === -1 ? "" : path.slice(0, slash);
}

/**
 * Whether pytest collects `path` as a test module or runs it as a conftest
 * (its default `python_files` and conftest discovery).
 *
 * @example
 * ```ts
 * import { isTestFile } from "./harness_paths.ts";
 * if (!isTestFile("tests/unit/test_a.py") || isTestFile("src/pkg/a.py")) throw new Error();
 * ```
 */
export function isTestFile(path: string): boolean {
  const name = baseName(path);
  return name === "conftest.py" ||
    (name.endsWith(".py") &&
      (name.startsWith("test_") || name.endsWith("_test.py")));
}

/** What the harness rules need to know about one commit's tree. */
export interface TreeLayout {
  /** Directories holding or above a test file (`""` is the root). */
  testDirs: ReadonlySet<string>;
  /** Directories pytest (prepend import mode), the root and the configuration put on `sys.path`. */
  pathRoots: ReadonlySet<string>;
  /** Test-side roots: directories whose whole subtree belongs to the tests. */
  testRoots: ReadonlySet<string>;
}

/**
 * Read a tree's layout. `pythonpath` lists the configured extra path
 * entries (from the base's pytest configuration).
 */
export function treeLayout(
  tree: Tree,
  options: { pythonpath?: readonly string[]; registered?: readonly string[] } =
    {},
): TreeLayout {
  const testDirs = new Set<string>([""]);
  const pathRoots = new Set<string>(["", "src"]);
  const testRoots = new Set<string>();
  for (const entry of options.pythonpath ?? []) {
    pathRoots.add(entry.replace(/^\.\/?/, "").replace(/\/+$/, ""));
  }
  const hasInit = (dir: string) =>
    // Stryker disable next-line ConditionalExpression,StringLiteral: the walk up stops at the root before asking it, so hasInit is never asked about ""
    tree.has(dir === "" ? "__init__.py" : `${dir}/__init__.py`);
  const files = [...tree.keys()].filter(isTestFile);
  // Stryker disable next-line ArrayDeclaration: not worth a test: a default of one stand-in path differs from none only for a tree holding a file at that very path
  files.push(...(options.registered ?? []));
  for (const file of files) {
    let dir = dirName(file);
    // pytest inserts the first directory upwards without an __init__.py.
    let basedir = dir;
    while (basedir !== "" && hasInit(basedir)) basedir = dirName(basedir);
    pathRoots.add(basedir);
    for (;; dir = dirName(dir)) {
      testDirs.add(dir);
      if (dir === "") break;
    }
    testRoots.add(testRoot(file, hasInit));
  }
  return { testDirs, pathRoots, testRoots };
}

/** The directory a test file's test-side tree starts at. */
function testRoot(file: string, hasInit: (dir: string) => boolean): string {
  // Stryker disable next-line MethodExpression,ConditionalExpression,StringLiteral: git paths have no empty segments, and the root's one empty segment names no test directory
  const parts = dirName(file).split("/").filter((p) => p !== "");
  const index = parts.findIndex((p) => TEST_DIRS.has(p));
  if (index !== -1) return parts.slice(0, index + 1).join("/");
  // Outside a tests/ directory, only the file's own directory (and any
  // package chain below it) counts as the test side.
  void hasInit;
  const dir = dirName(file);
  return dir === "" ? file : dir;
}

/** `value[k1][k2]...`, or undefined where a step is not a table. */
function dig(value: unknown, ...keys: string[]): unknown {
  let current = value;
  for (const key of keys) {
    // Stryker disable next-line ConditionalExpression: every value dug is parsed TOML, which has no null, so the null test never decides
    if (current === null || typeof current !== "object") return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

function list(value: unknown): unknown[] {
  // Stryker disable next-line ArrayDeclaration: the stand-in entry is no import name, so every caller drops it
  return Array.isArray(value) ? value : [];
}

/** Whether `path` lies in the test-side tree of `layout`. */
export function isTestSide(path: string, layout: TreeLayout): boolean {
  if (isTestFile(path)) return true;
  for (const root of layout.testRoots) {
    if (path === root || path.startsWith(`${root}/`)) return true;
  }
  return false;
}

/**
 * The top-level module name `path` defines in a path root, if any:
 * `<root>/<name>.py`, `<root>/<name>/__init__.py`, or an extension module
 * `<root>/<name>.<tag>.so`.
 */
export function topLevelName(path: string, root: string): string | undefined {
  const prefix = root === "" ? "" : `${root}/`;
  if (!path.startsWith(prefix)) return undefined;
  const rest = path.slice(prefix.length);
  const parts = rest.split("/");
  if (parts.length === 1) {
    const m =
      /^([A-Za-z_][A-Za-z0-9_]*)(\.py|\.pyw|\.[A-Za-z0-9_-]+\.so|\.so|\.pyd)$/
        .exec(rest);
    return m?.[1];
  }
  if (parts.length === 2 && parts[1] === "__init__.py") {
    return /^[A-Za-z_][A-Za-z0-9_]*$/.test(parts[0] as string)
      ? parts[0]
      : undefined;
  }
  return undefined;
}

/**
 * Top-level module and package names a tree defines in the given path
 * roots: modules, regular packages and namespace package directories
 * (any `.py` below a directory of the root). One pass over the tree, each
 * path checked against its own ancestors.
 */
export function topLevelNames(
  tree: Tree,
  roots: Iterable<string>,
): Set<string> {
  return new Set(
    [...topLevelNamesByRoot(tree, roots).values()].flatMap((names) => [
      ...names,
    ]),
  );
}

/** {@linkcode topLevelNames} per path root. */
export function topLevelNamesByRoot(
  tree: Tree,
  roots: Iterable<string>,
): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const root of roots) out.set(root, new Set());
  for (const path of tree.keys()) {
    const parts = path.split("/");
    // Stryker disable next-line EqualityOperator: not worth a test: the extra step differs only where a configured path root names a file, which Python never imports from
    for (let depth = 0; depth < parts.length; depth++) {
      const root = parts.slice(0, depth).join("/");
      const names = out.get(root);
      if (names === undefined) continue;
      const rest = parts.slice(depth);
      if (rest.length === 1) {
        const name = topLevelName(path, root);
        if (name !== undefined) names.add(name);
      } else if (
        path.endsWith(".py") &&
        /^[A-Za-z_][A-Za-z0-9_]*$/.test(rest[0] as string)
      ) {
        names.add(rest[0] as string);
      }
    }
  }
  return out;
}

/**
 * Names the project's packaging metadata claims: `[project] name`,
 * `[tool.setuptools] packages` / `py-modules` / `package-dir`, Poetry's
 * `name` and `packages`, and `setup.cfg`'s `name`, `packages` and
 * `py_modules`. Normalised to import names (`my-pkg` → `my_pkg`).
 */
export function packagingNames(
  texts: ReadonlyMap<string, string>,
): Set<string> {
  const out = new Set<string>();
  const add = (value: unknown) => {
    if (typeof value !== "string") return;
    // Stryker disable next-line OptionalChaining: split always yields a first piece
    const top = value.split(/[./]/)[0]?.trim().toLowerCase().replace(
      /[-.]/g,
      "_",
    );
    // Stryker disable next-line ConditionalExpression: split always yields a first piece, so top is never undefined
    if (top !== undefined && /^[a-z_][a-z0-9_]*$/.test(top)) out.add(top);
  };
  const pyproject = texts.get("pyproject.toml");
  // Stryker disable next-line ConditionalExpression: parsing a missing text throws, and the catch below claims nothing as well
  if (pyproject !== undefined) {
    try {
      const doc: unknown = parseToml(pyproject);
      add(dig(doc, "project", "name"));
      list(dig(doc, "tool", "setuptools", "packages")).forEach(add);
      list(dig(doc, "tool", "setuptools", "py-modules")).forEach(add);
      const packageDir = dig(doc, "tool", "setuptools", "package-dir");
      // Stryker disable next-line ConditionalExpression: parsed TOML has no null, so the null test always holds
      if (packageDir !== null && typeof packageDir === "object") {
        Object.keys(packageDir).forEach(add);
      }
      add(dig(doc, "tool", "poetry", "name"));
      for (const p of list(dig(doc, "tool", "poetry", "packages"))) {
        add(dig(p, "include"));
      }
      for (
        const p of list(
          dig(doc, "tool", "hatch", "build", "targets", "wheel", "packages"),
        )
      ) {
        if (typeof p === "string") add(baseName(p));
      }
    } catch {
      // An unparseable pyproject.toml claims nothing.
    }
  }
  const cfg = texts.get("setup.cfg");
  if (cfg !== undefined) {
    // Stryker disable next-line StringLiteral: the stand-in line holds no name key, so a missing section still claims nothing
    for (const line of (iniSection(cfg, "metadata") ?? "").split("\n")) {
      const m = /^name[=:](.*)$/.exec(line);
      if (m !== null) add(m[1]);
    }
    // A list may go on over indented lines: `packages =`, then one a line.
    let listing = false;
    // Stryker disable next-line StringLiteral: the stand-in line holds no key, so a missing section still claims nothing
    for (const line of (iniSection(cfg, "options") ?? "").split("\n")) {
      const m = /^([\w.-]+)[=:](.*)$/.exec(line);
      if (m !== null) listing = m[1] === "packages" || m[1] === "py_modules";
      // Stryker disable next-line Regex: the empty pieces a single separator leaves are no import names, so add drops them
      if (listing) (m === null ? line : m[2]!).split(/[\s,]+/).forEach(add);
    }
  }
  return out;
}

/** `pythonpath` entries of the pytest configuration (pyproject.toml, pytest.ini, tox.ini, setup.cfg). */
export function configuredPythonpath(
  texts: ReadonlyMap<string, string>,
): string[] {
  const out: string[] = [];
  const pyproject = texts.get("pyproject.toml");
  // Stryker disable next-line ConditionalExpression: parsing a missing text throws, and the catch below reads nothing as well
  if (pyproject !== undefined) {
    try {
      const value = dig(
        parseToml(pyproject),
        "tool",
        "pytest",
        "ini_options",
        "pythonpath",
      );
      if (Array.isArray(value)) {
        out.push(...value.filter((v): v is string => typeof v === "string"));
      }
      // Stryker disable next-line ConditionalExpression,Regex: a value that is no string has no split, and the catch then keeps what was read as well; the empty pieces a single separator leaves are dropped below
      if (typeof value === "string") out.push(...value.split(/\s+/));
    } catch {
      // Ignored: the config rules report an unparseable file.
    }
  }
  for (
    const [file, section] of [["pytest.ini", "pytest"], ["tox.ini", "pytest"], [
      "setup.cfg",
      "tool:pytest",
    ]] as const
  ) {
    const text = texts.get(file);
    if (text === undefined) continue;
    // Stryker disable next-line StringLiteral: the stand-in line holds no pythonpath key, so a missing section still reads nothing
    const body = iniSection(text, section) ?? "";
    const lines = body.split("\n");
    const index = lines.findIndex((l) => /^pythonpath[=:]/.test(l));
    if (index === -1) continue;
    out.push(
      // Stryker disable next-line Regex: the line found starts with the key, so its first match is at the start; the empty pieces a single separator leaves are dropped below
      ...(lines[index] as string).replace(/^pythonpath[=:]/, "").split(/\s+/),
    );
  }
  return out.filter((entry) =>
    entry !== "" && !entry.startsWith("/") && !entry.includes("..")
  );
}

/** pytest and Hypothesis configuration files (at any depth: pytest finds its rootdir upwards). */
const CONFIG_FILES = new Set([
  "pytest.ini",
  ".pytest.ini",
  "pyproject.toml",
  "setup.cfg",
  "tox.ini",
]);

/**
 * Whether `path` is a harness file in a tree of this layout: it runs
 * before any test or decides what a result means (conftest files,
 * `__init__.py` in a directory that holds or is above a test file, `.pth`,
 * `sitecustomize.py`/`usercustomize.py`, bytecode, pytest configuration).
 * For restoring the base's harness in an oracle run; the static rules
 * judge each kind with its own finding.
 *
 * @example
 * ```ts
 * import { isHarnessPath, treeLayout } from "./harness_paths.ts";
 * const tree = new Map([["tests/test_a.py", { path: "tests/test_a.py", kind: "file" as const, oid: "1", size: 1 }]]);
 * const layout = treeLayout(tree);
 * if (!isHarnessPath("tests/__init__.py", layout) || isHarnessPath("src/pkg/__init__.py", layout)) throw new Error();
 * ```
 */
export function isHarnessPath(path: string, layout: TreeLayout): boolean {
  const name = baseName(path);
  if (
    name === "conftest.py" || name.endsWith(".pth") ||
    name === "sitecustomize.py" || name === "usercustomize.py" ||
    CONFIG_FILES.has(name)
  ) return true;
  if (path.split("/").includes("__pycache__") || /\.py[co]$/.test(path)) {
    return true;
  }
  return name === "__init__.py" && layout.testDirs.has(dirName(path));
}
