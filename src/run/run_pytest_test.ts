import assert from "node:assert/strict";
import { open } from "node:fs/promises";
import type { ObserverPlugin } from "./observer.ts";
import type { SandboxCommand, SandboxResult } from "../sandbox/sandbox.ts";
import {
  junitXml,
  type Script,
  ScriptedSandbox,
  withRunDirs,
} from "./_scripted_sandbox.ts";
import {
  DEFAULT_PYTEST_COMMAND,
  MAX_REPORT_BYTES,
  preparePytestRun,
  prestartPytestRun,
  pytestEnvironment,
  pytestRunKey,
  readPytestReport,
  runPytest,
  type RunPytestOptions,
  SANDBOX_PATH,
  TestRunnerMissingError,
} from "./run_pytest.ts";

function options(
  dirs: { workDir: string; reportDir: string },
  extra: Partial<RunPytestOptions> = {},
): RunPytestOptions {
  return { ...dirs, ...extra };
}

const PASSING: Script = async ({ reportPath }) => {
  await Deno.writeTextFile(
    reportPath as string,
    junitXml([{ classname: "tests.test_a", name: "test_x" }]),
  );
  return { code: 0 };
};

Deno.test("runPytest() runs the command with a report flag and a minimal environment", async (t) => {
  await withRunDirs(async (dirs) => {
    const sandbox = new ScriptedSandbox(PASSING);
    const run = await runPytest(
      sandbox,
      options(dirs, {
        env: { CONTRACT_SEED: "42" },
        select: ["tests/test_a.py::test_x"],
        limits: { timeoutMs: 1000 },
      }),
    );
    const command = sandbox.calls[0];
    assert.ok(command !== undefined);

    await t.step(
      "argv is the command, the junit flags, then the selection",
      () => {
        assert.deepEqual(command.argv, [
          ...DEFAULT_PYTEST_COMMAND,
          `--junitxml=${dirs.reportDir}/junit-0.xml`,
          "-o",
          "junit_family=xunit2",
          "tests/test_a.py::test_x",
        ]);
      },
    );

    await t.step("the environment has nothing from the parent process", () => {
      const home = `${dirs.reportDir}/home-0`;
      assert.deepEqual(command.env, {
        PATH: "/usr/local/bin:/usr/bin:/bin",
        HOME: home,
        TMPDIR: home,
        LANG: "C.UTF-8",
        PYTHONDONTWRITEBYTECODE: "1",
        HYPOTHESIS_STORAGE_DIRECTORY: `${home}/hypothesis`,
        PYTHONHASHSEED: "0",
        CONTRACT_SEED: "42",
      });
    });

    await t.step(
      "HOME is a fresh directory prepared for the sandbox",
      async () => {
        assert.ok((await Deno.lstat(`${dirs.reportDir}/home-0`)).isDirectory);
        assert.deepEqual(sandbox.prepared, [`${dirs.reportDir}/home-0`]);
      },
    );

    await t.step("cwd, writable paths and limits are passed through", () => {
      assert.equal(command.cwd, dirs.workDir);
      assert.deepEqual(command.writable, [dirs.reportDir]);
      assert.deepEqual(command.limits, { timeoutMs: 1000 });
    });

    await t.step("the report is parsed", () => {
      assert.deepEqual(run.cases, [{
        classname: "tests.test_a",
        name: "test_x",
        outcome: "passed",
      }]);
      assert.equal(run.reportProblem, undefined);
    });
  });
});

Deno.test("runPytest() leaves the command's test paths out of a run that selects, and keeps them in a run of all tests", async (t) => {
  await withRunDirs(async (dirs) => {
    await Deno.mkdir(`${dirs.workDir}/tests`);
    const command = ["python3", "-m", "pytest", "-q", "-k", "tests", "tests"];
    const flags = (n: number) => [
      `--junitxml=${dirs.reportDir}/junit-${n}.xml`,
      "-o",
      "junit_family=xunit2",
    ];
    const table: [string, string[], string[]][] = [
      ["a selection", ["tests/test_a.py::test_x"], [
        ...command.slice(0, -1),
        ...flags(0),
        "tests/test_a.py::test_x",
      ]],
      ["no selection", [], [...command, ...flags(1)]],
    ];
    const sandbox = new ScriptedSandbox(PASSING);
    for (const [i, [name, select, expected]] of table.entries()) {
      await t.step(name, async () => {
        await runPytest(sandbox, options(dirs, { command, select }));
        assert.deepEqual(sandbox.calls[i]?.argv, expected);
      });
    }
  });
});

Deno.test("runPytest() never reuses a report or home name a previous run left", async () => {
  await withRunDirs(async (dirs) => {
    await Deno.writeTextFile(`${dirs.reportDir}/junit-0.xml`, "stale");
    await Deno.mkdir(`${dirs.reportDir}/home-1`);
    const sandbox = new ScriptedSandbox(PASSING);
    const run = await runPytest(sandbox, options(dirs));
    assert.ok(
      sandbox.calls[0]?.argv.includes(
        `--junitxml=${dirs.reportDir}/junit-2.xml`,
      ),
    );
    assert.equal(run.cases?.length, 1);
  });
});

