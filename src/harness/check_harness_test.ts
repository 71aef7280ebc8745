import { deepStrictEqual as assertEquals } from "node:assert/strict";
import type { ChangedPath } from "../git/git.ts";
import type { PythonModule } from "../python/python_module.ts";
import { checkHarness, type ModuleNames } from "./check_harness.ts";
import type { Tree } from "../git/git.ts";
import { analyzePython } from "../python/analyze_python.ts";
import { loadPythonParser } from "../python/load_python_parser.ts";

const NO_MODULES = new Map<string, PythonModule>();

function rules(
  changes: ChangedPath[],
  base: Record<string, string> = {},
  head: Record<string, string> = {},
  modules: {
    head?: Map<string, PythonModule>;
    base?: Map<string, PythonModule>;
  } = {},
): string[] {
  return checkHarness(changes, {
    texts: {
      base: new Map(Object.entries(base)),
      head: new Map(Object.entries(head)),
    },
    headModules: modules.head ?? NO_MODULES,
    baseModules: modules.base ?? NO_MODULES,
  }).map((f) => `${f.rule}@${f.path}`);
}

Deno.test("checkHarness() judges each kind of harness change", async (t) => {
  const cases: {
    name: string;
    changes: ChangedPath[];
    base?: Record<string, string>;
    head?: Record<string, string>;
    want: string[];
  }[] = [
    {
      name: "a conftest.py added in a subdirectory is a reject",
      changes: [{ status: "A", path: "tests/unit/conftest.py" }],
      want: ["harness.conftest_changed@tests/unit/conftest.py"],
    },
    {
      name: "a deleted root conftest.py is a reject",
      changes: [{ status: "D", path: "conftest.py" }],
      want: ["harness.conftest_changed@conftest.py"],
    },
    {
      name: "pytest.ini changes are a reject",
      changes: [{ status: "M", path: "pytest.ini" }],
      want: ["harness.pytest_config_changed@pytest.ini"],
    },
    {
      name: "a pyproject.toml change outside tool.pytest is fine",
      changes: [{ status: "M", path: "pyproject.toml" }],
      base: {
        "pyproject.toml":
          '[project]\nname = "a"\n[tool.pytest.ini_options]\naddopts = "-q"\n',
      },
      head: {
        "pyproject.toml":
          '[project]\nname = "b"\n[tool.pytest.ini_options]\naddopts = "-q"\n',
      },
      want: [],
    },
    {
      name: "a pyproject.toml change to tool.pytest is a reject",
      changes: [{ status: "M", path: "pyproject.toml" }],
      base: { "pyproject.toml": '[tool.pytest.ini_options]\naddopts = "-q"\n' },
      head: {
        "pyproject.toml":
          '[tool.pytest.ini_options]\naddopts = "-q -p no:randomly --deselect tests/test_a.py"\n',
      },
      want: ["harness.pytest_config_changed@pyproject.toml"],
    },
    {
      name: "a new pytest11 entry point in pyproject.toml is a plugin change",
      changes: [{ status: "M", path: "pyproject.toml" }],
      base: { "pyproject.toml": '[project]\nname = "a"\n' },
      head: {
        "pyproject.toml":
          '[project]\nname = "a"\n[project.entry-points.pytest11]\nx = "x.plugin"\n',
      },
      want: ["harness.plugin_changed@pyproject.toml"],
    },
    {
      name: "an unparseable pyproject.toml at head counts as changed",
      changes: [{ status: "M", path: "pyproject.toml" }],
      base: { "pyproject.toml": '[project]\nname = "a"\n' },
      head: { "pyproject.toml": "[project\n" },
      want: [
        "harness.pytest_config_changed@pyproject.toml",
        "harness.plugin_changed@pyproject.toml",
      ],
    },
    {
      name: "a comment or whitespace edit in setup.cfg [tool:pytest] is fine",
      changes: [{ status: "M", path: "setup.cfg" }],
      base: {
        "setup.cfg": "[metadata]\nname = a\n[tool:pytest]\naddopts = -q\n",
      },
      head: {
        "setup.cfg":
          "[metadata]\nname = a\n# tidy\n[tool:pytest]\naddopts =   -q\n",
      },
      want: [],
    },
    {
      name: "a setup.cfg edit to [tool:pytest] is a reject",
      changes: [{ status: "M", path: "setup.cfg" }],
      base: { "setup.cfg": "[tool:pytest]\naddopts = -q\n" },
      head: { "setup.cfg": "[tool:pytest]\naddopts = -q --lf\n" },
      want: ["harness.pytest_config_changed@setup.cfg"],
    },
    {
      name: "tox.ini [pytest] addopts change is a reject",
      changes: [{ status: "M", path: "tox.ini" }],
      base: { "tox.ini": "[pytest]\naddopts = -q\n" },
      head: { "tox.ini": "[pytest]\naddopts = -q -k 'not slow'\n" },
      want: ["harness.pytest_config_changed@tox.ini"],
    },
    {
      name: ".pth files are plugin changes",
      changes: [{ status: "A", path: "lib/evil.pth" }],
      want: ["harness.plugin_changed@lib/evil.pth"],
    },
    {
      name: "ordinary source and test edits are not harness changes",
      changes: [
        { status: "M", path: "payments/parser.py" },
        { status: "A", path: "tests/test_hypothesis_helpers.py" },
        { status: "A", path: "packaging/debian/rules" },
      ],
      want: [],
    },
  ];
  for (const c of cases) {
    await t.step(c.name, () => {
      assertEquals(rules(c.changes, c.base, c.head), c.want);
    });
  }
});

