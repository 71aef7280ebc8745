import assert from "node:assert/strict";
import { analyzePython } from "../python/analyze_python.ts";
import { loadPythonParser } from "../python/load_python_parser.ts";
import type { PythonModule } from "../python/python_module.ts";
import {
  type Located,
  locateModule,
  type NameSide,
  resolveName,
} from "./_resolve_names.ts";

const parser = await loadPythonParser();

/** A commit of analysed files from `path: source` pairs. */
function side(sources: Record<string, string>): NameSide {
  return {
    modules: new Map(
      Object.entries(sources).map(([path, text]) => [
        path,
        analyzePython(parser, text),
      ]),
    ),
    tree: new Map(),
  };
}

function at(s: NameSide, path: string): Located {
  return { path, module: s.modules.get(path) as PythonModule };
}

Deno.test("locateModule() finds the file a dotted module is, relative imports included", async (t) => {
  const s = side({
    "pkg/__init__.py": "",
    "pkg.py": "",
    "pkg/mod.py": "",
    "src/lib/__init__.py": "",
    "src/lib/util.py": "",
    "util.py": "",
    "tests/__init__.py": "",
    "tests/common.py": "",
    "tests/unit/__init__.py": "",
    "tests/unit/helpers.py": "",
    "tests/unit/test_a.py": "",
  });
  const cases: [string, string, string | undefined, string | undefined][] = [
    ["a module file", "pkg.mod", undefined, "pkg/mod.py"],
    [
      "a package before a module file of its name",
      "pkg",
      undefined,
      "pkg/__init__.py",
    ],
    ["a package under src/", "lib", undefined, "src/lib/__init__.py"],
    ["a module under src/", "lib.util", undefined, "src/lib/util.py"],
    ["the root's module before src/'s", "util", undefined, "util.py"],
    ["a module nowhere", "other", undefined, undefined],
    [
      "one dot: beside the importing file",
      ".helpers",
      "tests/unit/test_a.py",
      "tests/unit/helpers.py",
    ],
    [
      "two dots: one folder up",
      "..common",
      "tests/unit/test_a.py",
      "tests/common.py",
    ],
    [
      "one dot alone: the importing file's package",
      ".",
      "tests/unit/test_a.py",
      "tests/unit/__init__.py",
    ],
    [
      "two dots alone: the package above",
      "..",
      "tests/unit/test_a.py",
      "tests/__init__.py",
    ],
    [
      "more dots than folders: from the root",
      "....util",
      "tests/unit/test_a.py",
      "util.py",
    ],
    [
      "a relative module with no importing file",
      ".helpers",
      undefined,
      undefined,
    ],
  ];
  for (const [name, dotted, from, want] of cases) {
    await t.step(name, () => {
      assert.equal(locateModule(s, dotted, from)?.path, want);
    });
  }
  await t.step("a file added to the analyses is found after a miss", () => {
    const grown = side({ "a.py": "" });
    assert.equal(locateModule(grown, "b"), undefined);
    (grown.modules as Map<string, PythonModule>).set(
      "b.py",
      analyzePython(parser, ""),
    );
    assert.equal(locateModule(grown, "b")?.path, "b.py");
  });
});