Deno.test("runPytest() ignores a report that is not a bounded regular file in the report directory", async (t) => {
  const table: [string, Script, RegExp, Partial<RunPytestOptions>?][] = [
    [
      "a symlink to /etc/passwd",
      async ({ reportPath }) => {
        await Deno.symlink("/etc/passwd", reportPath as string);
        return { code: 0 };
      },
      /is a symlink/,
    ],
    [
      "a symlink to a valid report elsewhere",
      async ({ reportPath, command }) => {
        const elsewhere = `${command.cwd}/fake.xml`;
        await Deno.writeTextFile(
          elsewhere,
          junitXml([{ classname: "a", name: "t" }]),
        );
        await Deno.symlink(elsewhere, reportPath as string);
        return { code: 0 };
      },
      /is a symlink/,
    ],
    [
      "a FIFO",
      async ({ reportPath }) => {
        await new Deno.Command("mkfifo", { args: [reportPath as string] })
          .output();
        return { code: 0 };
      },
      /is not a regular file/,
    ],
    [
      "a directory",
      async ({ reportPath }) => {
        await Deno.mkdir(reportPath as string);
        return { code: 0 };
      },
      /is a directory/,
    ],
    [
      "larger than the given limit",
      async ({ reportPath }) => {
        await Deno.writeTextFile(
          reportPath as string,
          junitXml([{ classname: "a", name: "t".repeat(500) }]),
        );
        return { code: 0 };
      },
      /more than the limit of 100/,
      { maxReportBytes: 100 },
    ],
    [
      "larger than 32 MiB by default",
      async ({ reportPath }) => {
        const file = await Deno.open(reportPath as string, {
          write: true,
          create: true,
        });
        await file.truncate(MAX_REPORT_BYTES + 1);
        file.close();
        return { code: 0 };
      },
      /more than the limit of 33554432/,
    ],
    [
      "missing",
      () => ({ code: 1, outputTail: "boom" }),
      /wrote no report "junit-0.xml"/,
    ],
    [
      "malformed",
      async ({ reportPath }) => {
        await Deno.writeTextFile(reportPath as string, "<testsuite>");
        return { code: 1 };
      },
      /^Cannot read JUnit report: /,
    ],
    [
      "a billion laughs",
      async ({ reportPath }) => {
        await Deno.writeTextFile(
          reportPath as string,
          `<!DOCTYPE t [<!ENTITY a "aaaa">]><testsuite><testcase classname="a" name="&a;"/></testsuite>`,
        );
        return { code: 0 };
      },
      /DOCTYPE/,
    ],
  ];
  for (const [label, script, problem, extra] of table) {
    await t.step(`a report that is ${label} gives no cases`, async () => {
      await withRunDirs(async (dirs) => {
        const run = await runPytest(
          new ScriptedSandbox(script),
          options(dirs, extra),
        );
        assert.equal(run.cases, null);
        assert.match(run.reportProblem ?? "", problem);
      });
    });
  }
});

Deno.test("runPytest() throws TestRunnerMissingError when the runner is missing", async (t) => {
  await t.step(
    "python3 not on PATH (exit 127), confirmed by the probe",
    async () => {
      await withRunDirs(async (dirs) => {
        const sandbox = new ScriptedSandbox(() => ({
          code: 127,
          outputTail: "bwrap: execvp python3: No such file or directory",
        }));
        await assert.rejects(
          runPytest(sandbox, options(dirs)),
          (error: unknown) => {
            assert.ok(error instanceof TestRunnerMissingError);
            assert.equal(error.missing, "program");
            assert.equal(error.program, "python3");
            assert.match(
              error.message,
              /^Cannot run the tests: "python3" was not found on the sandbox PATH "\/usr\/local\/bin:\/usr\/bin:\/bin": the tests run without isolation .*; install it where the sandbox sees it/,
            );
            assert.ok(error.message.includes(`at "${dirs.workDir}"`));
            return true;
          },
        );
        const probe = sandbox.calls[1];
        assert.deepEqual(probe?.argv, ["python3", "-c", "import pytest"]);
        assert.equal(probe?.cwd, `${dirs.reportDir}/probe-0`);
      });
    },
  );

  await t.step("pytest not importable, confirmed by the probe", async () => {
    await withRunDirs(async (dirs) => {
      const sandbox = new ScriptedSandbox(() => ({
        code: 1,
        outputTail: "/usr/bin/python3: No module named pytest\n",
      }));
      await assert.rejects(
        runPytest(sandbox, options(dirs)),
        (error: unknown) => {
          assert.ok(error instanceof TestRunnerMissingError);
          assert.equal(error.missing, "module");
          assert.equal(error.module, "pytest");
          assert.match(
            error.message,
            /cannot import "pytest": the tests run without isolation .*; install it for that interpreter/,
          );
          return true;
        },
      );
    });
  });

  await t.step(
    "a test that only prints the message is not believed",
    async () => {
      await withRunDirs(async (dirs) => {
        const sandbox = new ScriptedSandbox(({ index }) =>
          index === 0
            ? {
              code: 1,
              outputTail: "/usr/bin/python3: No module named pytest",
            }
            : { code: 0 }
        );
        const run = await runPytest(sandbox, options(dirs));
        assert.equal(run.cases, null);
        assert.equal(sandbox.calls.length, 2);
      });
    },
  );

  await t.step(
    "a program that cannot be executed (exit 126), confirmed by the probe",
    async () => {
      await withRunDirs(async (dirs) => {
        const sandbox = new ScriptedSandbox(() => ({
          code: 126,
          outputTail: "Permission denied",
        }));
        await assert.rejects(
          runPytest(sandbox, options(dirs)),
          (error: unknown) =>
            error instanceof TestRunnerMissingError &&
            error.missing === "program",
        );
        assert.equal(sandbox.calls.length, 2);
      });
    },
  );

  await t.step(
    "a probe that runs out of time proves nothing missing",
    async () => {
      await withRunDirs(async (dirs) => {
        const sandbox = new ScriptedSandbox(({ index }) =>
          index === 0
            ? { code: 127, outputTail: "python3: command not found" }
            : {
              code: 137,
              timedOut: true,
              outputTail: "python3: command not found",
            }
        );
        const run = await runPytest(sandbox, options(dirs));
        assert.equal(run.cases, null);
        assert.equal(sandbox.calls.length, 2);
      });
    },
  );

  await t.step("a bare pytest program is probed with --version", async () => {
    await withRunDirs(async (dirs) => {
      const sandbox = new ScriptedSandbox(() => ({
        code: 127,
        outputTail: "pytest: command not found",
      }));
      await assert.rejects(
        runPytest(sandbox, options(dirs, { command: ["pytest", "-q"] })),
        TestRunnerMissingError,
      );
      assert.deepEqual(sandbox.calls[1]?.argv, ["pytest", "--version"]);
    });
  });
});

Deno.test("runPytest() explains the sandbox's file system when a configured interpreter is missing", async () => {
  await withRunDirs(async (dirs) => {
    const sandbox = new ScriptedSandbox(() => ({
      code: 127,
      outputTail: "env: '/tmp/venv/bin/python': No such file or directory",
    }));
    Object.assign(sandbox.isolation, { tier: "bwrap", uid: 64400 });
    await assert.rejects(
      runPytest(
        sandbox,
        options(dirs, { command: ["/tmp/venv/bin/python", "-m", "pytest"] }),
      ),
      (error: unknown) => {
        assert.ok(error instanceof TestRunnerMissingError);
        assert.equal(error.missing, "program");
        for (
          const part of [
            'Cannot run the tests: the interpreter "/tmp/venv/bin/python" does not exist in the sandbox or the sandbox cannot run it: ',
            "the host's file system read-only",
            "a private, empty /tmp",
            "nothing under the host's /tmp is visible there",
            `the repository is a fresh export of the head tree at "${dirs.workDir}"`,
            "uid 64400 with no supplementary groups",
            '[environment] python = "/path/to/python"',
          ]
        ) {
          assert.ok(
            error.message.includes(part),
            `${part} in ${error.message}`,
          );
        }
        return true;
      },
    );
    assert.deepEqual(sandbox.calls[1]?.argv, [
      "/tmp/venv/bin/python",
      "-c",
      "import pytest",
    ]);
  });
});

