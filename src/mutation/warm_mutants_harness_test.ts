/**
 * The warm engine against a head whose test fails only under a mutant: it
 * looks for the active mutant's id in the code's text, which only the
 * schemata hold. Every warm kill at the head is such a failure; the
 * weakening must still show, as the cold engine shows it.
 */
import assert from "node:assert/strict";
import { runColdMutants } from "./cold_mutants.ts";
import {
  assertPlainPytestPasses,
  fixture,
  TEST,
  warm,
  WEAK,
} from "./_warm_mutants_fixture.ts";

/** WEAK, failing first whenever the active mutant's id is in kit/core.py. */
const TELLS_MUTANT = WEAK.replace(
  "from kit.core import clamp, firsts\n",
  `from kit.core import clamp, firsts

import builtins
import pathlib

import kit.core


def mutated():
    active = getattr(builtins, "__pawl_active__", None)
    text = pathlib.Path(kit.core.__file__).read_text()
    return active is not None and ('"%s"' % active) in text
`,
).replace(
  "    lo, hi = min(a, b), max(a, b)\n",
  "    assert not mutated()\n    lo, hi = min(a, b), max(a, b)\n",
);

Deno.test("runWarmMutants() counts a head's warm kill only as a run one process each confirms it, so a test that fails only under a mutant still shows its weakening", async () => {
  assert.notEqual(TELLS_MUTANT, WEAK);
  assert.ok(TELLS_MUTANT.includes("assert not mutated()"));
  await assertPlainPytestPasses(TELLS_MUTANT);
  await using f = await fixture();
  const all = await f.options({ "tests/test_kit.py": TEST }, {
    "tests/test_kit.py": TELLS_MUTANT,
  });
  const options = {
    ...all,
    mutants: all.mutants.filter((m) => m.function === "clamp"),
  };
  const ran = await warm(f, options);
  const cold = await runColdMutants(options);
  const heads = (results: typeof ran.results) =>
    results.filter((r) => r.base["000/clamp"] === "killed").map((r) => [
      r.mutant.id,
      r.head?.["000/clamp"],
    ]);
  const about = f.progress.join("\n");
  assert.deepEqual(heads(ran.results), heads(cold.results), about);
  assert.ok(
    heads(ran.results).some(([, o]) => o === "survived"),
    "the weakened property lets a kill survive",
  );
  assert.ok(
    f.progress.some((l) =>
      l.includes("a warm kill counts only as a fresh pytest confirms it")
    ),
    about,
  );
});
