import assert from "node:assert/strict";
import type { Tree } from "../git/git.ts";
import {
  configuredPythonpath,
  isHarnessPath,
  isTestFile,
  isTestSide,
  packagingNames,
  topLevelName,
  topLevelNames,
  topLevelNamesByRoot,
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

Deno.test("isTestFile() knows pytest's default test file names and conftest.py", async (t) => {
  const cases: [string, boolean][] = [
    ["conftest.py", true],
    ["a/conftest.py", true],
    ["tests/test_a.py", true],
    ["a/b_test.py", true],
    ["test_a.txt", false],
    ["tests/helpers.py", false],
    ["a_test.pyc", false],
    ["atest_b.py", false],
    ["conftest.pyc", false],
    ["test_dir/a.py", false],
  ];
  for (const [path, want] of cases) {
    await t.step(
      `${path}: ${want}`,
      () => assert.equal(isTestFile(path), want),
    );
  }
});

Deno.test("treeLayout() puts the first directory without __init__.py above each test on the path", async (t) => {
  const roots = (paths: string[], options = {}) =>
    [...treeLayout(treeOf(paths), options).pathRoots].sort();
  await t.step("a package chain up to the root puts the root there", () => {
    assert.deepEqual(
      roots(["__init__.py", "a/__init__.py", "a/test_x.py"]),
      ["", "src"],
    );
  });
  await t.step("a package chain stops below the first plain directory", () => {
    assert.deepEqual(
      roots(["x/y/__init__.py", "x/y/z/__init__.py", "x/y/z/test_q.py"]),
      ["", "src", "x"],
    );
  });
  await t.step("configured entries lose their ./ and trailing slashes", () => {
    assert.deepEqual(
      roots([], {
        pythonpath: ["./lib//", ".", "./", "vendor/x", "vendor.d/"],
      }),
      ["", "lib", "src", "vendor.d", "vendor/x"],
    );
  });
  await t.step("a registered test module counts as a test file", () => {
    const layout = treeLayout(treeOf(["checks/run.py"]), {
      registered: ["checks/run.py"],
    });
    assert.deepEqual([...layout.pathRoots].sort(), ["", "checks", "src"]);
    assert.deepEqual([...layout.testDirs].sort(), ["", "checks"]);
    assert.ok(isTestSide("checks/helpers.py", layout));
  });
  await t.step(
    "a registered test module at the root is the test side there, and nothing beside it",
    () => {
      const layout = treeLayout(treeOf(["run_checks.py", "core.py"]), {
        registered: ["run_checks.py"],
      });
      assert.ok(isTestSide("run_checks.py", layout));
      assert.ok(!isTestSide("core.py", layout));
    },
  );
});

Deno.test("isTestSide() holds a test file's tree from its tests directory, else its own directory", async (t) => {
  const layout = treeLayout(treeOf([
    "pkg/testing/unit/test_a.py",
    "pkg/test/test_b.py",
    "it/test_c.py",
    "test_root.py",
    "lib/test/unit/test_d.py",
  ]));
  const cases: [string, boolean][] = [
    ["pkg/testing/helpers/strategies.py", true],
    ["pkg/testing", true],
    ["pkg/test/data.py", true],
    ["pkg/core.py", false],
    ["pkg/testing_tools.py", false],
    ["it/helpers.py", true],
    ["it2/helpers.py", false],
    ["test_root.py", true],
    ["root_helpers.py", false],
    ["conftest.py", true],
    ["lib/test/data.py", true],
  ];
  for (const [path, want] of cases) {
    await t.step(`${path}: ${want}`, () => {
      assert.equal(isTestSide(path, layout), want);
    });
  }
});

Deno.test("topLevelName() reads every kind of module file and rejects names Python cannot import", async (t) => {
  const cases: [string, string, string | undefined][] = [
    ["gui.pyw", "", "gui"],
    ["_speedups.so", "", "_speedups"],
    ["win.pyd", "", "win"],
    ["lib/x.abi3.so", "lib", "x"],
    ["Mixed_Case9.py", "", "Mixed_Case9"],
    ["9lives.py", "", undefined],
    ["my-mod.py", "", undefined],
    ["x.py.bak", "", undefined],
    ["x.txt", "", undefined],
    ["pkg/__init__.py", "", "pkg"],
    ["9pkg/__init__.py", "", undefined],
    ["my-pkg/__init__.py", "", undefined],
    ["pkg/core.py", "", undefined],
    ["pkg/sub/__init__.py", "", undefined],
    ["pkg/__init__.py/core.py", "", undefined],
    ["srcx/a.py", "src", undefined],
  ];
  for (const [path, root, want] of cases) {
    await t.step(`${path} in "${root}"`, () => {
      assert.equal(topLevelName(path, root), want);
    });
  }
});

Deno.test("topLevelNamesByRoot() finds modules, packages and namespace packages per root", () => {
  const byRoot = topLevelNamesByRoot(
    treeOf([
      "a.py",
      "src/pkg/sub/mod.py",
      "src/data/file.txt",
      "src/9bad/mod.py",
      "src/b.pyw",
      "README.md",
      "lib/deep/x.py",
    ]),
    ["", "src"],
  );
  assert.deepEqual(
    [...byRoot].map(([root, names]) => [root, [...names].sort()]),
    [["", ["a", "lib", "src"]], ["src", ["b", "pkg"]]],
  );
  assert.deepEqual(
    [...topLevelNames(treeOf(["a.py", "src/b.py"]), ["", "src"])].sort(),
    ["a", "b", "src"],
  );
});

Deno.test("packagingNames() reads every packaging table pawl knows and only import names", async (t) => {
  const cases: [string, [string, string][], string[]][] = [
    [
      "Poetry's name and packages",
      [[
        "pyproject.toml",
        '[tool.poetry]\nname = "Poetry-Pkg"\npackages = [{ include = "inc_a" }, { include = "inc/b" }, { from = "src" }]\n',
      ]],
      ["inc", "inc_a", "poetry_pkg"],
    ],
    [
      "Hatch's wheel packages by their last segment",
      [[
        "pyproject.toml",
        '[tool.hatch.build.targets.wheel]\npackages = [7, true, "src/hatched"]\n',
      ]],
      ["hatched"],
    ],
    [
      "names that are not import names are dropped",
      [[
        "pyproject.toml",
        '[project]\nname = "9lives"\n[tool.setuptools]\npackages = ["ok", "", " spaced ", 3, "bad!name"]\n',
      ]],
      ["ok", "spaced"],
    ],
    [
      "a package-dir that is not a table claims nothing",
      [["pyproject.toml", '[tool.setuptools]\npackage-dir = "src"\n']],
      [],
    ],
    [
      "an unparseable pyproject.toml claims nothing, setup.cfg still counts",
      [
        ["pyproject.toml", '[project\nname = "x"\n'],
        [
          "setup.cfg",
          "[metadata]\nname: colon-name\n[options]\npy_modules =\n  one\n  two,three\n",
        ],
      ],
      ["colon_name", "one", "three", "two"],
    ],
    [
      "a name outside [metadata] is not the project's",
      [[
        "setup.cfg",
        "[other]\nname = stranger\n[options]\nname = nobody\n[metadata]\nfullname = intruder\n",
      ]],
      [],
    ],
    [
      "a key that only ends in packages lists nothing",
      [["setup.cfg", "[options]\nextra packages = stray\n"]],
      [],
    ],
    [
      "a line a lone carriage return breaks is not read as a name or a key",
      [[
        "setup.cfg",
        "[metadata]\nname = first\rsecond\n[options]\npackages = one\rtwo\n",
      ]],
      [],
    ],
    [
      "a line of [options] before any key lists nothing",
      [["setup.cfg", "[options]\nstray\nzip_safe = false\n"]],
      [],
    ],
  ];
  for (const [name, texts, want] of cases) {
    await t.step(name, () => {
      assert.deepEqual([...packagingNames(new Map(texts))].sort(), want);
    });
  }
});

Deno.test("configuredPythonpath() reads each file's form of pythonpath and keeps only paths inside the repository", async (t) => {
  const cases: [string, [string, string][], string[]][] = [
    [
      "a string in pyproject.toml is split on whitespace",
      [["pyproject.toml", '[tool.pytest.ini_options]\npythonpath = "a  b"\n']],
      ["a", "b"],
    ],
    [
      "non-string entries are dropped",
      [[
        "pyproject.toml",
        '[tool.pytest.ini_options]\npythonpath = ["a", 1]\n',
      ]],
      ["a"],
    ],
    [
      "an unparseable pyproject.toml gives nothing",
      [["pyproject.toml", '[tool.pytest.ini_options\npythonpath = ["a"]\n']],
      [],
    ],
    [
      "tox.ini and setup.cfg, with either separator",
      [
        ["tox.ini", "[pytest]\npythonpath: t1 t2\n"],
        ["setup.cfg", "[tool:pytest]\naddopts = -q\npythonpath = s1\n"],
      ],
      ["t1", "t2", "s1"],
    ],
    [
      "another section's pythonpath is not pytest's",
      [
        ["tox.ini", "[testenv]\npythonpath = no\n"],
        ["setup.cfg", "[pytest]\npythonpath = no\n"],
      ],
      [],
    ],
    [
      "absolute paths and paths with .. are dropped",
      [["pytest.ini", "[pytest]\npythonpath = /abs ../up a/../b ok\n"]],
      ["ok"],
    ],
    [
      "an empty pythonpath gives nothing",
      [["pytest.ini", "[pytest]\npythonpath =\n"]],
      [],
    ],
    [
      "a key that only ends in pythonpath is not it",
      [["pytest.ini", "[pytest]\nmy_pythonpath = no\n"]],
      [],
    ],
  ];
  for (const [name, texts, want] of cases) {
    await t.step(name, () => {
      assert.deepEqual(configuredPythonpath(new Map(texts)), want);
    });
  }
});

Deno.test("isHarnessPath() knows every file that runs before a test or decides what a result means", async (t) => {
  const layout = treeLayout(treeOf(["tests/unit/test_a.py"]));
  const cases: [string, boolean][] = [
    ["conftest.py", true],
    ["pkg/evil.pth", true],
    ["sitecustomize.py", true],
    ["lib/usercustomize.py", true],
    ["pytest.ini", true],
    ["sub/.pytest.ini", true],
    ["pyproject.toml", true],
    ["sub/setup.cfg", true],
    ["tox.ini", true],
    ["pkg/__pycache__/x.txt", true],
    ["x.pyc", true],
    ["x.pyo", true],
    ["tests/__init__.py", true],
    ["tests/unit/__init__.py", true],
    ["__init__.py", true],
    ["tests/other/__init__.py", false],
    ["src/pkg/__init__.py", false],
    ["tests/unit/helpers.py", false],
    ["x.pyc.txt", false],
    ["setup.py", false],
  ];
  for (const [path, want] of cases) {
    await t.step(`${path}: ${want}`, () => {
      assert.equal(isHarnessPath(path, layout), want);
    });
  }
});

Deno.test("topLevelNamesByRoot() reads a root below the top and only directories Python can import", () => {
  const byRoot = topLevelNamesByRoot(
    treeOf(["lib/py/mod.py", "lib/py/ns/x.py", "my-ns/mod.py", "ok_ns/m.py"]),
    ["", "lib/py"],
  );
  assert.deepEqual([...byRoot.get("lib/py")!].sort(), ["mod", "ns"]);
  assert.deepEqual([...byRoot.get("")!].sort(), ["lib", "ok_ns"]);
});

Deno.test("isHarnessPath() holds the root __init__.py a harness file even in a tree without tests", () => {
  assert.ok(isHarnessPath("__init__.py", treeLayout(treeOf([]))));
});
