/**
 * The warm engine over a local "sandbox" (plain child processes) with the
 * real driver, observer, pytest and Hypothesis: what it runs warm, what
 * it hands to the cold engine, and that both come to the same outcomes.
 * The real sandbox is exercised end to end in tests/mutation_warm_test.ts.
 */
import assert from "node:assert/strict";
import { runColdMutants } from "./cold_mutants.ts";
import type { MutantResult } from "./judge_kill_sets.ts";
import { memoryMutationCache } from "./mutation_cache.ts";
import { buildSchemata } from "./schemata.ts";
import { warmSettings } from "./warm_mutants.ts";
import {
  CODE,
  coldRuns,
  CORE,
  fixture,
  kills,
  parser,
  PROPS,
  TEST,
  warm,
  WEAK,
} from "./_warm_mutants_fixture.ts";

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
  const options = await f.options({ "tests/test_kit.py": TEST }, {
    "tests/test_kit.py": WEAK,
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
  const cache = memoryMutationCache();
  const asked = new Set<string>();
  // A base property that fails on the unmutated code: collected by the
  // interpreter all the same, though no child runs it.
  const broken = { key: "000/broken", nodeId: "tests/test_broken.py::test_b" };
  const run = async (scope: { base: string; head: string }) => {
    const options = await f.options({
      "tests/test_kit.py": TEST,
      "tests/test_broken.py": "def test_b():\n    assert False\n",
    }, { "tests/test_kit.py": WEAK });
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
