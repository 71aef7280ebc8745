/**
 * The warm engine and the base's test command: the options it carries
 * reach the warm interpreter, the tests it names are the only ones run,
 * and tests that leave a thread behind (which a fork would lose) send the
 * run cold.
 */
import assert from "node:assert/strict";
import { runColdMutants } from "./cold_mutants.ts";
import type { MutantResult } from "./judge_kill_sets.ts";
import { coldRuns, fixture, TEST, warm } from "./_warm_mutants_fixture.ts";

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
