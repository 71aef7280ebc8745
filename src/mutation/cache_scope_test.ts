import assert from "node:assert/strict";
import { loadPythonParser } from "../python/load_python_parser.ts";
import { oracleCacheScope, wholeTreeScope } from "./cache_scope.ts";
import type { Mutant } from "./mutant.ts";

const parser = await loadPythonParser();

/**
 * A base's oracle tree: `test_a` uses `pkg/a.py` and builds its inputs
 * with `pkg/gen.py`, which `a.py` never calls; `test_b` uses `pkg/b.py`;
 * the conftest imports `pkg/fixtures.py`; `tools/release.py` is imported
 * by nothing a test runs.
 */
const TREE: Record<string, string> = {
  "pkg/__init__.py": "",
  "pkg/a.py": "def f(x):\n    return x + 1\n",
  "pkg/gen.py": "def inputs():\n    return [1, 2]\n",
  "pkg/b.py": "def g(x):\n    return x * 2\n",
  "pkg/fixtures.py": "LIMIT = 3\n",
  "pkg/data.json": "[1, 2]\n",
  "tools/release.py": "print('release')\n",
  "README.md": "# pkg\n",
  "tests/__init__.py": "",
  "tests/conftest.py": "from pkg.fixtures import LIMIT\n",
  "tests/test_a.py": "from pkg.a import f\nfrom pkg.gen import inputs\n",
  "tests/test_b.py": "from pkg.b import g\n",
  "tests/helpers.txt": "unused\n",
};

const MUTANT: Mutant = {
  id: "m0",
  file: "pkg/a.py",
  function: "f",
  line: 2,
  column: 14,
  endLine: 2,
  endColumn: 15,
  start: 23,
  end: 24,
  original: "+",
  replacement: "-",
  operator: "arithmetic",
};

const A = { key: "000/a", nodeId: "tests/test_a.py::test_a" };
const B = { key: "000/b", nodeId: "tests/test_b.py::test_b" };

function scopeOf(tree: Record<string, string>) {
  return oracleCacheScope({
    parser,
    // A file's content id is its text here; the gate gives its object id.
    files: new Map(Object.entries(tree)),
    isTestSide: (p) => p.startsWith("tests/"),
    read: (p) => Promise.resolve(tree[p]),
  });
}

Deno.test("oracleCacheScope() covers what a run can read, and nothing a change elsewhere can reach", async (t) => {
  const cases: {
    what: string;
    change: Record<string, string>;
    selected?: { key: string; nodeId: string }[];
    same: boolean;
  }[] = [
    {
      what: "a module nothing the run runs imports",
      change: { "tools/release.py": "print('v2')\n" },
      same: true,
    },
    {
      what: "a module only a property the run does not select imports",
      change: { "pkg/b.py": "def g(x):\n    return x * 3\n" },
      selected: [A],
      same: true,
    },
    {
      what: "the mutated file",
      change: { "pkg/a.py": "def f(x):\n    return x + 1  # same\n" },
      same: false,
    },
    {
      what:
        "a module the test imports though the mutated function never calls it",
      change: { "pkg/gen.py": "def inputs():\n    return [3]\n" },
      same: false,
    },
    {
      what: "a module another selected property imports",
      change: { "pkg/b.py": "def g(x):\n    return x * 3\n" },
      selected: [A, B],
      same: false,
    },
    {
      what: "a module a conftest imports",
      change: { "pkg/fixtures.py": "LIMIT = 4\n" },
      same: false,
    },
    {
      what: "a file of the code side that is not a Python module",
      change: { "pkg/data.json": "[3]\n" },
      same: false,
    },
    {
      what: "a file of the test side no test imports",
      change: { "tests/helpers.txt": "used\n" },
      same: false,
    },
    {
      what: "a new module of the code side nothing imports",
      change: { "pkg/extra.py": "X = 1\n" },
      same: true,
    },
    {
      what: "the mutated file, though the selected tests do not import it",
      change: { "pkg/a.py": "def f(x):\n    return x + 2\n" },
      selected: [B],
      same: false,
    },
  ];
  for (const c of cases) {
    await t.step(
      `${c.same ? "the same" : "another"} scope after a change to ${c.what}`,
      async () => {
        const selected = c.selected ?? [A];
        const before = await scopeOf(TREE)(MUTANT, selected);
        const after = await scopeOf({ ...TREE, ...c.change })(
          MUTANT,
          selected,
        );
        assert.equal(before === after, c.same);
      },
    );
  }
});

Deno.test("oracleCacheScope() resolves imports from the roots it is given", async () => {
  const tree = {
    "lib/helper.py": "def h():\n    return 1\n",
    "pkg/a.py": "import helper\n\n\ndef f(x):\n    return x + 1\n",
    "tests/test_a.py": "from pkg.a import f\n",
  };
  const scope = (t: Record<string, string>, roots?: string[]) =>
    oracleCacheScope({
      parser,
      files: new Map(Object.entries(t)),
      isTestSide: (p) => p.startsWith("tests/"),
      read: (p) => Promise.resolve(t[p]),
      roots,
    })(MUTANT, [A]);
  const changed = { ...tree, "lib/helper.py": "def h():\n    return 2\n" };
  assert.equal(await scope(tree), await scope(changed));
  assert.notEqual(
    await scope(tree, ["", "src", "lib"]),
    await scope(changed, ["", "src", "lib"]),
  );
});

Deno.test("wholeTreeScope() changes with any file of the tree", async () => {
  const files = new Map(Object.entries(TREE));
  const before = await wholeTreeScope(files)(MUTANT, [A]);
  assert.equal(await wholeTreeScope(new Map(files))(MUTANT, [B]), before);
  const changed = new Map(files).set("tools/release.py", "x\n");
  assert.notEqual(await wholeTreeScope(changed)(MUTANT, [A]), before);
});

Deno.test("oracleCacheScope() covers what the files Python and pytest run unasked import", async (t) => {
  for (
    const unasked of ["__init__.py", "sitecustomize.py", "usercustomize.py"]
  ) {
    await t.step(`a module a test-side ${unasked} imports`, async () => {
      const tree = {
        ...TREE,
        [`tests/${unasked}`]: "from pkg.setup import ON\n",
        "pkg/setup.py": "ON = True\n",
      };
      const changed = { ...tree, "pkg/setup.py": "ON = False\n" };
      assert.notEqual(
        await scopeOf(tree)(MUTANT, [A]),
        await scopeOf(changed)(MUTANT, [A]),
      );
    });
  }
});

Deno.test("oracleCacheScope() and wholeTreeScope() give a tree the same scope whatever order its files and the selected properties come in", async (t) => {
  const reversed = Object.fromEntries(Object.entries(TREE).reverse());
  await t.step("the oracle's files", async () => {
    assert.equal(
      await scopeOf(TREE)(MUTANT, [A, B]),
      await scopeOf(reversed)(MUTANT, [A, B]),
    );
  });
  await t.step("the selected properties", async () => {
    const scope = scopeOf(TREE);
    assert.equal(await scope(MUTANT, [A, B]), await scope(MUTANT, [B, A]));
    assert.equal(
      await scope(MUTANT, [B, A]),
      await scopeOf(TREE)(MUTANT, [A, B]),
    );
  });
  await t.step("a whole tree", async () => {
    const whole = (tree: Record<string, string>) =>
      wholeTreeScope(new Map(Object.entries(tree)))(MUTANT, [A]);
    assert.equal(await whole(TREE), await whole(reversed));
  });
});
