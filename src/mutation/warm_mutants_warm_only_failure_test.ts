/**
 * The warm engine on a base with one property that fails only in the warm
 * interpreter (it tells a forked run from a fresh one) beside one that
 * passes there too. The base's kills decide what the head is judged by,
 * so a property failing for the interpreter, not for a mutant, must not
 * read as a kill: the whole side runs one process each, as the cold
 * engine runs it.
 */
import assert from "node:assert/strict";
import { runColdMutants } from "./cold_mutants.ts";
import {
  assertPlainPytestPasses,
  fixture,
  FORK_TELLS,
  TEST,
  warm,
} from "./_warm_mutants_fixture.ts";

/** TEST, its clamp property failing in any process but the one that imported it. */
const TELLS_FORK = FORK_TELLS["the process id at import"].replace(
  "assert clamp(x, lo, hi) in (lo, x, hi)",
  "assert clamp(x, lo, hi) == min(max(x, lo), hi)",
);

Deno.test("runWarmMutants() runs a base one process each when one of its properties passes on its own but not in the warm interpreter", async () => {
  assert.notEqual(TELLS_FORK, FORK_TELLS["the process id at import"]);
  assert.ok(TELLS_FORK.includes("assert os.getpid() == PID"));
  assert.ok(TELLS_FORK.includes(TEST.split("\n\n\n").at(-1)!.trim()));
  await assertPlainPytestPasses(TELLS_FORK);
  await using f = await fixture();
  const all = await f.options({ "tests/test_kit.py": TELLS_FORK });
  const options = {
    ...all,
    mutants: all.mutants.filter((m) =>
      m.function === "clamp" || m.function === "firsts"
    ),
  };
  const ran = await warm(f, options);
  const about = f.progress.join("\n");
  assert.ok(
    f.progress.includes(
      "mutation: a property of the base passes on its own but not in the warm interpreter: its mutants run one process each",
    ),
    about,
  );
  const cold = await runColdMutants(options);
  const bases = (results: typeof ran.results) =>
    results.map((r) => [r.mutant.id, r.base]);
  assert.deepEqual(bases(ran.results), bases(cold.results), about);
  // Some mutant of clamp() survives the clamp property, which a warm
  // failure of it would have hidden.
  assert.ok(
    cold.results.some((r) =>
      r.mutant.function === "clamp" && r.base["000/clamp"] === "survived"
    ),
  );
});
