import assert from "node:assert/strict";
import type { Tree, TreeEntry } from "../git/git.ts";
import { readSettings } from "../settings/read_settings.ts";
import { coldStartReason, warmModulesUnshadowed } from "./warm_start.ts";

function tree(paths: readonly string[]): Tree {
  return new Map(
    paths.map((path) => [path, { path, kind: "blob" } as unknown as TreeEntry]),
  );
}

const LOADED = ["runpy", "pytest", "_pytest", "pluggy", "json", "_socket"];

Deno.test("warmModulesUnshadowed() refuses a tree entry named like a loaded module at the root or a pythonpath entry", () => {
  const plain = ["src/app/__init__.py", "tests/test_app.py", "README.md"];
  assert.equal(warmModulesUnshadowed(LOADED, tree(plain), []), true);
  for (
    const entry of [
      "pytest.py",
      "_pytest/__init__.py",
      "pluggy/x.txt", // a namespace package directory
      "json.py",
      "_socket.cpython-311-x86_64-linux-gnu.so",
      "_socket.so",
      "runpy.pyc",
      "foo-1.0.dist-info/METADATA",
      "foo.egg-info/PKG-INFO",
      "extra.pth",
    ]
  ) {
    assert.equal(
      warmModulesUnshadowed(LOADED, tree([...plain, entry]), []),
      false,
      entry,
    );
    assert.equal(
      warmModulesUnshadowed(LOADED, tree([...plain, `src/${entry}`]), ["src"]),
      false,
      `src/${entry}`,
    );
  }
  // Deeper than a search path: a package's own module of that name.
  assert.equal(
    warmModulesUnshadowed(LOADED, tree([...plain, "src/app/json.py"]), ["src"]),
    true,
  );
  assert.equal(
    warmModulesUnshadowed(LOADED, tree([...plain, "lib/json.py"]), ["src"]),
    true,
  );
});

Deno.test("coldStartReason() leaves only pawl's own python3 -m pytest without pythonpath or PYTHON variables warm", () => {
  assert.equal(coldStartReason(readSettings("")), undefined);
  assert.equal(
    coldStartReason(
      readSettings('[environment]\nenv = { APP_MODE = "test" }\n'),
    ),
    undefined,
  );
  let judged = 0;
  for (
    const toml of [
      '[tests]\ncommand = ["python3", "-X", "dev", "-m", "pytest"]\n',
      '[tests]\ncommand = ["pytest", "-q"]\n',
      '[environment]\npython = "/usr/bin/python3"\n',
      '[environment]\npythonpath = ["src"]\n',
      '[environment]\npythonpath = ["."]\n',
      '[environment]\nenv = { PYTHONSAFEPATH = "1" }\n',
    ]
  ) {
    let settings;
    try {
      settings = readSettings(toml);
    } catch {
      continue; // refused by the settings reader itself
    }
    assert.notEqual(coldStartReason(settings), undefined, toml);
    judged++;
  }
  assert.ok(judged >= 3, `only ${judged} of the settings read`);
});
