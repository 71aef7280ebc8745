import assert from "node:assert/strict";
import type { Tree } from "../git/git.ts";
import {
  configuredPythonpath,
  isTestFile,
  isTestSide,
  packagingNames,
  topLevelName,
  treeLayout,
} from "./harness_paths.ts";

function treeOf(paths: readonly string[]): Tree {
  return new Map(
    paths.map((
      path,
    ) => [path, { path, kind: "file" as const, oid: path, size: 1 }]),
  );
}

Deno.test("treeLayout() finds test directories, path roots and the test side", () => {
  const layout = treeLayout(
    treeOf([
      "tests/__init__.py",
      "tests/unit/__init__.py",
      "tests/unit/test_a.py",
      "it/test_b.py",
      "pkg/__init__.py",
      "pkg/core.py",
      "pkg/tests/__init__.py",
      "pkg/tests/test_c.py",
    ]),
    { pythonpath: ["lib/"] },
  );
  assert.deepEqual([...layout.testDirs].sort(), [
    "",
    "it",
    "pkg",
    "pkg/tests",
    "tests",
    "tests/unit",
  ]);
  assert.deepEqual([...layout.pathRoots].sort(), ["", "it", "lib", "src"]);
  assert.ok(isTestSide("tests/helpers/strategies.py", layout));
  assert.ok(isTestSide("pkg/tests/conftest.py", layout));
  assert.ok(!isTestSide("pkg/core.py", layout));
  assert.ok(isTestFile("a/b_test.py") && !isTestFile("a/testing.py"));
});

Deno.test("topLevelName() reads modules, packages and extension modules", async (t) => {
  const cases: [string, string, string | undefined][] = [
    ["random.py", "", "random"],
    ["src/json/__init__.py", "src", "json"],
    ["tests/fractions.cpython-311-x86_64-linux-gnu.so", "tests", "fractions"],
    ["src/pkg/random.py", "src", undefined],
    ["README.md", "", undefined],
    ["src/random.py", "", undefined],
  ];
  for (const [path, root, want] of cases) {
    await t.step(`${path} in "${root}"`, () => {
      assert.equal(topLevelName(path, root), want);
    });
  }
});

Deno.test("packagingNames() reads the names packaging metadata claims", () => {
  const names = packagingNames(
    new Map([
      [
        "pyproject.toml",
        `[project]\nname = "my-lib"\n[tool.setuptools]\npackages = ["my_lib", "my_lib.sub", "extra"]\npy-modules = ["single"]\n[tool.setuptools.package-dir]\nvendored = "third_party/vendored"\n`,
      ],
      [
        "setup.cfg",
        "[metadata]\nname = Other.Name\n[options]\npackages = cfgpkg, cfgpkg2\n",
      ],
    ]),
  );
  assert.deepEqual([...names].sort(), [
    "cfgpkg",
    "cfgpkg2",
    "extra",
    "my_lib",
    "other",
    "single",
    "vendored",
  ]);
});

Deno.test("configuredPythonpath() reads pytest's pythonpath from every config file", () => {
  assert.deepEqual(
    configuredPythonpath(
      new Map([
        [
          "pyproject.toml",
          '[tool.pytest.ini_options]\npythonpath = ["src", "/abs", "../up"]\n',
        ],
        ["pytest.ini", "[pytest]\npythonpath = lib extra\n"],
      ]),
    ),
    ["src", "lib", "extra"],
  );
});