Deno.test("runPytest() puts the tree's import path entries after pawl's observer, as absolute paths", async () => {
  await withRunDirs(async (dirs) => {
    const sandbox = new ScriptedSandbox(PASSING);
    await runPytest(
      sandbox,
      options(dirs, { env: { PYTHONPATH: "src:.:/opt/extra" } }),
    );
    assert.equal(
      sandbox.calls[0]?.env["PYTHONPATH"],
      `${dirs.workDir}/src:${dirs.workDir}:/opt/extra`,
    );
  });
});

Deno.test("runPytest() takes a run prepared from the same options, and prepares afresh under the same names otherwise", async () => {
  await withRunDirs(async (dirs) => {
    const sandbox = new ScriptedSandbox(PASSING);
    const same = options(dirs, { env: { CONTRACT_SEED: "7" } });
    const prepared = await preparePytestRun(sandbox, same);
    // Only the arguments after "-m pytest" may differ: they are handed over.
    const run = await runPytest(sandbox, {
      ...same,
      command: [...DEFAULT_PYTEST_COMMAND, "--deselect", "tests/x.py::t"],
      select: ["tests/test_a.py::test_x"],
      prepared,
    });
    assert.notEqual(run.cases, null);
    assert.equal(prepared.used, true);
    assert.deepEqual(sandbox.calls[0]?.env, prepared.command.env);
    assert.deepEqual(sandbox.calls[0]?.argv, [
      ...DEFAULT_PYTEST_COMMAND,
      "--deselect",
      "tests/x.py::t",
      `--junitxml=${dirs.reportDir}/junit-0.xml`,
      "-o",
      "junit_family=xunit2",
      "tests/test_a.py::test_x",
    ]);
  });
  await withRunDirs(async (dirs) => {
    const sandbox = new ScriptedSandbox(PASSING);
    const prepared = await preparePytestRun(
      sandbox,
      options(dirs, { env: { CONTRACT_SEED: "7" } }),
    );
    // Another environment: the prepared run is discarded, its names freed.
    await runPytest(
      sandbox,
      options(dirs, { env: { CONTRACT_SEED: "8" }, prepared }),
    );
    const command = sandbox.calls[0]!;
    assert.equal(command.env["CONTRACT_SEED"], "8");
    assert.ok(
      command.argv.includes(`--junitxml=${dirs.reportDir}/junit-0.xml`),
    );
    assert.equal(command.env["HOME"], `${dirs.reportDir}/home-0`);
  });
});

Deno.test("runPytest() refuses an empty test program", async () => {
  await withRunDirs(async (dirs) => {
    for (const command of [[], [""], ["", "-m", "pytest"]]) {
      const sandbox = new ScriptedSandbox(PASSING);
      await assert.rejects(
        runPytest(sandbox, options(dirs, { command })),
        new RangeError("Invalid test command: argv is empty"),
      );
      assert.equal(sandbox.calls.length, 0);
    }
  });
});

Deno.test("runPytest() reads a report of exactly the size limit", async () => {
  await withRunDirs(async (dirs) => {
    const xml = junitXml([{ classname: "tests.test_a", name: "test_x" }]);
    const run = await runPytest(
      new ScriptedSandbox(async ({ reportPath }) => {
        await Deno.writeTextFile(reportPath as string, xml);
        return { code: 0 };
      }),
      options(dirs, { maxReportBytes: new TextEncoder().encode(xml).length }),
    );
    assert.equal(run.reportProblem, undefined);
    assert.equal(run.cases?.length, 1);
  });
});

Deno.test("runPytest() serves one run only from a prepared run", async () => {
  await withRunDirs(async (dirs) => {
    const sandbox = new ScriptedSandbox(PASSING);
    const prepared = await preparePytestRun(sandbox, options(dirs));
    await runPytest(sandbox, options(dirs, { prepared }));
    await runPytest(sandbox, options(dirs, { prepared }));
    assert.deepEqual(
      sandbox.calls.map((c) => c.env["HOME"]),
      [`${dirs.reportDir}/home-0`, `${dirs.reportDir}/home-1`],
    );
  });
});

Deno.test("runPytest() keys a prepared run on whether its observer counts asserts and traces lines", () => {
  const base = { workDir: "/w", reportDir: "/r" };
  const keys = [
    pytestRunKey(base),
    pytestRunKey({ ...base, countAsserts: true }),
    pytestRunKey({ ...base, traceLines: true }),
  ];
  assert.equal(new Set(keys).size, 3);
  assert.equal(
    pytestRunKey({ ...base, countAsserts: false, traceLines: false }),
    keys[0],
  );
});

