import { deepStrictEqual as assertEquals } from "node:assert/strict";
import type { ChangedPath } from "../git/git.ts";
import type { PythonModule } from "../python/python_module.ts";
import {
  checkHarness,
  type CheckHarnessOptions,
  harnessConfigPaths,
  type ModuleNames,
} from "./check_harness.ts";
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

Deno.test("harnessConfigPaths() reads the root configs always, and each changed pyproject.toml, setup.cfg, tox.ini and gate file", () => {
  assertEquals(
    harnessConfigPaths([
      { status: "M", path: "pkg/pyproject.toml" },
      { status: "A", path: "a/setup.cfg" },
      { status: "D", path: "b/tox.ini" },
      { status: "M", path: "pawl.toml" },
      { status: "M", path: ".github/workflows/ci.yml" },
      { status: "M", path: "sub/pytest.ini" },
      { status: "M", path: "src/setup.py" },
      { status: "M", path: "pyproject.toml" },
    ]),
    [
      "pyproject.toml",
      "setup.cfg",
      "pytest.ini",
      "tox.ini",
      "pkg/pyproject.toml",
      "a/setup.cfg",
      "b/tox.ini",
      "pawl.toml",
      ".github/workflows/ci.yml",
    ],
  );
});

/** Base and head files of a pull request; the changes are what differs. */
interface Sides {
  base: Record<string, string>;
  head: Record<string, string>;
  /** Type changes: paths whose text is the same on both sides. */
  typeChanged?: string[];
  options?: Partial<CheckHarnessOptions>;
}

/** Every finding as `rule@path:line message`. */
function judged(sides: Sides): string[] {
  const paths = new Set([
    ...Object.keys(sides.base),
    ...Object.keys(sides.head),
  ]);
  const changes: ChangedPath[] = [];
  for (const path of [...paths].sort()) {
    const before = sides.base[path];
    const after = sides.head[path];
    if (sides.typeChanged?.includes(path)) {
      changes.push({ status: "T", path });
    } else if (before !== after) {
      changes.push({
        status: before === undefined ? "A" : after === undefined ? "D" : "M",
        path,
      });
    }
  }
  return checkHarness(changes, {
    texts: {
      base: new Map(Object.entries(sides.base)),
      head: new Map(Object.entries(sides.head)),
    },
    headModules: analysed(sides.head),
    baseModules: analysed(sides.base),
    baseTree: treeOf(Object.keys(sides.base)),
    headTree: treeOf(Object.keys(sides.head)),
    moduleNames: NAMES,
    ...sides.options,
  }).map((f) =>
    `${f.rule}@${f.path ?? ""}${
      f.line === undefined ? "" : `:${f.line}`
    } ${f.message}`
  );
}

const CONFTEST =
  ': conftest hooks decide what "passed" means and are human-owned';

