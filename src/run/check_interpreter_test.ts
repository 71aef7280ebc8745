import assert from "node:assert/strict";
import { LocalSandbox } from "./_local_sandbox.ts";
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

Deno.test("checkInterpreter() tells a program it cannot run from an interpreter that does not work", async (t) => {
  const cases: [
    string,
    {
      code: number | null;
      signal?: Deno.Signal | null;
      timedOut?: boolean;
      outputHead?: string;
      outputTail?: string;
    },
    "program" | "interpreter" | "ok",
    RegExp?,
  ][] = [
    ["the mark in the head of the output", {
      code: 0,
      outputHead: "pawl-interpreter-ok",
    }, "ok"],
    [
      "the mark with a failing exit",
      {
        code: 1,
        outputTail: "pawl-interpreter-ok",
      },
      "interpreter",
      /exited with 1 instead/,
    ],
    [
      "exit 126 whatever it printed",
      { code: 126, outputTail: "huh" },
      "program",
    ],
    [
      "exit 127 whatever it printed",
      { code: 127, outputTail: "huh" },
      "program",
    ],
    ["command not found", {
      code: 2,
      outputTail: "sh: python9: command not found",
    }, "program"],
    ["no such file in the head", {
      code: 1,
      outputHead: "python: No such file or directory",
    }, "program"],
    [
      "permission denied",
      { code: 1, outputTail: "Permission denied" },
      "program",
    ],
    [
      "exit 125",
      { code: 125, outputTail: "" },
      "interpreter",
      /exited with 125 instead of running a one-line Python script\)/,
    ],
    [
      "a timeout",
      {
        code: null,
        signal: "SIGKILL",
        timedOut: true,
      },
      "interpreter",
      /\(it did not answer within 60 s\)/,
    ],
    [
      "a signal",
      { code: null, signal: "SIGSEGV" },
      "interpreter",
      /exited with SIGSEGV instead/,
    ],
    [
      "the last three lines of its output",
      {
        code: 1,
        outputHead: "one\n\n  two  ",
        outputTail: "three\nfour\n",
      },
      "interpreter",
      /script: two \/ three \/ four\)/,
    ],
    [
      "at most 300 characters of them",
      {
        code: 1,
        outputTail: "x".repeat(1000),
      },
      "interpreter",
      new RegExp(`script: x{300}\\)`),
    ],
  ];
  for (const [name, answer, kind, message] of cases) {
    await t.step(name, async () => {
      await withReportDir(async (reportDir) => {
        const sandbox = new ScriptedSandbox(() => answer);
        const run = checkInterpreter(sandbox, "/x/python", { reportDir });
        if (kind === "ok") return await run;
        await assert.rejects(run, (error: unknown) => {
          assert.ok(error instanceof TestRunnerMissingError);
          if (kind === "program") {
            assert.match(error.message, /does not exist in the sandbox/);
          } else {
            assert.match(error.message, /does not work in the sandbox/);
            assert.match(error.message, message ?? /./);
          }
          return true;
        });
      });
    });
  }
});

Deno.test("checkInterpreter() probes in a fresh directory with a minimal environment", async () => {
  await withReportDir(async (reportDir) => {
    await Deno.mkdir(`${reportDir}/interpreter-check`);
    await Deno.mkdir(`${reportDir}/interpreter-check-1`);
    const sandbox = new ScriptedSandbox(() => ({
      code: 0,
      outputTail: "pawl-interpreter-ok",
    }));
    await checkInterpreter(sandbox, "python3", { reportDir });
    const call = sandbox.calls[0];
    const dir = `${reportDir}/interpreter-check-2`;
    assert.equal(call?.cwd, dir);
    assert.deepEqual(sandbox.prepared, [dir]);
    assert.equal((await Deno.stat(dir)).mode! & 0o777, 0o700);
    assert.deepEqual(call?.argv.slice(0, 3), ["python3", "-I", "-c"]);
    assert.deepEqual(call?.env, {
      PATH: call?.env["PATH"],
      HOME: dir,
      TMPDIR: dir,
      LANG: "C.UTF-8",
    });
    assert.match(call?.env["PATH"] ?? "", /\/usr\/bin/);
    assert.equal(call?.limits?.timeoutMs, 60_000);
  });
});

Deno.test("checkInterpreter() probes in the first free directory name", async () => {
  await withReportDir(async (reportDir) => {
    await Deno.mkdir(`${reportDir}/interpreter-check`);
    const sandbox = new ScriptedSandbox(() => ({
      code: 0,
      outputTail: "pawl-interpreter-ok",
    }));
    await checkInterpreter(sandbox, "python3", { reportDir });
    assert.equal(sandbox.calls[0]?.cwd, `${reportDir}/interpreter-check-1`);
  });
});

Deno.test("checkInterpreter() lets through a failure to make its directory other than a name in use", async () => {
  await withReportDir(async (reportDir) => {
    const sandbox = new ScriptedSandbox(() => ({ code: 0 }));
    await assert.rejects(
      checkInterpreter(sandbox, "python3", { reportDir: `${reportDir}/gone` }),
      Deno.errors.NotFound,
    );
    assert.deepEqual(sandbox.calls, []);
  });
});

Deno.test("checkInterpreter() names the repository's export when it explains the sandbox", async () => {
  await withReportDir(async (reportDir) => {
    const sandbox = new ScriptedSandbox(() => ({ code: 127 }));
    await assert.rejects(
      checkInterpreter(sandbox, "/opt/py/bin/python3", {
        reportDir,
        workDir: "/tmp/pawl-1/work-0",
      }),
      (error: unknown) => {
        assert.ok(error instanceof TestRunnerMissingError);
        assert.match(error.message, /head tree at "\/tmp\/pawl-1\/work-0"/);
        return true;
      },
    );
  });
});

Deno.test("checkInterpreter() passes a real Python and refuses a program that exits 0 without running Python", async () => {
  await withReportDir(async (reportDir) => {
    await checkInterpreter(new LocalSandbox(), "/usr/bin/python3", {
      reportDir,
    });
    for (const program of ["/bin/true", "/bin/echo"]) {
      await assert.rejects(
        checkInterpreter(new LocalSandbox(), program, { reportDir }),
        TestRunnerMissingError,
        program,
      );
    }
  });
});
