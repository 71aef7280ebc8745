/**
 * Which Python files a proposal looks at, and under which module name.
 *
 * @module
 */
import { modulePathCandidates } from "../contract/module_path.ts";
import type { Tree } from "../git/git.ts";

/** Python's hard keywords: a path segment spelled like one cannot be imported. */
const KEYWORDS = new Set([
  "False",
  "None",
  "True",
  "and",
  "as",
  "assert",
  "async",
  "await",
  "break",
  "class",
  "continue",
  "def",
  "del",
  "elif",
  "else",
  "except",
  "finally",
  "for",
  "from",
  "global",
  "if",
  "import",
  "in",
  "is",
  "lambda",
  "nonlocal",
  "not",
  "or",
  "pass",
  "raise",
  "return",
  "try",
  "while",
  "with",
  "yield",
]);

/** ASCII only: pawl's contract schemas accept ASCII dotted names. */
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Directories whose Python files are tests or test support, never public API. */
const TEST_DIRECTORIES = new Set(["tests", "test"]);

/** Files that are never public API even outside a test directory. */
const NOT_API = new Set(["conftest.py", "setup.py"]);

/** What a Python file is to a proposal. */
export interface PythonFileRole {
  /**
   * `test`: a file pytest collects by default (`test_*.py`, `*_test.py`);
   * `source`: a public module (seed 002's step 1); `other`: neither.
   */
  role: "test" | "source" | "other";
  /** The dotted module, when the file can be registered under one. */
  module?: string;
  /** Why a `test` or `source` file has no `module`. */
  problem?: string;
}

/** Whether pytest's default `python_files` patterns collect `path`. */
export function isTestFile(path: string): boolean {
  const name = path.slice(path.lastIndexOf("/") + 1);
  return /^test_.*\.py$/.test(name) || /^.+_test\.py$/.test(name);
}

/**
 * Classify one path of `tree`. A module name is the path with `/` as `.`
 * and without `.py` (`pkg/__init__.py` is `pkg`), taken literally as pawl
 * resolves property modules; only a public module of a "src layout" (a
 * `src/` directory without `src/__init__.py`) is named without the `src.`
 * its callers never write. It must be made of ASCII identifiers that are
 * not keywords, and must resolve back to this very file (a package
 * `a/b/__init__.py` hides a module `a/b.py`).
 */
export function pythonFileRole(path: string, tree: Tree): PythonFileRole {
  if (!path.endsWith(".py")) return { role: "other" };
  const segments = path.slice(0, -".py".length).split("/");
  if (segments.at(-1) === "__init__") segments.pop();
  let role: PythonFileRole["role"];
  if (isTestFile(path)) {
    role = "test";
  } else {
    const name = path.slice(path.lastIndexOf("/") + 1);
    const directories = path.split("/").slice(0, -1);
    // A root `__init__.py` names no module: nothing to propose.
    const isPrivate = segments.length === 0 ||
      segments.some((segment) => segment.startsWith("_"));
    if (
      NOT_API.has(name) || isPrivate ||
      directories.some((segment) => TEST_DIRECTORIES.has(segment))
    ) {
      return { role: "other" };
    }
    role = "source";
  }
  const kind = tree.get(path)?.kind;
  if (kind !== "file" && kind !== "executable") {
    return { role, problem: "it is not a regular file in the tree" };
  }
  const bad = segments.find((segment) =>
    !IDENTIFIER.test(segment) || KEYWORDS.has(segment)
  );
  if (bad !== undefined) {
    return {
      role,
      problem: `its path is not an importable module name: ${
        JSON.stringify(bad)
      } is not an ASCII Python identifier`,
    };
  }
  const srcLayout = role === "source" && segments.length > 1 &&
    segments[0] === "src" && !tree.has("src/__init__.py");
  const root = srcLayout ? "src/" : "";
  const module = segments.slice(srcLayout ? 1 : 0).join(".");
  const resolved = modulePathCandidates(module)
    .map((candidate) => root + candidate)
    .find((candidate) => {
      const found = tree.get(candidate)?.kind;
      return found === "file" || found === "executable";
    });
  if (resolved !== path) {
    return {
      role,
      problem: `its module ${JSON.stringify(module)} resolves to ${
        JSON.stringify(resolved ?? "nothing")
      } first`,
    };
  }
  return { role, module };
}
