import assert from "node:assert/strict";
import { readSettings } from "../settings/read_settings.ts";
import { DEFAULT_SETTINGS } from "../settings/settings.ts";
import { DEFAULT_PYTEST_COMMAND } from "../run/run_pytest.ts";
import { testEnvironment } from "./test_environment.ts";

Deno.test("testEnvironment() leaves the default command and environment alone without [environment]", () => {
  assert.deepEqual(testEnvironment(DEFAULT_SETTINGS), {
    command: [...DEFAULT_PYTEST_COMMAND],
    path: undefined,
    env: {},
  });
  assert.deepEqual(
    testEnvironment(DEFAULT_SETTINGS, { sandboxPath: "/opt/bin:/usr/bin" }),
    {
      command: [...DEFAULT_PYTEST_COMMAND],
      path: "/opt/bin:/usr/bin",
      env: { PATH: "/opt/bin:/usr/bin" },
    },
  );
});

Deno.test("testEnvironment() applies the interpreter, the import path and the variables", async (t) => {
  const settings = (extra: string) =>
    readSettings(
      `[environment]\npython = "/opt/venv/bin/python"\npythonpath = ["src", "lib"]\nenv = { APP_MODE = "test" }\n${extra}`,
    );
  await t.step("the default command runs the interpreter", () => {
    const env = testEnvironment(settings(""));
    assert.deepEqual(env.command, [
      "/opt/venv/bin/python",
      ...DEFAULT_PYTEST_COMMAND.slice(1),
    ]);
    assert.equal(env.path, "/opt/venv/bin:/usr/local/bin:/usr/bin:/bin");
    assert.deepEqual(env.env, {
      APP_MODE: "test",
      PATH: "/opt/venv/bin:/usr/local/bin:/usr/bin:/bin",
      PYTHONPATH: "src:lib",
    });
  });
  await t.step("a test command starting with python3 runs it too", () => {
    const env = testEnvironment(
      settings('[tests]\ncommand = ["python3", "-m", "pytest", "tests"]\n'),
    );
    assert.deepEqual(env.command, [
      "/opt/venv/bin/python",
      "-m",
      "pytest",
      "tests",
    ]);
  });
  await t.step(
    "another program is kept and finds the virtualenv's first",
    () => {
      const env = testEnvironment(
        settings('[tests]\ncommand = ["pytest", "-q"]\n'),
        { sandboxPath: "/usr/bin:/bin" },
      );
      assert.deepEqual(env.command, ["pytest", "-q"]);
      assert.equal(env.path, "/opt/venv/bin:/usr/bin:/bin");
    },
  );
  await t.step("a directory already on PATH is not repeated", () => {
    const env = testEnvironment(
      readSettings('[environment]\npython = "/usr/bin/python3.11"\n'),
    );
    assert.equal(env.command[0], "/usr/bin/python3.11");
    assert.equal(env.path, undefined);
    assert.deepEqual(env.env, {});
  });
  await t.step(
    "a bare interpreter name is looked up on the sandbox PATH",
    () => {
      const env = testEnvironment(
        readSettings('[environment]\npython = "python3.11"\n'),
      );
      assert.equal(env.command[0], "python3.11");
      assert.equal(env.path, undefined);
    },
  );
});
