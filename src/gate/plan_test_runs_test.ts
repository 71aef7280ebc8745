import assert from "node:assert/strict";
import type { TestPlan } from "../layouts/dialect.ts";
import { DEFAULT_SETTINGS, type Settings } from "../settings/settings.ts";
import { readSettings } from "../settings/read_settings.ts";
import { planTestRuns } from "./plan_test_runs.ts";

const EMPTY: TestPlan = {
  properties: [],
  reruns: [],
  deselect: [],
  replays: [],
  nonBlocking: [],
};

Deno.test("planTestRuns() seeds the suite, deselects frozen tests and takes the largest trials", () => {
  const runs = planTestRuns(DEFAULT_SETTINGS, [
    {
      layout: "003",
      plan: { ...EMPTY, deselect: ["tests/b.py::t", "tests/a.py::t"] },
    },
    {
      layout: "002",
      plan: {
        ...EMPTY,
        trials: 20,
        nonBlocking: ["tests/c.py::t"],
        reruns: [{ id: "f", test: "test_x", remainingReruns: 2 }],
      },
    },
    {
      layout: "000",
      plan: { ...EMPTY, trials: 80, deselect: ["tests/a.py::t"] },
    },
  ], { seed: 7, sandboxPath: "/opt/bin" });
  assert.equal(runs.seed, 7);
  assert.equal(runs.trials, 80);
  assert.deepEqual(runs.suite.command.slice(-5), [
    "--hypothesis-seed=7",
    "--deselect",
    "tests/a.py::t",
    "--deselect",
    "tests/b.py::t",
  ]);
  assert.deepEqual(runs.suite.env, {
    PATH: "/opt/bin",
    CONTRACT_SEED: "7",
    CONTRACT_TRIALS: "80",
  });
  assert.deepEqual(runs.suite.freezes, [
    { id: "f", test: "test_x", remainingReruns: 2 },
  ]);
  assert.deepEqual(runs.suite.nonBlocking, ["tests/c.py::t"]);
  // The properties on their own: no deselection, same seed.
  assert.equal(runs.alone.command.includes("--deselect"), false);
  assert.equal(runs.alone.command.at(-1), "--hypothesis-seed=7");
  assert.deepEqual(runs.limits, {
    timeoutMs: DEFAULT_SETTINGS.tests.timeout_seconds * 1000,
    maxOutputBytes: DEFAULT_SETTINGS.tests.max_output_mib * 1024 * 1024,
    maxProcesses: DEFAULT_SETTINGS.tests.max_processes,
  });
});

Deno.test("planTestRuns() replays each frozen seed with its own seed and the replay trials", () => {
  const replay = { id: "F-1", test: "tests/a.py::t", seed: 99, witness: "w" };
  const runs = planTestRuns(DEFAULT_SETTINGS, [
    { layout: "002", plan: { ...EMPTY, replays: [replay] } },
  ], { seed: 7 });
  assert.equal(runs.trials, null);
  assert.deepEqual(runs.suite.env, { CONTRACT_SEED: "7" });
  assert.deepEqual(runs.replays, [{
    layout: "002",
    replay,
    trials: DEFAULT_SETTINGS.seeds.replay_trials,
    command: [...runs.alone.command.slice(0, -1), "--hypothesis-seed=99"],
    env: {
      CONTRACT_SEED: "99",
      CONTRACT_TRIALS: String(DEFAULT_SETTINGS.seeds.replay_trials),
    },
  }]);
});

Deno.test("planTestRuns() names every run's working copy before anything runs", () => {
  const replay = (seed: number) => ({
    id: `F-${seed}`,
    test: "tests/a.py::t",
    seed,
    witness: "w",
  });
  const runs = planTestRuns(DEFAULT_SETTINGS, [
    { layout: "002", plan: { ...EMPTY, replays: [replay(1), replay(2)] } },
  ], { seed: 7 });
  assert.deepEqual(runs.workDirs, {
    suite: "work-1",
    alone: "work-2",
    oracle: "work-3",
    replays: ["work-4", "work-5"],
    firstFree: 6,
  });
  const none = planTestRuns(DEFAULT_SETTINGS, [], { seed: 7 });
  assert.deepEqual(none.workDirs.replays, []);
  assert.equal(none.workDirs.firstFree, 4);
});

Deno.test("planTestRuns() follows the settings' command, variables and runner", () => {
  const settings: Settings = {
    ...DEFAULT_SETTINGS,
    tests: {
      ...DEFAULT_SETTINGS.tests,
      runner: "deno",
      command: ["deno", "test"],
    },
    seeds: { ...DEFAULT_SETTINGS.seeds, env_seed: "MY_SEED" },
  };
  const runs = planTestRuns(settings, [
    { layout: "003", plan: { ...EMPTY, deselect: ["x"] } },
  ], { seed: 3 });
  assert.deepEqual(runs.suite.command, ["deno", "test"]);
  assert.deepEqual(runs.suite.env, { MY_SEED: "3" });
});

Deno.test("planTestRuns() gives every run the base's [environment]", () => {
  const settings = readSettings(
    '[environment]\npython = "/opt/venv/bin/python"\npythonpath = ["src"]\n[environment.env]\nAPP_MODE = "test"\n',
  );
  const runs = planTestRuns(settings, [{
    layout: "002",
    plan: {
      ...EMPTY,
      replays: [{ id: "f", test: "tests/t.py::test_x", seed: 5, witness: "w" }],
    },
  }], { seed: 7 });
  const all = [runs.suite, runs.alone, ...runs.replays];
  assert.equal(all.length, 3);
  for (const run of all) {
    assert.equal(run.command[0], "/opt/venv/bin/python");
    assert.equal(run.env["PYTHONPATH"], "src");
    assert.equal(run.env["APP_MODE"], "test");
    assert.equal(
      run.env["PATH"],
      "/opt/venv/bin:/usr/local/bin:/usr/bin:/bin",
    );
  }
  assert.equal(runs.replays[0]?.env["CONTRACT_SEED"], "5");
});

Deno.test("planTestRuns() deselects the base's excused tests from every run it plans", () => {
  const runs = planTestRuns(DEFAULT_SETTINGS, [{
    layout: "002",
    plan: {
      ...EMPTY,
      replays: [{ id: "f", test: "tests/c.py::t", seed: 3, witness: "w" }],
    },
  }], { seed: 7, excused: ["tests/z.py::t", "tests/a.py::t", "tests/io"] });
  const excused = [
    "--deselect",
    "tests/a.py::t",
    "--ignore=tests/io",
    "--deselect",
    "tests/io",
    "--deselect",
    "tests/z.py::t",
  ];
  for (
    const command of [
      runs.suite.command,
      runs.alone.command,
      ...runs.replays.map((r) => r.command),
    ]
  ) {
    assert.deepEqual(
      command.slice(-excused.length),
      excused,
      command.join(" "),
    );
  }
  const deno: Settings = {
    ...DEFAULT_SETTINGS,
    tests: {
      ...DEFAULT_SETTINGS.tests,
      runner: "deno",
      command: ["deno", "test"],
    },
  };
  assert.ok(
    !planTestRuns(deno, [], { seed: 7, excused: ["x"] }).suite.command
      .includes("--deselect"),
  );
});
