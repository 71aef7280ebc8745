import assert from "node:assert/strict";
import type { ChangedPath, Tree } from "../git/git.ts";
import { analyzePython } from "../python/analyze_python.ts";
import { loadPythonParser } from "../python/load_python_parser.ts";
import type { HarnessProbe, PythonModule } from "../python/python_module.ts";
import { checkCodeProbes } from "./check_code_probes.ts";

const parser = await loadPythonParser();

function treeOf(paths: readonly string[]): Tree {
  return new Map(
    paths.map((
      path,
    ) => [path, { path, kind: "file" as const, oid: path, size: 1 }]),
  );
}

function judge(
  path: string,
  base: string | undefined,
  head: string,
  testSupport: string[] = [],
): string[] {
  const change: ChangedPath = { status: base === undefined ? "A" : "M", path };
  const others = ["tests/test_a.py", "pkg/__init__.py"];
  return checkCodeProbes([change], {
    headModules: new Map([[path, analyzePython(parser, head)]]),
    baseModules: new Map(
      base === undefined ? [] : [[path, analyzePython(parser, base)]],
    ),
    headTree: treeOf([...others, path]),
    baseTree: treeOf(base === undefined ? others : [...others, path]),
    testSupport,
    seedEnv: ["CONTRACT_SEED", "CONTRACT_TRIALS"],
  }).map((f) => `${f.rule}:${f.line}`);
}

Deno.test("checkCodeProbes() rejects code under test that looks for the harness", async (t) => {
  const cases: [string, string, string | undefined, string, string[]][] = [
    [
      "a sys.modules probe",
      "pkg/core.py",
      "def f(x):\n    return x\n",
      'import sys\n\ndef f(x):\n    if "pytest" in sys.modules:\n        return x\n    return x + 1\n',
      ["harness.code_probes_tests:4"],
    ],
    [
      "an import of pytest internals",
      "pkg/core.py",
      undefined,
      "from _pytest import runner\n",
      ["harness.code_probes_tests:1"],
    ],
    [
      "a PYTEST_CURRENT_TEST read",
      "pkg/core.py",
      "X = 1\n",
      'import os\nX = os.environ.get("PYTEST_CURRENT_TEST") and 1\n',
      ["harness.code_probes_tests:2"],
    ],
    [
      "the JUnit report path",
      "pkg/core.py",
      "X = 1\n",
      'import atexit, sys\natexit.register(lambda: [a for a in sys.argv if a.startswith("--junitxml")])\n',
      ["harness.code_probes_tests:2"],
    ],
    [
      "hypothesis internals",
      "pkg/core.py",
      "X = 1\n",
      "import hypothesis.internal.conjecture.engine as e\n",
      ["harness.code_probes_tests:1"],
    ],
    [
      "a probe the base already has",
      "pkg/core.py",
      'import sys\nA = "pytest" in sys.modules\n',
      'import sys\nA = "pytest" in sys.modules\nB = 2\n',
      [],
    ],
    [
      "a test file may import pytest",
      "tests/test_b.py",
      undefined,
      "import pytest\n",
      [],
    ],
    [
      "a listed test-support path",
      "pkg/testing/plugin.py",
      undefined,
      "import pytest\n",
      [],
    ],
    [
      "ordinary code",
      "pkg/core.py",
      "X = 1\n",
      "import json\nX = json.dumps({})\n",
      [],
    ],
    [
      "a caller's name in a deprecation warning",
      "pkg/core.py",
      "def f(x):\n    return x\n",
      'import sys, warnings\n\ndef f(x):\n    caller = sys._getframe(1).f_code.co_name\n    warnings.warn(f"f() from {caller}() is deprecated", DeprecationWarning, stacklevel=2)\n    return x\n',
      [],
    ],
    [
      "frames walked for a test file",
      "pkg/core.py",
      "def f(x):\n    return x\n",
      'import inspect\n\ndef f(x):\n    for info in inspect.stack():\n        if info.filename.endswith("_test.py"):\n            return x\n    return x + 1\n',
      ["harness.code_probes_tests:5"],
    ],
    [
      "frames compared with a constant of this repository",
      "pkg/core.py",
      "def f(x):\n    return x\n",
      "import sys\nfrom pkg.paths import MARK\n\ndef f(x):\n    return x if MARK in sys._getframe(1).f_code.co_filename else x + 1\n",
      ["harness.code_probes_tests:5"],
    ],
    [
      "frames compared with a relative import",
      "pkg/core.py",
      "def f(x):\n    return x\n",
      "import sys\nfrom .paths import MARK\n\ndef f(x):\n    return x if MARK in sys._getframe(1).f_code.co_filename else x + 1\n",
      ["harness.code_probes_tests:5"],
    ],
    [
      "the variable pawl hands a seed run",
      "pkg/core.py",
      "X = 1\n",
      'import os\nX = 1\nSEED = int(os.environ.get("CONTRACT_SEED", "0"))\n',
      ["harness.code_probes_tests:3"],
    ],
    [
      "a seed variable the base already reads",
      "pkg/core.py",
      'import os\nSEED = os.getenv("CONTRACT_SEED")\n',
      'import os\nSEED = os.getenv("CONTRACT_SEED")\nN = 2\n',
      [],
    ],
    [
      "a variable of the project's own",
      "pkg/core.py",
      "X = 1\n",
      'import os\nSEED = os.environ["SHOP_SEED"]\n',
      [],
    ],
    [
      "frames compared with a library's constant",
      "pkg/core.py",
      "def f(x):\n    return x\n",
      "import sys, sysconfig\n\ndef f(x):\n    return x if sys._getframe(1).f_code.co_filename in sysconfig.PATHS else x + 1\n",
      [],
    ],
  ];
  for (const [name, path, base, head, want] of cases) {
    await t.step(name, () => {
      assert.deepEqual(judge(path, base, head, ["pkg/testing/"]), want);
    });
  }
});

