/**
 * The blinding rule's decisions before any mutant runs: which code it
 * mutates, and why it runs nothing. Runs of the base's tests on both sides
 * are exercised end to end in tests/.
 */
import assert from "node:assert/strict";
import { loadPythonParser } from "../python/load_python_parser.ts";
import { DEFAULT_MUTATION_SETTINGS } from "../settings/mutation_settings.ts";
import {
  NO_CHANGED_CODE,
  oracleBlinding,
  type OracleBlindingOptions,
} from "./oracle_blinding.ts";

const parser = await loadPythonParser();

const TEST = "tests/test_m.py";
const CODE =
  "def less(a, b):\n    return a < b\n\n\ndef more(a, b):\n    return a > b\n";

function view(files: Record<string, string>) {
  return {
    has: (p: string) => p in files,
    read: (p: string) => Promise.resolve(files[p]),
  };
}

/** Options whose trees are `base` and `head`; running a mutant would fail. */
function options(
  base: Record<string, string>,
  head: Record<string, string>,
  progress: string[] = [],
): OracleBlindingOptions {
  const never = new Proxy({}, {
    get: () => {
      throw new Error("no mutant runs in this test");
    },
  });
  return {
    settings: { ...DEFAULT_MUTATION_SETTINGS, enabled: true },
    parser,
    properties: [{
      key: "000/less",
      id: "less",
      layout: "000",
      file: TEST,
      nodeId: `${TEST}::test_less`,
    }],
    baseTree: view(base),
    headTree: view(head),
    isTestSide: (p) => p.startsWith("tests/"),
    base: never as never,
    oracle: never as never,
    observer: never as never,
    driver: never as never,
    workers: [],
    command: ["python3", "-m", "pytest"],
    env: {},
    limits: {},
    sampleSeed: 1,
    clock: () => 0,
    progress: (line) => progress.push(line),
  };
}

const FILES = {
  "pkg/__init__.py": "",
  "pkg/m.py": CODE,
  "pkg/unused.py": "def g(x):\n    return x + 1\n",
  [TEST]: "from pkg.m import less\n",
};

Deno.test("oracleBlinding() runs nothing when the pull request changes no code the properties import", async (t) => {
  const cases: [string, Record<string, string>][] = [
    ["nothing changed", FILES],
    [
      "only code no property imports changed",
      { ...FILES, "pkg/unused.py": "def g(x):\n    return x - 1\n" },
    ],
    [
      "only a test changed",
      { ...FILES, [TEST]: "from pkg.m import less, more\n" },
    ],
    [
      "a file only the head has",
      { ...FILES, "pkg/extra.py": "def h():\n    return 1\n" },
    ],
  ];
  for (const [name, head] of cases) {
    await t.step(name, async () => {
      const progress: string[] = [];
      const result = await oracleBlinding(options(FILES, head, progress));
      assert.deepEqual(result.findings, []);
      assert.equal(result.report.notRun, NO_CHANGED_CODE);
      assert.equal(result.report.ran, 0);
      assert.deepEqual(progress, []);
    });
  }
});

Deno.test("oracleBlinding() runs nothing when the changed code leaves no unchanged code to mutate", async () => {
  const head = {
    ...FILES,
    "pkg/m.py": "def less(a, b):\n    return b > a\n",
  };
  const base = { ...FILES, "pkg/m.py": "def less(a, b):\n    return a < b\n" };
  const result = await oracleBlinding(options(base, head));
  assert.deepEqual(result.findings, []);
  assert.equal(
    result.report.notRun,
    "no mutant of unchanged code lies in the code they import",
  );
  assert.equal(result.report.generated, 0);
});

Deno.test("oracleBlinding() selects the mutants of unchanged code, up to max_mutants, before it runs them", async (t) => {
  const head = {
    ...FILES,
    "pkg/m.py": CODE.replace("return a < b", "return b > a"),
  };
  const cases: [string, Record<string, string>, number, string][] = [
    ["every mutant of the unchanged function", head, 100, "3 of 3 mutants"],
    ["capped", head, 2, "2 of 3 mutants"],
    [
      "a file whose text changed outside every function is judged whole",
      { ...FILES, "pkg/m.py": `${CODE}# reviewed\n` },
      100,
      "6 of 6 mutants",
    ],
  ];
  for (const [name, headFiles, max, count] of cases) {
    await t.step(name, async () => {
      const progress: string[] = [];
      const o = options(FILES, headFiles, progress);
      o.settings = { ...o.settings, "max_mutants": max };
      // Past the selection, the run needs the sides this test withholds.
      await assert.rejects(oracleBlinding(o), /no mutant runs in this test/);
      assert.deepEqual(progress, [
        `mutation: the base's tests on the base's code and on the head's, against ${count} of code the pull request did not change`,
      ]);
    });
  }
});
