import assert from "node:assert/strict";
import type { EntryKind, Tree, TreeEntry } from "../git/git.ts";
import { modulePath, modulePathCandidates } from "./module_path.ts";

/** A tree with `files` and every directory above them. */
function treeOf(files: Record<string, EntryKind>): Tree {
  const tree = new Map<string, TreeEntry>();
  for (const [path, kind] of Object.entries(files)) {
    const segments = path.split("/");
    for (let n = 1; n < segments.length; n++) {
      const dir = segments.slice(0, n).join("/");
      tree.set(dir, { path: dir, kind: "tree", oid: `t:${dir}`, size: 0 });
    }
    tree.set(path, { path, kind, oid: `o:${path}`, size: 10 });
  }
  return tree;
}

Deno.test("modulePath() resolves dotted modules like Python does", async (t) => {
  const cases: [
    string,
    Record<string, "file" | "executable" | "symlink" | "submodule">,
    string | undefined,
  ][] = [
    ["a.b.c", { "a/b/c.py": "file" }, "a/b/c.py"],
    ["a.b.c", { "a/b/c/__init__.py": "file" }, "a/b/c/__init__.py"],
    [
      "a.b.c",
      { "a/b/c.py": "file", "a/b/c/__init__.py": "file" },
      "a/b/c/__init__.py",
    ],
    ["a.b.c", { "a/b/c.py": "symlink" }, undefined],
    ["a.b.c", { "a/b/c.py": "executable" }, "a/b/c.py"],
    [
      "a.b.c",
      { "a/b/c/__init__.py": "symlink", "a/b/c.py": "file" },
      "a/b/c.py",
    ],
    ["a.b.c", { "a/b/c.py": "submodule" }, undefined],
    ["a.b.c", { "a/b/d.py": "file" }, undefined],
    ["test_top", { "test_top.py": "file" }, "test_top.py"],
  ];
  for (const [module, files, expected] of cases) {
    await t.step(`${module} in ${Object.keys(files).join(", ")}`, () => {
      assert.equal(modulePath(module, treeOf(files)), expected);
    });
  }
  assert.deepEqual(modulePathCandidates("x"), ["x/__init__.py", "x.py"]);
});
