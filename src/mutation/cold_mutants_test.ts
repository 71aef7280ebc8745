/**
 * The cold engine over a fake sandbox: which baselines run, which
 * properties each mutant run then selects, and the time limit each gets.
 */
import assert from "node:assert/strict";
import { installObserver } from "../run/observer.ts";
import { FakeSandbox } from "../sandbox/fake_sandbox.ts";
import type { SandboxCommand } from "../sandbox/sandbox.ts";
import { coldLimits, passes, runColdMutants } from "./cold_mutants.ts";
import type { MutantEngineOptions } from "./mutant_engine.ts";
import type { Mutant } from "./mutant.ts";

const TEXT = "def f():\n    return 0\n";

const PROPS = ["a", "b", "c"].map((k) => ({
  key: k,
  nodeId: `tests/test_m.py::test_${k}`,
}));

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

interface Run {
  side: string;
  mutated: boolean;
  keys: string[];
  timeoutMs: number | undefined;
}

/**
 * A fake pytest: on the unmutated code each side's tests fail as `failing`
 * says; on a mutant the base's tests fail and the head's pass. Each run
 * takes the milliseconds `ms` gives its side's baseline, one otherwise.
 */
function fakeSuite(
  runs: Run[],
  options: {
    failing: Record<string, string[]>;
    ms?: Record<string, number>;
    clock: { now: number };
  },
) {
  return async (command: SandboxCommand) => {
    const side = (await Deno.readTextFile(`${command.cwd}/SIDE`)).trim();
    const mutated =
      (await Deno.readTextFile(`${command.cwd}/pkg/m.py`)) !== TEXT;
    options.clock.now += mutated ? 1 : options.ms?.[side] ?? 1;
    const keys = command.argv.filter((a) => a.includes("::"))
      .map((n) => n.slice(n.lastIndexOf("_") + 1));
    runs.push({ side, mutated, keys, timeoutMs: command.limits?.timeoutMs });
    const fails = (k: string) =>
      mutated ? side === "base" : options.failing[side]?.includes(k) ?? false;
    const cases = keys.map((k) =>
      `<testcase classname="tests.test_m" name="test_${k}" time="0.01">${
        fails(k) ? '<failure message="assert False"/>' : ""
      }</testcase>`
    );
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

async function withTrees(
  fn: (
    options: (
      sandbox: FakeSandbox,
      clock: { now: number },
      overrides?: Partial<MutantEngineOptions>,
    ) => MutantEngineOptions,
  ) => Promise<void>,
) {
  const dir = await Deno.makeTempDir({ prefix: "pawl-cold-mutants-" });
  try {
    for (const side of ["base", "head"]) {
      await Deno.mkdir(`${dir}/${side}/pkg`, { recursive: true });
      await Deno.writeTextFile(`${dir}/${side}/pkg/m.py`, TEXT);
      await Deno.writeTextFile(`${dir}/${side}/SIDE`, side);
    }
    await Deno.mkdir(`${dir}/reports/second`, { recursive: true });
    let n = 0;
    const side = (name: string) => ({
      template: `${dir}/${name}`,
      properties: PROPS,
      cacheScope: () => Promise.resolve(name),
    });
    await fn((sandbox, clock, overrides = {}) => ({
      mutants: [1, 2].map(returning),
      texts: new Map([["pkg/m.py", TEXT]]),
      base: side("base"),
      head: side("head"),
      workers: [{
        sandbox,
        reportDir: `${dir}/reports`,
        workPath: () => `${dir}/run-${n++}`,
      }],
      command: ["python3", "-m", "pytest"],
      env: {},
      limits: { timeoutMs: 60_000 },
      deadline: Number.POSITIVE_INFINITY,
      clock: () => clock.now,
      ...overrides,
    }));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("runColdMutants() runs nothing without a sandbox", async () => {
  const ran = await runColdMutants({
    mutants: [returning(1)],
    texts: new Map([["pkg/m.py", TEXT]]),
    base: {
      template: "/nonexistent",
      properties: PROPS,
      cacheScope: () => Promise.resolve(""),
    },
    head: null,
    workers: [],
    command: ["python3", "-m", "pytest"],
    env: {},
    limits: {},
    deadline: Number.POSITIVE_INFINITY,
    clock: () => 0,
  });
  assert.deepEqual(ran, {
    results: [],
    unrun: [],
    notCovered: [],
    baselineFindings: [],
  });
});

Deno.test("runColdMutants() runs each side's mutants with only the properties that passed on its unmutated code", () =>
  withTrees(async (options) => {
    const runs: Run[] = [];
    const clock = { now: 0 };
    // b fails on the base's code; c on the head's.
    const sandbox = new FakeSandbox(
      fakeSuite(runs, { failing: { base: ["b"], head: ["c"] }, clock }),
    );
    const progress: string[] = [];
    const ran = await runColdMutants(options(sandbox, clock, {
      progress: (line) => progress.push(line),
    }));
    assert.deepEqual(
      runs.map((r) => [r.side, r.mutated, r.keys.join(" ")]),
      [
        ["base", false, "a b c"],
        // The head's baseline: only what passed on the base's code.
        ["head", false, "a c"],
        ["base", true, "a c"],
        ["head", true, "a"],
        ["base", true, "a c"],
        ["head", true, "a"],
      ],
    );
    assert.deepEqual(
      ran.results.map((r) => [r.mutant.id, r.base, r.head]),
      [1, 2].map((n) => [
        `m${n}`,
        { a: "killed", c: "killed" },
        { a: "survived" },
      ]),
    );
    assert.deepEqual(ran.unrun, []);
    assert.deepEqual(ran.notCovered, []);
    assert.deepEqual(progress, ["mutation: running 2 mutants in 1 sandbox"]);
  }));

Deno.test("runColdMutants() starts no mutant past the deadline, and counts them unrun", () =>
  withTrees(async (options) => {
    const runs: Run[] = [];
    const clock = { now: 0 };
    const sandbox = new FakeSandbox(fakeSuite(runs, { failing: {}, clock }));
    // The two baselines take the budget: the clock reads 2 when they end.
    const ran = await runColdMutants(options(sandbox, clock, { deadline: 2 }));
    assert.deepEqual(runs.map((r) => r.mutated), [false, false]);
    assert.deepEqual(ran.results, []);
    assert.deepEqual(ran.unrun.map((m) => m.id), ["m1", "m2"]);
    assert.deepEqual(ran.notCovered, []);
  }));

Deno.test("runColdMutants() runs both baselines with the suite's environment and limits", () =>
  withTrees(async (options) => {
    const clock = { now: 0 };
    const sandbox = new FakeSandbox(fakeSuite([], { failing: {}, clock }));
    await runColdMutants(options(sandbox, clock, {
      env: { HYPOTHESIS_SEED: "7" },
      limits: { timeoutMs: 60_000, maxProcesses: 64 },
    }));
    assert.ok(sandbox.commands.length > 2);
    for (const command of sandbox.commands.slice(0, 2)) {
      assert.equal(command.env["HYPOTHESIS_SEED"], "7");
      assert.deepEqual(command.limits, {
        timeoutMs: 60_000,
        maxProcesses: 64,
      });
    }
    for (const command of sandbox.commands.slice(2)) {
      assert.equal(command.env["HYPOTHESIS_SEED"], "7");
      assert.equal(command.limits?.maxProcesses, 64);
    }
  }));

Deno.test("runColdMutants() shares the mutants among all its sandboxes", () =>
  withTrees(async (options) => {
    const clock = { now: 0 };
    const sandboxes = [0, 1].map(() =>
      new FakeSandbox(fakeSuite([], { failing: {}, clock }))
    );
    const first = options(sandboxes[0]!, clock);
    const worker = first.workers[0]!;
    const ran = await runColdMutants({
      ...first,
      // Each sandbox writes its own reports, as the gate's do.
      workers: sandboxes.map((sandbox, i) => ({
        ...worker,
        sandbox,
        reportDir: i === 0 ? worker.reportDir : `${worker.reportDir}/second`,
      })),
    });
    assert.deepEqual(ran.results.map((r) => r.mutant.id), ["m1", "m2"]);
    assert.ok(
      sandboxes[1]!.commands.length > 0,
      "the second sandbox ran a mutant",
    );
  }));

Deno.test("runColdMutants() runs the base alone when the head's test side is the base's", () =>
  withTrees(async (options) => {
    const runs: Run[] = [];
    const clock = { now: 0 };
    const sandbox = new FakeSandbox(
      fakeSuite(runs, { failing: {}, clock }),
    );
    const progress: string[] = [];
    const o = options(sandbox, clock, {
      head: null,
      progress: (line) => progress.push(line),
    });
    // Two sandboxes, each writing its own reports.
    const ran = await runColdMutants({
      ...o,
      workers: [o.workers[0]!, {
        ...o.workers[0]!,
        reportDir: `${o.workers[0]!.reportDir}/second`,
      }],
    });
    assert.deepEqual(runs.map((r) => r.side), ["base", "base", "base"]);
    assert.ok(ran.results.every((r) => r.head === null));
    assert.deepEqual(progress, ["mutation: running 2 mutants in 2 sandboxes"]);
  }));

Deno.test("runColdMutants() keeps what pawl's observer says of both baselines", () =>
  withTrees(async (options) => {
    const runs: Run[] = [];
    const clock = { now: 0 };
    const root = await Deno.makeTempDir({ prefix: "pawl-cold-observer-" });
    try {
      // The fake reports every test, but the observer never hears of it.
      const sandbox = new FakeSandbox(
        fakeSuite(runs, { failing: {}, clock }),
      );
      const ran = await runColdMutants(options(sandbox, clock, {
        observer: await installObserver(root),
      }));
      assert.deepEqual(ran.results, []);
      const said = ran.baselineFindings.map((f) => f.message);
      assert.equal(said.length, 2);
      assert.match(said[0] ?? "", /the base's oracle on the unmutated code/);
      assert.match(
        said[1] ?? "",
        /the head's properties on the unmutated code/,
      );
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  }));

/**
 * The suite, with what it reports streamed to pawl's observer (as the
 * plugin would) in the runs of the sides `heard`: the other sides' runs
 * leave a report the observer never heard of.
 */
function observedOn(
  heard: readonly string[],
  suite: (command: SandboxCommand) => Promise<{ code: number }>,
) {
  return async (command: SandboxCommand) => {
    const result = await suite(command);
    const side = (await Deno.readTextFile(`${command.cwd}/SIDE`)).trim();
    if (!heard.includes(side)) return result;
    const flag = command.argv.find((a) => a.startsWith("--junitxml="))!;
    const xml = await Deno.readTextFile(flag.slice("--junitxml=".length));
    const events = [
      { event: "hello", token: command.env["PAWL_OBSERVER_TOKEN"] },
      { event: "configure" },
      ...[...xml.matchAll(/name="(test_\w+)"[^>]*>(<failure)?/g)].map((m) => ({
        event: "report",
        nodeid: `tests/test_m.py::${m[1]}`,
        when: "call",
        outcome: m[2] === undefined ? "passed" : "failed",
        xfail: false,
      })),
    ];
    const conn = await Deno.connect({
      transport: "unix",
      path: command.env["PAWL_OBSERVER_SOCKET"] as string,
    });
    const bytes = new TextEncoder().encode(
      events.map((e) => `${JSON.stringify(e)}\n`).join(""),
    );
    for (let n = 0; n < bytes.length;) {
      n += await conn.write(bytes.subarray(n));
    }
    conn.close();
    return result;
  };
}

Deno.test("runColdMutants() keeps what pawl's observer says of the head's baseline when the base's passes and its mutants run", () =>
  withTrees(async (options) => {
    const runs: Run[] = [];
    const clock = { now: 0 };
    const root = await Deno.makeTempDir({ prefix: "pawl-cold-observer-" });
    try {
      const sandbox = new FakeSandbox(
        observedOn(["base"], fakeSuite(runs, { failing: {}, clock })),
      );
      const ran = await runColdMutants(options(sandbox, clock, {
        observer: await installObserver(root),
      }));
      assert.deepEqual(
        ran.results.map((r) => [r.mutant.id, r.base]),
        [1, 2].map((n) => [`m${n}`, { a: "killed", b: "killed", c: "killed" }]),
      );
      const said = ran.baselineFindings.map((f) => f.message);
      assert.equal(said.length, 1);
      assert.match(
        said[0] ?? "",
        /the head's properties on the unmutated code/,
      );
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  }));

Deno.test("runColdMutants() runs no mutant when no base property passes on the unmutated code", () =>
  withTrees(async (options) => {
    const runs: Run[] = [];
    const clock = { now: 0 };
    const sandbox = new FakeSandbox(
      fakeSuite(runs, { failing: { base: ["a", "b", "c"] }, clock }),
    );
    const progress: string[] = [];
    const ran = await runColdMutants(options(sandbox, clock, {
      progress: (line) => progress.push(line),
    }));
    assert.deepEqual(ran.results, []);
    assert.deepEqual(runs.map((r) => r.mutated), [false, false]);
    assert.deepEqual(progress, []);
  }));

Deno.test("runColdMutants() runs the mutants when a single base property passes on the unmutated code", () =>
  withTrees(async (options) => {
    const runs: Run[] = [];
    const clock = { now: 0 };
    const sandbox = new FakeSandbox(
      fakeSuite(runs, { failing: { base: ["b", "c"] }, clock }),
    );
    const ran = await runColdMutants(options(sandbox, clock));
    assert.deepEqual(
      runs.map((r) => [r.side, r.mutated, r.keys.join(" ")]),
      [
        ["base", false, "a b c"],
        ["head", false, "a"],
        ["base", true, "a"],
        ["head", true, "a"],
        ["base", true, "a"],
        ["head", true, "a"],
      ],
    );
    assert.deepEqual(
      ran.results.map((r) => [r.mutant.id, r.base, r.head]),
      [1, 2].map((n) => [`m${n}`, { a: "killed" }, { a: "survived" }]),
    );
  }));

Deno.test("runColdMutants() gives each mutant run three times the slowest baseline and ten seconds", async (t) => {
  const cases: [string, Record<string, number>, boolean, number][] = [
    ["the head's baseline slower", { base: 1000, head: 3000 }, true, 19_000],
    ["the base's baseline slower", { base: 5000, head: 1000 }, true, 25_000],
    ["no head", { base: 1000, head: 9000 }, false, 13_000],
  ];
  for (const [name, ms, head, timeoutMs] of cases) {
    await t.step(name, () =>
      withTrees(async (options) => {
        const runs: Run[] = [];
        const clock = { now: 0 };
        const sandbox = new FakeSandbox(
          fakeSuite(runs, { failing: {}, ms, clock }),
        );
        await runColdMutants(
          options(sandbox, clock, head ? {} : { head: null }),
        );
        const mutantRuns = runs.filter((r) => r.mutated);
        assert.ok(mutantRuns.length > 0);
        for (const r of mutantRuns) assert.equal(r.timeoutMs, timeoutMs);
      }));
  }
});

Deno.test("coldLimits() gives three times the slowest baseline and ten seconds, within the suite's own limit", async (t) => {
  const cases: [string, number | undefined, number, number][] = [
    ["a fast suite", 60_000, 1000, 13_000],
    ["rounded up to a whole millisecond", 60_000, 1000.2, 13_001],
    ["the suite's limit is lower", 12_000, 1000, 12_000],
    ["no suite limit: ten minutes", undefined, 400_000, 600_000],
  ];
  for (const [name, suite, slowest, want] of cases) {
    await t.step(name, () => {
      const limits = suite === undefined
        ? { cpuSeconds: 30 }
        : { timeoutMs: suite, cpuSeconds: 30 };
      assert.deepEqual(coldLimits(limits, slowest), {
        cpuSeconds: 30,
        timeoutMs: want,
      });
    });
  }
});

Deno.test("passes() counts only a property that survived the unmutated run", async (t) => {
  const cases: [string, string | undefined, boolean][] = [
    ["survived", "survived", true],
    ["killed", "killed", false],
    ["timed out", "timeout", false],
    ["unknown", "unknown", false],
    ["not run", undefined, false],
  ];
  for (const [name, outcome, want] of cases) {
    await t.step(name, () => {
      const outcomes = outcome === undefined
        ? {}
        : { a: outcome as "survived" };
      assert.equal(passes(outcomes, "a"), want);
    });
  }
});
