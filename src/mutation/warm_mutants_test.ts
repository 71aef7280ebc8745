/**
 * The warm engine over a local "sandbox" (plain child processes) with the
 * real driver, observer, pytest and Hypothesis: what it runs warm, what
 * it hands to the cold engine, and that both come to the same outcomes.
 * The real sandbox is exercised end to end in tests/mutation_warm_test.ts.
 */
import assert from "node:assert/strict";
import { loadPythonParser } from "../python/load_python_parser.ts";
import { installObserver, type ObserverPlugin } from "../run/observer.ts";
import { LocalSandbox } from "../run/_local_sandbox.ts";
import { DEFAULT_PYTEST_COMMAND, SANDBOX_PATH } from "../run/run_pytest.ts";
import { runColdMutants } from "./cold_mutants.ts";
import { generateMutants } from "./generate_mutants.ts";
import { installWarmDriver, type WarmDriver } from "./install_warm_driver.ts";
import type { MutantResult } from "./judge_kill_sets.ts";
import type { MutantEngineOptions } from "./mutant_engine.ts";
import { memoryMutationCache } from "./mutation_cache.ts";
import { buildSchemata } from "./schemata.ts";
import { runWarmMutants, warmSettings } from "./warm_mutants.ts";

const parser = await loadPythonParser();

const CORE = "kit/core.py";
const CODE = `def clamp(x, lo, hi):
    if x < lo:
        return lo
    if x > hi:
        return hi
    return x


def unused(x):
    return x * 3


def firsts(n):
    yield n
`;

const TEST = `from hypothesis import given, settings, strategies as st

from kit.core import clamp, firsts


@settings(max_examples=40)
@given(st.integers(), st.integers(), st.integers())
def test_clamp(x, a, b):
    lo, hi = min(a, b), max(a, b)
    assert clamp(x, lo, hi) == min(max(x, lo), hi)


def test_firsts():
    assert list(firsts(2)) == [2]
`;

const PROPS = [
  { key: "000/clamp", nodeId: "tests/test_kit.py::test_clamp" },
  { key: "000/firsts", nodeId: "tests/test_kit.py::test_firsts" },
];

interface Fixture {
  root: string;
  observer: ObserverPlugin;
  driver: WarmDriver;
  sandbox: LocalSandbox;
  progress: string[];
  options(
    tests: Record<string, string>,
    head?: Record<string, string>,
  ): Promise<MutantEngineOptions>;
}

async function fixture(code = CODE): Promise<Fixture & AsyncDisposable> {
  const root = await Deno.makeTempDir({ prefix: "pawl-warm-mutants-" });
  const observer = await installObserver(root);
  const driver = await installWarmDriver(root);
  const sandbox = new LocalSandbox();
  const progress: string[] = [];
  let n = 0;
  const tree = async (name: string, tests: Record<string, string>) => {
    const files = {
      "kit/__init__.py": "",
      [CORE]: code,
      "tests/__init__.py": "",
      ...tests,
    };
    for (const [path, text] of Object.entries(files)) {
      const full = `${root}/${name}/${path}`;
      await Deno.mkdir(full.slice(0, full.lastIndexOf("/")), {
        recursive: true,
      });
      await Deno.writeTextFile(full, text);
    }
    return `${root}/${name}`;
  };
  await Deno.mkdir(`${root}/reports`);
  return {
    root,
    observer,
    driver,
    sandbox,
    progress,
    options: async (tests, head) => ({
      mutants: generateMutants(parser, CORE, code),
      texts: new Map([[CORE, code]]),
      base: {
        template: await tree("base", tests),
        cacheScope: () => Promise.resolve("b"),
        properties: PROPS,
      },
      head: head === undefined ? null : {
        template: await tree("head", head),
        cacheScope: () => Promise.resolve("h"),
        properties: PROPS,
      },
      workers: [{
        sandbox,
        reportDir: `${root}/reports`,
        workPath: () => `${root}/w${n++}`,
      }],
      command: [...DEFAULT_PYTEST_COMMAND, "--hypothesis-seed=11"],
      env: { PATH: SANDBOX_PATH },
      limits: {},
      observer,
      deadline: Number.POSITIVE_INFINITY,
      clock: () => performance.now(),
      progress: (line) => progress.push(line),
    }),
    [Symbol.asyncDispose]: () => Deno.remove(root, { recursive: true }),
  };
}