Deno.test("checkHarness() points at the first line of a harness file that changed beyond comments and docstrings", async (t) => {
  const cases: [string, Sides, string[]][] = [
    [
      "a new conftest points at its first definition",
      {
        base: {},
        head: {
          "conftest.py":
            "import os\n\ndef pytest_configure(config):\n    pass\n\ndef pytest_unconfigure(config):\n    pass\n",
        },
      },
      [
        `harness.conftest_changed@conftest.py:3 The pull request added "conftest.py" (first change at line 3)${CONFTEST}`,
      ],
    ],
    [
      "a new conftest with one definition points at it",
      {
        base: {},
        head: {
          "conftest.py":
            "import os\n\ndef pytest_configure(config):\n    pass\n",
        },
      },
      [
        `harness.conftest_changed@conftest.py:3 The pull request added "conftest.py" (first change at line 3)${CONFTEST}`,
      ],
    ],
    [
      "a new conftest without definitions points at its first statement after the docstring",
      { base: {}, head: { "conftest.py": '"""Hooks."""\n\nimport os\n' } },
      [
        `harness.conftest_changed@conftest.py:3 The pull request added "conftest.py" (first change at line 3)${CONFTEST}`,
      ],
    ],
    [
      "a new conftest of comments and a docstring only is fine",
      { base: {}, head: { "conftest.py": '"""Hooks."""\n# later\n' } },
      [],
    ],
    [
      "a statement appended points at the new statement",
      {
        base: { "conftest.py": "X = 1\n" },
        head: { "conftest.py": "X = 1\n\nY = 2\n" },
      },
      [
        `harness.conftest_changed@conftest.py:3 The pull request changed "conftest.py" (first change at line 3)${CONFTEST}`,
      ],
    ],
    [
      "a statement removed from the end points at the last one left",
      {
        base: { "conftest.py": "X = 1\n\nY = 2\n" },
        head: { "conftest.py": "\nX = 1\n" },
      },
      [
        `harness.conftest_changed@conftest.py:2 The pull request changed "conftest.py" (first change at line 2)${CONFTEST}`,
      ],
    ],
    [
      "everything removed but comments points at line 1",
      {
        base: { "conftest.py": "X = 1\n" },
        head: { "conftest.py": "# nothing\n" },
      },
      [
        `harness.conftest_changed@conftest.py:1 The pull request changed "conftest.py" (first change at line 1)${CONFTEST}`,
      ],
    ],
    [
      "a deleted conftest has no line",
      { base: { "tests/conftest.py": "X = 1\n" }, head: {} },
      [
        `harness.conftest_changed@tests/conftest.py The pull request deleted "tests/conftest.py"${CONFTEST}`,
      ],
    ],
    [
      "a deleted conftest of comments only is fine",
      { base: { "tests/conftest.py": "# nothing\n" }, head: {} },
      [],
    ],
    [
      "a usercustomize.py change is a start-up change",
      {
        base: { "usercustomize.py": "# hello\n" },
        head: { "usercustomize.py": "# hello\nimport os\n" },
      },
      [
        'harness.startup_changed@usercustomize.py:2 The pull request changed "usercustomize.py" (first change at line 2): it runs at interpreter start-up, before any test',
      ],
    ],
    [
      "a comment in sitecustomize.py is fine",
      {
        base: { "lib/sitecustomize.py": "import os\n" },
        head: { "lib/sitecustomize.py": "# tidy\nimport os\n" },
      },
      [],
    ],
    [
      "the root __init__.py is above every test",
      {
        base: { "__init__.py": "", "test_a.py": "" },
        head: { "__init__.py": "import os\n", "test_a.py": "" },
      },
      [
        'harness.init_changed@__init__.py:1 The pull request changed "__init__.py" (first change at line 1): it runs before the tests below it are collected, so beyond comments and docstrings it is human-owned',
      ],
    ],
    [
      "an __init__.py that loads plugins and changed is reported once, as an __init__.py",
      {
        base: {
          "tests/__init__.py": 'pytest_plugins = ["a"]\n',
          "tests/test_a.py": "",
        },
        head: {
          "tests/__init__.py": 'pytest_plugins = ["a", "b"]\n',
          "tests/test_a.py": "",
        },
      },
      [
        'harness.init_changed@tests/__init__.py:1 The pull request changed "tests/__init__.py" (first change at line 1): it runs before the tests below it are collected, so beyond comments and docstrings it is human-owned',
      ],
    ],
    [
      "an __init__.py that loads plugins, changed only in comments, still loads plugins",
      {
        base: {
          "tests/__init__.py": 'pytest_plugins = ["a"]\n',
          "tests/test_a.py": "",
        },
        head: {
          "tests/__init__.py": '# tidy\npytest_plugins = ["a"]\n',
          "tests/test_a.py": "",
        },
      },
      [
        'harness.plugin_changed@tests/__init__.py:2 The pull request changed "tests/__init__.py", which loads pytest plugins through "pytest_plugins"',
      ],
    ],
    [
      "a value changed in place, the token count kept, points at its line",
      {
        base: { "conftest.py": "X = 1\n\nY = 2\n" },
        head: { "conftest.py": "X = 1\n\nY = 3\n" },
      },
      [
        `harness.conftest_changed@conftest.py:3 The pull request changed "conftest.py" (first change at line 3)${CONFTEST}`,
      ],
    ],
    [
      "a deleted module that loaded plugins is a plugin change at its base line",
      {
        base: { "tests/test_a.py": '\n\npytest_plugins = ["a"]\n' },
        head: {},
      },
      [
        'harness.plugin_changed@tests/test_a.py:3 The pull request deleted "tests/test_a.py", which loads pytest plugins through "pytest_plugins"',
      ],
    ],
    [
      "a module that stopped loading plugins is a plugin change at its base line",
      {
        base: { "tests/test_a.py": '\n\npytest_plugins = ["a"]\n' },
        head: { "tests/test_a.py": "" },
      },
      [
        'harness.plugin_changed@tests/test_a.py:3 The pull request changed "tests/test_a.py", which loads pytest plugins through "pytest_plugins"',
      ],
    ],
  ];
  for (const [name, sides, want] of cases) {
    await t.step(name, () => assertEquals(judged(sides), want));
  }
});

