/**
 * While the tests run, a CI log (stderr not a terminal) gets progress
 * lines: each run's counts from pawl's observer, the time since the tests
 * started and the test running now. stdout stays the verdict alone, and
 * `--quiet` prints none of it. A terminal gets the same counts on one live
 * line instead of the tests' own output.
 */
import assert from "node:assert/strict";
import { checkCommand } from "../src/cli/check_command.ts";
import { check, E2E_SANDBOX_UIDS, explain, NOW } from "./_cli.ts";
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
    // The runs are listed in the order they started, which the load decides.
    /^pawl: tests \d+ s; (?:[^;]*; )*suite \d+\/\d+: \d+ passed, \d+ failed, \d+ skipped/
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

Deno.test("pawl check on a terminal shows the tests' counts on one live line instead of their output", async () => {
  await using repo = await buildRepo({
    heads: { "agent/slow": { "tests/test_slow.py": SLOW_TESTS } },
  });
  const writes: string[] = [];
  let stdout = "";
  const code = await checkCommand([
    "--repo",
    repo.dir,
    "--base",
    "main",
    "--head",
    "agent/slow",
    "--now",
    NOW,
  ], {
    out: (text) => stdout += text,
    err: (text) => writes.push(text),
    env: {
      PATH: Deno.env.get("PATH") ?? "",
      PAWL_SANDBOX_UIDS: E2E_SANDBOX_UIDS,
      NO_COLOR: "1",
    },
    terminal: true,
    columns: 200,
  }, { runTests: true });
  assert.equal(code, 0, stdout);
  const counts = writes.filter((w) =>
    // The runs are listed in the order they started, which the load decides.
    /^… tests \d+ s; \d+ passed, \d+ failed(, \d+ skipped)?; (?:[^;,]*, )*suite \d+\/\d+/
      .test(w)
  );
  assert.ok(counts.length > 0, JSON.stringify(writes));
  // The live line is redrawn in place, and pytest's own lines never show.
  for (const w of counts) assert.ok(!w.includes("\n"), w);
  assert.ok(!writes.some((w) => / passed in /.test(w)), JSON.stringify(writes));
});