Deno.test("checkCodeProbes() says what a probe compares and what pawl could not read", () => {
  const found = checkCodeProbes([{ status: "A", path: "pkg/core.py" }], {
    headModules: new Map([[
      "pkg/core.py",
      analyzePython(
        parser,
        'import sys\nfrom .paths import MARK\nA = "tests/" in sys._getframe(1).f_code.co_filename\nB = MARK in sys._getframe(1).f_code.co_filename\n',
      ),
    ]]),
    baseModules: new Map(),
    headTree: treeOf(["pkg/__init__.py", "pkg/core.py"]),
    baseTree: treeOf(["pkg/__init__.py"]),
  });
  assert.equal(found.length, 1);
  assert.match(
    found[0]?.message ?? "",
    /looks for tests in the call stack \(`"tests\/" in sys\._getframe\(1\)\.f_code\.co_filename`, which names "tests\/"\)/,
  );
  const unread = checkCodeProbes([{ status: "A", path: "pkg/core.py" }], {
    headModules: new Map([[
      "pkg/core.py",
      analyzePython(
        parser,
        "import sys\nfrom .paths import MARK\nB = MARK in sys._getframe(1).f_code.co_filename\n",
      ),
    ]]),
    baseModules: new Map(),
    headTree: treeOf(["pkg/__init__.py", "pkg/core.py"]),
    baseTree: treeOf(["pkg/__init__.py"]),
  });
  assert.match(
    unread[0]?.message ?? "",
    /with "MARK", which pawl cannot read, so it counts as a probe/,
  );
});

Deno.test("checkCodeProbes() lets each probe of the base excuse one probe of the head, not every identical one", async (t) => {
  const probe = '"pytest" in sys.modules';
  const cases: [string, string, string, string[]][] = [
    [
      "one probe kept",
      `import sys\nA = ${probe}\n`,
      `import sys\nA = ${probe}\nN = 1\n`,
      [],
    ],
    [
      "one probe at the base, a second identical one added",
      `import sys\nA = ${probe}\n`,
      `import sys\nA = ${probe}\nB = ${probe}\n`,
      ["harness.code_probes_tests:3"],
    ],
    [
      "one probe at the base, three identical ones at the head",
      `import sys\nA = ${probe}\n`,
      `import sys\nA = ${probe}\nB = ${probe}\nC = ${probe}\n`,
      ["harness.code_probes_tests:3"],
    ],
    [
      "two probes at the base, two at the head",
      `import sys\nA = ${probe}\nB = ${probe}\n`,
      `import sys\nA = ${probe}\nB = ${probe}\nN = 1\n`,
      [],
    ],
  ];
  for (const [name, base, head, want] of cases) {
    await t.step(name, () => {
      assert.deepEqual(judge("pkg/core.py", base, head), want);
    });
  }
});

