// Which tests a mutant of one file is run against.
//
// The unit tests are found in the module graph: every test module that
// imports the file, directly or through other modules, nearest first, with
// the test beside the file (foo.ts → foo_test.ts) ahead of the rest. End-to-end
// tests spawn pawl as a program, so the graph cannot see them; they come from
// a named table by path prefix (./e2e_tests.ts) and run only on mutants the
// unit tests leave alive.

/** Local module → the local modules it imports for code, as paths relative to the root. */
export type ModuleGraph = ReadonlyMap<string, readonly string[]>;

/** A unit test module: the repository's src/ tests and main_test.ts. */
export function isUnitTest(path: string): boolean {
  return path.endsWith("_test.ts") &&
    (path.startsWith("src/") || path === "main_test.ts");
}

/** The test beside a source file: src/a/foo.ts → src/a/foo_test.ts. */
export function besideTest(path: string): string {
  return path.replace(/\.ts$/, "_test.ts");
}

/**
 * How near a test sits to a file in the folder tree, for tests at the same
 * import distance: the beside test nearest, then tests sharing more leading
 * folders (a sibling's test before one from another part of src/).
 */
export function nearness(file: string, test: string): number {
  if (test === besideTest(file)) return Number.MAX_SAFE_INTEGER;
  const a = file.split("/").slice(0, -1);
  const b = test.split("/").slice(0, -1);
  let shared = 0;
  while (shared < a.length && shared < b.length && a[shared] === b[shared]) {
    shared++;
  }
  return shared;
}

/** Every module `entry` loads, itself included: the program, without the tests' own aids. */
export function loadedBy(graph: ModuleGraph, entry: string): Set<string> {
  const seen = new Set<string>();
  const stack = [entry];
  while (stack.length > 0) {
    const module = stack.pop()!;
    if (seen.has(module) || !graph.has(module)) continue;
    seen.add(module);
    stack.push(...graph.get(module)!);
  }
  return seen;
}

/** Who imports whom, turned around: module → the modules that import it. */
export function importers(graph: ModuleGraph): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const [from, deps] of graph) {
    for (const dep of deps) {
      const list = out.get(dep) ?? [];
      if (!list.includes(from)) list.push(from);
      out.set(dep, list);
    }
  }
  for (const list of out.values()) list.sort();
  return out;
}

/**
 * The unit tests that load `file`, nearest in the import graph first and,
 * at the same distance, nearest in the folder tree (`nearness`), at most
 * `limit` of them.
 * A test module that is itself the file is never its own test.
 */
export function unitTestsFor(
  file: string,
  byImporter: ReadonlyMap<string, readonly string[]>,
  limit: number,
): string[] {
  const found: string[] = [];
  const seen = new Set<string>([file]);
  let frontier = [file];
  while (frontier.length > 0 && found.length < limit) {
    const next: string[] = [];
    const tests: string[] = [];
    for (const module of frontier) {
      for (const importer of byImporter.get(module) ?? []) {
        if (seen.has(importer)) continue;
        seen.add(importer);
        next.push(importer);
        if (isUnitTest(importer)) tests.push(importer);
      }
    }
    tests.sort((a, b) =>
      nearness(file, b) - nearness(file, a) || a.localeCompare(b)
    );
    found.push(...tests.slice(0, limit - found.length));
    frontier = next;
  }
  return found;
}

/** The named end-to-end tests for a file: every entry whose prefix the path starts with. */
export function e2eTestsFor(
  file: string,
  table: readonly {
    readonly prefix: string;
    readonly tests: readonly string[];
  }[],
): string[] {
  const out: string[] = [];
  for (const entry of table) {
    if (!file.startsWith(entry.prefix)) continue;
    for (const test of entry.tests) if (!out.includes(test)) out.push(test);
  }
  return out;
}

/** Reads `deno info --json` output into a graph of the project's own TypeScript modules under `root`. */
export function graphFromDenoInfo(
  info: unknown,
  root: string,
): Map<string, string[]> {
  const prefix =
    new URL(root.endsWith("/") ? root : `${root}/`, "file:///").href;
  const local = (specifier: string): string | undefined =>
    specifier.startsWith(prefix) && specifier.endsWith(".ts") &&
      !specifier.startsWith(`${prefix}node_modules/`)
      ? decodeURIComponent(specifier.slice(prefix.length))
      : undefined;
  const graph = new Map<string, string[]>();
  const modules = (info as { modules?: unknown }).modules;
  if (!Array.isArray(modules)) {
    throw new Error("deno info --json gave no modules list");
  }
  for (
    const module of modules as { specifier?: string; dependencies?: unknown }[]
  ) {
    const from = local(module.specifier ?? "");
    if (from === undefined) continue;
    const deps: string[] = [];
    for (
      const dep of (module.dependencies ?? []) as {
        code?: { specifier?: string };
      }[]
    ) {
      const to = local(dep.code?.specifier ?? "");
      if (to !== undefined && !deps.includes(to)) deps.push(to);
    }
    graph.set(from, deps);
  }
  return graph;
}
