/**
 * Fixture path hygiene shared by every contract dialect: a fixture is a
 * regular file at a canonical path inside the fixture root, reached without
 * following any symlink.
 *
 * @module
 */
import type { Tree, TreeEntry } from "../git/git.ts";

/** The default fixture root (seed 000). */
export const DEFAULT_FIXTURE_ROOT = "tests/fixtures";

/**
 * The root that means "anywhere in the repository" (seed 003, whose
 * fixtures may live in `testdata/` or any other folder).
 */
export const REPOSITORY_ROOT = "";

/** What {@linkcode checkFixturePath} found. */
export type FixturePathStatus =
  /** A regular (possibly executable) file: safe to hash. */
  | { status: "ok"; entry: TreeEntry }
  /** The path itself is unsafe; `reason` completes "The path ...". */
  | { status: "unsafe"; reason: string }
  /** Nothing at the path in the tree. */
  | { status: "missing"; reason: string }
  /** A symlink, directory or submodule at or above the path. */
  | { status: "not_regular"; reason: string; at: string };

/** Options for {@linkcode checkFixturePath}. */
export interface CheckFixturePathOptions {
  /**
   * Fixture root, or several (a path must be inside one), without trailing
   * slash (default `tests/fixtures`); {@linkcode REPOSITORY_ROOT} (`""`) or
   * `"."` allows any path in the repository.
   */
  root?: string | readonly string[];
}

/**
 * The roots as a person reads them, for messages: `"tests/fixtures/"`,
 * `"tests/" or "data/"`, or `the repository`.
 *
 * @example
 * ```ts
 * import { describeFixtureRoots } from "./check_fixture_path.ts";
 * if (describeFixtureRoots(["tests", "data"]) !== '"tests/" or "data/"') throw new Error();
 * ```
 */
export function describeFixtureRoots(
  root: string | readonly string[] = DEFAULT_FIXTURE_ROOT,
): string {
  const roots = typeof root === "string" ? [root] : root;
  if (roots.some(isWholeRepository)) return "the repository";
  return roots.map((r) => JSON.stringify(`${r}/`)).join(" or ");
}

function isWholeRepository(root: string): boolean {
  return root === REPOSITORY_ROOT || root === ".";
}

/**
 * Classify a fixture path against a tree. Unsafe: empty, absolute (`/x`,
 * `C:x`), backslashes, control characters, empty, `.` or `..` segments, or
 * not strictly inside a `root` (any path is inside {@linkcode REPOSITORY_ROOT}). Not regular: the entry, or any directory above
 * it, is a symlink; or the entry is a directory or submodule.
 *
 * @example
 * ```ts
 * import { checkFixturePath } from "./check_fixture_path.ts";
 * const tree = new Map([["tests/fixtures/a.json", { path: "tests/fixtures/a.json", kind: "file" as const, oid: "1", size: 2 }]]);
 * if (checkFixturePath("tests/fixtures/a.json", tree).status !== "ok") throw new Error();
 * if (checkFixturePath("tests/fixtures/../a.json", tree).status !== "unsafe") throw new Error();
 * ```
 */
export function checkFixturePath(
  path: string,
  tree: Tree,
  options: CheckFixturePathOptions = {},
): FixturePathStatus {
  const root = options.root ?? DEFAULT_FIXTURE_ROOT;
  const unsafe = pathProblem(path, typeof root === "string" ? [root] : root);
  if (unsafe !== undefined) return { status: "unsafe", reason: unsafe };
  const segments = path.split("/");
  for (let n = 1; n < segments.length; n++) {
    const parent = segments.slice(0, n).join("/");
    const entry = tree.get(parent);
    if (entry === undefined || entry.kind === "tree") continue;
    if (entry.kind === "symlink") {
      return {
        status: "not_regular",
        reason: `goes through the symlink ${JSON.stringify(parent)}`,
        at: parent,
      };
    }
    if (entry.kind === "submodule") {
      return {
        status: "not_regular",
        reason: `is inside the submodule ${JSON.stringify(parent)}`,
        at: parent,
      };
    }
    return {
      status: "missing",
      reason: `does not exist: ${JSON.stringify(parent)} is a file`,
    };
  }
  const entry = tree.get(path);
  if (entry === undefined) {
    return { status: "missing", reason: "does not exist" };
  }
  switch (entry.kind) {
    case "file":
    case "executable":
      return { status: "ok", entry };
    case "symlink":
      return { status: "not_regular", reason: "is a symlink", at: path };
    case "tree":
      return { status: "not_regular", reason: "is a directory", at: path };
    case "submodule":
      return { status: "not_regular", reason: "is a submodule", at: path };
  }
}

function pathProblem(
  path: string,
  roots: readonly string[],
): string | undefined {
  if (path === "") return "is empty";
  // deno-lint-ignore no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(path)) return "contains a control character";
  if (path.startsWith("/") || /^[A-Za-z]:/.test(path)) return "is absolute";
  if (path.includes("\\")) return "contains a backslash";
  const segments = path.split("/");
  if (segments.includes("..")) return `contains a ".." segment`;
  if (segments.includes(".")) return `contains a "." segment`;
  if (segments.includes("")) return "contains an empty segment";
  if (roots.some(isWholeRepository)) return undefined;
  const inside = roots.some((root) => {
    const rootSegments = root.split("/");
    return segments.length > rootSegments.length &&
      rootSegments.every((segment, i) => segments[i] === segment);
  });
  if (!inside) return `is outside ${describeFixtureRoots(roots)}`;
  return undefined;
}