function warm(f: Fixture, options: MutantEngineOptions) {
  return runWarmMutants({
    ...options,
    observer: f.observer,
    driver: f.driver,
    schemata: new Map([[
      CORE,
      buildSchemata(parser, CORE, CODE, options.mutants),
    ]]),
  });
}

/** Mutant id → the properties a side killed. */
function kills(results: readonly MutantResult[], side: "base" | "head") {
  return Object.fromEntries(
    results.map((r) => [
      r.mutant.id,
      Object.entries(r[side] ?? {}).flatMap(([k, o]) =>
        o === "killed" ? [k] : []
      ).sort(),
    ]),
  );
}

/** How many runs were `python3 -m pytest`, not the driver. */
function coldRuns(sandbox: LocalSandbox): number {
  return sandbox.calls.filter((c) => c.argv[1] === "-m").length;
}

Deno.test("warmSettings() keys the runs by what they are for and by the files compiled in, whatever their order", async () => {
  await using f = await fixture();
  const options = await f.options({ "tests/test_kit.py": TEST });
  const other = { ...options.mutants[0]!, id: "m0ther", file: "kit/other.py" };
  const keys = async (cacheTag: string | undefined, files: string[]) => {
    const settings = warmSettings({
      ...options,
      mutants: [...options.mutants, other],
      base: {
        ...options.base,
        cacheScope: (m) => Promise.resolve(`scope of ${m.file}`),
      },
      observer: f.observer,
      driver: f.driver,
      schemata: new Map(),
      cache: memoryMutationCache(),
      cacheTag,
    });
    const side = {
      label: "base" as const,
      template: options.base.template,
      schemata: new Map(files.map((file) => [file, ""])),
      properties: PROPS,
    };
    return [
      await settings.cache?.key(side, options.mutants[0]!, PROPS),
      await settings.cache?.baselineKey(side),
    ];
  };
  const files = [CORE, other.file];
  const plain = await keys(undefined, files);
  assert.ok(plain.every((k) => k !== undefined));
  // Another rule's runs (the blinding rule's) are kept apart.
  const tagged = await keys("blinding", files);
  assert.notEqual(tagged[0], plain[0]);
  assert.notEqual(tagged[1], plain[1]);
  assert.deepEqual(await keys("blinding", files), tagged);
  // The same files written in another order are the same baseline.
  assert.deepEqual(await keys(undefined, [...files].reverse()), plain);
});

Deno.test("runWarmMutants() kills what the cold engine kills, runs the mutants the schemata leave out cold, and never runs a mutant no test reaches", async () => {
  await using f = await fixture();
  const options = await f.options({ "tests/test_kit.py": TEST });
  const warmRun = await warm(f, options);
  const coldCalls = coldRuns(f.sandbox);
  const cold = await runColdMutants(options);
  assert.deepEqual(warmRun.baselineFindings, []);
  assert.deepEqual(warmRun.unrun, []);
  const uncovered = options.mutants.filter((m) => m.function === "unused");
  assert.ok(uncovered.length > 0);
  assert.deepEqual(warmRun.notCovered, uncovered);
  assert.deepEqual(
    warmRun.results.map((r) => r.mutant),
    options.mutants.filter((m) => m.function !== "unused"),
  );
  assert.deepEqual(
    kills(warmRun.results, "base"),
    kills(cold.results.filter((r) => r.mutant.function !== "unused"), "base"),
  );
  // What the schemata leave out (removing a generator's only yield)
  // ran one process each, and only that.
  const left = buildSchemata(parser, CORE, CODE, options.mutants).excluded;
  assert.ok(left.size > 0);
  assert.equal(coldCalls, left.size, "one run each, no baseline of their own");
  assert.ok(warmRun.results.every((r) => r.findings === undefined));
});