Deno.test("checkHarness() treats a conftest it could not parse as changed at line 1, and a deleted one without a line", async (t) => {
  const judge = (status: ChangedPath["status"]) =>
    checkHarness([{ status, path: "conftest.py" }], {
      texts: { base: new Map(), head: new Map() },
      headModules: NO_MODULES,
      baseModules: NO_MODULES,
    }).map((f) => `${f.line}: ${f.message}`);
  const cases: [ChangedPath["status"], string][] = [
    ["A", `1: The pull request added "conftest.py" (first change at line 1)`],
    ["M", `1: The pull request changed "conftest.py" (first change at line 1)`],
    [
      "T",
      `1: The pull request changed the type of "conftest.py" (first change at line 1)`,
    ],
    ["D", `undefined: The pull request deleted "conftest.py"`],
  ];
  for (const [status, want] of cases) {
    await t.step(status, () => assertEquals(judge(status), [want + CONFTEST]));
  }
});

Deno.test("checkHarness() tells committed bytecode from files that only look like it", async (t) => {
  const cases: [string, ChangedPath, string[]][] = [
    [
      "anything under __pycache__ is bytecode",
      { status: "A", path: "pkg/__pycache__/core.txt" },
      [
        'harness.bytecode_added@pkg/__pycache__/core.txt The pull request added bytecode "pkg/__pycache__/core.txt": Python can run it instead of the source pawl read; commit sources only',
      ],
    ],
    [
      "a changed .pyc is bytecode",
      { status: "M", path: "core.pyc" },
      [
        'harness.bytecode_added@core.pyc The pull request changed bytecode "core.pyc": Python can run it instead of the source pawl read; commit sources only',
      ],
    ],
    ["deleting bytecode is fine", { status: "D", path: "lib/x.pyc" }, []],
    ["a name that only contains .pyc is not bytecode", {
      status: "A",
      path: "docs/x.pyc.txt",
    }, []],
    ["a directory named like a cache is not one", {
      status: "A",
      path: "pkg/__pycache__x/core.txt",
    }, []],
    [
      "a .pth file anywhere is a plugin change",
      { status: "D", path: "site/x.pth" },
      [
        'harness.plugin_changed@site/x.pth The pull request deleted "site/x.pth": .pth files run code at interpreter start-up',
      ],
    ],
    [
      "a .pytest.ini is pytest configuration",
      { status: "A", path: "sub/.pytest.ini" },
      [
        'harness.pytest_config_changed@sub/.pytest.ini The pull request added pytest configuration "sub/.pytest.ini"',
      ],
    ],
  ];
  for (const [name, change, want] of cases) {
    await t.step(name, () => {
      assertEquals(
        checkHarness([change], {
          texts: { base: new Map(), head: new Map() },
          headModules: NO_MODULES,
          baseModules: NO_MODULES,
          moduleNames: NAMES,
        }).map((f) => `${f.rule}@${f.path} ${f.message}`),
        want,
      );
    });
  }
});