Deno.test("resolveName() follows a name to the module-level definition it stands for", async (t) => {
  const s = side({
    "pkg/__init__.py":
      "from .mod import helper\nfrom . import sub\nfrom pkg import mod as m2\n",
    "pkg/mod.py": "def helper():\n    pass\n\nLIMIT = 3\n",
    "pkg/sub/__init__.py": "",
    "pkg/sub/deep.py": "def inner():\n    pass\n",
    "tests/__init__.py": "",
    "tests/helpers/__init__.py": "",
    "tests/helpers/extra.py": "def more():\n    pass\n",
    "tests/support.py": "import pkg.mod\n\ndef check():\n    pass\n",
    "tests/test_a.py": [
      "import pkg.mod",
      "import pkg.sub.deep as deep",
      "from pkg import helper",
      "from pkg import mod",
      "from pkg import sub",
      "from pkg.mod import LIMIT as CAP",
      "from . import support",
      "from .support import check",
      "from .. import top",
      "from missing import gone",
      "from .helpers import extra",
      "",
      "def local():",
      "    pass",
      "",
    ].join("\n"),
    "a.py": "from b import x\n",
    "b.py": "from a import x\n",
    "c.py": "from d import m\n",
    "d.py": "from c import m\n",
  });
  const test = at(s, "tests/test_a.py");
  const cases: [string, string, [string, number] | undefined][] = [
    ["a function of the module itself", "local", ["tests/test_a.py", 13]],
    ["a name imported through a package's re-export", "helper", [
      "pkg/mod.py",
      1,
    ]],
    ["a name imported under another name", "CAP", ["pkg/mod.py", 4]],
    ["a dotted name through an imported module", "mod.helper", [
      "pkg/mod.py",
      1,
    ]],
    ["a dotted name through a module path", "pkg.mod.LIMIT", ["pkg/mod.py", 4]],
    [
      "a dotted name through a subpackage imported from its package",
      "sub.deep.inner",
      ["pkg/sub/deep.py", 1],
    ],
    ["a name of a module imported relatively", "support.check", [
      "tests/support.py",
      3,
    ]],
    ["a name imported relatively", "check", ["tests/support.py", 3]],
    [
      "a module imported from a package that imports it: the package's import",
      "sub",
      [
        "pkg/__init__.py",
        2,
      ],
    ],
    ["a name from a module nowhere: the import itself", "gone", [
      "tests/test_a.py",
      10,
    ]],
    ["a dotted name through a package's re-export", "pkg.helper", [
      "pkg/mod.py",
      1,
    ]],
    [
      "three parts under a relative import are not followed",
      "support.pkg.mod",
      undefined,
    ],
    ["a module imported: the import itself", "deep", ["tests/test_a.py", 2]],
    ["a package imported: the import itself", "pkg", ["tests/test_a.py", 1]],
    ["a name of a module imported relatively from a package", "extra.more", [
      "tests/helpers/extra.py",
      1,
    ]],
    ["a name under a relative import of nothing pawl read", "top.a", undefined],
    ["a subpackage its package imports, by a dotted path", "pkg.sub", [
      "pkg/__init__.py",
      2,
    ]],
    ["two names through a package's aliased import", "pkg.m2.LIMIT", [
      "pkg/mod.py",
      4,
    ]],
    ["a name nowhere", "nothing", undefined],
    ["an attribute of a name nowhere", "nothing.x", undefined],
    ["two levels under a relative import", "top.a.b", undefined],
    [
      "a name the module does not define, under a module it imports",
      "mod.nothing",
      undefined,
    ],
  ];
  for (const [name, dotted, want] of cases) {
    await t.step(name, () => {
      const got = resolveName(s, test, dotted);
      assert.deepEqual(
        got === undefined ? undefined : [got.at.path, got.definition.line],
        want,
      );
    });
  }
  for (const [hops, want] of [[8, "assign"], [9, "import"]] as const) {
    await t.step(
      `a name re-exported ${hops} times over: followed 8 times at most`,
      () => {
        const chain: Record<string, string> = {};
        for (let i = 0; i < hops; i++) {
          chain[`m${i}.py`] = `from m${i + 1} import x\n`;
        }
        chain[`m${hops}.py`] = "x = 1\n";
        const c = side(chain);
        const got = resolveName(c, at(c, "m0.py"), "x");
        assert.equal(got?.definition.kind, want);
        assert.equal(got?.at.path, "m8.py");
      },
    );
  }
  await t.step(
    "dotted names through imports that go round in a circle end",
    () => {
      assert.equal(resolveName(s, at(s, "c.py"), "m.f"), undefined);
    },
  );
  for (const [hops, want] of [[7, "assign"], [8, "import"]] as const) {
    await t.step(
      `a name re-exported ${hops} times over after a relative import of its module: followed 8 times at most`,
      () => {
        const chain: Record<string, string> = {
          "rel/__init__.py": "",
          "rel/start.py": "from . import m0\n",
        };
        for (let i = 0; i < hops; i++) {
          chain[`rel/m${i}.py`] = `from .m${i + 1} import x\n`;
        }
        chain[`rel/m${hops}.py`] = "x = 1\n";
        const c = side(chain);
        const got = resolveName(c, at(c, "rel/start.py"), "m0.x");
        assert.equal(got?.definition.kind, want);
        assert.equal(got?.at.path, "rel/m7.py");
      },
    );
  }
  await t.step(
    "imports that go round in a circle end, at one of the imports",
    () => {
      const got = resolveName(s, at(s, "a.py"), "x");
      assert.equal(got?.definition.kind, "import");
    },
  );
});