Deno.test("checkCodeProbes() exempts a test_support file by its exact path and a directory by what lies under it", async (t) => {
  const head = "import pytest\n";
  const cases: [string, string, string[], string[]][] = [
    ["the listed file", "pkg/plugin.py", ["pkg/plugin.py"], []],
    [
      "a file whose path starts with a listed file's name",
      "pkg/testing_hooks.py",
      ["pkg/testing"],
      ["harness.code_probes_tests:1"],
    ],
    ["a file under a listed directory", "pkg/testing/plugin.py", [
      "pkg/testing/",
    ], []],
    [
      "a file beside a listed directory that shares its name",
      "pkg/testing_hooks.py",
      ["pkg/testing/"],
      ["harness.code_probes_tests:1"],
    ],
  ];
  for (const [name, path, testSupport, want] of cases) {
    await t.step(name, () => {
      assert.deepEqual(judge(path, undefined, head, testSupport), want);
    });
  }
});

/** A module that makes exactly these probes and reads these variables. */
function probing(
  probes: HarnessProbe[],
  envReads: { name: string; line: number }[] = [],
): PythonModule {
  return { functions: new Map(), probes, envReads } as PythonModule;
}

/** `rule:line message` of each finding on hand-made analyses. */
function judgeModules(
  changes: ChangedPath[],
  head: Record<string, PythonModule>,
  base: Record<string, PythonModule> = {},
  options: { tree?: string[]; registered?: string[]; seedEnv?: string[] } = {},
): string[] {
  const tree = options.tree ?? ["pkg/__init__.py", "tests/test_a.py"];
  return checkCodeProbes(changes, {
    headModules: new Map(Object.entries(head)),
    baseModules: new Map(Object.entries(base)),
    headTree: treeOf([...tree, ...Object.keys(head)]),
    baseTree: treeOf([...tree, ...Object.keys(base)]),
    ...(options.registered === undefined
      ? {}
      : { registered: options.registered }),
    ...(options.seedEnv === undefined ? {} : { seedEnv: options.seedEnv }),
  }).map((f) => `${f.rule}:${f.line} ${f.message}`);
}

const TAIL =
  ": code that can tell it is being tested can pass its tests and still be wrong; if the project ships test support here, a human lists the path in pawl.toml [harness] test_support";

Deno.test("checkCodeProbes() names each kind of probe and shows what it found", async (t) => {
  const cases: [string, HarnessProbe, string][] = [
    [
      "an import",
      { kind: "import", detail: "pytest", line: 1 },
      'imports the test framework ("pytest")',
    ],
    [
      "a module name",
      { kind: "module_name", detail: "_pytest", line: 1 },
      'names a test-framework module (a sys.modules probe) ("_pytest")',
    ],
    [
      "an environment variable",
      { kind: "env", detail: "PYTEST_CURRENT_TEST", line: 1 },
      'reads an environment variable of the test harness ("PYTEST_CURRENT_TEST")',
    ],
    [
      "the report",
      { kind: "report", detail: "--junitxml", line: 1 },
      'names the test report or a test-runner option ("--junitxml")',
    ],
    [
      "source text with spaces is shown as code",
      { kind: "stack", detail: "f.f_code.co_name in names", line: 1 },
      "looks for tests in the call stack (`f.f_code.co_name in names`)",
    ],
    [
      "source text with quotes and backticks is shown as code, backticks turned to quotes",
      { kind: "argv", detail: 'sys.argv[0].endswith("`pytest`")', line: 1 },
      "looks for a test runner in the command line (`sys.argv[0].endswith(\"'pytest'\")`)",
    ],
    [
      "a probe that names a test says which name",
      {
        kind: "stack",
        detail: "f.f_code.co_name",
        line: 1,
        names: "test_",
        unread: "PREFIX",
      },
      'looks for tests in the call stack ("f.f_code.co_name", which names "test_")',
    ],
    [
      "a probe made by what pawl cannot read says what",
      { kind: "stack", detail: "f.f_code.co_name", line: 1, unread: "PREFIX" },
      'looks for tests in the call stack ("f.f_code.co_name", with "PREFIX", which pawl cannot read, so it counts as a probe)',
    ],
  ];
  for (const [name, probe, what] of cases) {
    await t.step(name, () => {
      assert.deepEqual(
        judgeModules([{ status: "A", path: "pkg/core.py" }], {
          "pkg/core.py": probing([probe]),
        }),
        [`harness.code_probes_tests:1 "pkg/core.py" is code under test and ${what}${TAIL}`],
      );
    });
  }
});

