/**
 * The warm engine against a driver that greets pawl without its channel's
 * token, as a process that found the socket but is not the driver pawl
 * started would: nothing it says is taken, and every mutant runs one
 * process each.
 */
import assert from "node:assert/strict";
import { runColdMutants } from "./cold_mutants.ts";
import { installWarmDriver } from "./install_warm_driver.ts";
import { coldRuns, fixture, TEST, warm } from "./_warm_mutants_fixture.ts";

Deno.test("runWarmMutants() takes nothing from a driver whose hello lacks the channel's token, and runs each mutant one process each", async () => {
  await using f = await fixture();
  const real = await installWarmDriver(f.root);
  const dir = await Deno.makeTempDir({ dir: f.root, prefix: "impostor" });
  const path = `${dir}/driver.py`;
  // pawl's own driver, but greeting with another token.
  await Deno.writeTextFile(
    path,
    `import os, runpy
os.environ["PAWL_DRIVER_TOKEN"] = "0" * 32
ns = runpy.run_path(${JSON.stringify(real.path)}, run_name="driver")
ns["main"]()
`,
  );
  const all = await f.options({ "tests/test_kit.py": TEST });
  const options = {
    ...all,
    mutants: all.mutants.filter((m) => m.function === "clamp").slice(0, 3),
  };
  const ran = await warm(f, options, { ...real, dir, path });
  // The unmutated baseline and each mutant, one fresh pytest each.
  assert.equal(coldRuns(f.sandbox), 1 + options.mutants.length);
  const cold = await runColdMutants(options);
  assert.deepEqual(
    ran.results.map((r) => [r.mutant.id, r.base]),
    cold.results.map((r) => [r.mutant.id, r.base]),
  );
  assert.ok(cold.results.some((r) => r.base["000/clamp"] === "killed"));
});
