import assert from "node:assert/strict";
import type { EntryKind, Tree, TreeEntry } from "../git/git.ts";
import {
  checkFixturePath,
  describeFixtureRoots,
  REPOSITORY_ROOT,
} from "./check_fixture_path.ts";

function tree(entries: Record<string, EntryKind>): Tree {
  return new Map(
    Object.entries(entries).map(([path, kind]): [string, TreeEntry] => [
      path,
      { path, kind, oid: path, size: 1 },
    ]),
  );
}

const TREE = tree({
  "tests": "tree",
  "tests/fixtures": "tree",
  "tests/fixtures/a.json": "file",
  "tests/fixtures/run.sh": "executable",
  "tests/fixtures/link.json": "symlink",
  "tests/fixtures/dir": "tree",
  "tests/fixtures/dir/b.json": "file",
  "tests/fixtures/linked": "symlink",
  "tests/fixtures/vendor": "submodule",
  "tests/fixtures/plain": "file",
  "tests/other.json": "file",
});

Deno.test("checkFixturePath() classifies paths", async (t) => {
  const cases: [string, string, RegExp?][] = [
    ["tests/fixtures/a.json", "ok"],
    ["tests/fixtures/run.sh", "ok"],
    ["tests/fixtures/dir/b.json", "ok"],
    ["", "unsafe", /is empty/],
    ["/etc/passwd", "unsafe", /is absolute/],
    ["/tests/fixtures/a.json", "unsafe", /is absolute/],
    ["C:/tests/fixtures/a.json", "unsafe", /is absolute/],
    ["../tests/fixtures/a.json", "unsafe", /".."/],
    ["tests/fixtures/../other.json", "unsafe", /".."/],
    ["tests/fixtures/dir/../a.json", "unsafe", /".."/],
    ["tests/fixtures/./a.json", "unsafe", /"\."/],
    ["tests/fixtures//a.json", "unsafe", /empty segment/],
    ["tests/fixtures/dir/", "unsafe", /empty segment/],
    ["tests\\fixtures\\a.json", "unsafe", /backslash/],
    ["tests/fixtures/a\u0000.json", "unsafe", /control character/],
    ["tests/fixtures/a\u001f.json", "unsafe", /control character/],
    ["tests/fixtures/a\u007f.json", "unsafe", /control character/],
    ["tests/fixtures/a\n.json", "unsafe", /control character/],
    ["tests/fixtures/a .json", "missing", /does not exist/],
    ["tests/fixtures/a\u0080.json", "missing", /does not exist/],
    ["z:/tests/fixtures/a.json", "unsafe", /is absolute/],
    ["tests/fixtures/C:a.json", "missing", /does not exist/],
    ["tests/other.json", "unsafe", /outside "tests\/fixtures\/"/],
    ["tests/fixtures", "unsafe", /outside/],
    ["tests/fixturesX/a.json", "unsafe", /outside/],
    ["fixtures/a.json", "unsafe", /outside/],
    ["tests/fixtures/none.json", "missing", /does not exist/],
    [
      "tests/fixtures/plain/x.json",
      "missing",
      /"tests\/fixtures\/plain" is a file/,
    ],
    ["tests/fixtures/link.json", "not_regular", /is a symlink/],
    [
      "tests/fixtures/linked/b.json",
      "not_regular",
      /symlink "tests\/fixtures\/linked"/,
    ],
    ["tests/fixtures/dir", "not_regular", /is a directory/],
    ["tests/fixtures/vendor", "not_regular", /is a submodule/],
    ["tests/fixtures/vendor/x.json", "not_regular", /inside the submodule/],
  ];
  for (const [path, status, reason] of cases) {
    await t.step(`${JSON.stringify(path)} is ${status}`, () => {
      const result = checkFixturePath(path, TREE);
      assert.equal(result.status, status);
      if (reason !== undefined && result.status !== "ok") {
        assert.match(result.reason, reason);
      }
    });
  }
});

