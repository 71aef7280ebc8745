/**
 * The source tree's layers: which top-level folder of `src/` may import
 * which, and no import circles between files. A new folder, or an import
 * the table does not allow, fails here until the table says where it
 * belongs.
 *
 * @module
 */
import assert from "node:assert/strict";
import { dirname, join, normalize, relative } from "node:path";
import { ROOT } from "./_cli.ts";

/**
 * What each top-level folder of `src/` may import, besides itself. The
 * functional core (`core`) imports nothing; the readers and rules
 * (`contract`, `layouts`) import no shell; `cli` is the top. A folder may
 * be listed before it exists.
 */
const ALLOWED: Readonly<Record<string, readonly string[]>> = {
  "version.ts": [],
  core: [],
  git: ["core"],
  python: ["core"],
  sandbox: ["core"],
  seeds: ["core"],
  sign: ["core"],
  // The base's setup step: its inputs from git, its run in the sandbox,
  // and the harness's path roots for what its output must not be shadowed by.
  setup: ["core", "git", "harness", "sandbox", "settings"],
  contract: ["core", "git", "python"],
  settings: ["core", "contract"],
  layouts: ["core", "contract", "git", "python"],
  // The harness rules judge pawl.toml changes (settings) and what pytest
  // runs for each registered test (contract).
  harness: ["core", "contract", "git", "python", "settings"],
  run: ["core", "sandbox"],
  // Oracle strength by mutation: mutants of the code under test, run in
  // the sandbox against the base's and the head's properties.
  mutation: ["core", "python", "run", "sandbox", "settings", "version.ts"],
  // Changed code no test runs: the changed lines from git, what the
  // suite's run saw of them, and the surviving mutants on them.
  coverage: ["core", "git", "mutation", "run", "settings"],
  report: ["core", "version.ts"],
  github: ["core", "git", "report", "version.ts"],
  propose: ["core", "contract", "layouts", "git", "python"],
  // The audit's shell judges each pull request through the gate.
  audit: ["core", "gate", "github", "report", "version.ts"],
  demo: ["core", "git"],
  // The GitHub Action's inputs as a command line: pure, imports nothing.
  action: [],
  check: [
    "core",
    "contract",
    "layouts",
    "git",
    "harness",
    "python",
    "run",
    "sandbox",
    "seeds",
    "settings",
    "report",
    "version.ts",
  ],
  // The pipeline as a library (what check/ becomes): every stage's ports
  // and outputs, nothing of the command line.
  gate: [
    "core",
    "contract",
    "coverage",
    "layouts",
    "git",
    "harness",
    "python",
    "mutation",
    "run",
    "sandbox",
    "seeds",
    "settings",
    "setup",
    "sign",
    "report",
    "github",
    "version.ts",
  ],
  // A long-running service: the pipeline behind a listener, no command line.
  serve: [
    "core",
    "contract",
    "layouts",
    "git",
    "harness",
    "python",
    "run",
    "sandbox",
    "seeds",
    "settings",
    "setup",
    "sign",
    "report",
    "github",
    "audit",
    "check",
    "gate",
    "version.ts",
  ],
  cli: [
    "core",
    "contract",
    "layouts",
    "git",
    "harness",
    "python",
    "run",
    "sandbox",
    "seeds",
    "settings",
    "setup",
    "sign",
    "report",
    "github",
    "propose",
    "audit",
    "demo",
    "check",
    "gate",
    "serve",
    "version.ts",
  ],
};

/**
 * Imports that break the table today, each with the reason it is still
 * there. The test fails on any other, and on an entry here that is gone.
 */
const KNOWN_EXCEPTIONS: readonly string[] = [];

/** Import circles between files that are still there (each sorted, joined). */
const KNOWN_CIRCLES: readonly string[] = [];

/** Every `.ts` file under `src/` that is not a test. */
async function sourceFiles(dir = "src"): Promise<string[]> {
  const files: string[] = [];
  for await (const entry of Deno.readDir(join(ROOT, dir))) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory) files.push(...await sourceFiles(path));
    else if (path.endsWith(".ts") && !path.endsWith("_test.ts")) {
      files.push(path);
    }
  }
  return files.sort();
}

