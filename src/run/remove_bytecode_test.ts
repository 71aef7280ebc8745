import assert from "node:assert/strict";
import { isBytecodePath, removeBytecode } from "./remove_bytecode.ts";

Deno.test("isBytecodePath() tells bytecode from source by name and folder", async (t) => {
  const table: [string, boolean][] = [
    ["pkg/__pycache__/a.cpython-311.pyc", true],
    ["pkg/__pycache__/notes.txt", true],
    ["__pycache__", true],
    ["pkg/a.pyc", true],
    ["pkg/a.pyo", true],
    ["pkg/A.PYC", true],
    ["pkg/a.py", false],
    ["pkg/a.pyx", false],
    ["pkg/a.pyc.txt", false],
    ["pkg/__pycache__x/a.txt", false],
    ["pkg.pyc/a.py", false],
  ];
  for (const [path, expected] of table) {
    await t.step(`${path} is ${expected ? "" : "not "}bytecode`, () => {
      assert.equal(isBytecodePath(path), expected);
    });
  }
});

Deno.test("removeBytecode() removes every bytecode path under a tree and nothing else", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pawl_remove_bytecode_" });
  const outside = await Deno.makeTempDir({ prefix: "pawl_remove_bytecode_" });
  try {
    for (const d of ["pkg/__pycache__", "pkg/sub/__pycache__", "data"]) {
      await Deno.mkdir(`${dir}/${d}`, { recursive: true });
    }
    const files = [
      "a.py",
      "top.pyc",
      "pkg/b.py",
      "pkg/B.PYO",
      "pkg/__pycache__/b.cpython-311.pyc",
      "pkg/sub/__pycache__/c.cpython-311.pyc",
      "pkg/sub/c.pyc.txt",
      "data/__pycache__",
    ];
    for (const f of files) await Deno.writeTextFile(`${dir}/${f}`, "x");
    await Deno.writeTextFile(`${outside}/kept.pyc`, "x");
    await Deno.symlink(outside, `${dir}/linked`);
    await Deno.symlink(`${outside}/kept.pyc`, `${dir}/link.pyc`);
    assert.deepEqual(await removeBytecode(dir), [
      "link.pyc",
      "pkg/B.PYO",
      "pkg/__pycache__",
      "pkg/sub/__pycache__",
      "top.pyc",
    ]);
    const left: string[] = [];
    const walk = async (rel: string) => {
      for await (const e of Deno.readDir(rel === "" ? dir : `${dir}/${rel}`)) {
        const path = rel === "" ? e.name : `${rel}/${e.name}`;
        left.push(path);
        if (e.isDirectory) await walk(path);
      }
    };
    await walk("");
    assert.deepEqual(left.sort(), [
      "a.py",
      "data",
      "data/__pycache__",
      "linked",
      "pkg",
      "pkg/b.py",
      "pkg/sub",
      "pkg/sub/c.pyc.txt",
    ]);
    assert.equal(await Deno.readTextFile(`${outside}/kept.pyc`), "x");
  } finally {
    await Deno.remove(dir, { recursive: true });
    await Deno.remove(outside, { recursive: true });
  }
});
