/**
 * The warm engine against a mutant that never ends: its child is stopped
 * by its CPU limit, and the run is a timeout, as the cold engine's would
 * be, never an outcome pawl could not read.
 */
import assert from "node:assert/strict";
import { CODE, fixture, TEST, warm } from "./_warm_mutants_fixture.ts";

const LOOPING = `${CODE}

def count(n):
    i = 0
    while i < n:
        i += 1
    return i
`;

Deno.test("runWarmMutants() counts a mutant whose test never ends as a timeout", async () => {
  await using f = await fixture(LOOPING);
  const all = await f.options({
    "tests/test_kit.py": TEST.replace(
      "from kit.core import clamp, firsts",
      "from kit.core import clamp, count, firsts",
    ).replace(
      "    assert list(firsts(2)) == [2]\n",
      "    assert list(firsts(2)) == [2]\n    assert count(3) == 3\n",
    ),
  });
  const ran = await warm(f, {
    ...all,
    mutants: all.mutants.filter((m) => m.function === "count"),
  });
  const about = f.progress.join("\n");
  // In the order they were made. Three changes loop for ever; `i = 1`
  // still counts to 3.
  assert.deepEqual(
    ran.results.map((r) => [r.mutant.original, r.mutant.replacement, r.base]),
    [
      ["", "return None\n    ", { "000/firsts": "killed" }],
      ["i = 0", "pass", { "000/firsts": "killed" }],
      ["0", "1", { "000/firsts": "survived" }],
      ["i < n", "not (i < n)", { "000/firsts": "killed" }],
      ["<", "<=", { "000/firsts": "killed" }],
      ["i += 1", "pass", { "000/firsts": "timeout" }],
      ["+=", "-=", { "000/firsts": "timeout" }],
      ["1", "0", { "000/firsts": "timeout" }],
      ["1", "2", { "000/firsts": "killed" }],
      ["i", "None", { "000/firsts": "killed" }],
    ],
    about,
  );
  // Each timeout is said with the CPU time it was given.
  assert.equal(
    f.progress.filter((l) => / stopped after .* s of CPU time/.test(l)).length,
    3,
    about,
  );
});
