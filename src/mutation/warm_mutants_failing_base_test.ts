/**
 * The warm engine on a base whose every property fails on the unmutated
 * code: no property can kill a mutant, so none runs, and the engine says
 * so rather than counting each mutant as run and survived.
 */
import assert from "node:assert/strict";
import { coldRuns, fixture, TEST, warm } from "./_warm_mutants_fixture.ts";

const FAILING = TEST.replace(
  "assert clamp(x, lo, hi) == min(max(x, lo), hi)",
  "assert clamp(x, lo, hi) != min(max(x, lo), hi)",
).replace("assert list(firsts(2)) == [2]", "assert list(firsts(2)) == [3]");

Deno.test("runWarmMutants() runs no mutant when every base property fails on the unmutated code", async () => {
  await using f = await fixture();
  assert.notEqual(FAILING, TEST);
  const ran = await warm(
    f,
    await f.options({ "tests/test_kit.py": FAILING }, {
      "tests/test_kit.py": FAILING,
    }),
  );
  const about = f.progress.join("\n");
  assert.deepEqual(ran.results, [], about);
  assert.deepEqual(ran.unrun, [], about);
  assert.deepEqual(ran.notCovered, [], about);
  // The one plain pytest run confirms the warm baseline's failures.
  assert.equal(coldRuns(f.sandbox), 1, about);
});