Deno.test("checkHarness() judges a new top-level module in every path root and only there", async (t) => {
  const shadowed = (path: string, name: string, kind = "standard-library") =>
    `harness.${
      kind === "standard-library" ? "stdlib" : "package"
    }_shadowed@${path} The pull request added "${path}", a top-level module "${name}" on the tests' import path that shadows the ${kind} module of that name: rename it`;
  const cases: [string, Sides, string[]][] = [
    [
      "a module the base already had in that root is no new shadow",
      {
        base: { "random.py": "X = 1\n" },
        head: { "random/__init__.py": "X = 1\n" },
      },
      [],
    ],
    [
      "the same name in another root is a new shadow",
      {
        base: { "random.py": "X = 1\n" },
        head: { "random.py": "X = 1\n", "src/random.py": "" },
      },
      [shadowed("src/random.py", "random")],
    ],
    [
      "a changed top-level module is not new",
      { base: { "json.py": "X = 1\n" }, head: { "json.py": "X = 2\n" } },
      [],
    ],
    [
      "a top-level module whose type changed is not new",
      {
        base: { "json.py": "X = 1\n" },
        head: { "json.py": "X = 1\n" },
        typeChanged: ["json.py"],
      },
      [],
    ],
    [
      "a configured pythonpath entry is a path root",
      { base: {}, head: { "lib/os.py": "" }, options: { pythonpath: ["lib"] } },
      [shadowed("lib/os.py", "os")],
    ],
    [
      "a directory that is not a path root holds no top-level modules",
      { base: {}, head: { "lib/os.py": "" } },
      [],
    ],
    [
      "the base's pytest pythonpath is a path root",
      {
        base: {
          "pyproject.toml": '[tool.pytest.ini_options]\npythonpath = ["lib"]\n',
        },
        head: {
          "pyproject.toml": '[tool.pytest.ini_options]\npythonpath = ["lib"]\n',
          "lib/os.py": "",
        },
      },
      [shadowed("lib/os.py", "os")],
    ],
    [
      "the rootdir of a test only the base had is a path root",
      { base: { "it/test_a.py": "" }, head: { "it/json.py": "" } },
      [shadowed("it/json.py", "json")],
    ],
    [
      "the rootdir of a registered test module is a path root",
      {
        base: { "checks/run_checks.py": "" },
        head: { "checks/run_checks.py": "", "checks/json.py": "" },
        options: { registered: ["checks/run_checks.py"] },
      },
      [shadowed("checks/json.py", "json")],
    ],
    [
      "a registered test module's rootdir at base is a path root, though the head's __init__.py moves it",
      {
        base: { "checks/run_checks.py": "" },
        head: {
          "checks/__init__.py": "",
          "checks/run_checks.py": "",
          "checks/json.py": "",
        },
        options: { registered: ["checks/run_checks.py"] },
      },
      [shadowed("checks/json.py", "json")],
    ],
    [
      "a registered test module's rootdir at head is a path root, though the base's __init__.py moved it",
      {
        base: { "checks/__init__.py": "", "checks/run_checks.py": "" },
        head: { "checks/run_checks.py": "", "checks/json.py": "" },
        options: { registered: ["checks/run_checks.py"] },
      },
      [shadowed("checks/json.py", "json")],
    ],
    [
      "a name both lists hold shadows the standard library",
      {
        base: {},
        head: { "attr.py": "" },
        options: {
          moduleNames: {
            stdlib: new Set(["attr"]),
            installed: new Set(["attr"]),
            interpreter: "/usr/bin/python3",
          },
        },
      },
      [shadowed("attr.py", "attr")],
    ],
    [
      "an installed package the project does not own is shadowed",
      { base: {}, head: { "src/pytest/__init__.py": "" } },
      [shadowed("src/pytest/__init__.py", "pytest", "installed")],
    ],
  ];
  for (const [name, sides, want] of cases) {
    await t.step(name, () => assertEquals(judged(sides), want));
  }
});

Deno.test("checkHarness() says it used its built-in names only when it judged a new top-level module by them", async (t) => {
  const judge = (
    path: string,
    interpreter: string | null,
    status: ChangedPath["status"] = "A",
  ) =>
    checkHarness([{ status, path }], {
      texts: { base: new Map(), head: new Map() },
      headModules: NO_MODULES,
      baseModules: NO_MODULES,
      baseTree: treeOf(status === "A" ? [] : [path]),
      headTree: treeOf([path]),
      moduleNames: { ...NAMES, interpreter },
    }).map((f) => `${f.rule} ${f.message}`);
  await t.step("a shadow found by the built-in names says so", () => {
    assertEquals(judge("os.py", null), [
      `harness.stdlib_shadowed The pull request added "os.py", a top-level module "os" on the tests' import path that shadows the standard-library module of that name (by pawl's built-in list of names: no interpreter was available): rename it`,
      "harness.module_names_fallback No Python interpreter was available to list the standard-library and installed module names, so pawl judged new top-level modules by its built-in lists",
    ]);
  });
  await t.step(
    "a new top-level module that shadows nothing was still judged by them",
    () => {
      assertEquals(judge("mine.py", null), [
        "harness.module_names_fallback No Python interpreter was available to list the standard-library and installed module names, so pawl judged new top-level modules by its built-in lists",
      ]);
    },
  );
  await t.step("a changed top-level module was not", () => {
    assertEquals(judge("mine.py", null, "M"), []);
  });
  await t.step(
    "a top-level module whose type changed was judged as an added one",
    () => {
      assertEquals(judge("mine.py", null, "T"), [
        "harness.module_names_fallback No Python interpreter was available to list the standard-library and installed module names, so pawl judged new top-level modules by its built-in lists",
      ]);
    },
  );
  await t.step("a new module below the path roots was not", () => {
    assertEquals(judge("pkg/sub/os.py", null), []);
  });
  await t.step("an interpreter's names need no note", () => {
    assertEquals(judge("mine.py", "/usr/bin/python3"), []);
  });
});

