/**
 * The warm engine against a driver that hides which tests it saw run: it
 * cannot pick tests for the mutants, so it runs them all cold.
 */
import assert from "node:assert/strict";
import { runColdMutants } from "./cold_mutants.ts";
import {
  coldRuns,
  fixture,
  kills,
  TEST,
  warm,
  wrappedDriver,
} from "./_warm_mutants_fixture.ts";

Deno.test("runWarmMutants() runs every mutant cold when the driver did not see a passing property's tests run, so it cannot pick tests for them", async () => {
  await using f = await fixture();
  const all = await f.options({ "tests/test_kit.py": TEST });
  const options = {
    ...all,
    mutants: all.mutants.filter((m) => m.function === "clamp").slice(0, 3),
  };
  // The baseline's tests ran elsewhere (as a plugin's worker processes
  // would run them): the driver reports none.
  const driver = await wrappedDriver(
    f.root,
    `channel = ns["_Channel"]
send = channel.send

def blind(self, event):
    if event.get("event") == "baseline":
        event = dict(event, tests={})
    return send(self, event)

channel.send = blind`,
  );
  const ran = await warm(f, options, driver);
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