Deno.test("checkHarness() reports a module that sets pytest_plugins", () => {
  const head = new Map<string, PythonModule>([[
    "tests/test_a.py",
    { functions: new Map(), pytestPluginsLine: 3 },
  ]]);
  const found = checkHarness([{ status: "M", path: "tests/test_a.py" }], {
    texts: { base: new Map(), head: new Map() },
    headModules: head,
    baseModules: NO_MODULES,
  });
  assertEquals(found.map((f) => [f.rule, f.line]), [[
    "harness.plugin_changed",
    3,
  ]]);
});

const parser = await loadPythonParser();

const NAMES: ModuleNames = {
  stdlib: new Set(["random", "json", "os"]),
  installed: new Set(["hypothesis", "pytest", "attr", "attrs"]),
  interpreter: "/usr/bin/python3",
};

function treeOf(paths: readonly string[]): Tree {
  return new Map(
    paths.map((
      path,
    ) => [path, { path, kind: "file" as const, oid: path, size: 1 }]),
  );
}

/** Analyse every `.py` text of one side. */
function analysed(files: Record<string, string>): Map<string, PythonModule> {
  return new Map(
    Object.entries(files).filter(([p]) => p.endsWith(".py")).map((
      [p, text],
    ) => [p, analyzePython(parser, text)]),
  );
}