Deno.test("checkCodeProbes() judges each changed file of the code under test once, by its first new probe", async (t) => {
  const probe = (line: number, detail = "pytest"): HarnessProbe => ({
    kind: "import",
    detail,
    line,
  });
  const lines = (found: string[]) => found.map((f) => f.split(" ")[0]);
  await t.step("two new probes make one finding, at the first", () => {
    assert.deepEqual(
      lines(judgeModules([{ status: "M", path: "pkg/core.py" }], {
        "pkg/core.py": probing([probe(3), probe(8, "pluggy")]),
      }, { "pkg/core.py": probing([]) })),
      ["harness.code_probes_tests:3"],
    );
  });
  await t.step("each changed file has its own finding", () => {
    assert.deepEqual(
      lines(judgeModules([
        { status: "A", path: "pkg/a.py" },
        { status: "A", path: "pkg/b.py" },
      ], { "pkg/a.py": probing([probe(2)]), "pkg/b.py": probing([probe(4)]) })),
      ["harness.code_probes_tests:2", "harness.code_probes_tests:4"],
    );
  });
  await t.step(
    "a probe moved from a deleted file to a new one is not new",
    () => {
      assert.deepEqual(
        judgeModules(
          [
            { status: "D", path: "pkg/old.py" },
            { status: "A", path: "pkg/new.py" },
          ],
          { "pkg/new.py": probing([probe(5)]) },
          {
            "pkg/old.py": probing([probe(1)]),
          },
        ),
        [],
      );
    },
  );
  await t.step("a deleted file is not judged", () => {
    assert.deepEqual(
      judgeModules([{ status: "D", path: "pkg/old.py" }], {
        "pkg/old.py": probing([probe(1)]),
      }),
      [],
    );
  });
  await t.step("a file that is not Python is not judged", () => {
    assert.deepEqual(
      judgeModules([{ status: "A", path: "pkg/core.pyi" }], {
        "pkg/core.pyi": probing([probe(1)]),
      }),
      [],
    );
  });
  await t.step("a file on the base's test side is not judged", () => {
    assert.deepEqual(
      judgeModules([{ status: "M", path: "it/helpers.py" }], {
        "it/helpers.py": probing([probe(1)]),
      }, { "it/helpers.py": probing([]), "it/test_x.py": probing([]) }),
      [],
    );
  });
  await t.step(
    "a read of a seed variable counts in line order with the probes",
    () => {
      assert.deepEqual(
        lines(judgeModules(
          [{ status: "A", path: "pkg/core.py" }],
          {
            "pkg/core.py": probing([probe(5)], [
              { name: "MY_SEED", line: 2 },
              { name: "HOME", line: 1 },
            ]),
          },
          {},
          { seedEnv: ["MY_SEED"] },
        )),
        ["harness.code_probes_tests:2"],
      );
    },
  );
  await t.step("a read of another variable is no probe", () => {
    assert.deepEqual(
      judgeModules(
        [{ status: "A", path: "pkg/core.py" }],
        {
          "pkg/core.py": probing([], [{ name: "HOME", line: 1 }]),
        },
        {},
        { seedEnv: ["MY_SEED"] },
      ),
      [],
    );
  });
});

