import assert from "node:assert/strict";
import {
  composeOracleTree,
  testRootOf,
  testSidePredicate,
  type Tree,
  type TreeEntry,
} from "./compose_oracle_tree.ts";

function tree(entries: Record<string, string>): Tree {
  const map = new Map<string, TreeEntry>();
  for (const [path, oid] of Object.entries(entries)) {
    const kind: TreeEntry["kind"] = oid === "tree" ? "tree" : "file";
    map.set(path, { path, kind, oid, size: 1 });
  }
  return map;
}

Deno.test("testRootOf() takes the outermost test directory, and none among code", () => {
  assert.equal(testRootOf("tests/unit/test_a.py"), "tests");
  assert.equal(testRootOf("pkg/tests/test_a.py"), "pkg/tests");
  assert.equal(testRootOf("pkg/test_a.py"), undefined);
  assert.equal(testRootOf("test_a.py"), undefined);
});

Deno.test("composeOracleTree() takes every test-side path from the base and the code from the head", () => {
  const base = tree({
    "tests": "tree",
    "tests/__init__.py": "b1",
    "tests/test_a.py": "b2",
    "tests/strategies.py": "b3",
    "pyproject.toml": "b4",
    "src/pkg/__init__.py": "b5",
    "src/pkg/core.py": "b6",
    "conftest.py": "b7",
  });
  const head = tree({
    "tests": "tree",
    "tests/__init__.py": "h1", // a profile loaded here
    "tests/test_a.py": "b2",
    "tests/strategies.py": "h3", // a narrowed strategy
    "tests/helpers_new.py": "h8", // added by the head
    "tests/__pycache__/test_a.cpython-311.pyc": "h9",
    "pyproject.toml": "h4",
    "src/pkg/__init__.py": "h5",
    "src/pkg/core.py": "h6",
    "src/pkg/extra.pth": "h10",
    "conftest.py": "b7",
  });
  const t = composeOracleTree(base, head, {
    testModules: ["tests/test_a.py"],
  });
  assert.ok(t.differs);
  assert.deepEqual(t.testRoots, ["tests"]);
  assert.deepEqual(t.fromBase.map((e) => [e.path, e.oid]), [
    ["pyproject.toml", "b4"],
    ["tests/__init__.py", "b1"],
    ["tests/strategies.py", "b3"],
  ]);
  assert.deepEqual(t.dropFromHead, [
    "src/pkg/extra.pth",
    "tests/helpers_new.py",
  ]);
});

Deno.test("composeOracleTree() says the trees agree when the head changed only code", () => {
  const base = tree({ "tests/test_a.py": "1", "src/a.py": "2" });
  const head = tree({
    "tests/test_a.py": "1",
    "src/a.py": "3",
    "src/b.py": "4",
  });
  const t = composeOracleTree(base, head, { testModules: ["tests/test_a.py"] });
  assert.equal(t.differs, false);
  assert.deepEqual(t.fromBase, []);
  assert.deepEqual(t.dropFromHead, []);
});

Deno.test("composeOracleTree() restores the package __init__ files on the way to a test module and harness paths", () => {
  const base = tree({
    "pkg/__init__.py": "1",
    "pkg/test_a.py": "2",
    "pkg/core.py": "3",
    "tools/plug.py": "4",
  });
  const head = tree({
    "pkg/__init__.py": "5",
    "pkg/test_a.py": "2",
    "pkg/core.py": "6",
    "tools/plug.py": "7",
  });
  const t = composeOracleTree(base, head, {
    testModules: ["pkg/test_a.py"],
    isHarness: (p) => p === "tools/plug.py",
  });
  assert.deepEqual(t.fromBase.map((e) => e.path), [
    "pkg/__init__.py",
    "tools/plug.py",
  ]);
});

function entries(
  list: [string, TreeEntry["kind"], string][],
): Tree {
  return new Map(
    list.map(([path, kind, oid]) => [path, { path, kind, oid, size: 1 }]),
  );
}

