import assert from "node:assert/strict";
import type { ChangedPath, Tree } from "../git/git.ts";
import { analyzePython } from "../python/analyze_python.ts";
import { loadPythonParser } from "../python/load_python_parser.ts";
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