/** The relative modules a file imports (statically or with `import()`). */
function relativeImports(path: string, text: string): string[] {
  // Examples in doc comments are not imports of the module.
  const code = text.replace(/\/\*[\s\S]*?\*\//g, "").replace(
    /^\s*\/\/.*$/gm,
    "",
  );
  const found = new Set<string>();
  const specifier = /(?:\bfrom|\bimport)\s*\(?\s*["'](\.\.?\/[^"']+)["']/g;
  for (const match of code.matchAll(specifier)) {
    found.add(normalize(join(dirname(path), match[1]!)));
  }
  return [...found].sort();
}

/** `src/<top>/…` → `<top>` (a file directly under src is its own top). */
function topOf(path: string): string {
  return relative("src", path).split("/")[0]!;
}

/** The import graph of `src/`, file to files. */
async function importGraph(): Promise<Map<string, string[]>> {
  const graph = new Map<string, string[]>();
  for (const path of await sourceFiles()) {
    const text = await Deno.readTextFile(join(ROOT, path));
    graph.set(path, relativeImports(path, text));
  }
  return graph;
}

/** Strongly connected components with more than one file (Tarjan). */
function circles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || (graph.get(v) ?? []).includes(v)) {
        found.push(component.sort());
      }
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

Deno.test("the layer table itself has no circle and names every folder of src/", async () => {
  const tops = new Set((await sourceFiles()).map(topOf));
  assert.deepEqual(
    [...tops].filter((t) => !(t in ALLOWED)),
    [],
    "a new top-level folder: say in ALLOWED what it may import",
  );
  const tableGraph = new Map(
    Object.entries(ALLOWED).map(([top, deps]) => [top, [...deps]]),
  );
  assert.deepEqual(circles(tableGraph), []);
});

Deno.test("no import runs back up the layers", async () => {
  const graph = await importGraph();
  const broken: string[] = [];
  for (const [from, targets] of graph) {
    for (const to of targets) {
      const a = topOf(from);
      const b = topOf(to);
      if (a === b || ALLOWED[a]?.includes(b)) continue;
      broken.push(`${from} -> ${to}`);
    }
  }
  assert.deepEqual(
    broken.filter((edge) => !KNOWN_EXCEPTIONS.includes(edge)),
    [],
    "imports that run against the layer table",
  );
  assert.deepEqual(
    KNOWN_EXCEPTIONS.filter((edge) => !broken.includes(edge)),
    [],
    "fixed: remove these from KNOWN_EXCEPTIONS",
  );
});

/** Folders that may use a contract layout only through the registry and the Dialect interface. */
const LAYOUT_BLIND = ["check", "gate", "cli", "audit", "serve"];

Deno.test("the orchestrator names no layout: it imports only src/layouts/mod.ts and dialect.ts", async () => {
  const graph = await importGraph();
  const named: string[] = [];
  for (const [from, targets] of graph) {
    if (!LAYOUT_BLIND.includes(topOf(from))) continue;
    for (const to of targets) {
      if (topOf(to) !== "layouts") continue;
      if (to === "src/layouts/mod.ts" || to === "src/layouts/dialect.ts") {
        continue;
      }
      named.push(`${from} -> ${to}`);
    }
  }
  assert.deepEqual(named, []);
});

Deno.test("no import circles between files of src/", async () => {
  const found = circles(await importGraph()).map((c) => c.join(" <-> "));
  assert.deepEqual(
    found.filter((c) => !KNOWN_CIRCLES.includes(c)),
    [],
    "import circles",
  );
  assert.deepEqual(
    KNOWN_CIRCLES.filter((c) => !found.includes(c)),
    [],
    "fixed: remove these from KNOWN_CIRCLES",
  );
});

Deno.test("the import scanner sees static, re-export and dynamic imports, not doc examples", () => {
  assert.deepEqual(
    relativeImports(
      "src/a/x.ts",
      [
        "/**",
        ' * import { y } from "./doc_only.ts";',
        " */",
        'import { a } from "../core/a.ts";',
        'import type { B } from "./b.ts";',
        'export * from "./c.ts";',
        'import "./d.ts";',
        'const e = await import("../e/e.ts");',
        'import { f } from "node:fs";',
      ].join("\n"),
    ),
    ["src/a/b.ts", "src/a/c.ts", "src/a/d.ts", "src/core/a.ts", "src/e/e.ts"],
  );
  assert.deepEqual(
    circles(new Map([["a", ["b"]], ["b", ["a"]], ["c", ["a"]]])),
    [["a", "b"]],
  );
});

Deno.test("every file of src/ named like a test holds tests: the image leaves such files out", async () => {
  const strays: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    for await (const e of Deno.readDir(dir)) {
      const path = `${dir}/${e.name}`;
      if (e.isDirectory) await walk(path);
      else if (
        e.name.endsWith("_test.ts") &&
        !(await Deno.readTextFile(path)).includes("Deno.test(")
      ) strays.push(path);
    }
  };
  await walk(new URL("../src", import.meta.url).pathname);
  assert.deepEqual(strays, []);
});
