import assert from "node:assert/strict";
import {
  composeOracleTree,
  testRootOf,
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
