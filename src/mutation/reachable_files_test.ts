import assert from "node:assert/strict";
import { loadPythonParser } from "../python/load_python_parser.ts";
import { importedPaths, reachableFiles } from "./reachable_files.ts";

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

Deno.test("importedPaths() resolves each kind of import to the tree's files", async (t) => {
  const tree = new Set([
    "app/__init__.py",
    "app/core/__init__.py",
    "app/core/calc.py",
    "app/core/fmt.py",
    "app/util.py",
    "app/sub/__init__.py",
    "app/sub/deep/__init__.py",
    "app/sub/deep/leaf.py",
    "src/lib.py",
    "vendor/thing.py",
    "tests/conftest.py",
    "tests/neighbour.py",
    "tests/helpers/__init__.py",
    "tests/helpers/sub.py",
  ]);
  const has = (p: string) => tree.has(p);
  const cases: [string, string, string, string[], string[]][] = [
    [
      "a dotted import runs every package on the way",
      "tests/test_x.py",
      "import app.core.calc\n",
      ["", "src"],
      ["app/__init__.py", "app/core/__init__.py", "app/core/calc.py"],
    ],
    [
      "an aliased import counts; a module outside the tree does not",
      "tests/test_x.py",
      "import app.util as u, json\n",
      ["", "src"],
      ["app/__init__.py", "app/util.py"],
    ],
    [
      "every module one import statement names counts, not only the first",
      "tests/test_x.py",
      "import json, app.util, lib as l\n",
      ["", "src"],
      ["app/__init__.py", "app/util.py", "src/lib.py"],
    ],
    [
      "an absolute import resolves from each root and from the file's folder",
      "tests/test_x.py",
      "import lib\nimport neighbour\nimport thing\n",
      ["", "src"],
      ["src/lib.py", "tests/neighbour.py"],
    ],
    [
      "roots given replace the default ones",
      "tests/test_x.py",
      "import lib\nimport thing\n",
      ["vendor"],
      ["vendor/thing.py"],
    ],
    [
      "from a package, names that are modules and names that are not",
      "tests/test_x.py",
      "from app.core import calc, fmt, nothing\n",
      ["", "src"],
      [
        "app/__init__.py",
        "app/core/__init__.py",
        "app/core/calc.py",
        "app/core/fmt.py",
      ],
    ],
    [
      "from a package, a name that is a subpackage",
      "tests/test_x.py",
      "from app import sub\n",
      ["", "src"],
      ["app/__init__.py", "app/sub/__init__.py"],
    ],
    [
      "a from-import resolves its names from the file's folder too",
      "tests/test_x.py",
      "from helpers import sub\n",
      ["", "src"],
      ["tests/helpers/__init__.py", "tests/helpers/sub.py"],
    ],
    [
      "one dot is the file's own package",
      "app/core/calc.py",
      "from . import fmt\n",
      ["", "src"],
      ["app/core/__init__.py", "app/core/fmt.py"],
    ],
    [
      "each further dot is one package up",
      "app/sub/deep/leaf.py",
      "from ...util import x\nfrom .. import nothing\n",
      ["", "src"],
      ["app/sub/__init__.py", "app/util.py"],
    ],
    [
      "a relative module with a dotted tail runs its packages",
      "app/calc_user.py",
      "from .sub.deep import leaf\n",
      ["", "src"],
      [
        "app/sub/__init__.py",
        "app/sub/deep/__init__.py",
        "app/sub/deep/leaf.py",
      ],
    ],
    [
      "a star import from a relative module runs the module and its packages",
      "app/calc_user.py",
      "from .sub.deep.leaf import *\n",
      ["", "src"],
      [
        "app/sub/__init__.py",
        "app/sub/deep/__init__.py",
        "app/sub/deep/leaf.py",
      ],
    ],
    [
      "dots above the top stop at the top",
      "app/util.py",
      "from .... import app\n",
      ["", "src"],
      ["app/__init__.py"],
    ],
    [
      "two dots in a top-level package look at the top",
      "app/util.py",
      "from .. import app\n",
      ["", "src"],
      ["app/__init__.py"],
    ],
    [
      "a file never imports itself",
      "app/util.py",
      "import app.util\n",
      ["", "src"],
      ["app/__init__.py"],
    ],
    [
      "a top-level file's relative import looks at the top",
      "conftest.py",
      "from .app import util\n",
      ["", "src"],
      ["app/__init__.py", "app/util.py"],
    ],
  ];
  for (const [name, file, text, roots, expected] of cases) {
    await t.step(name, () => {
      assert.deepEqual(
        importedPaths(parser, file, text, roots, has),
        expected,
      );
    });
  }
});

Deno.test("reachableFiles() reads each file once and skips what it cannot read", async () => {
  const files = new Map<string, string | undefined>([
    ["test_a.py", "import a\nimport b\n"],
    ["a.py", "import b\nimport c\n"],
    ["b.py", "import a\n"],
    ["c.py", undefined],
  ]);
  const reads: string[] = [];
  const got = await reachableFiles(parser, ["test_a.py", "gone.py"], {
    has: (p) => files.has(p),
    read: (p) => {
      reads.push(p);
      return Promise.resolve(files.get(p));
    },
  });
  assert.deepEqual(got, ["a.py", "b.py", "c.py", "test_a.py"]);
  assert.deepEqual(reads, ["test_a.py", "a.py", "b.py", "c.py"]);
});

Deno.test("reachableFiles() goes on past a file it cannot read to the files still to follow", async () => {
  const files = new Map<string, string | undefined>([
    ["test_a.py", "import a\nimport b\n"],
    ["a.py", undefined],
    ["b.py", "import c\n"],
    ["c.py", ""],
  ]);
  const got = await reachableFiles(parser, ["test_a.py"], {
    has: (p) => files.has(p),
    read: (p) => Promise.resolve(files.get(p)),
  });
  assert.deepEqual(got, ["a.py", "b.py", "c.py", "test_a.py"]);
});
