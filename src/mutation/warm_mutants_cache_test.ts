/**
 * The warm engine's cache: the base's outcomes and baseline are kept under
 * the base's scope, the head's under the head's whole tree.
 */
import assert from "node:assert/strict";
import { memoryMutationCache } from "./mutation_cache.ts";
import {
  fixture,
  kills,
  PROPS,
  TEST,
  warm,
  WEAK,
} from "./_warm_mutants_fixture.ts";

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
  assert.deepEqual(again.baselineFindings, []);
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
