/**
 * While the tests run, a CI log (stderr not a terminal) gets progress
 * lines: each run's counts from pawl's observer, the time since the tests
 * started and the test running now. stdout stays the verdict alone, and
 * `--quiet` prints none of it.
 */
import assert from "node:assert/strict";
import { check, explain } from "./_cli.ts";
import { buildRepo } from "./_repo.ts";

const SLOW_TESTS = [
  "import time",
  "",
  ...Array.from({ length: 6 }, (_, i) => [
    "",
    `def test_slow_${i}():`,
    "    time.sleep(0.7)",
    "",
  ]).flat(),
].join("\n");

Deno.test("pawl check prints the tests' counts and the running test in a CI log while a slow suite runs, and nothing with --quiet", async () => {
  await using repo = await buildRepo({
    heads: { "agent/slow": { "tests/test_slow.py": SLOW_TESTS } },
  });
  // Lines every half second instead of every 20 s (a knob for tests only).
  const env = { PAWL_PROGRESS_INTERVAL_MS: "500" };
  const loud = await check(repo.dir, "agent/slow", {
    quiet: false,
    env,
    extra: ["--json"],
  });
  assert.equal(loud.code, 0, explain(loud));
  const counts = loud.stderr.split("\n").filter((line) =>
    /^pawl: tests \d+ s; suite \d+\/\d+: \d+ passed, \d+ failed, \d+ skipped/
      .test(line)
  );
  assert.ok(counts.length >= 2, loud.stderr);
  assert.ok(
    counts.some((line) =>
      /; running tests\/test_slow\.py::test_slow_\d/.test(line)
    ),
    loud.stderr,
  );
  assert.ok(
    !loud.stderr.includes("\r") && !loud.stderr.includes("\x1b"),
    JSON.stringify(loud.stderr),
  );
  assert.equal(JSON.parse(loud.stdout).decision, "accept", loud.stdout);

  const quiet = await check(repo.dir, "agent/slow", {
    env,
    extra: ["--json"],
  });
  assert.equal(quiet.code, 0, explain(quiet));
  assert.equal(quiet.stderr, "");
  assert.equal(JSON.parse(quiet.stdout).decision, "accept", quiet.stdout);
});
