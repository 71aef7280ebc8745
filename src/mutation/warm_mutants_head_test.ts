/**
 * The warm engine on the head's side: which mutants and properties it runs
 * there, and a mutant's forked run that no control confirmed, which never
 * counts.
 */
import assert from "node:assert/strict";
import { runColdMutants } from "./cold_mutants.ts";
import { buildSchemata } from "./schemata.ts";
import {
  CODE,
  coldRuns,
  CORE,
  fixture,
  kills,
  parser,
  TEST,
  warm,
  WEAK,
} from "./_warm_mutants_fixture.ts";

Deno.test("runWarmMutants() runs the head only on the mutants a base property killed, with the properties that killed them", async () => {
  await using f = await fixture();
  const options = await f.options({ "tests/test_kit.py": TEST }, {
    "tests/test_kit.py": WEAK,
  });
  const ran = await warm(f, options);
  for (const r of ran.results) {
    const killed = kills([r], "base")[r.mutant.id]!;
    if (killed.length === 0) assert.equal(r.head, null);
    else assert.deepEqual(Object.keys(r.head ?? {}).sort(), killed);
  }
  const weakened = ran.results.filter((r) =>
    r.base["000/clamp"] === "killed" && r.head?.["000/clamp"] === "survived"
  );
  assert.ok(weakened.length > 0, "the weakened property lets a kill survive");
});

Deno.test("runWarmMutants() runs no head property that fails on the head's unmutated code", async () => {
  await using f = await fixture();
  const failing = TEST.replace(
    "assert clamp(x, lo, hi) == min(max(x, lo), hi)",
    "assert clamp(x, lo, hi) == min(max(x, lo), hi) and x is None",
  );
  const options = await f.options({ "tests/test_kit.py": TEST }, {
    "tests/test_kit.py": failing,
  });
  const ran = await warm(f, {
    ...options,
    mutants: options.mutants.filter((m) => m.function === "clamp").slice(0, 4),
  });
  const killed = ran.results.filter((r) => r.base["000/clamp"] === "killed");
  assert.ok(killed.length > 0);
  assert.ok(killed.every((r) => r.head === null), JSON.stringify(ran.results));
  // Warm, with no control failed: the one plain pytest run is the cold
  // baseline that confirms which head properties pass.
  assert.equal(coldRuns(f.sandbox), 1, f.progress.join("\n"));
});

Deno.test("runWarmMutants() does not count a mutant's forked run of one property when the driver goes away before its control", async () => {
  await using f = await fixture();
  // The third process to run test_clamp (baseline, the mutant, then its
  // control) kills the warm interpreter it was forked from.
  const killer = TEST.replace(
    "from kit.core import clamp, firsts\n",
    `from kit.core import clamp, firsts

import os
import pathlib
import signal

PIDS = pathlib.Path(__file__).with_name(".pids")


def count_run():
    pids = set(PIDS.read_text().split()) if PIDS.exists() else set()
    if str(os.getpid()) in pids:
        return
    pids.add(str(os.getpid()))
    PIDS.write_text(" ".join(sorted(pids)))
    parent = pathlib.Path(f"/proc/{os.getppid()}/cmdline").read_bytes()
    if len(pids) == 3 and b"pawl_warm_driver" in parent:
        os.kill(os.getppid(), signal.SIGKILL)
`,
  ).replace(
    "    lo, hi = min(a, b), max(a, b)\n",
    "    count_run()\n    lo, hi = min(a, b), max(a, b)\n",
  );
  const all = await f.options({ "tests/test_kit.py": killer });
  const left = buildSchemata(parser, CORE, CODE, all.mutants).excluded;
  const one = all.mutants.find((m) =>
    m.function === "clamp" && !left.has(m.id)
  );
  assert.ok(one !== undefined);
  const run = await warm(f, { ...all, mutants: [one] });
  const said = f.progress.join("\n");
  assert.match(said, /no control run confirmed the base's forked runs/, said);
  // Run again in a process of its own, it comes to the cold engine's outcome.
  const cold = await runColdMutants({ ...all, mutants: [one] });
  assert.deepEqual(kills(run.results, "base"), kills(cold.results, "base"));
});
