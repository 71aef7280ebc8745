import assert from "node:assert/strict";
import type { RegisteredTest } from "../contract/check_registered_tests.ts";
import type { ChangedPath, Tree } from "../git/git.ts";
import { analyzePython } from "../python/analyze_python.ts";
import { loadPythonParser } from "../python/load_python_parser.ts";
import type { PythonModule } from "../python/python_module.ts";
import type { ModuleNames } from "./check_harness.ts";
import { judgeHarness, type JudgeHarnessInput } from "./judge_harness.ts";

const parser = await loadPythonParser();

const NAMES: ModuleNames = {
  stdlib: new Set(["json", "os"]),
  installed: new Set(["pytest"]),
  interpreter: "/usr/bin/python3",
};

function treeOf(paths: readonly string[]): Tree {
  return new Map(
    paths.map((
      path,
    ) => [path, { path, kind: "file" as const, oid: path, size: 1 }]),
  );
}

function analysed(files: Record<string, string>): Map<string, PythonModule> {
  return new Map(
    Object.entries(files).filter(([p]) => p.endsWith(".py")).map((
      [p, text],
    ) => [p, analyzePython(parser, text)]),
  );
}

/** Every finding as `rule@path`, for base and head files and the rest of the input. */
function judge(
  base: Record<string, string>,
  head: Record<string, string>,
  input: Partial<JudgeHarnessInput> = {},
): string[] {
  const changes: ChangedPath[] = [];
  for (
    const path of [...new Set([...Object.keys(base), ...Object.keys(head)])]
      .sort()
  ) {
    if (base[path] === head[path]) continue;
    changes.push({
      status: base[path] === undefined
        ? "A"
        : head[path] === undefined
        ? "D"
        : "M",
      path,
    });
  }
  return judgeHarness({
    changes,
    texts: {
      base: new Map(Object.entries(base)),
      head: new Map(Object.entries(head)),
    },
    baseTree: treeOf(Object.keys(base)),
    headTree: treeOf(Object.keys(head)),
    baseModules: analysed(base),
    headModules: analysed(head),
    moduleNames: NAMES,
    registered: [],
    testSupport: [],
    ...input,
  }).findings.map((f) => `${f.rule}@${f.path ?? ""}`);
}

function registered(module: string): RegisteredTest {
  return { layout: "000", id: "t", module, name: "test_x" };
}

Deno.test("judgeHarness() runs the gate, harness, probe and skip rules together", () => {
  assert.deepEqual(
    judge(
      {
        "pawl.toml": "[tests]\ntimeout_seconds = 60\n",
        "tests/test_a.py": "def test_a():\n    assert 1\n",
      },
      {
        "pawl.toml": "[tests]\ntimeout_seconds = 600\n",
        "tests/test_a.py":
          "import pytest\n@pytest.mark.skip\ndef test_a():\n    assert 1\n",
        "tests/conftest.py": "X = 1\n",
        "pkg/core.py": "import pytest\n",
      },
    ),
    [
      "config.settings_changed@pawl.toml",
      "harness.conftest_changed@tests/conftest.py",
      "harness.code_probes_tests@pkg/core.py",
      "tests.skip_added@tests/test_a.py",
    ],
  );
});

