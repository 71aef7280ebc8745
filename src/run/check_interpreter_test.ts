import assert from "node:assert/strict";
import { ScriptedSandbox } from "./_scripted_sandbox.ts";
import { checkInterpreter } from "./check_interpreter.ts";
import { TestRunnerMissingError } from "./run_pytest.ts";

async function withReportDir(fn: (dir: string) => Promise<void>) {
  const dir = await Deno.makeTempDir({ prefix: "pawl_check_interpreter_" });
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("checkInterpreter() runs the interpreter isolated in an empty directory", async () => {
  await withReportDir(async (reportDir) => {
    const sandbox = new ScriptedSandbox(() => ({
      code: 0,
      outputTail: "pawl-interpreter-ok",
    }));
    await checkInterpreter(sandbox, "/opt/venv/bin/python", {
      reportDir,
      path: "/opt/venv/bin:/usr/bin:/bin",
    });
    const call = sandbox.calls[0];
    assert.equal(call?.argv[0], "/opt/venv/bin/python");
    assert.equal(call?.argv[1], "-I");
    assert.equal(call?.cwd, `${reportDir}/interpreter-check`);
    assert.deepEqual(call?.writable, []);
    assert.equal(call?.env["PATH"], "/opt/venv/bin:/usr/bin:/bin");
    assert.deepEqual(await Array.fromAsync(Deno.readDir(call?.cwd ?? "")), []);
  });
});

Deno.test("checkInterpreter() cannot decide when the interpreter is missing or no Python", async (t) => {
  const cases: [string, { code: number; outputTail: string }, RegExp][] = [
    [
      "missing",
      {
        code: 127,
        outputTail: "env: '/tmp/venv/bin/python': No such file or directory",
      },
      /^Cannot run the tests: the interpreter "\/tmp\/venv\/bin\/python" does not exist in the sandbox or the sandbox cannot run it: the tests run without isolation/,
    ],
    [
      "not executable",
      { code: 126, outputTail: "Permission denied" },
      /does not exist in the sandbox or the sandbox cannot run it/,
    ],
    [
      "exits 0 without running the script",
      { code: 0, outputTail: "" },
      /^Cannot run the tests: the interpreter "\/tmp\/venv\/bin\/python" of \[environment\] python does not work in the sandbox \(it exited with 0 instead of running a one-line Python script\): the tests run without isolation/,
    ],
    [
      "fails",
      { code: 1, outputTail: "Fatal Python error: init_fs_encoding" },
      /exited with 1 instead of running a one-line Python script: Fatal Python error: init_fs_encoding\)/,
    ],
  ];
  for (const [name, answer, message] of cases) {
    await t.step(name, async () => {
      await withReportDir(async (reportDir) => {
        const sandbox = new ScriptedSandbox(() => answer);
        await assert.rejects(
          checkInterpreter(sandbox, "/tmp/venv/bin/python", { reportDir }),
          (error: unknown) => {
            assert.ok(error instanceof TestRunnerMissingError);
            assert.match(error.message, message);
            return true;
          },
        );
      });
    });
  }
});