Deno.test("checkHarness() flags new writes to module globals pawl cannot resolve on the test side only", async (t) => {
  const writes = (...lines: number[]): PythonModule => ({
    functions: new Map(),
    dynamicWrites: lines.map((line) => ({
      line,
      detail: `globals().update(x${line})`,
    })),
  });
  const judge = (
    path: string,
    base: PythonModule | undefined,
    head: PythonModule,
  ) =>
    checkHarness([{ status: base === undefined ? "A" : "M", path }], {
      texts: { base: new Map(), head: new Map() },
      headModules: new Map([[path, head]]),
      baseModules: base === undefined ? NO_MODULES : new Map([[path, base]]),
      moduleNames: NAMES,
    }).map((f) => `${f.rule}:${f.line} ${f.message}`);
  await t.step("one more write names the last one", () => {
    assertEquals(judge("tests/test_a.py", writes(3), writes(3, 7)), [
      'harness.plugin_changed:7 The pull request changed "tests/test_a.py", which writes module globals in a way pawl cannot resolve ("globals().update(x7)"): it can set "pytest_plugins" or rebind a test',
    ]);
  });
  await t.step("a new test file's first write counts", () => {
    assertEquals(judge("tests/test_b.py", undefined, writes(2)).length, 1);
  });
  await t.step("as many writes as before is no new write", () => {
    assertEquals(judge("tests/test_a.py", writes(3, 4), writes(5, 6)), []);
  });
  for (
    const [side, base, head] of [
      ["head", ["it/helpers.py"], ["it/helpers.py", "it/test_a.py"]],
      ["base", ["it/helpers.py", "it/test_a.py"], ["it/helpers.py"]],
    ] as const
  ) {
    await t.step(
      `a module beside a test only the ${side} has is on the test side`,
      () => {
        const path = "it/helpers.py";
        const found = checkHarness([{ status: "M", path }], {
          texts: { base: new Map(), head: new Map() },
          headModules: new Map([[path, writes(4)]]),
          baseModules: new Map([[path, writes()]]),
          baseTree: treeOf(base),
          headTree: treeOf(head),
          moduleNames: NAMES,
        });
        assertEquals(found.map((f) => `${f.rule}:${f.line}`), [
          "harness.plugin_changed:4",
        ]);
      },
    );
  }
  await t.step("code under test is not the test side", () => {
    assertEquals(judge("pkg/core.py", writes(), writes(1)), []);
  });
});