Deno.test("testRootOf() finds a test directory by name, in any case", async (t) => {
  const table: [string, string | undefined][] = [
    ["Tests/test_a.py", "Tests"],
    ["src/testing/unit/tests/test_a.py", "src/testing"],
    ["unit_tests/test_a.py", "unit_tests"],
    ["src/pkg/TEST/a.py", "src/pkg/TEST"],
    ["src/pkg/test_a.py", undefined],
  ];
  for (const [module, root] of table) {
    await t.step(`${module} → ${root}`, () => {
      assert.equal(testRootOf(module), root);
    });
  }
});

Deno.test("composeOracleTree() decides each test-side path by kind and object", async (t) => {
  const table: [
    string,
    [string, TreeEntry["kind"], string][],
    [string, TreeEntry["kind"], string][],
    { fromBase: string[]; dropFromHead: string[]; differs: boolean },
  ][] = [
    [
      "the same object made executable differs",
      [["tests/test_a.py", "file", "1"]],
      [["tests/test_a.py", "executable", "1"]],
      { fromBase: ["tests/test_a.py"], dropFromHead: [], differs: true },
    ],
    [
      "a file the head turned into a symlink comes back",
      [["tests/data.txt", "file", "1"], ["tests/test_a.py", "file", "2"]],
      [["tests/data.txt", "symlink", "1"], ["tests/test_a.py", "file", "2"]],
      { fromBase: ["tests/data.txt"], dropFromHead: [], differs: true },
    ],
    [
      "a symlink the head added at a test-side path is dropped",
      [["tests/test_a.py", "file", "2"]],
      [["tests/test_a.py", "file", "2"], ["tests/conftest.py", "symlink", "5"]],
      { fromBase: [], dropFromHead: ["tests/conftest.py"], differs: true },
    ],
    [
      "a test-side symlink the head points elsewhere comes back",
      [["tests/test_a.py", "file", "2"], ["tests/data", "symlink", "1"]],
      [["tests/test_a.py", "file", "2"], ["tests/data", "symlink", "6"]],
      { fromBase: ["tests/data"], dropFromHead: [], differs: true },
    ],
    [
      "a test-side path the base has as a directory is dropped from the head",
      [["tests/test_a.py", "file", "2"], ["conftest.py", "tree", "9"]],
      [["tests/test_a.py", "file", "2"], ["conftest.py", "file", "1"]],
      { fromBase: [], dropFromHead: ["conftest.py"], differs: true },
    ],
    [
      "an executable the head changed comes back",
      [["tests/test_a.py", "file", "2"], ["tests/run.sh", "executable", "1"]],
      [["tests/test_a.py", "file", "2"], ["tests/run.sh", "executable", "3"]],
      { fromBase: ["tests/run.sh"], dropFromHead: [], differs: true },
    ],
    [
      "a submodule at a test-side path is neither taken nor dropped",
      [["tests/test_a.py", "file", "2"]],
      [["tests/test_a.py", "file", "2"], ["tests/vendored", "submodule", "3"]],
      { fromBase: [], dropFromHead: [], differs: false },
    ],
    [
      "the root package __init__ and interpreter start-up files are test-side",
      [["test_a.py", "file", "2"], ["__init__.py", "file", "1"]],
      [
        ["test_a.py", "file", "2"],
        ["__init__.py", "file", "5"],
        ["src/sitecustomize.py", "file", "6"],
        ["lib/usercustomize.py", "file", "7"],
        ["setup.cfg", "file", "8"],
        ["src/app.py", "file", "9"],
      ],
      {
        fromBase: ["__init__.py"],
        dropFromHead: [
          "lib/usercustomize.py",
          "setup.cfg",
          "src/sitecustomize.py",
        ],
        differs: true,
      },
    ],
    [
      "bytecode differs nowhere",
      [["tests/test_a.py", "file", "2"]],
      [
        ["tests/test_a.py", "file", "2"],
        ["tests/__pycache__/test_a.cpython-311.pyc", "file", "3"],
        ["conftest.pyc", "file", "4"],
      ],
      { fromBase: [], dropFromHead: [], differs: false },
    ],
    [
      "a test root the head turned into a symlink differs",
      [["tests", "tree", "1"], ["tests/test_a.py", "file", "2"]],
      [["tests", "symlink", "1"], ["tests/test_a.py", "file", "2"]],
      { fromBase: [], dropFromHead: [], differs: true },
    ],
    [
      "a directory a test module sits in, outside any test root, is not test-side",
      [["pkg/test_a.py", "file", "2"], ["pkg/data.txt", "file", "1"]],
      [["pkg/test_a.py", "file", "2"], ["pkg/data.txt", "file", "3"]],
      { fromBase: [], dropFromHead: [], differs: false },
    ],
  ];
  for (const [label, base, head, expected] of table) {
    await t.step(label, () => {
      const modules = base.map(([p]) => p).filter((p) =>
        /(^|\/)test_a\.py$/.test(p)
      );
      const got = composeOracleTree(entries(base), entries(head), {
        testModules: modules,
      });
      assert.deepEqual({
        fromBase: got.fromBase.map((e) => e.path),
        dropFromHead: got.dropFromHead,
        differs: got.differs,
      }, expected);
    });
  }
});