Deno.test("checkHarness() classifies files by what runs before a test", async (t) => {
  const cases: {
    name: string;
    base: Record<string, string>;
    head: Record<string, string>;
    texts?: Record<string, string>;
    want: string[];
  }[] = [
    {
      name: "a docstring added to tests/__init__.py is fine",
      base: {
        "tests/__init__.py": "",
        "tests/test_a.py": "def test_a(): assert f()\n",
      },
      head: {
        "tests/__init__.py": '"""The tests."""\n# note\n',
        "tests/test_a.py": "def test_a(): assert f()\n",
      },
      want: [],
    },
    {
      name: "code in tests/__init__.py is a reject at its line",
      base: {
        "tests/__init__.py": "",
        "tests/test_a.py": "def test_a(): assert f()\n",
      },
      head: {
        "tests/__init__.py":
          '"""Doc."""\nimport payments\npayments.f = lambda: 1\n',
        "tests/test_a.py": "def test_a(): assert f()\n",
      },
      want: ["harness.init_changed@tests/__init__.py:2"],
    },
    {
      name: "an __init__.py above a test file inside the package is harness",
      base: {
        "pkg/__init__.py": "X = 1\n",
        "pkg/tests/__init__.py": "",
        "pkg/tests/test_a.py": "def test_a(): assert 1 == f()\n",
      },
      head: {
        "pkg/__init__.py": "X = 1\nimport sys\n",
        "pkg/tests/__init__.py": "",
        "pkg/tests/test_a.py": "def test_a(): assert 1 == f()\n",
      },
      want: ["harness.init_changed@pkg/__init__.py:2"],
    },
    {
      name: "an __init__.py of the code under test beside tests/ is code",
      base: {
        "src/attr/__init__.py": "from ._make import attrs\n",
        "tests/test_a.py": "",
      },
      head: {
        "src/attr/__init__.py": "from ._make import attrs, define\n",
        "tests/test_a.py": "",
      },
      want: [],
    },
    {
      name: "a conftest comment is fine, a conftest hook is not",
      base: { "conftest.py": "# setup\nX = 1\n" },
      head: {
        "conftest.py":
          "# set-up\nX = 1\n\ndef pytest_runtest_makereport(item, call):\n    pass\n",
      },
      want: ["harness.conftest_changed@conftest.py:4"],
    },
    {
      name: "a new stdlib-named module at the root is a reject",
      base: { "payments/__init__.py": "" },
      head: {
        "payments/__init__.py": "",
        "random.py": "def random(): return 0.5\n",
      },
      want: ["harness.stdlib_shadowed@random.py"],
    },
    {
      name: "a new package shadowing hypothesis in a test rootdir is a reject",
      base: { "tests/test_a.py": "" },
      head: {
        "tests/test_a.py": "",
        "tests/hypothesis/__init__.py": "given = lambda *a: lambda f: f\n",
      },
      want: ["harness.package_shadowed@tests/hypothesis/__init__.py"],
    },
    {
      name: "a stdlib name inside a package is not top-level",
      base: { "tests/__init__.py": "", "tests/test_a.py": "" },
      head: {
        "tests/__init__.py": "",
        "tests/test_a.py": "",
        "tests/json.py": "X = 1\n",
      },
      want: [],
    },
    {
      name:
        "the project's own attr package is code, even where attr is installed",
      base: {
        "src/attr/__init__.py": "",
        "src/attr/_make.py": "X = 1\n",
        "tests/test_a.py": "",
      },
      head: {
        "src/attr/__init__.py": "",
        "src/attr/_make.py": "X = 2\n",
        "src/attr/_next.py": "Y = 1\n",
        "tests/test_a.py": "",
      },
      want: [],
    },
    {
      name: "a new package named by the packaging metadata is the project's",
      base: { "src/attr/__init__.py": "", "tests/test_a.py": "" },
      head: {
        "src/attr/__init__.py": "",
        "src/attrs/__init__.py": "from attr import *\n",
        "tests/test_a.py": "",
      },
      texts: { "pyproject.toml": '[project]\nname = "attrs"\n' },
      want: [],
    },
    {
      name: "committed bytecode is a reject",
      base: { "tests/test_a.py": "" },
      head: {
        "tests/test_a.py": "",
        "tests/__pycache__/test_a.cpython-311-pytest-7.2.1.pyc": "",
        "lib/x.pyo": "",
      },
      want: [
        "harness.bytecode_added@tests/__pycache__/test_a.cpython-311-pytest-7.2.1.pyc",
        "harness.bytecode_added@lib/x.pyo",
      ],
    },
    {
      name: "sitecustomize.py anywhere is a reject",
      base: {},
      head: { "sitecustomize.py": "import os\n" },
      want: ["harness.startup_changed@sitecustomize.py:1"],
    },
    {
      name:
        "pytest_plugins through globals() in a test module is a plugin change",
      base: { "tests/test_a.py": "def test_a(): assert f()\n" },
      head: {
        "tests/test_a.py":
          'globals()["pytest_" + "plugins"] = ["evil"]\ndef test_a(): assert f()\n',
      },
      want: ["harness.plugin_changed@tests/test_a.py:1"],
    },
    {
      name: "pytest_plugins through setattr on the module is a plugin change",
      base: { "tests/test_a.py": "def test_a(): assert f()\n" },
      head: {
        "tests/test_a.py":
          'import sys\nsetattr(sys.modules[__name__], "pytest_plugins", ["evil"])\ndef test_a(): assert f()\n',
      },
      want: ["harness.plugin_changed@tests/test_a.py:2"],
    },
  ];
  for (const c of cases) {
    await t.step(c.name, () => {
      const paths = new Set([...Object.keys(c.base), ...Object.keys(c.head)]);
      const changes: ChangedPath[] = [];
      for (const path of [...paths].sort()) {
        const before = c.base[path];
        const after = c.head[path];
        if (before === after) continue;
        changes.push({
          status: before === undefined ? "A" : after === undefined ? "D" : "M",
          path,
        });
      }
      const found = checkHarness(changes, {
        texts: {
          base: new Map(Object.entries(c.texts ?? {})),
          head: new Map(Object.entries(c.texts ?? {})),
        },
        headModules: analysed(c.head),
        baseModules: analysed(c.base),
        baseTree: treeOf(Object.keys(c.base)),
        headTree: treeOf(Object.keys(c.head)),
        moduleNames: NAMES,
      });
      assertEquals(
        found.map((f) =>
          `${f.rule}@${f.path}${f.line === undefined ? "" : `:${f.line}`}`
        ).sort(),
        [...c.want].sort(),
      );
    });
  }
});

