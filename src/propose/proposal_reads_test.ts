import assert from "node:assert/strict";
import { inputFor, type TestFile } from "./_testing.ts";
import { proposalReads } from "./proposal_reads.ts";

const FILES: Readonly<Record<string, TestFile>> = {
  "README.md": "# x\n",
  "setup.py": "",
  "conftest.py": "",
  "docs/conf.py": "",
  "pkg/__init__.py": "",
  "pkg/__main__.py": "",
  "pkg/api.py": "",
  "pkg/_impl.py": "",
  "pkg/_vendor/lib.py": "",
  "pkg/shadowed.py": "",
  "pkg/shadowed/__init__.py": "",
  "pkg/link.py": { symlink: "api.py" },
  "pkg/types.pyi": "",
  "scripts/build-docs.py": "",
  "src/tests/helpers.py": "",
  "src/shop/cart.py": "",
  "test/util.py": "",
  "tests/conftest.py": "",
  "tests/test_api.py": "",
  "tests/api_test.py": "",
  "tests/class/test_x.py": "",
  "pkg/test_inline.py": "",
  "tests/fixtures/a.json": "{}\n",
  "tests/fixtures/deep/b.csv": "1\n",
  "tests/fixtures/link.json": { symlink: "a.json" },
  "tests/other/c.json": "{}\n",
};

Deno.test("proposalReads() names what each layout reads", async (t) => {
  const { tree } = await inputFor(FILES, "000");

  await t.step(
    "test files collected by pytest, at importable paths, and the conftest and package files that may load a Hypothesis profile, for 000 and 003",
    () => {
      for (const layout of ["000", "003"] as const) {
        assert.deepEqual(proposalReads(tree, { layout }).python, [
          "conftest.py",
          "pkg/__init__.py",
          "pkg/test_inline.py",
          "tests/api_test.py",
          "tests/conftest.py",
          "tests/test_api.py",
        ]);
      }
    },
  );

  await t.step(
    "public modules for 002: no private segment, no tests, conftest.py or setup.py",
    () => {
      assert.deepEqual(proposalReads(tree, { layout: "002" }).python, [
        "docs/conf.py",
        "pkg/__init__.py",
        "pkg/api.py",
        "pkg/shadowed/__init__.py",
        "src/shop/cart.py",
      ]);
    },
  );

  await t.step("regular fixture files under tests/fixtures/, sorted", () => {
    assert.deepEqual(proposalReads(tree, { layout: "000" }).fixtures, [
      "tests/fixtures/a.json",
      "tests/fixtures/deep/b.csv",
    ]);
    assert.deepEqual(proposalReads(tree, { layout: "002" }).fixtures, []);
  });
});