Deno.test("judgeHarness() hands each rule what the base's settings and contract name", async (t) => {
  await t.step("a registered test module's directory is a path root", () => {
    const base = { "checks/run.py": "def test_x():\n    assert 1\n" };
    const head = { ...base, "checks/json.py": "X = 1\n" };
    assert.deepEqual(judge(base, head), []);
    assert.deepEqual(
      judge(base, head, { registered: [registered("checks.run")] }),
      ["harness.stdlib_shadowed@checks/json.py"],
    );
  });
  await t.step(
    "a registered test package's __init__.py runs before its tests",
    () => {
      const base = { "suite/__init__.py": "def test_x():\n    assert 1\n" };
      const head = {
        "suite/__init__.py": "import os\ndef test_x():\n    assert 1\n",
      };
      assert.deepEqual(judge(base, head), []);
      assert.deepEqual(
        judge(base, head, { registered: [registered("suite")] }),
        ["harness.init_changed@suite/__init__.py"],
      );
    },
  );
  await t.step(
    "a registered module missing from the head tree adds nothing",
    () => {
      const head = { "checks/json.py": "X = 1\n" };
      assert.deepEqual(
        judge({}, head, { registered: [registered("checks.run")] }).filter((
          f,
        ) => f.startsWith("harness.")),
        [],
      );
    },
  );
  await t.step("the configured pythonpath is a path root", () => {
    const head = { "lib/os.py": "X = 1\n" };
    assert.deepEqual(judge({}, head), []);
    assert.deepEqual(judge({}, head, { pythonpath: ["lib"] }), [
      "harness.stdlib_shadowed@lib/os.py",
    ]);
  });
  await t.step(
    "code under test that reads a variable a seed run gets probes the harness",
    () => {
      const head = {
        "pkg/core.py": 'import os\nSEED = os.environ["MY_SEED"]\n',
      };
      assert.deepEqual(judge({}, head), []);
      assert.deepEqual(judge({}, head, { seedEnv: ["MY_SEED"] }), [
        "harness.code_probes_tests@pkg/core.py",
      ]);
    },
  );
  await t.step("a test_support path may import the test framework", () => {
    const head = { "pkg/testing.py": "import pytest\n" };
    assert.deepEqual(judge({}, head), [
      "harness.code_probes_tests@pkg/testing.py",
    ]);
    assert.deepEqual(judge({}, head, { testSupport: ["pkg/testing.py"] }), []);
  });
});

Deno.test("judgeHarness() judges Hypothesis profiles on the test side of either tree", async (t) => {
  const LOAD =
    'from hypothesis import settings\nsettings.load_profile("fast")\n';
  const profileFindings = (
    base: Record<string, string>,
    head: Record<string, string>,
    input: Partial<JudgeHarnessInput> = {},
  ) =>
    judge(base, head, input).filter((f) =>
      f.startsWith("property.settings_weakened@")
    );
  const TEST = "def test_a():\n    assert 1\n";
  await t.step("a helper beside the head's tests", () => {
    assert.deepEqual(
      profileFindings({}, {
        "tests/test_a.py": TEST,
        "tests/helpers.py": LOAD,
      }),
      ["property.settings_weakened@tests/helpers.py"],
    );
  });
  await t.step("a helper beside tests only the base has", () => {
    assert.deepEqual(
      profileFindings(
        { "tests/test_a.py": TEST, "tests/helpers.py": "X = 1\n" },
        { "tests/helpers.py": LOAD },
      ),
      ["property.settings_weakened@tests/helpers.py"],
    );
  });
  await t.step("a helper beside a registered test module", () => {
    const base = { "checks/run.py": TEST };
    const head = { ...base, "checks/helpers.py": LOAD };
    assert.deepEqual(profileFindings(base, head), []);
    assert.deepEqual(
      profileFindings(base, head, { registered: [registered("checks.run")] }),
      ["property.settings_weakened@checks/helpers.py"],
    );
  });
  await t.step("code under test is not the test side", () => {
    assert.deepEqual(
      profileFindings({ "tests/test_a.py": TEST }, {
        "tests/test_a.py": TEST,
        "pkg/core.py": LOAD,
      }),
      [],
    );
  });
});

Deno.test("judgeHarness() counts a module in the configured pythonpath as the repository's own when a probe reads it", () => {
  const base = { "lib/names.py": 'NAME = "test_a"\n' };
  const head = {
    ...base,
    "pkg/core.py":
      "import sys\nfrom names import NAME\ndef f():\n    return sys._getframe(1).f_code.co_name == NAME\n",
  };
  assert.deepEqual(judge(base, head), []);
  assert.deepEqual(judge(base, head, { pythonpath: ["lib"] }), [
    "harness.code_probes_tests@pkg/core.py",
  ]);
});