Deno.test("composeOracleTree() takes test-side paths in path order whatever the listing's order", () => {
  const base = entries([
    ["tests/z.py", "file", "1"],
    ["tests/a.py", "file", "2"],
    ["tests/test_a.py", "file", "3"],
  ]);
  const head = entries([
    ["tests/test_a.py", "file", "3"],
    ["tests/y.py", "file", "4"],
    ["tests/b.py", "file", "5"],
  ]);
  const got = composeOracleTree(base, head, {
    testModules: ["tests/test_a.py"],
  });
  assert.deepEqual(got.fromBase.map((e) => e.path), [
    "tests/a.py",
    "tests/z.py",
  ]);
  assert.deepEqual(got.dropFromHead, ["tests/b.py", "tests/y.py"]);
});

Deno.test("composeOracleTree() lists each test root once, in path order", () => {
  const composed = composeOracleTree(new Map(), new Map(), {
    testModules: [
      "z_tests/test_a.py",
      "a_tests/test_b.py",
      "z_tests/unit/test_c.py",
    ],
  });
  assert.deepEqual(composed.testRoots, ["a_tests", "z_tests"]);
  assert.equal(composed.differs, false);
});

Deno.test("composeOracleTree() gives a test module among code no test root", () => {
  const composed = composeOracleTree(new Map(), new Map(), {
    testModules: ["test_a.py", "pkg/test_b.py", "tests/test_c.py"],
  });
  assert.deepEqual(composed.testRoots, ["tests"]);
});

Deno.test("testSidePredicate() counts every root pytest or Hypothesis configuration file as test side", async (t) => {
  const testSide = testSidePredicate({ testModules: [] });
  for (
    const path of [
      "pytest.ini",
      ".pytest.ini",
      "pyproject.toml",
      "setup.cfg",
      "tox.ini",
    ]
  ) {
    await t.step(path, () => {
      assert.equal(testSide(path), true);
      assert.equal(testSide(`pkg/${path}`), false);
    });
  }
});

Deno.test("testSidePredicate() counts a conftest.py or an interpreter start-up file as test side wherever it sits", async (t) => {
  const testSide = testSidePredicate({ testModules: ["tests/test_a.py"] });
  const table: [string, boolean][] = [
    ["conftest.py", true],
    ["src/pkg/conftest.py", true],
    ["src/pkg/sitecustomize.py", true],
    ["lib/usercustomize.py", true],
    ["src/site.pth", true],
    ["src/pkg/my_conftest.py", false],
    ["src/pkg/conftest.py.bak", false],
    ["src/pkg/mod.py", false],
  ];
  for (const [path, expected] of table) {
    await t.step(`${path}: ${expected ? "test side" : "code"}`, () => {
      assert.equal(testSide(path), expected);
    });
  }
});

Deno.test("testSidePredicate() counts the package __init__ files on the way to a test module, and no other", async (t) => {
  const testSide = testSidePredicate({ testModules: ["pkg/sub/test_a.py"] });
  const table: [string, boolean][] = [
    ["__init__.py", true],
    ["pkg/__init__.py", true],
    ["pkg/sub/__init__.py", true],
    ["pkg/sub/test_a.py/__init__.py", false],
    ["pkg/other/__init__.py", false],
    ["pkgsub/__init__.py", false],
    ["pkg/sub/core.py", false],
  ];
  for (const [path, expected] of table) {
    await t.step(`${path}: ${expected ? "test side" : "code"}`, () => {
      assert.equal(testSide(path), expected);
    });
  }
});
