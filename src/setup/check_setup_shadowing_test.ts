import assert from "node:assert/strict";
import type { TreeEntry } from "../git/git.ts";
import { checkSetupShadowing } from "./check_setup_shadowing.ts";
import { listEnvModules } from "./list_env_modules.ts";

function tree(paths: string[]): Map<string, TreeEntry> {
  return new Map(
    paths.map((path) => [path, { path, kind: "file", oid: "0", size: 1 }]),
  );
}

const BASE = ["app/__init__.py", "app/core.py", "tests/test_core.py"];

Deno.test("checkSetupShadowing() names each new top-level module that shadows what the step installed", async (t) => {
  const cases: [string, string[], string[]][] = [
    ["a module at the root", ["helperlib.py"], ["helperlib.py"]],
    ["a package under src/", ["src/helperlib/__init__.py"], [
      "src/helperlib/__init__.py",
    ]],
    ["a namespace package", ["helperlib/sub/mod.py"], ["helperlib/sub/mod.py"]],
    ["a module the step did not install", ["other.py"], []],
    ["a module deeper in a package", ["app/helperlib.py"], []],
    ["a name the interpreter's own names cover", ["attr.py"], []],
  ];
  for (const [name, added, expected] of cases) {
    await t.step(name, () => {
      const found = checkSetupShadowing(["attr", "helperlib"], {
        baseTree: tree(BASE),
        headTree: tree([...BASE, ...added]),
        known: new Set(["attr"]),
      });
      assert.deepEqual(found.map((f) => f.path), expected);
      for (const f of found) {
        assert.equal(f.rule, "harness.package_shadowed");
        assert.match(f.message, /the base's setup step installed/);
      }
    });
  }
  await t.step("a module the base already has", () => {
    assert.deepEqual(
      checkSetupShadowing(["helperlib"], {
        baseTree: tree([...BASE, "helperlib.py"]),
        headTree: tree([...BASE, "helperlib.py"]),
      }),
      [],
    );
  });
});

Deno.test("listEnvModules() lists what python/ and a virtualenv's site-packages make importable", async () => {
  const env = await Deno.makeTempDir({ prefix: "pawl-env-modules-test-" });
  try {
    const site = `${env}/lib/python3.11/site-packages`;
    for (
      const dir of [
        `${env}/python/pkg`,
        `${env}/python/pkg-1.0.dist-info`,
        `${env}/python/__pycache__`,
        `${site}/venvpkg`,
        `${env}/bin`,
      ]
    ) await Deno.mkdir(dir, { recursive: true });
    for (
      const file of [
        `${env}/python/mod.py`,
        `${env}/python/README.txt`,
        `${site}/fast.cpython-311-x86_64-linux-gnu.so`,
        `${site}/distutils-precedence.pth`,
        `${env}/bin/tool.py`,
      ]
    ) await Deno.writeTextFile(file, "");
    assert.deepEqual(await listEnvModules(env), [
      "fast",
      "mod",
      "pkg",
      "venvpkg",
    ]);
  } finally {
    await Deno.remove(env, { recursive: true });
  }
});
