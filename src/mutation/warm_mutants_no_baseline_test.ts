/**
 * The warm engine against a driver that goes away after its greeting,
 * before any baseline: the judgement goes on, every mutant run one
 * process each.
 */
import {
  assertAllRunCold,
  fixture,
  wrappedDriver,
} from "./_warm_mutants_fixture.ts";

Deno.test("runWarmMutants() runs each mutant one process each when its driver goes away before its baseline", async () => {
  await using f = await fixture();
  // pawl's own driver, but it exits where it would run the baseline.
  const driver = await wrappedDriver(
    f.root,
    `def gone(*args, **kwargs):
    os._exit(3)

ns["main"].__globals__["_baseline"] = gone`,
  );
  await assertAllRunCold(f, driver);
});
