import assert from "node:assert/strict";
import { installObserver } from "../run/observer.ts";
import { parseObservation } from "../run/observation.ts";
import type { TestCaseResult } from "../run/parse_junit.ts";
import { FakeSandbox } from "../sandbox/fake_sandbox.ts";
import type { SandboxCommand } from "../sandbox/sandbox.ts";
import type { SideOutcomes } from "./judge_kill_sets.ts";
import type { Mutant } from "./mutant.ts";
import { memoryMutationCache, mutantCacheKey } from "./mutation_cache.ts";
import {
  cachedRun,
  classify,
  copyTree,
  describeRun,
  type MutantRunReport,
  type MutantSide,
  type MutantWorker,
  runCacheKey,
  runMutants,
  type RunMutantsOptions,
  runOutcomes,
  runUnmutated,
  unknownFor,
} from "./run_mutants.ts";

const PROPS = [
  { key: "000/a", nodeId: "tests/test_m.py::test_a" },
  { key: "000/b", nodeId: "tests/test_m.py::test_b" },
  { key: "000/c", nodeId: "tests/test_m.py::test_c" },
];

function testCase(name: string, outcome: TestCaseResult["outcome"]) {
  return { classname: "tests.test_m", name, outcome };
}

Deno.test("classify() kills on a failure, an error or a property gone from the report", () => {
  assert.deepEqual(
    classify(
      false,
      [testCase("test_a", "failed"), testCase("test_b", "error")],
      PROPS,
    ),
    { "000/a": "killed", "000/b": "killed", "000/c": "killed" },
  );
});

Deno.test("classify() lets a pass, a skip or an xfail survive", () => {
  assert.deepEqual(
    classify(false, [
      testCase("test_a", "passed"),
      testCase("test_b", "skipped"),
      testCase("test_c", "xfailed"),
    ], PROPS),
    { "000/a": "survived", "000/b": "survived", "000/c": "survived" },
  );
});

Deno.test("classify() reads a timeout as its own outcome and a run without a report as killed", () => {
  assert.deepEqual(classify(true, null, PROPS.slice(0, 1)), {
    "000/a": "timeout",
  });
  assert.deepEqual(classify(false, null, PROPS.slice(0, 1)), {
    "000/a": "killed",
  });
});

Deno.test("classify() reads a Hypothesis deadline or flakiness error as slow, not as a kill", () => {
  const slow = (message: string) => ({
    ...testCase("test_a", "failed"),
    message,
  });
  assert.deepEqual(
    classify(false, [
      slow("hypothesis.errors.DeadlineExceeded: Test took 250.00ms"),
    ], PROPS.slice(0, 1)),
    { "000/a": "timeout" },
  );
  assert.deepEqual(
    classify(
      false,
      [slow("hypothesis.errors.Flaky: Unreliable assumption")],
      PROPS.slice(0, 1),
    ),
    { "000/a": "timeout" },
  );
  for (
    const message of [
      "FlakyFailure: Hypothesis found 2 distinct failures",
      "FlakyStrategyDefinition: Inconsistent data generation",
    ]
  ) {
    assert.deepEqual(classify(false, [slow(message)], PROPS.slice(0, 1)), {
      "000/a": "timeout",
    });
  }
  assert.deepEqual(
    classify(false, [slow("AssertionError: assert 3 == 4")], PROPS.slice(0, 1)),
    { "000/a": "killed" },
  );
});

Deno.test("classify() kills a property one of whose parametrizations fails for real while another is only slow", () => {
  assert.deepEqual(
    classify(false, [
      {
        ...testCase("test_a[1]", "failed"),
        message: "hypothesis.errors.DeadlineExceeded: Test took 250.00ms",
      },
      { ...testCase("test_a[2]", "failed"), message: "assert 3 == 4" },
    ], PROPS.slice(0, 1)),
    { "000/a": "killed" },
  );
});

Deno.test("classify() judges every parametrization of a property", () => {
  assert.deepEqual(
    classify(false, [
      testCase("test_a[1]", "passed"),
      testCase("test_a[2]", "failed"),
    ], PROPS.slice(0, 1)),
    { "000/a": "killed" },
  );
});