Deno.test("runWarmMutants() runs a single compiled mutant warm as well, with no run of its own", async () => {
  await using f = await fixture();
  const all = await f.options({ "tests/test_kit.py": TEST });
  const left = buildSchemata(parser, CORE, CODE, all.mutants).excluded;
  const one = all.mutants.find((m) =>
    m.function !== "unused" && !left.has(m.id)
  );
  assert.ok(one !== undefined);
  const run = await warm(f, { ...all, mutants: [one] });
  assert.deepEqual(run.results.map((r) => r.mutant), [one]);
  assert.equal(coldRuns(f.sandbox), 0);
});

Deno.test("runWarmMutants() judges the mutants against a single passing base property", async () => {
  await using f = await fixture();
  const all = await f.options({ "tests/test_kit.py": TEST });
  const clamp = all.mutants.filter((m) => m.function === "clamp");
  const run = await warm(f, {
    ...all,
    mutants: clamp,
    base: { ...all.base, properties: [PROPS[0]!] },
  });
  assert.deepEqual(run.results.map((r) => r.mutant), clamp);
  assert.ok(run.results.some((r) => r.base?.[PROPS[0]!.key] === "killed"));
});

Deno.test("runWarmMutants() and the cold engine run only the properties when the test command names the tests directory", async () => {
  await using f = await fixture();
  const all = await f.options({
    "tests/test_kit.py": TEST,
    // Any run that collects it stops at collection: none may.
    "tests/test_unselected.py":
      "raise RuntimeError('collected although not selected')\n",
  });
  const options = {
    ...all,
    mutants: all.mutants.filter((m) => m.function === "clamp").slice(0, 3),
    command: [...all.command, "tests"],
  };
  const warmRun = await warm(f, options);
  assert.deepEqual(warmRun.baselineFindings, []);
  assert.equal(coldRuns(f.sandbox), 0, f.progress.join("\n"));
  const cold = await runColdMutants(options);
  assert.deepEqual(cold.baselineFindings, []);
  const outcomes = (results: readonly MutantResult[]) =>
    results.map((r) => r.base["000/clamp"]);
  assert.deepEqual(outcomes(warmRun.results), outcomes(cold.results));
  assert.ok(outcomes(cold.results).includes("killed"));
});

Deno.test("runWarmMutants() gives the warm interpreter every option of the test command, its first one too", async () => {
  await using f = await fixture();
  // The tests need a fixture only the plugin the command's first option
  // loads provides.
  const needsPlugin = TEST.replace(
    "def test_clamp(x, a, b):\n",
    "def test_clamp(width, x, a, b):\n    assert width == 1\n",
  );
  const all = await f.options({
    "tests/test_kit.py": needsPlugin,
    "kit/fixtures.py":
      "import pytest\n\n\n@pytest.fixture(scope='session')\ndef width():\n    return 1\n",
  });
  const [python, m, pytest, ...rest] = all.command;
  const options = {
    ...all,
    mutants: all.mutants.filter((m) => m.function === "clamp").slice(0, 3),
    command: [python!, m!, pytest!, "-p", "kit.fixtures", ...rest],
  };
  const warmRun = await warm(f, options);
  assert.deepEqual(warmRun.baselineFindings, []);
  assert.equal(coldRuns(f.sandbox), 0, f.progress.join("\n"));
  const cold = await runColdMutants(options);
  const outcomes = (results: readonly MutantResult[]) =>
    results.map((r) => r.base["000/clamp"]);
  assert.deepEqual(outcomes(warmRun.results), outcomes(cold.results));
  assert.ok(outcomes(cold.results).includes("killed"));
});

Deno.test("runWarmMutants() runs cold when the base's tests leave one thread running, which a fork would lose", async () => {
  await using f = await fixture();
  const threaded =
    "import threading\nthreading.Thread(target=threading.Event().wait, daemon=True).start()\n" +
    TEST;
  const all = await f.options({ "tests/test_kit.py": threaded });
  const clamp = all.mutants.filter((m) => m.function === "clamp");
  const run = await warm(f, { ...all, mutants: clamp });
  assert.deepEqual(run.results.map((r) => r.mutant), clamp);
  assert.ok(coldRuns(f.sandbox) > 0, f.progress.join("\n"));
  assert.match(f.progress.join("\n"), /left 1 threads running/);
});