Deno.test("checkHarness() compares only pytest's sections of a config file", async (t) => {
  const section = (verb: string, path: string) =>
    `harness.pytest_config_changed@${path} The pull request ${verb} the pytest section of "${path}"`;
  const plugins = (verb: string, path: string) =>
    `harness.plugin_changed@${path} The pull request ${verb} the pytest plugin entry points in "${path}"`;
  const cases: [string, Sides, string[]][] = [
    [
      "keys of tool.pytest written in another order are the same settings",
      {
        base: {
          "pyproject.toml":
            '[tool.pytest.ini_options]\naddopts = "-q"\ntestpaths = ["tests"]\n',
        },
        head: {
          "pyproject.toml":
            '[tool.pytest.ini_options]\ntestpaths = ["tests"]\naddopts = "-q"\n',
        },
      },
      [],
    ],
    [
      "a list of tool.pytest in another order is another setting",
      {
        base: {
          "pyproject.toml":
            '[tool.pytest.ini_options]\ntestpaths = ["a", "b"]\n',
        },
        head: {
          "pyproject.toml":
            '[tool.pytest.ini_options]\ntestpaths = ["b", "a"]\n',
        },
      },
      [section("changed", "pyproject.toml")],
    ],
    [
      "a new pyproject.toml with a pytest section",
      {
        base: {},
        head: {
          "sub/pyproject.toml": '[tool.pytest.ini_options]\naddopts = "-q"\n',
        },
      },
      [section("added", "sub/pyproject.toml")],
    ],
    [
      "a deleted pyproject.toml without a pytest section",
      { base: { "pyproject.toml": '[project]\nname = "a"\n' }, head: {} },
      [],
    ],
    [
      "a base pyproject.toml that does not parse",
      {
        base: { "pyproject.toml": "[project\n" },
        head: { "pyproject.toml": '[project]\nname = "a"\n' },
      },
      [
        section("changed", "pyproject.toml"),
        plugins("changed", "pyproject.toml"),
      ],
    ],
    [
      "setup.cfg entry points are plugins",
      {
        base: {
          "setup.cfg": "[options.entry_points]\npytest11 =\n  a = a.plugin\n",
        },
        head: {
          "setup.cfg":
            "[options.entry_points]\npytest11 =\n  a = a.plugin\n  b = b.plugin\n",
        },
      },
      [plugins("changed", "setup.cfg")],
    ],
    [
      "a setup.cfg change that keeps its entry points is no plugin change",
      {
        base: {
          "setup.cfg":
            "[metadata]\nname = a\n[options.entry_points]\npytest11 =\n  a = a.plugin\n",
        },
        head: {
          "setup.cfg":
            "[metadata]\nname = b\n[options.entry_points]\npytest11 =\n  a = a.plugin\n",
        },
      },
      [],
    ],
    [
      "a pyproject.toml change that keeps its pytest11 entry points is no plugin change",
      {
        base: {
          "pyproject.toml":
            '[project]\nname = "a"\n[project.entry-points.pytest11]\na = "a.plugin"\n',
        },
        head: {
          "pyproject.toml":
            '[project]\nname = "b"\n[project.entry-points.pytest11]\na = "a.plugin"\n',
        },
      },
      [],
    ],
    [
      "pyproject.toml's pytest11 entry points are plugins",
      {
        base: {
          "pyproject.toml": '[project.entry-points.pytest11]\na = "a.plugin"\n',
        },
        head: {
          "pyproject.toml":
            '[project.entry-points.pytest11]\na = "a.plugin"\nb = "b.plugin"\n',
        },
      },
      [plugins("changed", "pyproject.toml")],
    ],
    [
      "an empty [tool:pytest] added to setup.cfg makes it pytest's config file",
      {
        base: { "setup.cfg": "[metadata]\nname = a\n" },
        head: { "setup.cfg": "[metadata]\nname = a\n[tool:pytest]\n" },
      },
      [section("changed", "setup.cfg")],
    ],
    [
      "setup.cfg's [pytest] is not pytest's section there",
      {
        base: { "setup.cfg": "[pytest]\naddopts = -q\n" },
        head: { "setup.cfg": "[pytest]\naddopts = -x\n" },
      },
      [],
    ],
    [
      "tox.ini has no entry points",
      {
        base: { "tox.ini": "[options.entry_points]\npytest11 = a\n" },
        head: { "tox.ini": "[options.entry_points]\npytest11 = b\n" },
      },
      [],
    ],
    [
      "a deleted tox.ini with a pytest section",
      { base: { "tox.ini": "[pytest]\naddopts = -q\n" }, head: {} },
      [section("deleted", "tox.ini")],
    ],
  ];
  for (const [name, sides, want] of cases) {
    await t.step(name, () => assertEquals(judged(sides), want));
  }
});

Deno.test("checkHarness() takes a package setup.cfg lists one a line as the project's own", () => {
  const cfg = "[options]\npackages =\n    attr\n    attrs\n";
  assertEquals(
    judged({
      base: { "setup.cfg": cfg, "src/attr/__init__.py": "" },
      head: {
        "setup.cfg": cfg,
        "src/attr/__init__.py": "",
        "src/attrs/__init__.py": "from attr import *\n",
      },
    }),
    [],
  );
});
