/**
 * The warm engine and a parametrized property: pytest reports each case
 * under its own node id (`test[case]`), and the warm interpreter must
 * still count the property as seen, so its mutants run warm.
 */
import assert from "node:assert/strict";
import { runColdMutants } from "./cold_mutants.ts";
import {
  coldRuns,
  fixture,
  heldBySchemata,
  TEST,
  warm,
} from "./_warm_mutants_fixture.ts";

Deno.test("runWarmMutants() runs a parametrized property's mutants warm, its cases seen under their own node ids", async () => {
  await using f = await fixture();
  const parametrized = TEST.replace(
    "from hypothesis import",
    "import pytest\nfrom hypothesis import",
  ).replace(
    "def test_firsts():\n    assert list(firsts(2)) == [2]\n",
    '@pytest.mark.parametrize("n", [2, 3])\ndef test_firsts(n):\n    assert list(firsts(n)) == [n]\n',
  );
  assert.notEqual(parametrized, TEST);
  const all = await f.options({ "tests/test_kit.py": parametrized });
  const options = {
    ...all,
    mutants: all.mutants.filter((m) => m.function === "firsts"),
  };
  assert.ok(options.mutants.length > 0);
  const ran = await warm(f, options);
  assert.deepEqual(ran.baselineFindings, []);
  // Only the mutants the schemata cannot hold run one process each.
  const held = heldBySchemata(f, options.mutants).length;
  assert.ok(held > 0);
  assert.equal(
    coldRuns(f.sandbox),
    options.mutants.length - held,
    f.progress.join("\n"),
  );
  const cold = await runColdMutants(options);
  // The warm child runs only the tests that reach the mutant: firsts'.
  const firsts = (results: typeof cold.results) =>
    results.map((r) => [r.mutant.id, r.base["000/firsts"]]);
  assert.deepEqual(firsts(ran.results), firsts(cold.results));
  assert.ok(cold.results.some((r) => r.base["000/firsts"] === "killed"));
});
