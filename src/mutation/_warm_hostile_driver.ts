/**
 * The warm engine against a driver that forges its children's runs: test
 * support for the hostile-driver tests, one file a forgery.
 *
 * @module
 */
import assert from "node:assert/strict";
import { runColdMutants } from "./cold_mutants.ts";
import type { WarmDriver } from "./install_warm_driver.ts";
import {
  fixture,
  TEST,
  warm,
  WEAK,
  wrappedDriver,
} from "./_warm_mutants_fixture.ts";

/**
 * The real driver, but on a tree holding `HOSTILE` its fork loop is
 * replaced (as code under test running in the driver's process could):
 * each mutant is reported as `how` says, no child runs.
 */
function hostileDriver(root: string, how: string): Promise<WarmDriver> {
  return wrappedDriver(
    root,
    `real = ns["main"].__globals__["_mutant"]

def forged(config, baseline, job, channel):
    if not os.path.exists("HOSTILE"):
        return real(config, baseline, job, channel)
    nodeids = job["run"] or config["select"][:1]
    result = {"event": "result", "id": job["id"], "status": "ran",
              "selected": nodeids, "cpuLimit": 1.0, "cpu": 0.0, "wall": 0.0,
              "exit": None, "signal": None, "wallKilled": False}
${how}
    channel.send(result)

ns["main"].__globals__["_mutant"] = forged`,
  );
}

/**
 * Forgeries a hostile driver makes of each mutant's run, with the finding
 * each must raise.
 */
export const FORGERIES = {
  "a timeout no child had": {
    how: `    result.update({"signal": "SIGPROF", "cpu": 1.2})`,
    rule: undefined,
  },
  "a failing report no test wrote": {
    how: `    with open(job["child"]["junit"], "w") as f:
        f.write('<?xml version="1.0"?><testsuites><testsuite name="pytest"><testcase classname="tests.test_kit" name="test_clamp"><failure message="x"/></testcase></testsuite></testsuites>')
    result["exit"] = 1`,
    rule: "harness.observer_missing",
  },
} as const;

/**
 * Run the head's mutants under a driver making forgery `name`: no outcome
 * may differ from what the head's own runs give, the forgery must be seen,
 * and the findings must be the forgery's.
 */
export async function assertForgeryNotCounted(
  name: keyof typeof FORGERIES,
): Promise<void> {
  const { how, rule }: { how: string; rule: string | undefined } =
    FORGERIES[name];
  await using f = await fixture();
  const all = await f.options({ "tests/test_kit.py": TEST }, {
    "tests/test_kit.py": WEAK,
    HOSTILE: "",
  });
  const options = {
    ...all,
    mutants: all.mutants.filter((m) => m.function === "clamp").slice(0, 6),
  };
  const ran = await warm(f, options, await hostileDriver(f.root, how));
  // What the head's runs really give, one process each.
  const cold = new Map(
    (await runColdMutants(options)).results.map((r) => [r.mutant.id, r]),
  );
  const heads = ran.results.flatMap((r) => r.head === null ? [] : [r]);
  assert.ok(heads.length > 0);
  let forged = 0;
  for (const r of heads) {
    for (const [key, outcome] of Object.entries(r.head!)) {
      const truth = cold.get(r.mutant.id)?.head?.[key];
      assert.ok(
        outcome === "unknown" || outcome === truth,
        `${r.mutant.id} ${key}: ${outcome}, really ${truth}`,
      );
      if (outcome === "unknown") forged++;
    }
  }
  // The forgery was seen: as runs pawl could not read, or as a
  // control run that failed, its session's runs made again cold.
  assert.ok(
    forged > 0 || f.progress.some((l) => l.includes("forked run")),
    f.progress.join("\n"),
  );
  const found = [
    ...ran.baselineFindings,
    ...ran.results.flatMap((r) => r.findings ?? []),
  ].map((x) => x.rule);
  assert.deepEqual([...new Set(found)], rule === undefined ? [] : [rule]);
}
