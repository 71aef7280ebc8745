/**
 * The oracle-strength rule's orchestration over a fake sandbox whose
 * "pytest" decides each property's outcome from the mutated file it finds
 * in the run's copy of the tree: which runs happen, what the cache saves,
 * what the budget cuts. The real sandbox and pytest are exercised end to
 * end in tests/mutation_test.ts.
 */
import assert from "node:assert/strict";
import { loadPythonParser } from "../python/load_python_parser.ts";
import type { SandboxCommand } from "../sandbox/sandbox.ts";
import { FakeSandbox } from "../sandbox/fake_sandbox.ts";
import { installObserver } from "../run/observer.ts";
import { DEFAULT_MUTATION_SETTINGS } from "../settings/mutation_settings.ts";
import { generateMutants } from "./generate_mutants.ts";
import { installWarmDriver } from "./install_warm_driver.ts";
import { memoryMutationCache } from "./mutation_cache.ts";
import { buildSchemata } from "./schemata.ts";
import {
  notRun,
  oracleStrength,
  type OracleStrengthOptions,
  oracleViewOf,
  runsPytestModule,
  SAME_TEST_SIDE,
  viewOf,
} from "./oracle_strength.ts";

const parser = await loadPythonParser();

const CODE = "def less(a, b):\n    return a < b\n";
const TEST = "tests/test_m.py";
const NODE = `${TEST}::test_less`;

const FILES: Record<string, string> = {
  "pkg/__init__.py": "",
  "pkg/m.py": CODE,
  "pkg/unused.py": "def g(x):\n    return x + 1\n",
  [TEST]: "from pkg.m import less\n",
};

/**
 * The base's test kills every change; the head's catches only a changed
 * comparison operator (as a test that checks `less(1, 1)` but never the
 * result's type would). Each test the run selects is reported so.
 */
function fakePytest(clock: { now: number }, codePath = "pkg/m.py") {
  return async (command: SandboxCommand) => {
    clock.now += 1000;
    const side = (await Deno.readTextFile(`${command.cwd}/SIDE`)).trim();
    const code = await Deno.readTextFile(`${command.cwd}/${codePath}`);
    const killed = side === "base"
      ? code !== CODE
      : code.includes("return a <= b") || code.includes("return a > b");
    const flag = command.argv.find((a) => a.startsWith("--junitxml="));
    const body = killed ? '<failure message="assert False"/>' : "";
    const cases = selectedNodes(command).map((node) => {
      const [file = "", name = ""] = node.split("::");
      const classname = file.replace(/\.py$/, "").replaceAll("/", ".");
      return `<testcase classname="${classname}" name="${name}" time="0.01">${body}</testcase>`;
    });
    await Deno.writeTextFile(
      flag!.slice("--junitxml=".length),
      `<?xml version="1.0" encoding="utf-8"?><testsuites><testsuite name="pytest" tests="${cases.length}">${
        cases.join("")
      }</testsuite></testsuites>`,
    );
    return { code: killed ? 1 : 0 };
  };
}

/** The pytest node ids a run selects. */
function selectedNodes(command: SandboxCommand): string[] {
  return command.argv.filter((a) => a.includes("::"));
}

/** Each file's content id, as the gate gives it: here, its text. */
function contentIds(files: Record<string, string>): Map<string, string> {
  return new Map(Object.entries(files));
}

async function setUp(dir: string, files: Record<string, string> = FILES) {
  for (const side of ["base", "head"]) {
    for (const [path, text] of Object.entries(files)) {
      const full = `${dir}/${side}/${path}`;
      await Deno.mkdir(full.slice(0, full.lastIndexOf("/")), {
        recursive: true,
      });
      await Deno.writeTextFile(full, text);
    }
    await Deno.writeTextFile(`${dir}/${side}/SIDE`, side);
  }
  await Deno.mkdir(`${dir}/reports`);
}