Deno.test("checkHarness() says when it used its built-in module names", () => {
  const found = checkHarness([{ status: "A", path: "random.py" }], {
    texts: { base: new Map(), head: new Map() },
    headModules: NO_MODULES,
    baseModules: NO_MODULES,
  });
  assertEquals(found.map((f) => [f.rule, f.blocking]), [
    ["harness.stdlib_shadowed", true],
    ["harness.module_names_fallback", false],
  ]);
});

Deno.test("checkHarness() guards an __init__.py that was above the base's tests, even where the head has none below it", async (t) => {
  const cases: {
    name: string;
    base: Record<string, string>;
    head: Record<string, string>;
    want: string[];
  }[] = [
    {
      name: "deleted together with the tests below it",
      base: {
        "pkg/__init__.py": "import sys\nsys.setrecursionlimit(50)\n",
        "pkg/tests/test_a.py": "",
      },
      head: { "tests/test_a.py": "" },
      want: ["harness.init_changed@pkg/__init__.py"],
    },
    {
      name: "changed while the tests below it moved out",
      base: {
        "pkg/__init__.py": "X = 1\n",
        "pkg/tests/test_a.py": "",
      },
      head: {
        "pkg/__init__.py": "X = 1\nimport sys\n",
        "tests/test_a.py": "",
      },
      want: ["harness.init_changed@pkg/__init__.py:2"],
    },
    {
      name: "deleted while the tests below it stay",
      base: { "tests/__init__.py": "X = 1\n", "tests/test_a.py": "" },
      head: { "tests/test_a.py": "" },
      want: ["harness.init_changed@tests/__init__.py"],
    },
    {
      name: "an __init__.py never above a test, deleted, is code",
      base: { "pkg/__init__.py": "X = 1\n", "tests/test_a.py": "" },
      head: { "tests/test_a.py": "" },
      want: [],
    },
  ];
  for (const c of cases) {
    await t.step(c.name, () => {
      const paths = new Set([...Object.keys(c.base), ...Object.keys(c.head)]);
      const changes: ChangedPath[] = [...paths].sort().flatMap(
        (path): ChangedPath[] => {
          const before = c.base[path];
          const after = c.head[path];
          if (before === after) return [];
          const status = before === undefined
            ? "A"
            : after === undefined
            ? "D"
            : "M";
          return [{ status, path }];
        },
      );
      const found = checkHarness(changes, {
        texts: { base: new Map(), head: new Map() },
        headModules: analysed(c.head),
        baseModules: analysed(c.base),
        baseTree: treeOf(Object.keys(c.base)),
        headTree: treeOf(Object.keys(c.head)),
        moduleNames: NAMES,
      });
      assertEquals(
        found.filter((f) => f.rule === "harness.init_changed").map((f) =>
          `${f.rule}@${f.path}${f.line === undefined ? "" : `:${f.line}`}`
        ),
        c.want,
      );
    });
  }
});
