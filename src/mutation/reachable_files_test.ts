import assert from "node:assert/strict";
import { loadPythonParser } from "../python/load_python_parser.ts";
import { reachableFiles } from "./reachable_files.ts";

const parser = await loadPythonParser();

Deno.test("reachableFiles() follows imports from the test modules through the tree", async () => {
  const files = new Map<string, string>([
    ["tests/test_a.py", "from shop.cart import total\nimport helpers\n"],
    ["tests/helpers.py", "from src_pkg import x\n"],
    ["src/shop/__init__.py", ""],
    ["src/shop/cart.py", "from . import prices\nfrom .tax import rate\n"],
    ["src/shop/prices.py", "import os\n"],
    ["src/shop/tax.py", "from ..util import nothing\n"],
    ["src/shop/unused.py", "x = 1\n"],
    ["lib/other.py", "y = 2\n"],
  ]);
  const got = await reachableFiles(parser, ["tests/test_a.py"], {
    has: (p) => files.has(p),
    read: (p) => Promise.resolve(files.get(p)),
  });
  assert.deepEqual(got, [
    "src/shop/__init__.py",
    "src/shop/cart.py",
    "src/shop/prices.py",
    "src/shop/tax.py",
    "tests/helpers.py",
    "tests/test_a.py",
  ]);
});

Deno.test("reachableFiles() resolves a from-import of a submodule and ignores what the tree lacks", async () => {
  const files = new Map<string, string>([
    ["test_top.py", "from pkg import mod as m\nimport hypothesis\n"],
    ["pkg/__init__.py", ""],
    ["pkg/mod.py", "def f():\n    import pkg.late\n"],
    ["pkg/late.py", ""],
  ]);
  const got = await reachableFiles(parser, ["test_top.py", "missing.py"], {
    has: (p) => files.has(p),
    read: (p) => Promise.resolve(files.get(p)),
  });
  assert.deepEqual(got, [
    "pkg/__init__.py",
    "pkg/late.py",
    "pkg/mod.py",
    "test_top.py",
  ]);
});
