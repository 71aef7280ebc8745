import assert from "node:assert/strict";
import { ScriptedSandbox, withRunDirs } from "../_scripted_sandbox.ts";
import { installObserver } from "../observer.ts";
import {
  cleanEnvironment,
  interpreter,
  REPLAY_CALLS,
  REPLAY_SECONDS,
  replayCalls,
} from "./replay_calls.ts";

Deno.test("cleanEnvironment() keeps no pytest, Hypothesis, pawl, contract or seed variable", () => {
  const env = cleanEnvironment({
    PATH: "/usr/bin",
    PYTHONPATH: "src",
    PYTEST_ADDOPTS: "-x",
    PYTEST_CURRENT_TEST: "t",
    HYPOTHESIS_PROFILE: "ci",
    PAWL_OBSERVER_TOKEN: "x",
    CONTRACT_SEED: "1",
    CONTRACT_TRIALS: "2",
    MY_SEED: "3",
    LANG: "C.UTF-8",
  }, ["MY_SEED", "CONTRACT_TRIALS"]);
  assert.deepEqual(env, {
    PATH: "/usr/bin",
    PYTHONPATH: "src",
    LANG: "C.UTF-8",
  });
});

Deno.test("interpreter() takes the test command's Python, else python3", async (t) => {
  const cases: [readonly string[], string][] = [
    [["python3", "-m", "pytest"], "python3"],
    [[".venv/bin/python3.11", "-m", "pytest"], ".venv/bin/python3.11"],
    [["pytest", "-q"], "python3"],
    [["sh", "-c", "pytest"], "python3"],
  ];
  for (const [command, expected] of cases) {
    await t.step(command.join(" "), () => {
      assert.equal(interpreter(command), expected);
    });
  }
});

Deno.test("cleanEnvironment() matches the run-only prefixes in any case, at the start only", async (t) => {
  const table: [string, boolean][] = [
    ["pytest_plugins", false],
    ["_PAWL_X", false],
    ["pawl_x", false],
    ["hypothesis_storage", false],
    ["contract_seed", false],
    ["MY_PYTEST", true],
    ["X_HYPOTHESIS", true],
    ["CONTRACTOR", true],
    ["__PAWL", true],
  ];
  for (const [name, kept] of table) {
    await t.step(`${name} is ${kept ? "kept" : "left out"}`, () => {
      assert.deepEqual(
        Object.keys(cleanEnvironment({ [name]: "1" }, [])),
        kept ? [name] : [],
      );
    });
  }
});

Deno.test("interpreter() takes only a Python as the interpreter", async (t) => {
  const cases: [readonly string[], string][] = [
    [["python", "-m", "pytest"], "python"],
    [["/usr/bin/python3", "-m", "pytest"], "/usr/bin/python3"],
    [["pythonw", "-m", "pytest"], "python3"],
    [["/opt/python/bin/pytest"], "python3"],
    [["mypython3", "-m", "pytest"], "python3"],
    [[], "python3"],
  ];
  for (const [command, expected] of cases) {
    await t.step(JSON.stringify(command), () => {
      assert.equal(interpreter(command), expected);
    });
  }
});

Deno.test("replayCalls() runs the calls with the run's environment cleaned, pawl's root read-only and the run's limits", async (t) => {
  await withRunDirs(async (dirs) => {
    const observer = await installObserver(dirs.reportDir);
    const sandbox = new ScriptedSandbox(() => ({ code: 0 }));
    const recording = {
      roots: ["."],
      importRan: [],
      calls: [],
      complete: true,
    };
    const options = {
      ...dirs,
      env: { PYTEST_ADDOPTS: "-x", MY_SEED: "3", LANG_X: "kept" },
      command: ["/venv/bin/python3", "-m", "pytest"],
      seedEnv: ["MY_SEED"],
      observer,
      mode: "twice" as const,
    };
    await t.step("with limits", async () => {
      const stream = await replayCalls(sandbox, recording, {
        ...options,
        limits: { timeoutMs: 5000 },
      });
      assert.equal(stream.complete, false);
      const run = sandbox.calls[0];
      assert.equal(run?.argv[0], "/venv/bin/python3");
      assert.equal(run?.argv.at(-1), "twice");
      assert.equal(run?.env["LANG_X"], "kept");
      assert.equal(run?.env["PYTEST_ADDOPTS"], undefined);
      assert.equal(run?.env["MY_SEED"], undefined);
      assert.deepEqual(run?.readOnly, [observer.root]);
      assert.deepEqual(run?.writable, [dirs.reportDir]);
      assert.equal(run?.cwd, dirs.workDir);
      assert.deepEqual(run?.limits, { timeoutMs: 5000 });
      assert.deepEqual(sandbox.prepared, [run?.env["HOME"]]);
      // A home the sandbox may write: a fresh directory in the report's.
      const home = run?.env["HOME"] ?? "";
      assert.ok(home.startsWith(`${dirs.reportDir}/`), home);
      assert.equal(home.lastIndexOf("/"), dirs.reportDir.length);
      const plan = JSON.parse(await Deno.readTextFile(run?.argv[3] as string));
      assert.deepEqual(
        [plan.roots, plan.limit, plan.seconds, plan.calls],
        [["."], REPLAY_CALLS, REPLAY_SECONDS, []],
      );
    });
    await t.step("without limits", async () => {
      await replayCalls(sandbox, recording, options);
      assert.equal("limits" in (sandbox.calls[1] ?? {}), false);
    });
  });
});
