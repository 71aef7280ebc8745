/**
 * Where a warm session's runs report: each in a directory of its own,
 * made under a parent the tests may pass through but not list, so no run
 * finds another's report or home.
 */
import assert from "node:assert/strict";
import {
  coldRuns,
  fixture,
  heldBySchemata,
  TEST,
  warm,
} from "./_warm_mutants_fixture.ts";

Deno.test("runWarmMutants() makes each run's directory under a parent the tests cannot list", async () => {
  await using f = await fixture();
  // The property passes only where its home's parent is 0711.
  const looking = `import os as _os
import stat as _stat

${
    TEST.replace(
      "def test_firsts():\n",
      "def test_firsts():\n    parent = _os.path.dirname(_os.environ['HOME'])\n    assert _stat.S_IMODE(_os.stat(parent).st_mode) == 0o711\n",
    )
  }`;
  assert.notEqual(looking, `import os as _os\nimport stat as _stat\n\n${TEST}`);
  const all = await f.options({ "tests/test_kit.py": looking });
  const options = {
    ...all,
    mutants: all.mutants.filter((m) => m.function === "firsts"),
  };
  const ran = await warm(f, options);
  const held = heldBySchemata(f, options.mutants);
  assert.ok(held.length > 0);
  // The baseline and every warm run passed that check: the mutants it
  // holds ran warm, and a change to firsts() is killed.
  assert.equal(
    coldRuns(f.sandbox),
    options.mutants.length - held.length,
    f.progress.join("\n"),
  );
  assert.ok(
    ran.results.some((r) =>
      held.includes(r.mutant) && r.base["000/firsts"] === "killed"
    ),
    JSON.stringify(ran.results.map((r) => r.base)),
  );
});