function options(
  dir: string,
  sandbox: FakeSandbox,
  clock: { now: number },
  overrides: Partial<OracleStrengthOptions> = {},
): OracleStrengthOptions {
  let n = 0;
  const view = (files: Record<string, string>) => ({
    has: (p: string) => p in files,
    read: (p: string) => Promise.resolve(files[p]),
  });
  return {
    settings: { ...DEFAULT_MUTATION_SETTINGS, enabled: true },
    parser,
    properties: [{
      key: "000/less",
      id: "less",
      layout: "000",
      file: TEST,
      baseNodeId: NODE,
      headNodeId: NODE,
    }],
    baseTree: view({
      ...FILES,
      "pkg/m.py": "def less(a, b):\n    return b > a\n",
    }),
    headTree: view(FILES),
    isTestSide: (p) => p.startsWith("tests/"),
    oracle: { template: `${dir}/base`, files: contentIds(FILES) },
    head: { template: `${dir}/head`, files: contentIds(FILES) },
    workers: [{
      sandbox,
      reportDir: `${dir}/reports`,
      workPath: () => `${dir}/run-${++n}`,
    }],
    command: ["python3", "-m", "pytest"],
    env: {},
    limits: { timeoutMs: 60_000 },
    sampleSeed: 5,
    runSeed: 6,
    clock: () => clock.now,
    ...overrides,
  };
}

