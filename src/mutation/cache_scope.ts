/**
 * What of a side's tree the cache key of a mutant run covers (the
 * reasoning is in `mutation_cache.ts`): for the base's oracle, the test
 * side, the code side's files that are not Python modules, the Python
 * modules the run can import and the mutated file; for the head, the
 * whole tree.
 *
 * @module
 */
import { createHash } from "node:crypto";
import type { PythonParser } from "../python/load_python_parser.ts";
import type { CacheScope, SelectedProperty } from "./mutation_cache.ts";
import { reachableFiles } from "./reachable_files.ts";

/** Files Python or pytest run without a test importing them. */
const RUN_UNASKED = new Set([
  "conftest.py",
  "__init__.py",
  "sitecustomize.py",
  "usercustomize.py",
]);

/** Options for {@linkcode oracleCacheScope}. */
export interface OracleCacheScopeOptions {
  /** The Python parser. */
  parser: PythonParser;
  /** The oracle tree's files: path to content id (kind and object id), bytecode left out. */
  files: ReadonlyMap<string, string>;
  /** Whether a path is on the test side (taken from the base). */
  isTestSide: (path: string) => boolean;
  /** A file's text as the oracle tree has it. */
  read: (path: string) => Promise<string | undefined>;
  /** Directories absolute imports resolve from (see `reachableFiles`). */
  roots?: readonly string[] | undefined;
}

/**
 * The scope of a run on the base's oracle tree.
 *
 * @example
 * ```ts
 * import { loadPythonParser } from "../python/load_python_parser.ts";
 * import { oracleCacheScope } from "./cache_scope.ts";
 * const texts: Record<string, string> = {
 *   "tests/test_a.py": "import a\n", "a.py": "x = 1\n", "tool.py": "y = 2\n",
 * };
 * const parser = await loadPythonParser();
 * const scope = (tool: string) => oracleCacheScope({
 *   parser,
 *   files: new Map(Object.keys(texts).map((p) => [p, p === "tool.py" ? tool : p])),
 *   isTestSide: (p) => p.startsWith("tests/"),
 *   read: (p) => Promise.resolve(texts[p]),
 * });
 * const mutant = {
 *   id: "m0", file: "a.py", function: "f", line: 1, column: 5, endLine: 1,
 *   endColumn: 6, start: 4, end: 5, original: "1", replacement: "2",
 *   operator: "constant" as const,
 * };
 * const props = [{ key: "000/a", nodeId: "tests/test_a.py::test_a" }];
 * // tool.py is imported by nothing the run runs.
 * if (await scope("1")(mutant, props) !== await scope("2")(mutant, props)) {
 *   throw new Error("unexpected");
 * }
 * ```
 */
export function oracleCacheScope(options: OracleCacheScopeOptions): CacheScope {
  const { files, isTestSide } = options;
  // Stryker disable ArrayDeclaration: a line every scope starts with, or an entry no tree holds, leaves equal scopes equal and different ones different
  const fixed: string[] = [];
  const unasked: string[] = [];
  // Stryker restore ArrayDeclaration
  for (const [path, id] of [...files].sort(byPath)) {
    if (isTestSide(path)) {
      fixed.push(`t ${id} ${path}`);
      if (RUN_UNASKED.has(baseName(path))) unasked.push(path);
    } else if (!path.endsWith(".py")) fixed.push(`d ${id} ${path}`);
  }
  const fixedDigest = digest(fixed);
  // The modules a run reaches depend only on what it selects.
  const reached = new Map<string, Promise<string>>();
  const reach = (properties: readonly SelectedProperty[]) => {
    // Stryker disable next-line MethodExpression: reachableFiles gives its paths sorted, so the order only keys the memo
    const entries = [
      ...new Set([
        ...properties.map((p) => p.nodeId.split("::")[0] as string),
        ...unasked,
      ]),
    ].sort();
    // Stryker disable next-line StringLiteral: the entries are paths ending in .py, so no two lists of them join to the same text either way
    const id = entries.join("\n");
    let lines = reached.get(id);
    // Stryker disable next-line ConditionalExpression: reaching again gives the same digest; the memo only saves the work
    if (lines === undefined) {
      lines = reachableFiles(options.parser, entries, {
        has: (p) => files.has(p),
        read: options.read,
        roots: options.roots,
      }).then((paths) =>
        // Test-side and non-Python files are in `fixed` already.
        digest(paths.map((p) => `r ${files.get(p)} ${p}`))
      );
      reached.set(id, lines);
    }
    return lines;
  };
  return async (mutant, properties) =>
    digest([
      fixedDigest,
      await reach(properties),
      // Stryker disable next-line StringLiteral: a file absent from the tree is absent on both sides of a comparison
      `m ${files.get(mutant.file) ?? "absent"} ${mutant.file}`,
    ]);
}

/**
 * The scope of a run on a tree every file of which it may read: a digest
 * of all of them, the same for every mutant.
 */
export function wholeTreeScope(files: ReadonlyMap<string, string>): CacheScope {
  const all = digest([...files].sort(byPath).map(([p, id]) => `${id} ${p}`));
  return () => Promise.resolve(all);
}

function digest(lines: readonly string[]): string {
  return createHash("sha256").update(JSON.stringify(lines)).digest("hex");
}

/** Ascending by path; a map's paths are never equal. */
function byPath(a: [string, string], b: [string, string]): number {
  // Stryker disable next-line EqualityOperator: paths are never equal, and the other order sorts equal trees alike too
  return a[0] < b[0] ? -1 : 1;
}

function baseName(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}