Deno.test("runWarmMutants() runs the head only on the mutants a base property killed, with the properties that killed them", async () => {
  await using f = await fixture();
  const weak = TEST.replace(
    "assert clamp(x, lo, hi) == min(max(x, lo), hi)",
    "assert clamp(x, lo, hi) in (lo, x, hi)",
  );
  const options = await f.options({ "tests/test_kit.py": TEST }, {
    "tests/test_kit.py": weak,
  });
  const ran = await warm(f, options);
  for (const r of ran.results) {
    const killed = kills([r], "base")[r.mutant.id]!;
    if (killed.length === 0) assert.equal(r.head, null);
    else assert.deepEqual(Object.keys(r.head ?? {}).sort(), killed);
  }
  const weakened = ran.results.filter((r) =>
    r.base["000/clamp"] === "killed" && r.head?.["000/clamp"] === "survived"
  );
  assert.ok(weakened.length > 0, "the weakened property lets a kill survive");
});

Deno.test("runWarmMutants() runs no head property that fails on the head's unmutated code", async () => {
  await using f = await fixture();
  const failing = TEST.replace(
    "assert clamp(x, lo, hi) == min(max(x, lo), hi)",
    "assert clamp(x, lo, hi) == min(max(x, lo), hi) and x is None",
  );
  const options = await f.options({ "tests/test_kit.py": TEST }, {
    "tests/test_kit.py": failing,
  });
  const ran = await warm(f, {
    ...options,
    mutants: options.mutants.filter((m) => m.function === "clamp").slice(0, 4),
  });
  const killed = ran.results.filter((r) => r.base["000/clamp"] === "killed");
  assert.ok(killed.length > 0);
  assert.ok(killed.every((r) => r.head === null), JSON.stringify(ran.results));
  // Warm, with no control failed: the one plain pytest run is the cold
  // baseline that confirms which head properties pass.
  assert.equal(coldRuns(f.sandbox), 1, f.progress.join("\n"));
});

Deno.test("runWarmMutants() keeps the base's outcomes under the base's scope, shared by pull requests whose head differs, and the head's under the head's whole tree", async () => {
  await using f = await fixture();
  const weak = TEST.replace(
    "assert clamp(x, lo, hi) == min(max(x, lo), hi)",
    "assert clamp(x, lo, hi) in (lo, x, hi)",
  );
  const cache = memoryMutationCache();
  const asked = new Set<string>();
  // A base property that fails on the unmutated code: collected by the
  // interpreter all the same, though no child runs it.
  const broken = { key: "000/broken", nodeId: "tests/test_broken.py::test_b" };
  const run = async (scope: { base: string; head: string }) => {
    const options = await f.options({
      "tests/test_kit.py": TEST,
      "tests/test_broken.py": "def test_b():\n    assert False\n",
    }, { "tests/test_kit.py": weak });
    return await warm(f, {
      ...options,
      mutants: options.mutants.filter((m) => m.function === "clamp"),
      base: {
        ...options.base,
        properties: [...PROPS, broken],
        cacheScope: (_, properties) => {
          asked.add(properties.map((p) => p.nodeId).join(" "));
          return Promise.resolve(scope.base);
        },
      },
      head: { ...options.head!, cacheScope: () => Promise.resolve(scope.head) },
      cache,
    });
  };
  const first = await run({ base: "b1", head: "h1" });
  assert.ok(first.results.length > 0);
  assert.ok(first.results.every((r) => !r.cached));
  assert.ok(first.results.some((r) => r.head !== null));
  const kept = cache.size();

  // The same base and head: nothing runs again, and nothing changes.
  const before = f.sandbox.calls.length;
  const again = await run({ base: "b1", head: "h1" });
  assert.equal(f.sandbox.calls.length, before, "no driver starts");
  assert.ok(again.results.every((r) => r.cached));
  assert.equal(cache.size(), kept);
  assert.deepEqual(kills(again.results, "base"), kills(first.results, "base"));
  assert.deepEqual(kills(again.results, "head"), kills(first.results, "head"));

  // Another head on the same base: the base's runs come from the cache,
  // the head's run again.
  const started = f.sandbox.calls.length;
  const otherHead = await run({ base: "b1", head: "h2" });
  assert.equal(
    f.sandbox.calls.slice(started)
      .filter((c) => c.argv[1] === f.driver.path).length,
    1,
    "only the head's driver starts",
  );
  assert.ok(otherHead.results.every((r) => r.cached));
  assert.ok(cache.size() > kept);
  assert.deepEqual(
    kills(otherHead.results, "head"),
    kills(first.results, "head"),
  );

  // Another base: every run is made again.
  const otherBase = await run({ base: "b2", head: "h2" });
  assert.ok(otherBase.results.every((r) => !r.cached));

  // The scope is asked for every property the interpreter collects.
  assert.deepEqual([...asked], [
    [...PROPS, broken].map((p) => p.nodeId).join(" "),
  ]);
});

