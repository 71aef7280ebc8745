/**
 * The warm engine over a local "sandbox" (plain child processes) with the
 * real driver, observer, pytest and Hypothesis: what it runs warm, what
 * it hands to the cold engine, and that both come to the same outcomes.
 * The real sandbox is exercised end to end in tests/mutation_warm_test.ts.
 */
import assert from "node:assert/strict";
import { runColdMutants } from "./cold_mutants.ts";
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
