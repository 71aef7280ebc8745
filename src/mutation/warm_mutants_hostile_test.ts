/**
 * The warm engine against drivers that try to fool it: one that forges
 * its children's reports, one that hides which tests it saw run. Each
 * must end in the cold engine's outcomes, never in a kill nobody showed.
 */
import assert from "node:assert/strict";
import { runColdMutants } from "./cold_mutants.ts";
import { installWarmDriver, type WarmDriver } from "./install_warm_driver.ts";
import { buildSchemata } from "./schemata.ts";
import { runWarmMutants } from "./warm_mutants.ts";
import {
  CODE,
  coldRuns,
  CORE,
  fixture,
  kills,
  parser,
  TEST,
  WEAK,
} from "./_warm_mutants_fixture.ts";

/**
 * The real driver, but on a tree holding `HOSTILE` its fork loop is
 * replaced (as code under test running in the driver's process could):
 * each mutant is reported as `how` says, no child runs.
 */
async function hostileDriver(root: string, how: string): Promise<WarmDriver> {
  const real = await installWarmDriver(root);
  const dir = await Deno.makeTempDir({ dir: root, prefix: "hostile" });
  const path = `${dir}/driver.py`;
  await Deno.writeTextFile(
    path,
    `import os, runpy
ns = runpy.run_path(${JSON.stringify(real.path)}, run_name="driver")
real = ns["main"].__globals__["_mutant"]

def forged(config, baseline, job, channel):
    if not os.path.exists("HOSTILE"):
        return real(config, baseline, job, channel)
    nodeids = job["run"] or config["select"][:1]
    result = {"event": "result", "id": job["id"], "status": "ran",
              "selected": nodeids, "cpuLimit": 1.0, "cpu": 0.0, "wall": 0.0,
              "exit": None, "signal": None, "wallKilled": False}
${how}
    channel.send(result)

ns["main"].__globals__["_mutant"] = forged
ns["main"]()
`,
  );
  return { ...real, dir, path };
}

Deno.test("runWarmMutants() never counts a head kill its own report and stream do not show", async (t) => {
  const cases: [string, string, string | undefined][] = [
    [
      "a timeout no child had",
      `    result.update({"signal": "SIGPROF", "cpu": 1.2})`,
      undefined,
    ],
    [
      "a failing report no test wrote",
      `    with open(job["child"]["junit"], "w") as f:
        f.write('<?xml version="1.0"?><testsuites><testsuite name="pytest"><testcase classname="tests.test_kit" name="test_clamp"><failure message="x"/></testcase></testsuite></testsuites>')
    result["exit"] = 1`,
      "harness.observer_missing",
    ],
  ];
  for (const [name, how, rule] of cases) {
    await t.step(name, async () => {
      await using f = await fixture();
      const all = await f.options({ "tests/test_kit.py": TEST }, {
        "tests/test_kit.py": WEAK,
        HOSTILE: "",
      });
      const options = {
        ...all,
        mutants: all.mutants.filter((m) => m.function === "clamp").slice(0, 6),
      };
      const ran = await runWarmMutants({
        ...options,
        observer: f.observer,
        driver: await hostileDriver(f.root, how),
        schemata: new Map([[
          CORE,
          buildSchemata(parser, CORE, CODE, options.mutants),
        ]]),
      });
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
    });
  }
});

Deno.test("runWarmMutants() runs every mutant cold when the driver did not see a passing property's tests run, so it cannot pick tests for them", async () => {
  await using f = await fixture();
  const all = await f.options({ "tests/test_kit.py": TEST });
  const options = {
    ...all,
    mutants: all.mutants.filter((m) => m.function === "clamp").slice(0, 3),
  };
  const real = await installWarmDriver(f.root);
  const dir = await Deno.makeTempDir({ dir: f.root, prefix: "blind" });
  // The baseline's tests ran elsewhere (as a plugin's worker processes
  // would run them): the driver reports none.
  await Deno.writeTextFile(
    `${dir}/driver.py`,
    `import runpy
ns = runpy.run_path(${JSON.stringify(real.path)}, run_name="driver")
channel = ns["_Channel"]
send = channel.send

def blind(self, event):
    if event.get("event") == "baseline":
        event = dict(event, tests={})
    return send(self, event)

channel.send = blind
ns["main"]()
`,
  );
  const ran = await runWarmMutants({
    ...options,
    observer: f.observer,
    driver: { ...real, dir, path: `${dir}/driver.py` },
    schemata: new Map([[
      CORE,
      buildSchemata(parser, CORE, CODE, options.mutants),
    ]]),
  });
  assert.ok(
    f.progress.some((l) => l.includes("did not see")),
    f.progress.join("\n"),
  );
  assert.equal(coldRuns(f.sandbox), 1 + options.mutants.length);
  assert.deepEqual(ran.notCovered, []);
  assert.deepEqual(
    kills(ran.results, "base"),
    kills((await runColdMutants(options)).results, "base"),
  );
});