Deno.test("runWarmMutants() keeps a base's baseline under that base's scope: another base, whose tests pass on less, does not lend it its passing set", async () => {
  await using f = await fixture();
  const cache = memoryMutationCache();
  const failingFirsts = TEST.replace(
    "assert list(firsts(2)) == [2]",
    "assert list(firsts(2)) == [3]",
  );
  const run = async (scope: string, tests: string) => {
    const options = await f.options({ "tests/test_kit.py": tests });
    return await warm(f, {
      ...options,
      mutants: options.mutants.filter((m) => m.function !== "unused"),
      base: { ...options.base, cacheScope: () => Promise.resolve(scope) },
      cache,
    });
  };
  const first = await run("b1", TEST);
  const killedByFirsts = first.results.filter((r) =>
    r.base["000/firsts"] === "killed"
  );
  assert.ok(killedByFirsts.length > 0);

  // Another base under another scope: test_firsts fails there, so its
  // baseline passes on test_clamp alone, and its run is clean.
  const other = await run("b2", failingFirsts);
  assert.deepEqual(other.baselineFindings, []);
  assert.ok(
    other.results.every((r) => r.base["000/firsts"] !== "killed"),
    "a property failing on the unmutated code kills nothing",
  );

  // The first base again: its own baseline and runs, all from the cache.
  const before = f.sandbox.calls.length;
  const again = await run("b1", TEST);
  assert.equal(f.sandbox.calls.length, before, "no run starts");
  assert.ok(again.results.every((r) => r.cached));
  assert.deepEqual(kills(again.results, "base"), kills(first.results, "base"));
});

