import assert from "node:assert/strict";
import { ScriptedSandbox } from "./_scripted_sandbox.ts";
import {
  checkBaseObserver,
  ObserverNotLoadedError,
} from "./check_base_observer.ts";
import { installObserver, type ObserverPlugin } from "./observer.ts";
import { DEFAULT_PYTEST_COMMAND } from "./run_pytest.ts";

Deno.test("ObserverNotLoadedError names the base, the cause and the pythonpath to set", () => {
  const error = new ObserverNotLoadedError(
    "abc123",
    ["env", "PYTHONPATH=src", "python3", "-m", "pytest"],
    "ImportError: Error importing plugin",
  );
  assert.ok(error.message.startsWith("Cannot judge the pull request: "));
  for (
    const part of [
      "at the base commit abc123 either",
      '"PYTHONPATH=src" replaces the PYTHONPATH',
      '[environment] pythonpath = ["src"]',
      ":\nImportError: Error importing plugin",
    ]
  ) assert.ok(error.message.includes(part), `${part}\n${error.message}`);
  const unknown = new ObserverNotLoadedError("abc123", ["./run-tests"], "");
  assert.ok(unknown.message.includes("do not say why"), unknown.message);
  assert.ok(unknown.message.endsWith("other variables as [environment] env"));
});

async function withObserver(
  fn: (dirs: {
    workDir: string;
    reportDir: string;
    observer: ObserverPlugin;
  }) => Promise<void>,
): Promise<void> {
  const root = await Deno.makeTempDir({ prefix: "pawl_base_obs_" });
  try {
    await Deno.mkdir(`${root}/work`);
    await Deno.mkdir(`${root}/report`);
    await fn({
      workDir: `${root}/work`,
      reportDir: `${root}/report`,
      observer: await installObserver(root),
    });
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

/** A base run that prints `output` and, when `hello`, connects to the observer's socket with its token. */
function baseRun(output: string, hello: boolean): ScriptedSandbox {
  return new ScriptedSandbox(async ({ command }) => {
    if (hello) {
      const conn = await Deno.connect({
        transport: "unix",
        path: command.env["PAWL_OBSERVER_SOCKET"] as string,
      });
      await conn.write(new TextEncoder().encode(`${
        JSON.stringify({
          event: "hello",
          token: command.env["PAWL_OBSERVER_TOKEN"],
        })
      }\n`));
      conn.close();
    }
    return { code: 0, outputHead: output, outputTail: output };
  });
}

Deno.test("checkBaseObserver() blames the base's command only when the observer does not load there either", async (t) => {
  await t.step("a run without the observer is not checked", async () => {
    const sandbox = baseRun("", false);
    let exported = false;
    await checkBaseObserver(sandbox, {
      base: "abc",
      baseWorkDir: () => {
        exported = true;
        return Promise.resolve("/nowhere");
      },
      run: { reportDir: "/nowhere" },
    });
    assert.equal(sandbox.calls.length, 0);
    assert.equal(exported, false);
  });
  await t.step(
    "an observer that connects at the base acquits the base",
    async () => {
      await withObserver(async ({ workDir, reportDir, observer }) => {
        const sandbox = baseRun("pytest 7.2.0", true);
        await checkBaseObserver(sandbox, {
          base: "abc",
          baseWorkDir: () => Promise.resolve(workDir),
          run: {
            reportDir,
            observer,
            command: ["python3", "-I", "-m", "pytest"],
          },
        });
        const command = sandbox.calls[0];
        assert.equal(command?.cwd, workDir);
        assert.deepEqual(command?.argv.slice(0, 4), [
          "python3",
          "-I",
          "-m",
          "pytest",
        ]);
        assert.ok(command?.argv.includes("--version"));
      });
    },
  );
  await t.step(
    "an observer silent at the base too is the base's, its output quoted without pawl's names",
    async () => {
      await withObserver(async ({ workDir, reportDir, observer }) => {
        const output = [
          "noise 1",
          "noise 2",
          "",
          `ImportError: Error importing plugin "${observer.module}"  `,
          `  in ${workDir}/conftest.py`,
          "",
          `report at ${reportDir}/junit-0.xml`,
          "",
        ].join("\n");
        const error = await checkBaseObserver(baseRun(output, false), {
          base: "abc",
          baseWorkDir: () => Promise.resolve(workDir),
          run: {
            reportDir,
            observer,
            command: ["python3", "-I", "-m", "pytest"],
          },
        }).then(() => undefined, (e) => e);
        assert.ok(error instanceof ObserverNotLoadedError);
        assert.equal(error.base, "abc");
        assert.equal(error.causes.length, 1);
        assert.ok(
          error.message.endsWith(
            ':\nImportError: Error importing plugin "_pawl_observer_…"\n  in <tree>/conftest.py\nreport at <reports>/junit-0.xml',
          ),
          error.message,
        );
      });
    },
  );
  await t.step(
    "pawl's default command is the one named when the run had none",
    async () => {
      await withObserver(async ({ workDir, reportDir, observer }) => {
        const sandbox = baseRun("", false);
        const error = await checkBaseObserver(sandbox, {
          base: "abc",
          baseWorkDir: () => Promise.resolve(workDir),
          run: { reportDir, observer },
        }).then(() => undefined, (e) => e);
        assert.ok(error instanceof ObserverNotLoadedError);
        assert.deepEqual(error.causes, []);
        assert.ok(error.message.endsWith("[environment] env"), error.message);
        assert.deepEqual(
          sandbox.calls[0]?.argv.slice(0, 3),
          [
            ...DEFAULT_PYTEST_COMMAND,
          ].slice(0, 3),
        );
      });
    },
  );
});

Deno.test("ObserverNotLoadedError lists every cause, each after a semicolon", () => {
  const error = new ObserverNotLoadedError(
    "abc",
    ["env", "-i", "python3", "-s", "-m", "pytest"],
    "",
  );
  assert.deepEqual(error.causes.length, 2);
  assert.ok(
    error.message.includes(
      `either, so the run's failure at head is not the pull request's doing: ${
        error.causes.join("; ")
      }; pawl puts the plugin`,
    ),
    error.message,
  );
  assert.ok(
    error.message.includes(
      "name the import path in pawl.toml as [environment] pythonpath, and other variables",
    ),
    error.message,
  );
});

Deno.test("ObserverNotLoadedError suggests every PYTHONPATH entry the command names, as a TOML array", () => {
  const error = new ObserverNotLoadedError(
    "abc",
    ["env", "PYTHONPATH=src:lib", "python3", "-m", "pytest"],
    "",
  );
  assert.ok(
    error.message.includes('[environment] pythonpath = ["src", "lib"], and'),
    error.message,
  );
});
