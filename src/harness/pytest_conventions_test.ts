/**
 * One table per harness rule, covering every file pytest reads its
 * configuration from and every name pytest collects by default, so that
 * narrowing a rule to some of them fails here.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import type { ChangedPath } from "../git/git.ts";
import type {
  PythonFunction,
  PythonModule,
  SkipMarker,
} from "../python/python_module.ts";
import { checkHarness } from "./check_harness.ts";
import { checkSkips } from "./check_skips.ts";

const NO_MODULES = new Map<string, PythonModule>();
const STATUSES: ChangedPath["status"][] = ["A", "M", "D"];
const DEPTHS = ["", "tests/", "pkg/sub/deeper/"];

/** Each config file pytest reads, with a base and head text whose pytest settings differ. */
const CONFIG_FILES: {
  name: string;
  rule: string;
  base: string;
  head: string;
}[] = [
  {
    name: "pytest.ini",
    rule: "harness.pytest_config_changed",
    base: "[pytest]\naddopts = -q\n",
    head: "[pytest]\naddopts = -q -k 'not slow'\n",
  },
  {
    name: ".pytest.ini",
    rule: "harness.pytest_config_changed",
    base: "[pytest]\naddopts = -q\n",
    head: "[pytest]\naddopts = -q -k 'not slow'\n",
  },
  {
    name: "pyproject.toml",
    rule: "harness.pytest_config_changed",
    base: '[tool.pytest.ini_options]\naddopts = "-q"\n',
    head:
      '[tool.pytest.ini_options]\naddopts = "-q --deselect tests/test_a.py"\n',
  },
  {
    name: "tox.ini",
    rule: "harness.pytest_config_changed",
    base: "[pytest]\naddopts = -q\n",
    head: "[pytest]\naddopts = -q --lf\n",
  },
  {
    name: "setup.cfg",
    rule: "harness.pytest_config_changed",
    base: "[tool:pytest]\naddopts = -q\n",
    head: "[tool:pytest]\naddopts = -q --lf\n",
  },
  {
    name: "conftest.py",
    rule: "harness.conftest_changed",
    base: "def pytest_runtest_setup(item):\n    pass\n",
    head: "def pytest_runtest_setup(item):\n    raise SystemExit(0)\n",
  },
];

Deno.test("checkHarness() reports every config file pytest reads, at any depth, added, changed or deleted", async (t) => {
  for (const file of CONFIG_FILES) {
    for (const depth of DEPTHS) {
      for (const status of STATUSES) {
        const path = `${depth}${file.name}`;
        await t.step(`${status} ${path}`, () => {
          const base = new Map(status === "A" ? [] : [[path, file.base]]);
          const head = new Map(status === "D" ? [] : [[path, file.head]]);
          const found = checkHarness([{ status, path }], {
            texts: { base, head },
            headModules: NO_MODULES,
            baseModules: NO_MODULES,
          }).map((f) => `${f.rule}@${f.path}`);
          assertEquals(found, [`${file.rule}@${path}`]);
        });
      }
    }
  }
});

Deno.test("checkHarness() leaves files pytest does not read alone", async (t) => {
  for (
    const path of [
      "pytest.ini.bak",
      "docs/pytest.ini.md",
      "conftest.pyc.txt",
      "notpytest.ini",
    ]
  ) {
    await t.step(path, () => {
      const found = checkHarness([{ status: "A", path }], {
        texts: { base: new Map(), head: new Map() },
        headModules: NO_MODULES,
        baseModules: NO_MODULES,
      });
      assertEquals(found.map((f) => f.rule), []);
    });
  }
});

function fn(
  qualname: string,
  skips: SkipMarker[] = [],
): PythonFunction {
  const name = qualname.split(".").at(-1)!;
  return {
    name,
    qualname,
    line: 1,
    endLine: 2,
    source: `def ${name}():\n    assert f()`,
    decorators: [],
    usesHypothesis: false,
    skips,
    exampleAssertions: 0,
  };
}

function mod(fn: PythonFunction): PythonModule {
  return { functions: new Map([[fn.qualname, fn]]) };
}

Deno.test("checkSkips() reports a skip added to every test pytest collects by default", async (t) => {
  // python_files = test_*.py *_test.py; python_classes = Test*;
  // python_functions = test* (a prefix, so testFoo and test are tests too).
  const files = ["tests/test_billing.py", "tests/billing_test.py", "test_x.py"];
  const names = [
    "test_refund",
    "testRefund",
    "test",
    "tests_refund",
    "TestRefund.test_amount",
    "TestRefund.testAmount",
    "Test.test",
    "TestRefund.Nested.test_inner",
  ];
  for (const path of files) {
    for (const qualname of names) {
      for (const kind of ["skip", "skipif", "xfail", "importorskip"] as const) {
        await t.step(`${kind} on ${path}::${qualname}`, () => {
          const found = checkSkips([{ status: "M", path }], {
            baseModules: new Map([[path, mod(fn(qualname))]]),
            headModules: new Map([[
              path,
              mod(fn(qualname, [{ kind, line: 4 }])),
            ]]),
          });
          assertEquals(
            found.map((f) => [f.rule, f.path, f.line]),
            [["tests.skip_added", path, 4]],
          );
        });
      }
    }
  }
});