Deno.test("checkCodeProbes() passes over a probe made only by constants of modules outside the repository", async (t) => {
  const stack = (unreadFrom: string[]): HarnessProbe => ({
    kind: "stack",
    detail: "f.f_code.co_name",
    line: 1,
    unread: "NAME",
    unreadFrom,
  });
  const cases: [string, string[], string[] | undefined, number][] = [
    ["a library's constant", ["tokenize"], undefined, 0],
    ["a dotted library module", ["os.path", "tokenize"], undefined, 0],
    ["a relative import", [".paths"], undefined, 1],
    ["a module of the repository", ["pkg.paths"], undefined, 1],
    [
      "a library and a module of the repository",
      ["tokenize", "pkg"],
      undefined,
      1,
    ],
    ["no module named", [], undefined, 1],
    ["a module in a registered test's directory", ["helpers.names"], [
      "checks/run.py",
    ], 1],
    ["the same module with no test there", ["helpers.names"], undefined, 0],
  ];
  for (const [name, unreadFrom, registered, count] of cases) {
    await t.step(name, () => {
      assert.equal(
        judgeModules(
          [{ status: "A", path: "pkg/core.py" }],
          { "pkg/core.py": probing([stack(unreadFrom)]) },
          {},
          {
            tree: [
              "pkg/__init__.py",
              "tests/test_a.py",
              "checks/run.py",
              "checks/helpers/names.py",
            ],
            ...(registered === undefined ? {} : { registered }),
          },
        ).length,
        count,
      );
    });
  }
});

Deno.test("checkCodeProbes() lets a base probe excuse only a head probe of the same kind and detail", async (t) => {
  const cases: [string, HarnessProbe, HarnessProbe, number][] = [
    [
      "the same import",
      { kind: "import", detail: "pytest", line: 1 },
      { kind: "import", detail: "pytest", line: 4 },
      0,
    ],
    [
      "an import of another module",
      { kind: "import", detail: "pluggy", line: 1 },
      { kind: "import", detail: "pytest", line: 1 },
      1,
    ],
    [
      "the same name probed another way",
      { kind: "module_name", detail: "pytest", line: 1 },
      { kind: "import", detail: "pytest", line: 1 },
      1,
    ],
    [
      "another variable read",
      { kind: "env", detail: "PYTEST_XDIST_WORKER", line: 1 },
      { kind: "env", detail: "PYTEST_CURRENT_TEST", line: 1 },
      1,
    ],
  ];
  for (const [name, before, after, count] of cases) {
    await t.step(name, () => {
      assert.equal(
        judgeModules(
          [{ status: "M", path: "pkg/core.py" }],
          { "pkg/core.py": probing([after]) },
          { "pkg/core.py": probing([before]) },
        ).length,
        count,
      );
    });
  }
});

Deno.test("checkCodeProbes() finds no probe where pawl has no analysis or the analysis lists none", async (t) => {
  await t.step("a changed file with no head analysis makes no probe", () => {
    assert.deepEqual(
      judgeModules(
        [{ status: "M", path: "pkg/core.py" }],
        {},
        {
          "pkg/core.py": probing([{
            kind: "import",
            detail: "pytest",
            line: 1,
          }]),
        },
        { tree: ["pkg/__init__.py", "tests/test_a.py", "pkg/core.py"] },
      ),
      [],
    );
  });
  await t.step("an analysis without a list of probes makes none", () => {
    assert.deepEqual(
      judgeModules([{ status: "A", path: "pkg/core.py" }], {
        "pkg/core.py": { functions: new Map() } as PythonModule,
      }),
      [],
    );
  });
});

Deno.test("checkCodeProbes() reports a read of a seed variable as a read of the harness's environment", () => {
  assert.deepEqual(
    judgeModules(
      [{ status: "A", path: "pkg/core.py" }],
      { "pkg/core.py": probing([], [{ name: "CONTRACT_SEED", line: 3 }]) },
      {},
      { seedEnv: ["CONTRACT_SEED"] },
    ),
    [
      `harness.code_probes_tests:3 "pkg/core.py" is code under test and reads an environment variable of the test harness ("CONTRACT_SEED")${TAIL}`,
    ],
  );
});