Deno.test("memoryMutationCache() returns what was put", async () => {
  const cache = memoryMutationCache();
  assert.equal(await cache.get("k"), undefined);
  await cache.put("k", { "000/a": "killed" });
  assert.deepEqual(await cache.get("k"), { "000/a": "killed" });
  assert.equal(cache.size(), 1);
});

Deno.test("classify() reads a run without a report as unknown when pawl's observer watched it", () => {
  assert.deepEqual(
    classify(false, null, PROPS.slice(0, 1), { missingReport: "unknown" }),
    { "000/a": "unknown" },
  );
  assert.deepEqual(
    classify(true, null, PROPS.slice(0, 1), { missingReport: "unknown" }),
    { "000/a": "timeout" },
  );
});

Deno.test("copyTree() copies a tree when the process's working directory is gone", async () => {
  const root = await Deno.makeTempDir({ prefix: "pawl_copy_tree_test_" });
  const gone = await Deno.makeTempDir({ prefix: "pawl_copy_tree_cwd_" });
  const cwd = Deno.cwd();
  try {
    await Deno.mkdir(`${root}/tree/pkg`, { recursive: true });
    await Deno.writeTextFile(`${root}/tree/pkg/m.py`, "x = 1\n");
    Deno.chdir(gone);
    await Deno.remove(gone);
    await copyTree(`${root}/tree`, `${root}/copy`);
    assert.equal(await Deno.readTextFile(`${root}/copy/pkg/m.py`), "x = 1\n");
  } finally {
    Deno.chdir(cwd);
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("copyTree() refuses a tree it cannot copy, and says why", async () => {
  const root = await Deno.makeTempDir({ prefix: "pawl_copy_tree_test_" });
  try {
    await assert.rejects(
      copyTree(`${root}/missing`, `${root}/copy`),
      /^Error: Cannot copy the tree for a mutant run: .*missing/,
    );
    // cp's own words, without the line break it ends them with.
    const message = await copyTree(`${root}/missing`, `${root}/copy`).then(
      () => "",
      (e: Error) => e.message,
    );
    assert.ok(/\S$/.test(message), JSON.stringify(message));
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

// runMutants() over a fake sandbox whose "pytest" reports each selected
// test as the value `f()` returns in the run's copy of the tree decides.

const TEXT = "def f():\n    return 0\n";

/** The mutant that makes f() return `value`. */
function returning(value: number): Mutant {
  const start = TEXT.indexOf("0");
  return {
    id: `m${value}`,
    file: "pkg/m.py",
    function: "f",
    line: 2,
    column: 12,
    endLine: 2,
    endColumn: 13,
    start,
    end: start + 1,
    original: "0",
    replacement: String(value),
    operator: "constant",
  };
}

/** The base kills `000/a` when f() returns 1 or 2, `000/b` when it returns 2; the head kills nothing. */
function failing(side: string, value: string, key: string): boolean {
  if (side === "head") return false;
  return key === "000/a" ? value === "1" || value === "2" : value === "2";
}

interface Run {
  side: string;
  nodes: string[];
  code: string;
}

/** A fake pytest that records each run and reports each selected test. */
function fakeSuite(
  runs: Run[],
  options: { clock?: { now: number }; report?: boolean } = {},
) {
  return async (command: SandboxCommand) => {
    if (options.clock !== undefined) options.clock.now += 1000;
    const side = (await Deno.readTextFile(`${command.cwd}/SIDE`)).trim();
    const code = await Deno.readTextFile(`${command.cwd}/pkg/m.py`);
    const nodes = command.argv.filter((a) => a.includes("::"));
    runs.push({ side, nodes, code });
    if (options.report === false) return { code: 2 };
    const value = code.match(/return (\d+)/)?.[1] ?? "";
    const cases = nodes.map((node) => {
      const name = node.split("::")[1];
      const key = PROPS.find((p) => p.nodeId === node)?.key ?? "";
      const body = failing(side, value, key)
        ? '<failure message="assert False"/>'
        : "";
      return `<testcase classname="tests.test_m" name="${name}" time="0.01">${body}</testcase>`;
    });
    const flag = command.argv.find((a) => a.startsWith("--junitxml="))!;
    await Deno.writeTextFile(
      flag.slice("--junitxml=".length),
      `<?xml version="1.0" encoding="utf-8"?><testsuites><testsuite name="pytest" tests="${cases.length}">${
        cases.join("")
      }</testsuite></testsuites>`,
    );
    return { code: 0 };
  };
}

interface Trees {
  dir: string;
  side(name: "base" | "head", properties?: typeof PROPS): MutantSide;
  worker(sandbox: FakeSandbox): MutantWorker;
  options(
    sandbox: FakeSandbox,
    overrides?: Partial<RunMutantsOptions>,
  ): RunMutantsOptions;
}

async function trees(): Promise<Trees & AsyncDisposable> {
  const dir = await Deno.makeTempDir({ prefix: "pawl-run-mutants-" });
  for (const side of ["base", "head"]) {
    await Deno.mkdir(`${dir}/${side}/pkg`, { recursive: true });
    await Deno.writeTextFile(`${dir}/${side}/pkg/m.py`, TEXT);
    await Deno.writeTextFile(`${dir}/${side}/SIDE`, side);
  }
  await Deno.mkdir(`${dir}/reports`);
  let n = 0;
  const t: Trees = {
    dir,
    side: (name, properties = PROPS.slice(0, 2)) => ({
      template: `${dir}/${name}`,
      properties,
      cacheScope: () => Promise.resolve(name),
    }),
    worker: (sandbox) => ({
      sandbox,
      // Each sandbox writes its own reports, as the gate's do.
      reportDir: Deno.makeTempDirSync({ dir: `${dir}/reports` }),
      workPath: () => `${dir}/run-${n++}`,
    }),
    options: (sandbox, overrides = {}) => ({
      mutants: [1, 2, 3].map(returning),
      texts: new Map([["pkg/m.py", TEXT]]),
      base: t.side("base"),
      head: t.side("head"),
      workers: [t.worker(sandbox)],
      command: ["python3", "-m", "pytest"],
      env: {},
      limits: {},
      deadline: Number.POSITIVE_INFINITY,
      clock: () => 0,
      ...overrides,
    }),
  };
  return {
    ...t,
    [Symbol.asyncDispose]: () => Deno.remove(dir, { recursive: true }),
  };
}

Deno.test("runMutants() runs each mutant in its own copy of the tree, and the head only with the properties a base property of the same key killed", async () => {
  await using t = await trees();
  const runs: Run[] = [];
  const ran = await runMutants(t.options(new FakeSandbox(fakeSuite(runs))));
  const [a, b] = [PROPS[0]!, PROPS[1]!];
  assert.deepEqual(ran.unrun, []);
  assert.deepEqual(ran.results, [
    {
      mutant: returning(1),
      base: { "000/a": "killed", "000/b": "survived" },
      head: { "000/a": "survived" },
      cached: false,
    },
    {
      mutant: returning(2),
      base: { "000/a": "killed", "000/b": "killed" },
      head: { "000/a": "survived", "000/b": "survived" },
      cached: false,
    },
    {
      mutant: returning(3),
      base: { "000/a": "survived", "000/b": "survived" },
      head: null,
      cached: false,
    },
  ]);
  assert.deepEqual(runs, [
    {
      side: "base",
      nodes: [a.nodeId, b.nodeId],
      code: "def f():\n    return 1\n",
    },
    { side: "head", nodes: [a.nodeId], code: "def f():\n    return 1\n" },
    {
      side: "base",
      nodes: [a.nodeId, b.nodeId],
      code: "def f():\n    return 2\n",
    },
    {
      side: "head",
      nodes: [a.nodeId, b.nodeId],
      code: "def f():\n    return 2\n",
    },
    {
      side: "base",
      nodes: [a.nodeId, b.nodeId],
      code: "def f():\n    return 3\n",
    },
  ]);
  // Each copy is gone once its run is read.
  for await (const entry of Deno.readDir(t.dir)) {
    assert.ok(!entry.name.startsWith("run-"), entry.name);
  }
});

Deno.test("runMutants() hands each copy of the tree to the sandbox before it runs there", async () => {
  // A sandbox of its own uid can write only a tree handed to it.
  await using t = await trees();
  const runs: Run[] = [];
  const unprepared: string[] = [];
  const suite = fakeSuite(runs);
  const sandbox: FakeSandbox = new FakeSandbox((command) => {
    if (!sandbox.preparedDirs.includes(command.cwd ?? "")) {
      unprepared.push(command.cwd ?? "");
    }
    return suite(command);
  });
  await runMutants(t.options(sandbox));
  assert.equal(runs.length, 5);
  assert.deepEqual(unprepared, []);
});

Deno.test("runMutants() runs no head when the head's test side is the base's", async () => {
  await using t = await trees();
  const runs: Run[] = [];
  const ran = await runMutants(
    t.options(new FakeSandbox(fakeSuite(runs)), { head: null }),
  );
  assert.ok(ran.results.every((r) => r.head === null));
  assert.deepEqual(runs.map((r) => r.side), ["base", "base", "base"]);
});

Deno.test("runMutants() selects each test once, in order, however many properties name it", async () => {
  await using t = await trees();
  const runs: Run[] = [];
  const [a, b] = [PROPS[0]!, PROPS[1]!];
  // Two keys, one test; listed after a test that sorts before it.
  const base = t.side("base", [b, a, { key: "000/a2", nodeId: a.nodeId }]);
  await runMutants(
    t.options(new FakeSandbox(fakeSuite(runs)), {
      mutants: [returning(3)],
      base,
      head: null,
    }),
  );
  assert.deepEqual(runs.map((r) => r.nodes), [[a.nodeId, b.nodeId]]);
});

Deno.test("runMutants() starts no mutant once the clock reads the deadline, and counts the rest as unrun, in order", async (t) => {
  const cases: [string, number, number][] = [
    // Each run takes a second: mutant 1 runs base and head (0 to 2000),
    // mutant 2 too (2000 to 4000), mutant 3 would start at 4000.
    ["a deadline passed while a mutant runs: it finishes", 3000, 2],
    ["a deadline the clock reads exactly", 4000, 2],
    ["a deadline before the first mutant", 0, 0],
    ["a deadline past every run", 10_000, 3],
  ];
  for (const [name, deadline, started] of cases) {
    await t.step(name, async () => {
      await using fixture = await trees();
      const clock = { now: 0 };
      const runs: Run[] = [];
      const ran = await runMutants(
        fixture.options(new FakeSandbox(fakeSuite(runs, { clock })), {
          deadline,
          clock: () => clock.now,
        }),
      );
      const all = [1, 2, 3].map(returning);
      assert.deepEqual(ran.results.map((r) => r.mutant), all.slice(0, started));
      assert.deepEqual(ran.unrun, all.slice(started));
    });
  }
});

Deno.test("runMutants() shares the mutants among its sandboxes and keeps their order", async () => {
  await using t = await trees();
  const runs: Run[] = [];
  const sandboxes = [0, 1].map(() => new FakeSandbox(fakeSuite(runs)));
  const mutants = [1, 2, 3, 4, 5].map(returning);
  const ran = await runMutants(t.options(sandboxes[0]!, {
    mutants,
    workers: sandboxes.map((s) => t.worker(s)),
    head: null,
  }));
  assert.deepEqual(ran.results.map((r) => r.mutant), mutants);
  assert.ok(sandboxes.every((s) => s.commands.length > 0));
  assert.equal(
    sandboxes[0]!.commands.length + sandboxes[1]!.commands.length,
    5,
  );
});

Deno.test("runMutants() takes from the cache what the same mutant showed where nothing it can read differed, and only what every property of it was judged on", async () => {
  await using t = await trees();
  const cache = memoryMutationCache();
  const runs: Run[] = [];
  const first = await runMutants(
    t.options(new FakeSandbox(fakeSuite(runs)), { cache }),
  );
  assert.equal(runs.length, 5);
  assert.equal(cache.size(), 5);
  const again = await runMutants(
    t.options(new FakeSandbox(fakeSuite(runs)), { cache }),
  );
  assert.equal(runs.length, 5, "nothing ran again");
  assert.deepEqual(
    again.results,
    first.results.map((r) => ({ ...r, cached: true })),
  );
  // Another scope is another key: the base runs again.
  await runMutants(t.options(new FakeSandbox(fakeSuite(runs)), {
    cache,
    base: { ...t.side("base"), cacheScope: () => Promise.resolve("other") },
    head: null,
  }));
  assert.equal(runs.length, 8);
});

Deno.test("runMutants() runs every mutant under the limits it is given", async () => {
  await using t = await trees();
  const sandbox = new FakeSandbox(fakeSuite([]));
  const limits = { timeoutMs: 12_345, maxProcesses: 64 };
  await runMutants(t.options(sandbox, { limits }));
  assert.equal(sandbox.commands.length, 5);
  for (const command of sandbox.commands) {
    assert.deepEqual(command.limits, limits);
  }
});

Deno.test("runMutants() never serves the head's run from the base's entry, even over the same scope and properties", async () => {
  await using t = await trees();
  const cache = memoryMutationCache();
  const runs: Run[] = [];
  const same = () => Promise.resolve("same");
  const ran = await runMutants(t.options(new FakeSandbox(fakeSuite(runs)), {
    mutants: [returning(2)],
    cache,
    base: { ...t.side("base"), cacheScope: same },
    head: { ...t.side("head"), cacheScope: same },
  }));
  assert.deepEqual(runs.map((r) => r.side), ["base", "head"]);
  assert.deepEqual(ran.results[0]?.base, {
    "000/a": "killed",
    "000/b": "killed",
  });
  assert.deepEqual(ran.results[0]?.head, {
    "000/a": "survived",
    "000/b": "survived",
  });
  assert.equal(cache.size(), 2);
});

Deno.test("runMutants() runs again a cached outcome that lacks one of the side's properties", async () => {
  await using t = await trees();
  const runs: Run[] = [];
  const keys: string[] = [];
  const cache = {
    get: (key: string) => {
      keys.push(key);
      // Every key answered with the outcome of 000/a alone.
      return Promise.resolve({ "000/a": "survived" as const });
    },
    put: () => Promise.resolve(),
    size: () => 0,
  };
  const ran = await runMutants(t.options(new FakeSandbox(fakeSuite(runs)), {
    mutants: [returning(3)],
    cache,
    head: null,
  }));
  assert.equal(keys.length, 1);
  assert.equal(runs.length, 1);
  assert.deepEqual(ran.results[0]?.base, {
    "000/a": "survived",
    "000/b": "survived",
  });
  assert.equal(ran.results[0]?.cached, false);
});

Deno.test("runMutants() never caches a run it cannot read, and keeps what it says about it with the mutant", async () => {
  await using t = await trees();
  const observer = await installObserver(t.dir);
  const cache = memoryMutationCache();
  const runs: Run[] = [];
  // The fake reports every test, but pawl's observer never hears of it.
  const watched = new FakeSandbox(fakeSuite(runs));
  const ran = await runMutants(t.options(watched, {
    mutants: [returning(1)],
    cache,
    observer,
  }));
  assert.ok(watched.commands[0]?.argv.includes(observer.module));
  assert.equal(cache.size(), 0);
  const r = ran.results[0]!;
  assert.deepEqual(r.base, { "000/a": "unknown", "000/b": "unknown" });
  assert.equal(r.head, null, "an unknown is no kill: the head does not run");
  assert.deepEqual(r.findings?.map((f) => f.rule), [
    "harness.observer_missing",
  ]);
  assert.match(r.findings?.[0]?.message ?? "", /mutant m1 \(pkg\/m\.py:2\)/);
  // Without the observer the same runs are read, cached, and say nothing more.
  const plain = await runMutants(t.options(new FakeSandbox(fakeSuite(runs)), {
    mutants: [returning(1)],
    cache,
  }));
  assert.ok(!("findings" in plain.results[0]!));
  assert.equal(cache.size(), 2);
});

Deno.test("runMutants() keeps with the mutant what pawl's observer says about its head run", async () => {
  await using t = await trees();
  const observer = await installObserver(t.dir);
  const cache = memoryMutationCache();
  const options = t.options(new FakeSandbox(fakeSuite([])), {
    mutants: [returning(1)],
    cache,
    observer,
  });
  // The base's outcome comes from the cache: only the head runs, and
  // pawl's observer never hears of it.
  await cache.put(
    mutantCacheKey({
      side: "base",
      scope: "base",
      mutant: returning(1),
      command: options.command,
      env: options.env,
      properties: options.base.properties,
      observer,
    }),
    { "000/a": "killed", "000/b": "survived" },
  );
  const ran = await runMutants(options);
  const r = ran.results[0]!;
  assert.equal(r.cached, true);
  assert.deepEqual(r.head, { "000/a": "unknown" });
  assert.deepEqual(r.findings?.map((f) => f.rule), [
    "harness.observer_missing",
  ]);
  assert.match(
    r.findings?.[0]?.message ?? "",
    /the head's properties on mutant m1 \(pkg\/m\.py:2\)/,
  );
});

Deno.test("runMutants() keys the head's runs as the head's, where a later run of the head's properties finds them", async () => {
  await using t = await trees();
  const cache = memoryMutationCache();
  const o = t.options(new FakeSandbox(fakeSuite([])), {
    mutants: [returning(2)],
    cache,
  });
  const ran = await runMutants(o);
  const head = t.side("head");
  const key = await runCacheKey(o, head, returning(2), "head");
  assert.deepEqual(await cachedRun(o, head, key), ran.results[0]?.head);
  assert.deepEqual(ran.results[0]?.head, {
    "000/a": "survived",
    "000/b": "survived",
  });
});

Deno.test("runUnmutated() leaves nothing in the cache: only a mutant's run is kept", async () => {
  await using t = await trees();
  const cache = memoryMutationCache();
  const o = t.options(new FakeSandbox(fakeSuite([])), { cache });
  await runUnmutated(o.workers[0]!, o, t.side("base"), () => 0);
  assert.equal(cache.size(), 0);
});

Deno.test("runMutants() refuses a mutant of a file whose text it was not given", async () => {
  await using t = await trees();
  await assert.rejects(
    runMutants(t.options(new FakeSandbox(fakeSuite([])), {
      texts: new Map(),
    })),
    /Cannot mutate "pkg\/m\.py": its text was not read/,
  );
});

Deno.test("runUnmutated() runs a side on the unmutated tree and times it", async () => {
  await using t = await trees();
  const clock = { now: 5 };
  const runs: Run[] = [];
  const o = t.options(new FakeSandbox(fakeSuite(runs, { clock })));
  const ran = await runUnmutated(
    o.workers[0]!,
    o,
    t.side("head"),
    () => clock.now,
    "head",
  );
  assert.deepEqual(ran, {
    outcomes: { "000/a": "survived", "000/b": "survived" },
    ms: 1000,
    findings: [],
  });
  assert.deepEqual(runs, [{
    side: "head",
    nodes: [PROPS[0]!.nodeId, PROPS[1]!.nodeId],
    code: TEXT,
  }]);
});

Deno.test("runUnmutated() names its run the base's oracle's unless told it is the head's", async (t) => {
  await using fixture = await trees();
  const observer = await installObserver(fixture.dir);
  const cases: [string, "head" | undefined, string][] = [
    ["no side named", undefined, "the base's oracle on the unmutated code"],
    ["the head", "head", "the head's properties on the unmutated code"],
  ];
  for (const [name, label, what] of cases) {
    await t.step(name, async () => {
      // The fake reports every test, but pawl's observer never hears of it.
      const o = fixture.options(new FakeSandbox(fakeSuite([])), { observer });
      const side = fixture.side(label ?? "base");
      const ran = label === undefined
        ? await runUnmutated(o.workers[0]!, o, side, () => 0)
        : await runUnmutated(o.workers[0]!, o, side, () => 0, label);
      assert.deepEqual(ran.findings.map((f) => f.rule), [
        "harness.observer_missing",
      ]);
      assert.ok(ran.findings[0]?.message.includes(`from ${what} `));
    });
  }
});

Deno.test("describeRun() names the side and the mutant", async (t) => {
  const cases: [string, "base" | "head", Mutant | null, string][] = [
    [
      "the base, unmutated",
      "base",
      null,
      "the base's oracle on the unmutated code",
    ],
    [
      "the head, on a mutant",
      "head",
      returning(1),
      "the head's properties on mutant m1 (pkg/m.py:2)",
    ],
  ];
  for (const [name, label, mutant, text] of cases) {
    await t.step(name, () => assert.equal(describeRun(label, mutant), text));
  }
});

Deno.test("runOutcomes() trusts a run's report only when pawl's observer confirms it", async (t) => {
  const props = PROPS.slice(0, 1);
  const cases = [testCase("test_a", "failed")];
  const confirming = parseObservation([[
    '{"event":"hello","token":"t"}',
    '{"event":"configure"}',
    '{"event":"report","nodeid":"tests/test_m.py::test_a","when":"call","outcome":"failed","xfail":false}',
  ]], "t");
  const contradicting = parseObservation([[
    '{"event":"hello","token":"t"}',
    '{"event":"configure"}',
    '{"event":"report","nodeid":"tests/test_m.py::test_a","when":"call","outcome":"passed","xfail":false}',
  ]], "t");
  const table: [
    string,
    MutantRunReport,
    boolean,
    SideOutcomes,
    string[],
  ][] = [
    ["unwatched: the report", { timedOut: false, cases }, false, {
      "000/a": "killed",
    }, []],
    [
      "unwatched, no report: a kill",
      { timedOut: false, cases: null },
      false,
      { "000/a": "killed" },
      [],
    ],
    [
      "confirmed",
      { timedOut: false, cases, observation: confirming },
      true,
      { "000/a": "killed" },
      [],
    ],
    [
      "contradicted",
      { timedOut: false, cases, observation: contradicting },
      true,
      { "000/a": "unknown" },
      ["harness.report_tampered"],
    ],
    [
      "a report the observer never reported from",
      { timedOut: false, cases },
      true,
      { "000/a": "unknown" },
      ["harness.observer_missing"],
    ],
    [
      "watched, no report: unknown",
      { timedOut: false, cases: null },
      true,
      { "000/a": "unknown" },
      [],
    ],
    [
      "watched, stopped by a limit",
      { timedOut: true, cases },
      true,
      { "000/a": "timeout" },
      [],
    ],
  ];
  for (const [name, run, observed, outcomes, rules] of table) {
    await t.step(name, () => {
      const got = runOutcomes(run, props, { what: "the run", observed });
      assert.deepEqual(got.outcomes, outcomes);
      assert.deepEqual(got.findings.map((f) => f.rule), rules);
      // Each says which run it cannot trust.
      for (const f of got.findings) assert.match(f.message, / the run /);
    });
  }
});

Deno.test("runOutcomes() lists three of the report's disagreements with pawl's observer and counts the rest", async (t) => {
  const contradicting = (names: string[]) =>
    parseObservation([[
      '{"event":"hello","token":"t"}',
      '{"event":"configure"}',
      ...names.map((n) =>
        `{"event":"report","nodeid":"tests/test_m.py::${n}","when":"call","outcome":"passed","xfail":false}`
      ),
    ]], "t");
  const table: [string, string[], string[], string][] = [
    ["three, all listed", ["test_a", "test_b", "test_c"], [
      "test_a",
      "test_b",
      "test_c",
    ], ""],
    ["four, one counted", ["test_a", "test_b", "test_c", "test_d"], [
      "test_a",
      "test_b",
      "test_c",
    ], "; and 1 more"],
  ];
  for (const [name, names, listed, more] of table) {
    await t.step(name, () => {
      const got = runOutcomes(
        {
          timedOut: false,
          cases: names.map((n) => testCase(n, "failed")),
          observation: contradicting(names),
        },
        PROPS,
        { what: "the run", observed: true },
      );
      assert.equal(got.findings.length, 1);
      const message = got.findings[0]!.message;
      for (const n of names) {
        assert.equal(
          message.includes(`tests/test_m.py::${n}"`),
          listed.includes(n),
          `${n} in: ${message}`,
        );
      }
      assert.equal(
        message.endsWith(`while the tests ran${more}`),
        true,
        message,
      );
    });
  }
});

Deno.test("unknownFor() makes every property unknown", () => {
  assert.deepEqual(unknownFor(PROPS), {
    "000/a": "unknown",
    "000/b": "unknown",
    "000/c": "unknown",
  });
});
