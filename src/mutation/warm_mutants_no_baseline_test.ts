/**
 * The warm engine against a driver that goes away after its greeting,
 * before any baseline: the judgement goes on, every mutant run one
 * process each.
 */
import assert from "node:assert/strict";
import { runColdMutants } from "./cold_mutants.ts";
import { installWarmDriver } from "./install_warm_driver.ts";
import { coldRuns, fixture, TEST, warm } from "./_warm_mutants_fixture.ts";

Deno.test("runWarmMutants() runs each mutant one process each when its driver goes away before its baseline", async () => {
  await using f = await fixture();
  const real = await installWarmDriver(f.root);
  const dir = await Deno.makeTempDir({ dir: f.root, prefix: "gone" });
  const path = `${dir}/driver.py`;
  // pawl's own driver, but it exits where it would run the baseline.
  await Deno.writeTextFile(
    path,
    `import os, runpy
ns = runpy.run_path(${JSON.stringify(real.path)}, run_name="driver")

def gone(*args, **kwargs):
    os._exit(3)

ns["main"].__globals__["_baseline"] = gone
ns["main"]()
`,
  );
  const all = await f.options({ "tests/test_kit.py": TEST });
  const options = {
    ...all,
    mutants: all.mutants.filter((m) => m.function === "clamp").slice(0, 3),
  };
  const ran = await warm(f, options, { ...real, dir, path });
  assert.equal(coldRuns(f.sandbox), 1 + options.mutants.length);
  const cold = await runColdMutants(options);
  assert.deepEqual(
    ran.results.map((r) => [r.mutant.id, r.base]),
    cold.results.map((r) => [r.mutant.id, r.base]),
  );
  assert.ok(cold.results.some((r) => r.base["000/clamp"] === "killed"));
});
