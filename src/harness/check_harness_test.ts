import { deepStrictEqual as assertEquals } from "node:assert/strict";
import type { ChangedPath } from "../git/git.ts";
import type { PythonModule } from "../python/python_module.ts";
import { checkHarness } from "./check_harness.ts";

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
      name: "a module shadowing hypothesis is a plugin change",
      changes: [{ status: "A", path: "tests/hypothesis/__init__.py" }],
      want: ["harness.plugin_changed@tests/hypothesis/__init__.py"],
    },
    {
      name: "a top-level pytest.py is a plugin change",
      changes: [{ status: "A", path: "pytest.py" }],
      want: ["harness.plugin_changed@pytest.py"],
    },
    {
      name: "sitecustomize.py and .pth files are plugin changes",
      changes: [
        { status: "A", path: "sitecustomize.py" },
        { status: "A", path: "lib/evil.pth" },
      ],
      want: [
        "harness.plugin_changed@sitecustomize.py",
        "harness.plugin_changed@lib/evil.pth",
      ],
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