Deno.test("runWarmMutants() does not count a mutant's forked run of one property when the driver goes away before its control", async () => {
  await using f = await fixture();
  // The third process to run test_clamp (baseline, the mutant, then its
  // control) kills the warm interpreter it was forked from.
  const killer = TEST.replace(
    "from kit.core import clamp, firsts\n",
    `from kit.core import clamp, firsts

import os
import pathlib
import signal

PIDS = pathlib.Path(__file__).with_name(".pids")


def count_run():
    pids = set(PIDS.read_text().split()) if PIDS.exists() else set()
    if str(os.getpid()) in pids:
        return
    pids.add(str(os.getpid()))
    PIDS.write_text(" ".join(sorted(pids)))
    parent = pathlib.Path(f"/proc/{os.getppid()}/cmdline").read_bytes()
    if len(pids) == 3 and b"pawl_warm_driver" in parent:
        os.kill(os.getppid(), signal.SIGKILL)
`,
  ).replace(
    "    lo, hi = min(a, b), max(a, b)\n",
    "    count_run()\n    lo, hi = min(a, b), max(a, b)\n",
  );
  const all = await f.options({ "tests/test_kit.py": killer });
  const left = buildSchemata(parser, CORE, CODE, all.mutants).excluded;
  const one = all.mutants.find((m) =>
    m.function === "clamp" && !left.has(m.id)
  );
  assert.ok(one !== undefined);
  const run = await warm(f, { ...all, mutants: [one] });
  const said = f.progress.join("\n");
  assert.match(said, /no control run confirmed the base's forked runs/, said);
  // Run again in a process of its own, it comes to the cold engine's outcome.
  const cold = await runColdMutants({ ...all, mutants: [one] });
  assert.deepEqual(kills(run.results, "base"), kills(cold.results, "base"));
});

/** The weakened test, plus a way to tell a forked run from a fresh one. */
const TELLS: Record<string, string> = {
  "a marker the first run leaves in the tree": `import pathlib

import pytest
from hypothesis import given, settings, strategies as st

from kit.core import clamp, firsts


@pytest.fixture(scope="module")
def first_run():
    marker = pathlib.Path(__file__).with_name(".ran")
    first = not marker.exists()
    marker.touch()
    return first


@settings(max_examples=40)
@given(st.integers(), st.integers(), st.integers())
def test_clamp(first_run, x, a, b):
    assert first_run
    lo, hi = min(a, b), max(a, b)
    assert clamp(x, lo, hi) in (lo, x, hi)


def test_firsts():
    assert list(firsts(2)) == [2]
`,
  "the process id at import": `import os

from hypothesis import given, settings, strategies as st

from kit.core import clamp, firsts

PID = os.getpid()


@settings(max_examples=40)
@given(st.integers(), st.integers(), st.integers())
def test_clamp(x, a, b):
    assert os.getpid() == PID
    lo, hi = min(a, b), max(a, b)
    assert clamp(x, lo, hi) in (lo, x, hi)


def test_firsts():
    assert list(firsts(2)) == [2]
`,
};

Deno.test("runWarmMutants() runs the head cold when its test can tell a forked run from a fresh one, so the weakening still shows", async (t) => {
  for (const [tell, head] of Object.entries(TELLS)) {
    await t.step(tell, async () => {
      // Plain pytest, once on a fresh tree, passes the weakened test.
      await using plain = await fixture();
      const tree = (await plain.options({ "tests/test_kit.py": head }))
        .base.template;
      const pytest = await new Deno.Command("python3", {
        args: ["-m", "pytest", "-q", "-p", "no:cacheprovider"],
        cwd: tree,
        stdout: "null",
        stderr: "null",
      }).output();
      assert.equal(pytest.code, 0);

      await using f = await fixture();
      const options = await f.options({ "tests/test_kit.py": TEST }, {
        "tests/test_kit.py": head,
      });
      const ran = await warm(f, options);
      const weakened = ran.results.filter((r) =>
        r.base["000/clamp"] === "killed" &&
        r.head?.["000/clamp"] === "survived"
      );
      assert.ok(weakened.length > 0, f.progress.join("\n"));
      assert.ok(
        f.progress.some((l) => /head.*(forked run|warm interpreter)/.test(l)),
        f.progress.join("\n"),
      );
    });
  }
});

/**
 * The real driver, but on a tree holding `HOSTILE` its fork loop is
 * replaced (as code under test running in the driver's process could):
 * each mutant is reported as `how` says, no child runs.
 */
async function hostileDriver(root: string, how: string): Promise<WarmDriver> {
  const real = await installWarmDriver(root);
  const dir = await Deno.makeTempDir({ dir: root, prefix: "hostile" });
  const path = `${dir}/driver.py`;
  await Deno.writeTextFile(
    path,
    `import os, runpy
ns = runpy.run_path(${JSON.stringify(real.path)}, run_name="driver")
real = ns["main"].__globals__["_mutant"]

def forged(config, baseline, job, channel):
    if not os.path.exists("HOSTILE"):
        return real(config, baseline, job, channel)
    nodeids = job["run"] or config["select"][:1]
    result = {"event": "result", "id": job["id"], "status": "ran",
              "selected": nodeids, "cpuLimit": 1.0, "cpu": 0.0, "wall": 0.0,
              "exit": None, "signal": None, "wallKilled": False}
${how}
    channel.send(result)

ns["main"].__globals__["_mutant"] = forged
ns["main"]()
`,
  );
  return { ...real, dir, path };
}

Deno.test("runWarmMutants() never counts a head kill its own report and stream do not show", async (t) => {
  const cases: [string, string, string | undefined][] = [
    [
      "a timeout no child had",
      `    result.update({"signal": "SIGPROF", "cpu": 1.2})`,
      undefined,
    ],
    [
      "a failing report no test wrote",
      `    with open(job["child"]["junit"], "w") as f:
        f.write('<?xml version="1.0"?><testsuites><testsuite name="pytest"><testcase classname="tests.test_kit" name="test_clamp"><failure message="x"/></testcase></testsuite></testsuites>')
    result["exit"] = 1`,
      "harness.observer_missing",
    ],
  ];
  for (const [name, how, rule] of cases) {
    await t.step(name, async () => {
      await using f = await fixture();
      const weak = TEST.replace(
        "assert clamp(x, lo, hi) == min(max(x, lo), hi)",
        "assert clamp(x, lo, hi) in (lo, x, hi)",
      );
      const all = await f.options({ "tests/test_kit.py": TEST }, {
        "tests/test_kit.py": weak,
        HOSTILE: "",
      });
      const options = {
        ...all,
        mutants: all.mutants.filter((m) => m.function === "clamp").slice(0, 6),
      };
      const ran = await runWarmMutants({
        ...options,
        observer: f.observer,
        driver: await hostileDriver(f.root, how),
        schemata: new Map([[
          CORE,
          buildSchemata(parser, CORE, CODE, options.mutants),
        ]]),
      });
      // What the head's runs really give, one process each.
      const cold = new Map(
        (await runColdMutants(options)).results.map((r) => [r.mutant.id, r]),
      );
      const heads = ran.results.flatMap((r) => r.head === null ? [] : [r]);
      assert.ok(heads.length > 0);
      let forged = 0;
      for (const r of heads) {
        for (const [key, outcome] of Object.entries(r.head!)) {
          const truth = cold.get(r.mutant.id)?.head?.[key];
          assert.ok(
            outcome === "unknown" || outcome === truth,
            `${r.mutant.id} ${key}: ${outcome}, really ${truth}`,
          );
          if (outcome === "unknown") forged++;
        }
      }
      // The forgery was seen: as runs pawl could not read, or as a
      // control run that failed, its session's runs made again cold.
      assert.ok(
        forged > 0 || f.progress.some((l) => l.includes("forked run")),
        f.progress.join("\n"),
      );
      const found = [
        ...ran.baselineFindings,
        ...ran.results.flatMap((r) => r.findings ?? []),
      ].map((x) => x.rule);
      assert.deepEqual([...new Set(found)], rule === undefined ? [] : [rule]);
    });
  }
});

Deno.test("runWarmMutants() runs every mutant cold when the driver did not see a passing property's tests run, so it cannot pick tests for them", async () => {
  await using f = await fixture();
  const all = await f.options({ "tests/test_kit.py": TEST });
  const options = {
    ...all,
    mutants: all.mutants.filter((m) => m.function === "clamp").slice(0, 3),
  };
  const real = await installWarmDriver(f.root);
  const dir = await Deno.makeTempDir({ dir: f.root, prefix: "blind" });
  // The baseline's tests ran elsewhere (as a plugin's worker processes
  // would run them): the driver reports none.
  await Deno.writeTextFile(
    `${dir}/driver.py`,
    `import runpy
ns = runpy.run_path(${JSON.stringify(real.path)}, run_name="driver")
channel = ns["_Channel"]
send = channel.send

def blind(self, event):
    if event.get("event") == "baseline":
        event = dict(event, tests={})
    return send(self, event)

channel.send = blind
ns["main"]()
`,
  );
  const ran = await runWarmMutants({
    ...options,
    observer: f.observer,
    driver: { ...real, dir, path: `${dir}/driver.py` },
    schemata: new Map([[
      CORE,
      buildSchemata(parser, CORE, CODE, options.mutants),
    ]]),
  });
  assert.ok(
    f.progress.some((l) => l.includes("did not see")),
    f.progress.join("\n"),
  );
  assert.equal(coldRuns(f.sandbox), 1 + options.mutants.length);
  assert.deepEqual(ran.notCovered, []);
  assert.deepEqual(
    kills(ran.results, "base"),
    kills((await runColdMutants(options)).results, "base"),
  );
});