Deno.test("oracleStrength() runs the head only on mutants the base kills, and rejects what the head lets survive", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pawl-oracle-strength-" });
  try {
    await setUp(dir);
    const clock = { now: 0 };
    const sandbox = new FakeSandbox(fakePytest(clock));
    const cache = memoryMutationCache();
    const progress: string[] = [];
    const result = await oracleStrength(
      options(dir, sandbox, clock, {
        cache,
        progress: (line) => progress.push(line),
      }),
    );
    const r = result.report;
    assert.equal(r.reach, "import analysis");
    // What ran, as the mutation-testing report records it.
    assert.deepEqual(result.run.config, {
      operators: DEFAULT_MUTATION_SETTINGS.operators,
      "max_mutants": DEFAULT_MUTATION_SETTINGS.max_mutants,
      "budget_seconds": DEFAULT_MUTATION_SETTINGS.budget_seconds,
      sampleSeed: 5,
      runSeed: 6,
      reach: "import analysis",
    });
    assert.ok(progress.includes(
      `mutation: ${r.selected} of ${r.generated} mutants (${r.touched} in touched functions), baseline runs`,
    ));
    assert.ok(progress.includes(
      `mutation: ${r.ran} mutants judged, 0 of them from the runner's cache; 0 cut by the budget`,
    ));
    // Only pkg/m.py is imported by the test: pkg/unused.py is not mutated.
    assert.ok(
      result.run.results.every((x) => x.mutant.file === "pkg/m.py"),
    );
    assert.equal(r.generated, r.selected);
    assert.equal(r.touched, r.selected, "less() changed since the base");
    assert.equal(r.ran, r.selected);
    assert.equal(r.killed, r.ran);
    assert.equal(r.survived, 0);
    // Two unmutated baselines, then base and head for every mutant.
    assert.equal(sandbox.commands.length, 2 + 2 * r.ran);
    const weakened = result.findings.filter((f) =>
      f.rule === "property.oracle_weakened"
    );
    assert.equal(weakened.length, 1);
    assert.equal(weakened[0]?.path, "pkg/m.py");
    assert.equal(weakened[0]?.line, 2);
    assert.ok(!result.findings.some((f) => f.rule === "property.mutants_cut"));
    // The comparison flip is the one mutant the head still kills.
    assert.equal(r.weakened, r.ran - 1);
    assert.equal(cache.size(), 2 * r.ran);

    // The same run again: every mutant side comes from the cache.
    const again = new FakeSandbox(fakePytest(clock));
    const second = await oracleStrength(
      options(dir, again, clock, {
        cache,
        progress: (line) => progress.push(line),
      }),
    );
    assert.ok(progress.includes(
      `mutation: ${r.ran} mutants judged, ${r.ran} of them from the runner's cache; 0 cut by the budget`,
    ));
    assert.equal(again.commands.length, 2, "only the baselines run");
    assert.ok(second.run.results.every((x) => x.cached));
    assert.deepEqual(second.findings, result.findings);
    assert.deepEqual(second.report, result.report);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("oracleStrength() serves a later pull request on the same base the base's runs it can reuse, and never a head run", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pawl-oracle-strength-" });
  try {
    await setUp(dir);
    const clock = { now: 0 };
    const cache = memoryMutationCache();
    const first = await oracleStrength(
      options(dir, new FakeSandbox(fakePytest(clock)), clock, { cache }),
    );
    const ran = first.report.ran;
    assert.ok(ran > 0 && first.report.killed === ran);
    const judged = async (
      files: Record<string, string>,
      head: Record<string, string> | null,
    ) => {
      const sandbox = new FakeSandbox(fakePytest(clock));
      const result = await oracleStrength(options(dir, sandbox, clock, {
        cache,
        oracle: { template: `${dir}/base`, files: contentIds(files) },
        head: head === null
          ? null
          : { template: `${dir}/head`, files: contentIds(head) },
      }));
      // The same kills, whether they ran or came from the cache.
      assert.deepEqual(
        result.run.results.map((r) => [r.mutant.id, r.base]),
        first.run.results.map((r) => [r.mutant.id, r.base]),
      );
      return {
        cached: result.run.results.filter((r) => r.cached).length,
        runs: sandbox.commands.length,
      };
    };
    // The same code: the base's runs all come from the cache; with another
    // head test, every head run (one per base kill) runs again.
    assert.deepEqual(await judged(FILES, null), { cached: ran, runs: 1 });
    const tests = { ...FILES, [TEST]: `# other\n${FILES[TEST]}` };
    assert.deepEqual(await judged(FILES, tests), {
      cached: ran,
      runs: 2 + ran,
    });
    // The oracle's test side is the base's: another one is another base.
    assert.deepEqual(await judged(tests, null), { cached: 0, runs: 1 + ran });
    // A module no property imports: still the base's runs from the cache.
    assert.deepEqual(
      await judged({ ...FILES, "pkg/unused.py": "X = 2\n" }, null),
      { cached: ran, runs: 1 },
    );
    // The code the property imports changed: every base run again.
    assert.deepEqual(
      await judged({ ...FILES, "pkg/__init__.py": "# changed\n" }, null),
      { cached: 0, runs: 1 + ran },
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("oracleStrength() keys the cache by the code the oracle reaches through the import roots given", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pawl-oracle-strength-" });
  try {
    // The code lies under lib/, which is no default import root.
    const files: Record<string, string> = {
      "lib/pkg/__init__.py": "",
      "lib/pkg/m.py": CODE,
      [TEST]: FILES[TEST]!,
    };
    await setUp(dir, files);
    const clock = { now: 0 };
    const cache = memoryMutationCache();
    const judged = async (oracle: Record<string, string>) => {
      const sandbox = new FakeSandbox(fakePytest(clock, "lib/pkg/m.py"));
      const result = await oracleStrength(options(dir, sandbox, clock, {
        cache,
        importRoots: ["lib"],
        baseTree: treeOf(files),
        headTree: treeOf(files),
        oracle: { template: `${dir}/base`, files: contentIds(oracle) },
        head: null,
      }));
      return {
        ran: result.report.ran,
        cached: result.run.results.filter((r) => r.cached).length,
      };
    };
    const first = await judged(files);
    assert.ok(first.ran > 0);
    assert.deepEqual(first, { ran: first.ran, cached: 0 });
    assert.deepEqual(await judged(files), {
      ran: first.ran,
      cached: first.ran,
    });
    // A module the property reaches only through lib/ changed: every
    // outcome the cache kept may differ, so each mutant runs again.
    assert.deepEqual(
      await judged({ ...files, "lib/pkg/__init__.py": "# changed\n" }),
      { ran: first.ran, cached: 0 },
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("oracleStrength() reports what pawl's observer says of a baseline it cannot trust", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pawl-oracle-strength-" });
  try {
    await setUp(dir);
    const clock = { now: 0 };
    // The fake reports every test, but pawl's observer never hears of them.
    const result = await oracleStrength(
      options(dir, new FakeSandbox(fakePytest(clock)), clock, {
        observer: await installObserver(dir),
      }),
    );
    assert.equal(result.report.ran, 0);
    // Both baselines (the base's oracle and the head's properties) in one
    // finding of the rule.
    assert.deepEqual(result.findings.map((f) => f.rule), [
      "harness.observer_missing",
    ]);
    assert.match(
      result.findings[0]!.message,
      /from the base's oracle on the unmutated code .*\(and 1 more run like it\)$/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("oracleStrength() counts what the budget cuts and never guesses it", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pawl-oracle-strength-" });
  try {
    await setUp(dir);
    const clock = { now: 0 };
    const sandbox = new FakeSandbox(fakePytest(clock));
    // Each fake run takes a second: the baselines use two of the three,
    // the first mutant (base and head) the last one.
    const result = await oracleStrength(options(dir, sandbox, clock, {
      settings: {
        ...DEFAULT_MUTATION_SETTINGS,
        enabled: true,
        budget_seconds: 3,
      },
    }));
    const r = result.report;
    assert.equal(r.ran, 1);
    assert.equal(r.cutByBudget, r.selected - 1);
    assert.equal(result.run.unrun.length, r.selected - 1);
    // Said in a note, never silently: the budget depends on the load.
    const cut = result.findings.filter((f) =>
      f.rule === "property.mutants_cut"
    );
    assert.equal(cut.length, 1);
    assert.equal(cut[0]?.blocking, false);
    assert.equal(cut[0]?.path, "pkg/m.py");
    assert.equal(cut[0]?.line, result.run.unrun[0]?.line);
    assert.equal(cut[0]?.line, 2);
    assert.match(
      cut[0]?.message ?? "",
      new RegExp(
        `ran out before ${
          r.selected - 1
        } of the ${r.selected} selected mutants ran \\(${
          r.selected - 1
        } of them in functions the pull request touched\\)`,
      ),
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("oracleStrength() measures the budget from the clock's reading when the mutants start, not from zero", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pawl-oracle-strength-" });
  try {
    await setUp(dir);
    // A clock that has long been running (the gate's counts CPU time).
    const clock = { now: 5_000_000 };
    const sandbox = new FakeSandbox(fakePytest(clock));
    const result = await oracleStrength(options(dir, sandbox, clock, {
      settings: {
        ...DEFAULT_MUTATION_SETTINGS,
        enabled: true,
        budget_seconds: 3,
      },
    }));
    assert.equal(result.report.ran, 1);
    assert.equal(result.report.cutByBudget, result.report.selected - 1);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("oracleStrength() runs nothing when no base property passes on the unmutated code", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pawl-oracle-strength-" });
  try {
    await setUp(dir);
    await Deno.writeTextFile(
      `${dir}/base/pkg/m.py`,
      "def less(a, b):\n    return None\n",
    );
    const clock = { now: 0 };
    const sandbox = new FakeSandbox(fakePytest(clock));
    const result = await oracleStrength(options(dir, sandbox, clock));
    assert.equal(result.report.ran, 0);
    assert.deepEqual(result.findings, []);
    assert.equal(sandbox.commands.length, 2);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("runsPytestModule() tells a `<python> -m pytest` command, which the warm driver can stand in for", async (t) => {
  const cases: [string, string[], boolean][] = [
    ["python3 -m pytest", ["python3", "-m", "pytest"], true],
    [
      "with arguments after it",
      ["python3", "-m", "pytest", "-x", "tests"],
      true,
    ],
    ["pytest run as a program", ["pytest", "tests"], false],
    ["another module", ["python3", "-m", "unittest"], false],
    ["a script, not a module", ["python3", "run.py", "pytest"], false],
    ["too short", ["python3", "-m"], false],
    ["no interpreter", ["", "-m", "pytest"], false],
    ["nothing", [], false],
  ];
  for (const [name, command, warm] of cases) {
    await t.step(name, () => assert.equal(runsPytestModule(command), warm));
  }
});

Deno.test("oracleViewOf() reads the test side from the base and the code side from the head", async () => {
  const tree = (name: string, paths: string[]) => ({
    has: (p: string) => paths.includes(p),
    read: (p: string) =>
      Promise.resolve(paths.includes(p) ? `${name}:${p}` : undefined),
  });
  const view = oracleViewOf({
    baseTree: tree("base", ["tests/test_a.py", "pkg/a.py"]),
    headTree: tree("head", ["tests/test_b.py", "pkg/a.py", "pkg/b.py"]),
    isTestSide: (p) => p.startsWith("tests/"),
  });
  assert.equal(view.has("tests/test_a.py"), true);
  assert.equal(view.has("tests/test_b.py"), false);
  assert.equal(view.has("pkg/b.py"), true);
  assert.equal(await view.read("tests/test_a.py"), "base:tests/test_a.py");
  assert.equal(await view.read("pkg/a.py"), "head:pkg/a.py");
  const plain = viewOf(view);
  assert.equal(plain.has("tests/test_b.py"), false);
  assert.equal(await plain.read("pkg/a.py"), "head:pkg/a.py");
});

Deno.test("notRun() reports that no mutant ran, why, and the seeds", () => {
  const result = notRun(SAME_TEST_SIDE, {
    sampleSeed: 3,
    runSeed: 4,
    config: { "max_mutants": 10 },
  });
  assert.deepEqual(result.findings, []);
  assert.equal(result.report.notRun, SAME_TEST_SIDE);
  assert.equal(result.report.generated, 0);
  assert.equal(result.report.sampleSeed, 3);
  assert.equal(result.report.runSeed, 4);
  assert.equal(result.report.reach, "import analysis");
  assert.deepEqual(result.run.properties, []);
  assert.deepEqual(result.run.unrun, []);
  assert.deepEqual(result.run.config, {
    "max_mutants": 10,
    notRun: SAME_TEST_SIDE,
  });
  assert.deepEqual(result.run.results, []);
});

Deno.test("oracleStrength() runs no mutant it cannot judge, and still counts what it would have run", async (t) => {
  const progress: string[] = [];
  const none = (): never => {
    throw new Error("no run in this test");
  };
  const sandbox = { run: none } as unknown as FakeSandbox;
  const cases: [string, Partial<OracleStrengthOptions>][] = [
    ["no sandbox to run in", { workers: [] }],
    [
      "no property the base has a test for",
      {
        properties: [{
          key: "000/less",
          id: "less",
          layout: "000",
          file: TEST,
          headNodeId: NODE,
        }],
      },
    ],
  ];
  for (const [name, overrides] of cases) {
    await t.step(name, async () => {
      const result = await oracleStrength(
        options("/nonexistent", sandbox, { now: 0 }, {
          ...overrides,
          progress: (line) => progress.push(line),
        }),
      );
      assert.equal(result.report.ran, 0);
      assert.ok(result.report.generated > 0);
      assert.equal(result.report.selected, result.report.generated);
      assert.deepEqual(result.findings, []);
      assert.deepEqual(result.run.results, []);
      assert.deepEqual(result.run.unrun, []);
      assert.deepEqual(result.run.notCovered, []);
      assert.equal(result.report.notCovered, 0);
      assert.deepEqual(progress, []);
    });
  }
  await t.step("a property that imports no code", async () => {
    const result = await oracleStrength(
      options("/nonexistent", sandbox, { now: 0 }, {
        headTree: {
          has: (p: string) => p === TEST,
          read: (p: string) =>
            Promise.resolve(p === TEST ? "import os\n" : undefined),
        },
      }),
    );
    assert.equal(result.report.generated, 0);
    assert.equal(result.report.ran, 0);
  });
});

Deno.test("oracleStrength() mutates only the code side the properties import, never a test", async () => {
  const test = "from pkg.m import less\n\n\ndef helper(x):\n    return x + 1\n";
  const files = { ...FILES, [TEST]: test };
  const tree = {
    has: (p: string) => p in files,
    read: (p: string) => Promise.resolve(files[p as keyof typeof files]),
  };
  const result = await oracleStrength(
    options(
      "/nonexistent",
      new FakeSandbox(() => Promise.resolve({ code: 0 })),
      {
        now: 0,
      },
      { headTree: tree, baseTree: tree, workers: [] },
    ),
  );
  assert.equal(
    result.report.generated,
    generateMutants(parser, "pkg/m.py", CODE).length,
  );
});

/** A tree view of `files`. */
function treeOf(files: Record<string, string>) {
  return {
    has: (p: string) => p in files,
    read: (p: string) => Promise.resolve(files[p]),
  };
}

Deno.test("oracleStrength() runs each side's properties only where that side has a test of them", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pawl-oracle-strength-" });
  try {
    await setUp(dir);
    const clock = { now: 0 };
    const pytest = fakePytest(clock);
    const runs: { side: string; nodes: string[] }[] = [];
    const sandbox = new FakeSandbox(async (command) => {
      const side = (await Deno.readTextFile(`${command.cwd}/SIDE`)).trim();
      runs.push({ side, nodes: selectedNodes(command) });
      return await pytest(command);
    });
    const property = { layout: "000", file: TEST };
    const both = `${TEST}::test_less`;
    const headOnly = `${TEST}::test_new`;
    const baseOnly = `${TEST}::test_old`;
    const result = await oracleStrength(options(dir, sandbox, clock, {
      properties: [
        {
          ...property,
          key: "000/less",
          id: "less",
          baseNodeId: both,
          headNodeId: both,
        },
        { ...property, key: "000/new", id: "new", headNodeId: headOnly },
        { ...property, key: "000/old", id: "old", baseNodeId: baseOnly },
      ],
    }));
    assert.ok(result.report.ran > 0, "a property the base has a test for runs");
    const base = runs.filter((r) => r.side === "base");
    const head = runs.filter((r) => r.side === "head");
    assert.ok(base.length > 0 && head.length > 0);
    for (const run of base) assert.deepEqual(run.nodes, [both, baseOnly]);
    // A head test with no base test to compare it with never runs, and a
    // property the head has no test of runs on the base only.
    for (const run of head) assert.deepEqual(run.nodes, [both]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("oracleStrength() decides which code it mutates from the trees and the settings it is given", async (t) => {
  const none = new FakeSandbox(() => {
    throw new Error("no run in this test");
  });
  const generated = async (
    files: Record<string, string>,
    overrides: Partial<OracleStrengthOptions> = {},
  ) =>
    (await oracleStrength(options("/nonexistent", none, { now: 0 }, {
      headTree: treeOf(files),
      baseTree: treeOf(files),
      workers: [],
      ...overrides,
    }))).report.generated;
  const ofCode = generateMutants(parser, "pkg/m.py", CODE).length;
  await t.step("imports resolve from the import roots given", async () => {
    const files = {
      "lib/pkg/__init__.py": "",
      "lib/pkg/m.py": CODE,
      [TEST]: FILES[TEST]!,
    };
    const all = generateMutants(parser, "lib/pkg/m.py", CODE).length;
    assert.equal(await generated(files), 0, "lib/ is no default root");
    assert.equal(await generated(files, { importRoots: ["lib"] }), all);
    // Whether the base's test (in the oracle tree) or the head's imports it.
    const none = { ...files, [TEST]: "import os\n" };
    for (const [base, head] of [[files, none], [none, files]]) {
      assert.equal(
        await generated(head!, {
          baseTree: treeOf(base!),
          importRoots: ["lib"],
        }),
        all,
      );
    }
  });
  await t.step("only the operators [mutation] names are applied", async () => {
    const comparison = generateMutants(parser, "pkg/m.py", CODE, {
      operators: ["comparison"],
    }).length;
    assert.ok(comparison > 0 && comparison < ofCode);
    assert.equal(
      await generated(FILES, {
        settings: {
          ...DEFAULT_MUTATION_SETTINGS,
          enabled: true,
          operators: ["comparison"],
        },
      }),
      comparison,
    );
  });
  await t.step("no more than [mutation] max_mutants are selected", async () => {
    assert.ok(ofCode > 2);
    for (const max of [ofCode - 1, ofCode, ofCode + 1]) {
      const { report } = await oracleStrength(
        options("/nonexistent", none, { now: 0 }, {
          settings: {
            ...DEFAULT_MUTATION_SETTINGS,
            enabled: true,
            "max_mutants": max,
          },
          workers: [],
        }),
      );
      assert.equal(report.generated, ofCode);
      assert.equal(report.selected, Math.min(max, ofCode));
      assert.equal(report.cutByCap, ofCode - report.selected);
    }
  });
  await t.step(
    "a file the head lists but cannot read is left out",
    async () => {
      const files: Record<string, string> = {
        ...FILES,
        [TEST]: `${FILES[TEST]}from pkg.unused import g\n`,
      };
      assert.ok(await generated(files) > ofCode, "both files are reached");
      const unreadable = {
        has: (p: string) => p in files,
        read: (p: string) =>
          Promise.resolve(p === "pkg/unused.py" ? undefined : files[p]),
      };
      assert.equal(await generated(files, { headTree: unreadable }), ofCode);
    },
  );
  await t.step(
    "an unreadable file is skipped, and the files after it are still read",
    async () => {
      const files: Record<string, string> = {
        ...FILES,
        [TEST]: `${FILES[TEST]}from pkg.unused import g\n`,
      };
      const unreadable = {
        has: (p: string) => p in files,
        read: (p: string) =>
          Promise.resolve(p === "pkg/m.py" ? undefined : files[p]),
      };
      const ofUnused =
        generateMutants(parser, "pkg/unused.py", files["pkg/unused.py"]!)
          .length;
      assert.ok(ofUnused > 0);
      assert.equal(await generated(files, { headTree: unreadable }), ofUnused);
    },
  );
});

Deno.test("oracleStrength() takes the files it mutates in path order, whichever commit's tests reached them", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pawl-oracle-strength-" });
  try {
    await setUp(dir);
    const clock = { now: 0 };
    // Only the head's test imports pkg/a.py; the oracle's (the base's) does not.
    const head = {
      ...FILES,
      "pkg/a.py": "def f(x):\n    return x * 2\n",
      [TEST]: `${FILES[TEST]}from pkg.a import f\n`,
    };
    const result = await oracleStrength(
      options(dir, new FakeSandbox(fakePytest(clock)), clock, {
        headTree: treeOf(head),
      }),
    );
    const files = result.run.results.map((r) => r.mutant.file);
    assert.ok(files.includes("pkg/a.py") && files.includes("pkg/m.py"));
    assert.deepEqual(files, [...files].sort());
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("oracleStrength() says how many of the mutants the budget cut lie in functions the pull request touched", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pawl-oracle-strength-" });
  try {
    await setUp(dir);
    const clock = { now: 0 };
    const more = (body: string) => `\n\ndef more(a, b):\n    return ${body}\n`;
    // The pull request touched more() and left less() as it was.
    const result = await oracleStrength(
      options(dir, new FakeSandbox(fakePytest(clock)), clock, {
        settings: {
          ...DEFAULT_MUTATION_SETTINGS,
          enabled: true,
          "budget_seconds": 3,
        },
        baseTree: treeOf({ ...FILES, "pkg/m.py": CODE + more("b < a") }),
        headTree: treeOf({ ...FILES, "pkg/m.py": CODE + more("a > b") }),
      }),
    );
    const r = result.report;
    assert.equal(r.ran, 1);
    assert.ok(0 < r.touched && r.touched < r.selected);
    const cut = result.findings.find((f) => f.rule === "property.mutants_cut");
    assert.match(
      cut?.message ?? "",
      new RegExp(
        `ran out before ${
          r.selected - 1
        } of the ${r.selected} selected mutants ran \\(${
          r.touched - 1
        } of them in functions the pull request touched\\)`,
      ),
    );
    // The note points at the first mutant the budget cut, in run order:
    // here one of more()'s, run first, before less()'s two lines above.
    const unrun = result.run.unrun;
    assert.equal(unrun[0]?.line, 6);
    assert.equal(unrun.at(-1)?.line, 2);
    assert.equal(cut?.path, "pkg/m.py");
    assert.equal(cut?.line, 6);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("oracleStrength() hands the warm driver each mutated file's schemata only with pawl's observer and a `<python> -m pytest` command", async (t) => {
  const dir = await Deno.makeTempDir({ prefix: "pawl-oracle-strength-" });
  try {
    // Two mutated files, every function new since the base: every mutant
    // is selected, in the order it was made.
    const files: Record<string, string> = {
      ...FILES,
      [TEST]: `${FILES[TEST]}from pkg.unused import g\n`,
    };
    await setUp(dir, files);
    const code = ["pkg/m.py", "pkg/unused.py"];
    const schemata = Object.fromEntries(code.map((f) => {
      const text = files[f]!;
      return [
        f,
        buildSchemata(parser, f, text, generateMutants(parser, f, text)).text,
      ];
    }));
    for (const f of code) assert.notEqual(schemata[f], files[f]);
    const observer = await installObserver(dir);
    const driver = await installWarmDriver(dir);
    const cases: [string, Partial<OracleStrengthOptions>, boolean][] = [
      ["all three: warm", { observer, driver }, true],
      ["no driver: cold", { observer }, false],
      ["no observer: cold", { driver }, false],
      [
        "pytest run as a program: cold",
        { observer, driver, command: ["pytest"] },
        false,
      ],
    ];
    for (const [name, overrides, warm] of cases) {
      await t.step(name, async () => {
        const clock = { now: 0 };
        const pytest = fakePytest(clock);
        const driven: Record<string, string>[] = [];
        const sandbox = new FakeSandbox(async (command) => {
          if (command.argv[1] !== driver.path) return await pytest(command);
          // The driver's tree: what it would compile in. It reports no
          // baseline, so the mutants then run cold.
          driven.push(Object.fromEntries(
            await Promise.all(
              code.map(async (f) =>
                [f, await Deno.readTextFile(`${command.cwd}/${f}`)] as const
              ),
            ),
          ));
          return { code: 1 };
        });
        await oracleStrength(options(dir, sandbox, clock, {
          baseTree: treeOf({ [TEST]: files[TEST]! }),
          headTree: treeOf(files),
          ...overrides,
        }));
        assert.deepEqual(driven, warm ? [schemata] : []);
      });
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
