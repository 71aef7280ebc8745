import assert from "node:assert/strict";
import {
  type CaseSpec,
  junitXml,
  ScriptedSandbox,
  withRunDirs,
} from "./_scripted_sandbox.ts";
import { installObserver } from "./observer.ts";
import { DEFAULT_PYTEST_COMMAND } from "./run_pytest.ts";
import {
  type BaseCollectionOptions,
  BaseProblemError,
  checkBaseCollection,
} from "./check_base_collection.ts";

/** A base whose collection reports `cases`. */
function reporting(cases: CaseSpec[]): ScriptedSandbox {
  return new ScriptedSandbox(async ({ reportPath }) => {
    await Deno.writeTextFile(reportPath as string, junitXml(cases));
    return { code: cases.length === 0 ? 0 : 2 };
  });
}

const broken = (name: string, message: string): CaseSpec => ({
  classname: "",
  name,
  outcome: "error",
  message,
});

const FILES = ["tests/test_a.py", "tests/test_b.py", "tests/a.pyz/test_a.py"];

async function check(
  sandbox: ScriptedSandbox,
  extra: Partial<BaseCollectionOptions> = {},
  run: Partial<BaseCollectionOptions["run"]> = {},
): Promise<BaseProblemError | undefined> {
  let caught: BaseProblemError | undefined;
  await withRunDirs(async ({ workDir, reportDir }) => {
    try {
      await checkBaseCollection(sandbox, {
        base: "abc123",
        files: FILES,
        baseWorkDir: () => Promise.resolve(workDir),
        run: {
          reportDir,
          command: ["python3", "-m", "pytest", "-q"],
          ...run,
        },
        ...extra,
      });
    } catch (error) {
      if (!(error instanceof BaseProblemError)) throw error;
      caught = error;
    }
  });
  return caught;
}

Deno.test("checkBaseCollection() blames the base only for files that fail to collect there too", async (t) => {
  await t.step("no files is no run", async () => {
    const sandbox = reporting([]);
    assert.equal(await check(sandbox, { files: [] }), undefined);
    assert.equal(sandbox.calls.length, 0);
  });
  await t.step("the base's command only collects the files", async () => {
    const sandbox = reporting([]);
    assert.equal(await check(sandbox), undefined);
    const argv = sandbox.calls[0]?.argv ?? [];
    assert.deepEqual(argv.slice(0, 5), [
      "python3",
      "-m",
      "pytest",
      "-q",
      "--collect-only",
    ]);
    assert.deepEqual(argv.slice(-3), FILES);
  });
  const table: [string, CaseSpec[], string[] | undefined][] = [
    ["files that collect at the base are the pull request's", [], undefined],
    ["a file the report names by module fails there too", [
      broken("tests.test_b", "ImportError: x"),
    ], ["tests/test_b.py"]],
    ["a file the report names by path fails there too", [
      broken("tests/test_a.py", "ImportError: x"),
    ], ["tests/test_a.py"]],
    ["a test case of the file is no collection error", [
      {
        classname: "tests.test_a",
        name: "tests/test_a.py",
        outcome: "error",
        message: "ImportError: x",
      },
    ], undefined],
    ["a file under a directory named with .py is named by its module", [
      broken("tests.a.pyz.test_a", "ImportError: x"),
    ], ["tests/a.pyz/test_a.py"]],
    ["another file's error is not these files'", [
      broken("tests.test_c", "ImportError: x"),
    ], undefined],
    ["both files failing are both named", [
      broken("tests.test_a", "ImportError: a"),
      broken("tests.test_b", "ImportError: b"),
    ], ["tests/test_a.py", "tests/test_b.py"]],
  ];
  for (const [label, cases, files] of table) {
    await t.step(label, async () => {
      const error = await check(reporting(cases));
      assert.deepEqual(error?.files, files);
      if (error !== undefined) assert.equal(error.base, "abc123");
    });
  }
  await t.step("a failure unlike the head's is not the base's", async () => {
    const seen: [string, string][] = [];
    const error = await check(
      reporting([
        broken("tests.test_a", "ImportError: a"),
        broken("tests.test_b", "SyntaxError: b"),
      ]),
      {
        same: (file, text) => {
          seen.push([file, text]);
          return text.startsWith("SyntaxError");
        },
      },
    );
    assert.deepEqual(error?.files, ["tests/test_b.py"]);
    assert.deepEqual(seen, [
      ["tests/test_a.py", "ImportError: a"],
      ["tests/test_b.py", "SyntaxError: b"],
    ]);
  });
  await t.step(
    "the message quotes the first broken file's first twelve lines, and the hint",
    async () => {
      const text = [...Array(14).keys()].map((i) => `line ${i}  `).join("\n\n");
      const hints: [string, readonly string[]][] = [];
      const error = await check(
        reporting([broken("tests.test_b", text)]),
        {
          hint: (detail, files) => {
            hints.push([detail, files]);
            return "Set [environment] pythonpath";
          },
        },
      );
      assert.deepEqual(hints, [[text.trimEnd(), ["tests/test_b.py"]]]);
      assert.ok(
        error?.message.endsWith(
          `:\n${
            [...Array(12).keys()].map((i) => `line ${i}`).join("\n")
          }\nSet [environment] pythonpath`,
        ),
        error?.message,
      );
    },
  );
  await t.step(
    "of two broken files, the first one's text is quoted",
    async () => {
      const error = await check(reporting([
        broken("tests.test_b", "ImportError: b"),
        broken("tests.test_a", "ImportError: a"),
      ]));
      assert.deepEqual(error?.files, ["tests/test_a.py", "tests/test_b.py"]);
      assert.ok(error?.message.endsWith(":\nImportError: a"), error?.message);
    },
  );
  await t.step(
    "what the observer streamed counts, before the report",
    async () => {
      const root = await Deno.makeTempDir({ prefix: "pawl_base_collection_" });
      try {
        const observer = await installObserver(root);
        const sandbox = new ScriptedSandbox(async ({ command, reportPath }) => {
          const conn = await Deno.connect({
            transport: "unix",
            path: command.env["PAWL_OBSERVER_SOCKET"] as string,
          });
          const lines = [
            { event: "hello", token: command.env["PAWL_OBSERVER_TOKEN"] },
            { event: "configure" },
            {
              event: "collect_error",
              nodeid: "tests/test_a.py",
              text: "streamed: a",
            },
          ];
          await conn.write(
            new TextEncoder().encode(
              lines.map((l) => `${JSON.stringify(l)}\n`).join(""),
            ),
          );
          conn.close();
          await Deno.writeTextFile(
            reportPath as string,
            junitXml([broken("tests.test_a", "reported: a")]),
          );
          return { code: 2 };
        });
        const error = await check(sandbox, {}, { observer });
        // The stream's error is test_a's alone: test_b collects at the base.
        assert.deepEqual(error?.files, ["tests/test_a.py"]);
        assert.ok(error?.message.endsWith(":\nstreamed: a"), error?.message);
      } finally {
        await Deno.remove(root, { recursive: true });
      }
    },
  );
  await t.step(
    "without a command of its own, the base is collected with the default one",
    async () => {
      const sandbox = reporting([]);
      await withRunDirs(async ({ workDir, reportDir }) => {
        await checkBaseCollection(sandbox, {
          base: "abc123",
          files: ["tests/test_a.py"],
          baseWorkDir: () => Promise.resolve(workDir),
          run: { reportDir },
        });
      });
      const argv = sandbox.calls[0]?.argv ?? [];
      assert.deepEqual(
        argv.slice(0, DEFAULT_PYTEST_COMMAND.length + 1),
        [...DEFAULT_PYTEST_COMMAND, "--collect-only"],
      );
    },
  );
  await t.step("without a hint the detail ends the message", async () => {
    const error = await check(reporting([broken("tests.test_b", "boom")]), {
      hint: () => undefined,
    });
    assert.ok(error?.message.endsWith(":\nboom"), error?.message);
  });
});