Deno.test("checkFixturePath() rejects a symlinked fixture root", () => {
  const result = checkFixturePath(
    "tests/fixtures/a.json",
    tree({ "tests": "tree", "tests/fixtures": "symlink" }),
  );
  assert.deepEqual(result, {
    status: "not_regular",
    reason: 'goes through the symlink "tests/fixtures"',
    at: "tests/fixtures",
  });
});

Deno.test("checkFixturePath() honours another root", () => {
  const t = tree({ "data/golden/a.bin": "file" });
  assert.equal(
    checkFixturePath("data/golden/a.bin", t, { root: "data/golden" }).status,
    "ok",
  );
  assert.equal(checkFixturePath("data/golden/a.bin", t).status, "unsafe");
});

Deno.test("checkFixturePath() allows any folder under the repository root", async (t) => {
  const t2 = tree({
    "testdata": "tree",
    "testdata/a.bin": "file",
    "top.json": "file",
    "linked": "symlink",
  });
  const cases: [string, string][] = [
    ["testdata/a.bin", "ok"],
    ["top.json", "ok"],
    ["../top.json", "unsafe"],
    ["/top.json", "unsafe"],
    ["testdata/../top.json", "unsafe"],
    ["linked/a.bin", "not_regular"],
    ["testdata", "not_regular"],
    ["nothing.json", "missing"],
  ];
  for (const [path, status] of cases) {
    await t.step(`${JSON.stringify(path)} is ${status}`, () => {
      const options = { root: REPOSITORY_ROOT };
      assert.equal(checkFixturePath(path, t2, options).status, status);
    });
  }
});

Deno.test("checkFixturePath() accepts a path inside any of several roots and names them all otherwise", () => {
  const files = tree({
    "tests": "tree",
    "tests/test_mypy.yml": "file",
    "data": "tree",
    "data/golden.json": "file",
    "src/app.py": "file",
  });
  const roots = ["tests", "data"];
  assert.equal(
    checkFixturePath("tests/test_mypy.yml", files, { root: roots }).status,
    "ok",
  );
  assert.equal(
    checkFixturePath("data/golden.json", files, { root: roots }).status,
    "ok",
  );
  assert.deepEqual(checkFixturePath("src/app.py", files, { root: roots }), {
    status: "unsafe",
    reason: 'is outside "tests/" or "data/"',
  });
  // A root names a directory: "tests" is not a prefix of "tests2/x".
  assert.equal(
    checkFixturePath("tests2/x", files, { root: ["tests"] }).status,
    "unsafe",
  );
  // "." is the whole repository, and hygiene still applies there.
  assert.equal(
    checkFixturePath("src/app.py", files, { root: ["."] }).status,
    "ok",
  );
  assert.equal(
    checkFixturePath("src/../etc/passwd", files, { root: ["."] }).status,
    "unsafe",
  );
});

Deno.test('checkFixturePath() takes the whole repository as a root when any root is it, spelled "" or "."', async (t) => {
  const files = tree({ "src": "tree", "src/app.py": "file" });
  const cases: [string, string | string[]][] = [
    ["the empty root", ""],
    ["the dot root", "."],
    ["the empty root among others", ["tests", ""]],
    ["the dot root after another", ["tests", "."]],
  ];
  for (const [name, root] of cases) {
    await t.step(name, () => {
      assert.equal(
        checkFixturePath("src/app.py", files, { root }).status,
        "ok",
      );
      assert.equal(describeFixtureRoots(root), "the repository");
    });
  }
});

Deno.test("describeFixtureRoots() names each root as a folder", async (t) => {
  const cases: [string, string | string[] | undefined, string][] = [
    ["the default", undefined, '"tests/fixtures/"'],
    ["one root as a string", "data/golden", '"data/golden/"'],
    ["one root in a list", ["data"], '"data/"'],
    ["two roots", ["tests", "data"], '"tests/" or "data/"'],
  ];
  for (const [name, root, want] of cases) {
    await t.step(name, () => assert.equal(describeFixtureRoots(root), want));
  }
});