Deno.test("runPytest() tells the observer to count asserts and trace lines only when asked", async (t) => {
  const root = await Deno.makeTempDir({ prefix: "pawl-observer-" });
  try {
    await Deno.mkdir(`${root}/plugin`);
    await Deno.mkdir(`${root}/channels`);
    const observer = {
      root,
      dir: `${root}/plugin`,
      module: "pawl_observer",
      channels: `${root}/channels`,
      lines: `${root}/lines.json`,
    };
    const table: [string, Partial<RunPytestOptions>, string[]][] = [
      ["neither", {}, []],
      ["counting asserts", { countAsserts: true }, ["PAWL_OBSERVER_REACH"]],
      ["tracing lines", { traceLines: true }, ["PAWL_OBSERVER_LINES"]],
      ["explicitly neither", { countAsserts: false, traceLines: false }, []],
    ];
    for (const [name, extra, keys] of table) {
      await t.step(name, async () => {
        await withRunDirs(async (dirs) => {
          const prepared = await preparePytestRun(
            new ScriptedSandbox(PASSING),
            options(dirs, { observer, ...extra }),
          );
          try {
            const env = prepared.command.env;
            assert.deepEqual(
              Object.keys(env).filter((k) =>
                k === "PAWL_OBSERVER_REACH" || k === "PAWL_OBSERVER_LINES"
              ),
              keys,
            );
            if (keys.includes("PAWL_OBSERVER_LINES")) {
              assert.equal(env["PAWL_OBSERVER_LINES"], observer.lines);
            }
          } finally {
            await prepared.discard();
          }
        });
      });
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("pytestEnvironment() puts pawl's observer first on the import path, where the tree cannot shadow it", () => {
  const env = pytestEnvironment("/w", "/h", {
    env: { PYTHONPATH: "src:/opt/extra" },
    observer: {
      root: "/o",
      dir: "/o/plugin",
      userBase: "/o/base",
      module: "pawl_observer",
      channels: "/o/channels",
    },
  });
  assert.equal(env["PYTHONPATH"], "/o/plugin:/w/src:/opt/extra");
  assert.equal(env["PYTHONUSERBASE"], "/o/base");
});

Deno.test("runPytest() decides what a failed probe of the runner proves", async (t) => {
  const table: {
    name: string;
    command?: string[];
    env?: Record<string, string>;
    run?: Partial<SandboxResult>;
    probe: Partial<SandboxResult>;
    argv: string[];
    path?: string;
    missing: "program" | "module" | undefined;
  }[] = [
    {
      name: 'a run that printed "not found" is probed, whatever its exit code',
      run: { code: 4, outputTail: "sh: 1: pytest: not found" },
      probe: { code: 127, outputTail: "" },
      argv: ["python3", "-c", "import pytest"],
      missing: "program",
    },
    {
      name: "a run that exited 127 without a word is probed",
      run: { code: 127, outputTail: "" },
      probe: { code: 127, outputTail: "" },
      argv: ["python3", "-c", "import pytest"],
      missing: "program",
    },
    {
      name: "a run whose output begins with a missing module is probed",
      run: { code: 1, outputHead: "No module named pytest", outputTail: "" },
      probe: { code: 1, outputHead: "No module named pytest", outputTail: "" },
      argv: ["python3", "-c", "import pytest"],
      missing: "module",
    },
    {
      name: "the interpreter's options before -m stay in the probe",
      command: ["python3", "-X", "dev", "-m", "pytest"],
      probe: { code: 1, outputTail: "No module named pytest" },
      argv: ["python3", "-X", "dev", "-c", "import pytest"],
      missing: "module",
    },
    {
      name: "a module name that is no dotted identifier is never imported",
      command: ["python3", "-m", "py-test"],
      probe: { code: 1, outputTail: "No module named py" },
      argv: ["python3", "--version"],
      missing: undefined,
    },
    {
      name: "a module name that starts with a digit is never imported",
      command: ["python3", "-m", "9pytest"],
      probe: { code: 1, outputTail: "No module named pytest" },
      argv: ["python3", "--version"],
      missing: undefined,
    },
    {
      name: "the probe looks the program up on the run's own PATH",
      env: { PATH: "/opt/py/bin:/usr/bin" },
      probe: { code: 127, outputTail: "" },
      argv: ["python3", "-c", "import pytest"],
      path: "/opt/py/bin:/usr/bin",
      missing: "program",
    },
    {
      name: "a probe that exits 0 proves nothing missing, whatever it prints",
      probe: { code: 0, outputTail: "No module named pytest" },
      argv: ["python3", "-c", "import pytest"],
      missing: undefined,
    },
    {
      name: 'a shell\'s "command not found" is a missing program',
      probe: { code: 1, outputTail: "sh: 1: python3: command not found" },
      argv: ["python3", "-c", "import pytest"],
      missing: "program",
    },
    {
      name: "a marker option -m after the module does not change the module",
      command: ["python3", "-m", "pytest", "-m", "not slow"],
      probe: { code: 1, outputTail: "No module named pytest" },
      argv: ["python3", "-c", "import pytest"],
      missing: "module",
    },
    {
      name: "a program run without a module never blames a module",
      command: ["python3", "tests/run.py"],
      probe: { code: 1, outputTail: "No module named encodings" },
      argv: ["python3", "--version"],
      missing: undefined,
    },
  ];
  for (const c of table) {
    await t.step(c.name, async () => {
      await withRunDirs(async (dirs) => {
        const sandbox = new ScriptedSandbox(({ index }) =>
          index === 0
            ? c.run ?? { code: 127, outputTail: "python3: not found" }
            : c.probe
        );
        const run = runPytest(
          sandbox,
          options(dirs, {
            ...(c.command === undefined ? {} : { command: c.command }),
            ...(c.env === undefined ? {} : { env: c.env }),
          }),
        );
        if (c.missing === undefined) {
          assert.equal((await run).cases, null);
        } else {
          await assert.rejects(run, (error: unknown) => {
            assert.ok(error instanceof TestRunnerMissingError);
            assert.equal(error.missing, c.missing);
            return true;
          });
        }
        const probe = sandbox.calls[1];
        assert.deepEqual(probe?.argv, c.argv);
        assert.deepEqual(probe?.writable, [], "the probe writes nowhere");
        assert.deepEqual(probe?.limits, { timeoutMs: 60_000 });
        assert.equal(probe?.env["PATH"], c.path ?? SANDBOX_PATH);
        assert.equal(probe?.env["HOME"], probe?.cwd);
        assert.equal(probe?.env["LANG"], "C.UTF-8");
      });
    });
  }
});

Deno.test("runPytest() does not probe for a missing runner after a run that timed out", async () => {
  await withRunDirs(async (dirs) => {
    const sandbox = new ScriptedSandbox(() => ({
      code: null,
      signal: "SIGKILL",
      timedOut: true,
      outputTail: "No module named pytest",
    }));
    const run = await runPytest(sandbox, options(dirs));
    assert.equal(run.cases, null);
    assert.equal(sandbox.calls.length, 1);
  });
});

/** An observer plugin in `dir`, as far as a run's key reads it. */
function plugin(dir: string): ObserverPlugin {
  return { root: "/o", dir, module: "pawl_observer", channels: "/o/c" };
}

Deno.test("pytestRunKey() tells apart the interpreter and module a run starts, and nothing after them", async (t) => {
  const base = { workDir: "/w", reportDir: "/r" };
  const key = pytestRunKey(base);
  const table: [string, Partial<RunPytestOptions>, boolean][] = [
    [
      "the default command written out",
      { command: DEFAULT_PYTEST_COMMAND },
      true,
    ],
    [
      "options after the module",
      { command: ["python3", "-m", "pytest", "-x"] },
      true,
    ],
    ["another module", { command: ["python3", "-m", "hypothesis"] }, false],
    ["another interpreter", { command: ["python3.12", "-m", "pytest"] }, false],
    ["an observer", {
      observer: plugin("/o/d"),
    }, false],
  ];
  for (const [name, extra, same] of table) {
    await t.step(`${name}: ${same ? "same" : "another"} key`, () => {
      assert.equal(pytestRunKey({ ...base, ...extra }) === key, same);
    });
  }
  await t.step("two observers in other directories: other keys", () => {
    const a = plugin("/o/a");
    const b = plugin("/o/b");
    assert.notEqual(
      pytestRunKey({ ...base, observer: a }),
      pytestRunKey({ ...base, observer: b }),
    );
  });
});

Deno.test("A prepared run's discard leaves alone the HOME a run took, or a later run got under its name", async () => {
  await withRunDirs(async (dirs) => {
    const sandbox = new ScriptedSandbox(PASSING);
    const taken = await preparePytestRun(sandbox, options(dirs));
    await runPytest(sandbox, options(dirs, { prepared: taken }));
    await taken.discard();
    await Deno.stat(`${dirs.reportDir}/home-0`);
  });
  await withRunDirs(async (dirs) => {
    const sandbox = new ScriptedSandbox(PASSING);
    const first = await preparePytestRun(sandbox, options(dirs));
    await first.discard();
    const second = await preparePytestRun(sandbox, options(dirs));
    assert.equal(second.n, first.n);
    await first.discard();
    await Deno.stat(`${dirs.reportDir}/home-${second.n}`);
  });
});

Deno.test("readPytestReport() reads only a report directly inside the report directory", async () => {
  await withRunDirs(async ({ workDir, reportDir }) => {
    const xml = junitXml([{ classname: "tests.test_a", name: "test_x" }]);
    await Deno.writeTextFile(`${reportDir}/r.xml`, xml);
    await Deno.writeTextFile(`${workDir}/r.xml`, xml);
    assert.deepEqual(
      (await readPytestReport(`${reportDir}/r.xml`, reportDir)).cases?.map(
        (c) => c.name,
      ),
      ["test_x"],
    );
    assert.deepEqual(await readPytestReport(`${workDir}/r.xml`, reportDir), {
      cases: null,
      problem:
        'The report "r.xml" resolves outside the report directory: it was ignored',
    });
    assert.deepEqual(await readPytestReport(`${reportDir}/no.xml`, reportDir), {
      cases: null,
      problem: 'The test run wrote no report "no.xml"',
    });
  });
});

Deno.test("TestRunnerMissingError names an interpreter by path and a program by name, and a module only when given", async (t) => {
  const table: [string, string, RegExp][] = [
    [
      "venv/bin/python3",
      "an interpreter by relative path",
      /the interpreter "venv\/bin\/python3" does not exist/,
    ],
    [
      "/opt/py/bin/python3",
      "an interpreter by absolute path",
      /the interpreter "\/opt\/py\/bin\/python3" does not exist/,
    ],
    ["python3", "a program", /"python3" was not found on the sandbox PATH/],
  ];
  for (const [program, name, message] of table) {
    await t.step(name, () => {
      const error = new TestRunnerMissingError("program", program);
      assert.match(error.message, message);
      assert.equal(error.module, undefined);
    });
  }
});

Deno.test("runPytest() loads pawl's observer into a run that has one, and gives it the run's channel", async () => {
  await withRunDirs(async (dirs) => {
    const root = `${dirs.reportDir}/observer`;
    await Deno.mkdir(`${root}/plugin`, { recursive: true });
    await Deno.mkdir(`${root}/channels`);
    const observer: ObserverPlugin = {
      root,
      dir: `${root}/plugin`,
      userBase: `${root}/base`,
      module: "pawl_observer",
      channels: `${root}/channels`,
    };
    const sandbox = new ScriptedSandbox(PASSING);
    const onOutput = () => {};
    const run = await runPytest(sandbox, options(dirs, { observer, onOutput }));
    assert.equal(run.observation?.hello, false);
    const command = sandbox.calls[0];
    assert.deepEqual(command?.argv.slice(-5), [
      "-p",
      "pawl_observer",
      `--junitxml=${dirs.reportDir}/junit-0.xml`,
      "-o",
      "junit_family=xunit2",
    ]);
    assert.deepEqual(command?.readOnly, [root]);
    assert.equal(command?.onOutput, onOutput);
    assert.equal(command?.env["PYTHONPATH"], observer.dir);
    assert.equal(command?.env["PYTHONUSERBASE"], observer.userBase);
    assert.match(command?.env["PAWL_OBSERVER_SOCKET"] ?? "", /^\//);
    assert.match(command?.env["PAWL_OBSERVER_TOKEN"] ?? "", /^\S+$/);
  });
});

Deno.test("runPytest() keeps a run without the observer free of it, and asks it for no progress tally", async () => {
  await withRunDirs(async (dirs) => {
    const sandbox = new ScriptedSandbox(PASSING);
    let tallies = 0;
    await runPytest(
      sandbox,
      options(dirs, {
        tally: () => {
          tallies++;
          return undefined;
        },
      }),
    );
    assert.equal(tallies, 0);
    const command = sandbox.calls[0];
    assert.equal(command?.argv.filter((a) => a === "-p").length, 1);
    assert.equal("readOnly" in (command ?? {}), false);
    assert.equal(command?.env["PAWL_OBSERVER_TOKEN"], undefined);
  });
});

Deno.test("runPytest() never reuses a probe directory name a previous run left", async () => {
  await withRunDirs(async (dirs) => {
    await Deno.mkdir(`${dirs.reportDir}/probe-0`);
    const sandbox = new ScriptedSandbox(PASSING);
    await runPytest(sandbox, options(dirs));
    assert.equal(sandbox.calls[0]?.env["HOME"], `${dirs.reportDir}/home-1`);
    assert.deepEqual(sandbox.prepared, [`${dirs.reportDir}/home-1`]);
    const home = await Deno.stat(`${dirs.reportDir}/home-1`);
    assert.equal(home.mode! & 0o777, 0o700, "the HOME is the run's alone");
  });
});

Deno.test("prestartPytestRun() hands the prepared command and the judge of its modules to the sandbox", async () => {
  await withRunDirs(async (dirs) => {
    const sandbox = new ScriptedSandbox(PASSING);
    const seen: [SandboxCommand, unknown][] = [];
    const prestarting = Object.assign(sandbox, {
      prestart: (command: SandboxCommand, o: { accept?: unknown }) => {
        seen.push([command, o.accept]);
        return Promise.reject(new Error("no warm interpreter"));
      },
    });
    const prepared = await preparePytestRun(prestarting, options(dirs));
    const accept = () => true;
    await prestartPytestRun(prestarting, prepared, accept);
    assert.deepEqual(seen, [[prepared.command, accept]]);
    await prepared.discard();
  });
});

Deno.test("pytestEnvironment() makes a relative import path entry absolute in the tree, however deep it goes", async (t) => {
  const table: [string, string][] = [
    ["src", "/w/src"],
    ["src/lib", "/w/src/lib"],
    ["./src", "/w/./src"],
    ["/opt/extra", "/opt/extra"],
  ];
  for (const [entry, absolute] of table) {
    await t.step(`${entry} -> ${absolute}`, () => {
      const env = pytestEnvironment("/w", "/h", {
        env: { PYTHONPATH: entry },
      });
      assert.equal(env["PYTHONPATH"], absolute);
    });
  }
});

Deno.test("readPytestReport() refuses a report below the report directory or beside it", async () => {
  await withRunDirs(async ({ reportDir }) => {
    const xml = junitXml([{ classname: "tests.test_a", name: "test_x" }]);
    await Deno.mkdir(`${reportDir}/sub`);
    await Deno.writeTextFile(`${reportDir}/sub/r.xml`, xml);
    await Deno.mkdir(`${reportDir}2`);
    try {
      await Deno.writeTextFile(`${reportDir}2/r.xml`, xml);
      for (const path of [`${reportDir}/sub/r.xml`, `${reportDir}2/r.xml`]) {
        assert.deepEqual(await readPytestReport(path, reportDir), {
          cases: null,
          problem:
            'The report "r.xml" resolves outside the report directory: it was ignored',
        });
      }
    } finally {
      await Deno.remove(`${reportDir}2`, { recursive: true });
    }
  });
});

Deno.test("runPytest() runs pytest quietly and without its cache when the base names no command", async () => {
  await withRunDirs(async (dirs) => {
    const sandbox = new ScriptedSandbox(PASSING);
    await runPytest(sandbox, options(dirs));
    assert.deepEqual(sandbox.calls[0]?.argv.slice(0, 6), [
      "python3",
      "-m",
      "pytest",
      "-q",
      "-p",
      "no:cacheprovider",
    ]);
  });
});

Deno.test("runPytest() runs under the limits it is given, not a prepared run's, and hands the sandbox none when given none", async (t) => {
  await t.step("a prepared run made under other limits", async () => {
    await withRunDirs(async (dirs) => {
      const sandbox = new ScriptedSandbox(PASSING);
      const prepared = await preparePytestRun(
        sandbox,
        options(dirs, { limits: { timeoutMs: 1000 } }),
      );
      await runPytest(
        sandbox,
        options(dirs, { limits: { timeoutMs: 2000 }, prepared }),
      );
      assert.deepEqual(sandbox.calls[0]?.limits, { timeoutMs: 2000 });
    });
  });
  await t.step("no limits: the sandbox's own apply", async () => {
    await withRunDirs(async (dirs) => {
      const sandbox = new ScriptedSandbox(PASSING);
      await runPytest(sandbox, options(dirs));
      assert.equal(Object.hasOwn(sandbox.calls[0] ?? {}, "limits"), false);
    });
  });
});

Deno.test("runPytest() traces no lines when asked to but the observer has no lines file", async () => {
  await withRunDirs(async (dirs) => {
    const root = `${dirs.reportDir}/observer`;
    await Deno.mkdir(`${root}/plugin`, { recursive: true });
    await Deno.mkdir(`${root}/channels`);
    const prepared = await preparePytestRun(
      new ScriptedSandbox(PASSING),
      options(dirs, {
        observer: {
          root,
          dir: `${root}/plugin`,
          module: "pawl_observer",
          channels: `${root}/channels`,
        },
        traceLines: true,
      }),
    );
    try {
      assert.equal(
        Object.hasOwn(prepared.command.env, "PAWL_OBSERVER_LINES"),
        false,
      );
    } finally {
      await prepared.discard();
    }
  });
});

Deno.test("A prepared run's discard removes its HOME with whatever a started interpreter wrote there", async () => {
  await withRunDirs(async (dirs) => {
    const sandbox = new ScriptedSandbox(PASSING);
    const first = await preparePytestRun(sandbox, options(dirs));
    const home = `${dirs.reportDir}/home-${first.n}`;
    await Deno.mkdir(`${home}/hypothesis`);
    await Deno.writeTextFile(`${home}/hypothesis/db`, "");
    await first.discard();
    await assert.rejects(Deno.lstat(home), Deno.errors.NotFound);
    const second = await preparePytestRun(sandbox, options(dirs));
    assert.equal(second.n, first.n);
    await second.discard();
  });
});

Deno.test("prestartPytestRun() settles without starting anything in a sandbox that cannot start ahead", async () => {
  await withRunDirs(async (dirs) => {
    const sandbox = new ScriptedSandbox(PASSING);
    const prepared = await preparePytestRun(sandbox, options(dirs));
    try {
      await prestartPytestRun(sandbox, prepared, () => true);
      assert.deepEqual(sandbox.calls, []);
    } finally {
      await prepared.discard();
    }
  });
});

Deno.test("TestRunnerMissingError says what is missing right before its advice when given no view of the sandbox", async (t) => {
  const table: [string, TestRunnerMissingError, string][] = [
    [
      "a program",
      new TestRunnerMissingError("program", "python3"),
      'Cannot run the tests: "python3" was not found on the sandbox PATH "/usr/local/bin:/usr/bin:/bin"; install it where the sandbox sees it',
    ],
    [
      "a module",
      new TestRunnerMissingError("module", "python3"),
      'Cannot run the tests: "python3" cannot import "pytest"; install it for that interpreter',
    ],
    [
      "an interpreter, without detail",
      new TestRunnerMissingError("interpreter", "/opt/py/bin/python3"),
      'Cannot run the tests: the interpreter "/opt/py/bin/python3" of [environment] python does not work in the sandbox (it did not run a Python script); name a Python 3 interpreter there in pawl.toml',
    ],
  ];
  for (const [name, error, start] of table) {
    await t.step(name, () => {
      assert.ok(error.message.startsWith(start), error.message);
      assert.ok(
        String(error).startsWith(`TestRunnerMissingError: ${start}`),
        "a stack trace names the error",
      );
    });
  }
});

Deno.test("pytestEnvironment() sets no import path when the run's has no entry, and no user base without the observer's", async (t) => {
  for (const given of ["", ":", "::"]) {
    await t.step(`PYTHONPATH ${JSON.stringify(given)}`, () => {
      const env = pytestEnvironment("/w", "/h", {
        env: { PYTHONPATH: given },
      });
      assert.equal(Object.hasOwn(env, "PYTHONPATH"), false);
    });
  }
  await t.step("an observer without a user base", () => {
    const env = pytestEnvironment("/w", "/h", {
      observer: {
        root: "/o",
        dir: "/o/plugin",
        module: "pawl_observer",
        channels: "/o/channels",
      },
    });
    assert.equal(env["PYTHONPATH"], "/o/plugin");
    assert.equal(Object.hasOwn(env, "PYTHONUSERBASE"), false);
  });
});

Deno.test("runPytest() names the run's own PATH when the probe finds no program", async () => {
  await withRunDirs(async (dirs) => {
    const sandbox = new ScriptedSandbox(() => ({
      code: 127,
      outputTail: "python3: not found",
    }));
    await assert.rejects(
      runPytest(sandbox, options(dirs, { env: { PATH: "/opt/py/bin" } })),
      (error: unknown) => {
        assert.ok(error instanceof TestRunnerMissingError);
        assert.match(
          error.message,
          /"python3" was not found on the sandbox PATH "\/opt\/py\/bin"/,
        );
        return true;
      },
    );
  });
});

Deno.test("TestRunnerMissingError names pytest as the missing module when given none", () => {
  const error = new TestRunnerMissingError("module", "python3");
  assert.match(error.message, /"python3" cannot import "pytest"/);
  assert.match(error.message, /python3 -m pip install pytest/);
  assert.equal(error.module, undefined);
});

/** An observer plugin under `root`, whose channel directory exists. */
async function streamingObserver(root: string): Promise<ObserverPlugin> {
  await Deno.mkdir(`${root}/plugin`, { recursive: true });
  await Deno.mkdir(`${root}/channels`);
  return {
    root,
    dir: `${root}/plugin`,
    module: "pawl_observer",
    channels: `${root}/channels`,
  };
}

/** A run that streams its hello, one collected test and its passing call to the observer, then writes its report. */
const STREAMING: Script = async (call) => {
  const conn = await Deno.connect({
    transport: "unix",
    path: call.command.env["PAWL_OBSERVER_SOCKET"] as string,
  });
  const lines = [
    { event: "hello", token: call.command.env["PAWL_OBSERVER_TOKEN"] },
    { event: "collected", nodeids: ["tests/test_a.py::test_x"] },
    {
      event: "report",
      nodeid: "tests/test_a.py::test_x",
      when: "call",
      outcome: "passed",
      xfail: false,
    },
  ];
  await conn.write(
    new TextEncoder().encode(
      lines.map((l) => `${JSON.stringify(l)}\n`).join(""),
    ),
  );
  conn.close();
  return await PASSING(call);
};

Deno.test("runPytest() tells a run's progress tally the tests the observer streams, then that the run ended", async (t) => {
  await t.step(
    "the tally hears the collected tests, their outcomes and the end",
    async () => {
      await withRunDirs(async (dirs) => {
        const observer = await streamingObserver(`${dirs.reportDir}/observer`);
        const told: unknown[][] = [];
        const run = await runPytest(
          new ScriptedSandbox(STREAMING),
          options(dirs, {
            observer,
            tally: () => ({
              collected: (ids) => told.push(["collected", [...ids]]),
              reported: (id, outcome) => told.push(["reported", id, outcome]),
              end: () => told.push(["end"]),
            }),
          }),
        );
        assert.deepEqual(told, [
          ["collected", ["tests/test_a.py::test_x"]],
          ["reported", "tests/test_a.py::test_x", "passed"],
          ["end"],
        ]);
        assert.deepEqual(run.observation?.collected, [
          "tests/test_a.py::test_x",
        ]);
      });
    },
  );
  await t.step("a tally that throws never stops the run", async () => {
    await withRunDirs(async (dirs) => {
      const observer = await streamingObserver(`${dirs.reportDir}/observer`);
      const fail = () => {
        throw new Error("progress broke");
      };
      for (
        const tally of [
          fail,
          () => ({ collected: fail, reported: fail, end: fail }),
        ]
      ) {
        const run = await runPytest(
          new ScriptedSandbox(STREAMING),
          options(dirs, { observer, tally }),
        );
        assert.equal(run.cases?.length, 1);
        assert.deepEqual(run.observation?.collected, [
          "tests/test_a.py::test_x",
        ]);
      }
    });
  });
});

Deno.test("runPytest() runs a prepared run with the channel and HOME it was prepared with", async () => {
  await withRunDirs(async (dirs) => {
    const observer = await streamingObserver(`${dirs.reportDir}/observer`);
    const sandbox = new ScriptedSandbox(STREAMING);
    const prepared = await preparePytestRun(
      sandbox,
      options(dirs, { observer }),
    );
    const run = await runPytest(
      sandbox,
      options(dirs, { observer, prepared }),
    );
    assert.deepEqual(sandbox.prepared, [`${dirs.reportDir}/home-0`]);
    assert.equal(
      sandbox.calls[0]?.env["PAWL_OBSERVER_TOKEN"],
      prepared.channel?.token,
    );
    assert.equal(run.observation?.hello, true);
  });
});

Deno.test("runPytest() sets no output callback and no observation it does not have", async () => {
  await withRunDirs(async (dirs) => {
    const sandbox = new ScriptedSandbox(PASSING);
    const run = await runPytest(sandbox, options(dirs));
    assert.equal(Object.hasOwn(sandbox.calls[0] ?? {}, "onOutput"), false);
    // A key set to undefined would still replace a value where runs merge.
    assert.equal(Object.hasOwn(run, "observation"), false);
  });
});

Deno.test("runPytest() probes a dotted module by importing it", async (t) => {
  for (const module of ["pkg.mod_a", "_pkg9.sub.mod"]) {
    await t.step(module, async () => {
      await withRunDirs(async (dirs) => {
        const sandbox = new ScriptedSandbox(() => ({
          code: 1,
          outputTail: `No module named ${module.split(".")[0]}`,
        }));
        await assert.rejects(
          runPytest(
            sandbox,
            options(dirs, { command: ["python3", "-m", module] }),
          ),
          (error: unknown) => {
            assert.ok(error instanceof TestRunnerMissingError);
            assert.equal(error.missing, "module");
            assert.equal(error.module, module);
            return true;
          },
        );
        assert.deepEqual(sandbox.calls[1]?.argv, [
          "python3",
          "-c",
          `import ${module}`,
        ]);
      });
    });
  }
});

Deno.test("readPytestReport() gives a malformed report's problem, and says how large a report past the limit is", async () => {
  await withRunDirs(async ({ reportDir }) => {
    await Deno.writeTextFile(`${reportDir}/bad.xml`, "<testsuite>");
    const bad = await readPytestReport(`${reportDir}/bad.xml`, reportDir);
    assert.equal(bad.cases, null);
    assert.match(bad.problem ?? "", /^Cannot read JUnit report: /);
    await Deno.writeTextFile(`${reportDir}/big.xml`, " ".repeat(101));
    assert.deepEqual(
      await readPytestReport(`${reportDir}/big.xml`, reportDir, 100),
      {
        cases: null,
        problem:
          'The report "big.xml" has 101 bytes, more than the limit of 100: it was ignored',
      },
    );
  });
});

Deno.test("readPytestReport() fails, rather than call the report unwritten, when its path cannot be looked up", async () => {
  await withRunDirs(async ({ reportDir }) => {
    await Deno.writeTextFile(`${reportDir}/file`, "");
    await assert.rejects(
      readPytestReport(`${reportDir}/file/r.xml`, reportDir),
      Deno.errors.NotADirectory,
    );
  });
});

/**
 * Runs `body` while the report at `path` is changed, as a test process
 * still at it could, by `race.afterCheck` once pawl has checked it (right
 * after its real path is resolved) and by `race.afterStat` once pawl has
 * stat'ed its open handle.
 */
async function withReportRace(
  path: string,
  race: {
    afterCheck?: () => Promise<void>;
    afterStat?: () => Promise<void>;
  },
  body: () => Promise<void>,
): Promise<void> {
  const realPath = Deno.realPath;
  const any = await open("/dev/null");
  const handles = Object.getPrototypeOf(any) as {
    stat: (...args: unknown[]) => Promise<unknown>;
  };
  await any.close();
  const stat = handles.stat;
  Object.assign(Deno, {
    realPath: async (p: string | URL) => {
      const real = await realPath(p);
      if (p === path) await race.afterCheck?.();
      return real;
    },
  });
  handles.stat = async function (this: unknown, ...args: unknown[]) {
    const result = await stat.apply(this, args);
    await race.afterStat?.();
    return result;
  };
  try {
    await body();
  } finally {
    Object.assign(Deno, { realPath });
    handles.stat = stat;
  }
}

Deno.test("readPytestReport() refuses a report changed between its check and its reading", async (t) => {
  const xml = junitXml([{ classname: "tests.test_a", name: "test_x" }]);
  const size = new TextEncoder().encode(xml).length;
  const changed = (name: string) =>
    `The report "${name}" changed while being read: it was ignored`;
  const table: [
    string,
    (path: string) => Parameters<typeof withReportRace>[1],
    RegExp | string,
  ][] = [
    ["replaced by another report", (path) => ({
      afterCheck: async () => {
        await Deno.writeTextFile(`${path}.new`, xml);
        await Deno.rename(`${path}.new`, path);
      },
    }), changed("r.xml")],
    ["replaced by a FIFO", (path) => ({
      afterCheck: async () => {
        await Deno.remove(path);
        await new Deno.Command("mkfifo", { args: [path] }).output();
      },
    }), changed("r.xml")],
    ["replaced by a symlink to another report", (path) => ({
      afterCheck: async () => {
        await Deno.writeTextFile(`${path}.other`, xml);
        await Deno.remove(path);
        await Deno.symlink(`${path}.other`, path);
      },
    }), /^The report "r\.xml" cannot be opened: \S/],
    ["grown past the limit", (path) => ({
      afterCheck: () =>
        Deno.writeTextFile(path, " ".repeat(100), { append: true }),
    }), changed("r.xml")],
    ["grown while being read", (path) => ({
      afterStat: () => Deno.writeTextFile(path, "\n", { append: true }),
    }), 'The report "r.xml" grew while being read: it was ignored'],
  ];
  for (const [name, race, problem] of table) {
    await t.step(name, async () => {
      await withRunDirs(async ({ reportDir }) => {
        const path = `${reportDir}/r.xml`;
        await Deno.writeTextFile(path, xml);
        await withReportRace(path, race(path), async () => {
          const read = await readPytestReport(path, reportDir, size + 10);
          assert.equal(read.cases, null);
          if (typeof problem === "string") assert.equal(read.problem, problem);
          else assert.match(read.problem ?? "", problem);
        });
      });
    });
  }
});

Deno.test("readPytestReport() closes every report it opens", async () => {
  await withRunDirs(async ({ reportDir }) => {
    const xml = junitXml([{ classname: "tests.test_a", name: "test_x" }]);
    const path = `${reportDir}/r.xml`;
    await Deno.writeTextFile(path, xml);
    // The descriptors open on the report itself: other tests running in this
    // process open files of their own, so a count of all would race them.
    const real = await Deno.realPath(path);
    const openOnReport = async () => {
      let open = 0;
      for await (const fd of Deno.readDir("/proc/self/fd")) {
        const target = await Deno.readLink(`/proc/self/fd/${fd.name}`)
          .catch(() => undefined);
        if (target === real) open++;
      }
      return open;
    };
    const held = await Deno.open(path);
    assert.equal(await openOnReport(), 1, "an open report is seen");
    held.close();
    for (let i = 0; i < 5; i++) {
      assert.equal((await readPytestReport(path, reportDir)).cases?.length, 1);
    }
    await withReportRace(path, {
      afterStat: () => Deno.writeTextFile(path, "\n", { append: true }),
    }, async () => {
      assert.equal((await readPytestReport(path, reportDir)).cases, null);
    });
    assert.equal(await openOnReport(), 0);
  });
});