Deno.test("BaseProblemError says what the base already fails and what to do about it", async (t) => {
  const table: [
    string,
    ConstructorParameters<typeof BaseProblemError>,
    string,
  ][] = [
    [
      "one file that fails to collect",
      ["abc", ["t/a.py"], "boom"],
      'Cannot judge the pull request: at the base commit abc, "t/a.py" already fails to collect, so its failure at head is not the pull request\'s doing; fix the base first:\nboom',
    ],
    [
      "two files that fail to collect",
      ["abc", ["t/a.py", "t/b.py"], "boom", "collect"],
      'Cannot judge the pull request: at the base commit abc, "t/a.py", "t/b.py" already fail to collect, so their failure at head is not the pull request\'s doing; fix the base first:\nboom',
    ],
    [
      "one test that fails on this runner",
      ["abc", ["t/a.py::t"], "boom", "pass"],
      'Cannot judge the pull request: at the base commit abc, "t/a.py::t" already fails on this runner, so its failure at head is not the pull request\'s doing; fix the base first, or, if it fails only on this runner, excuse it in the base\'s pawl.toml ([[excuses]] test = "t/a.py::t" with owner, expires and reason):\nboom',
    ],
    [
      "two tests that fail on this runner",
      ["abc", ["t/a.py::t", "t/b.py::u"], "boom", "pass"],
      'Cannot judge the pull request: at the base commit abc, "t/a.py::t", "t/b.py::u" already fail on this runner, so their failure at head is not the pull request\'s doing; fix the base first, or, if they fail only on this runner, excuse them in the base\'s pawl.toml ([[excuses]] test = "t/a.py::t" with owner, expires and reason):\nboom',
    ],
    [
      "a property, which no excuse may hide",
      ["abc", ["t/a.py::t"], "boom", "property"],
      'Cannot judge the pull request: at the base commit abc, "t/a.py::t" already fails on this runner, so its failure at head is not the pull request\'s doing; fix the base first:\nboom',
    ],
    [
      "a run without a usable report",
      ["abc", [], "no report", "run"],
      "Cannot judge the pull request: at the base commit abc, the test run leaves no usable report either, so its failure at head is not the pull request's doing; fix the base's tests or its pawl.toml [tests] and [environment] settings first:\nno report",
    ],
  ];
  for (const [label, args, message] of table) {
    await t.step(label, () => {
      const error = new BaseProblemError(...args);
      assert.equal(error.message, message);
      assert.equal(error.name, "BaseProblemError");
      assert.deepEqual(error.files, args[1]);
    });
  }
});
