import assert from "node:assert/strict";
import type { Tree } from "../git/git.ts";
import { codeUnderTest } from "./tested_code.ts";

function treeOf(files: Record<string, string>): Tree {
  return new Map(
    Object.entries(files).map(([path, oid]) => [path, {
      path,
      oid,
      kind: "file" as const,
      size: 1,
    }]),
  );
}

Deno.test("codeUnderTest() lists the head's code outside the test side and says whether the pull request changes it", async (t) => {
  const base = {
    "src/pkg/__init__.py": "1",
    "src/pkg/core.py": "2",
    "tests/__init__.py": "3",
    "tests/test_core.py": "4",
    "tests/helpers.py": "5",
    "conftest.py": "6",
  };
  const registered = ["tests/test_core.py"];
  await t.step("only test files changed: the code is unchanged", () => {
    const c = codeUnderTest(
      treeOf(base),
      treeOf({ ...base, "tests/helpers.py": "9" }),
      {
        registered,
      },
    );
    assert.deepEqual(c.files, ["src/pkg/__init__.py", "src/pkg/core.py"]);
    assert.equal(c.changed, false);
  });
  await t.step("a code file changed", () => {
    const c = codeUnderTest(
      treeOf(base),
      treeOf({ ...base, "src/pkg/core.py": "9" }),
      {
        registered,
      },
    );
    assert.equal(c.changed, true);
  });
  await t.step("a document changed: no code changed", () => {
    const c = codeUnderTest(
      treeOf(base),
      treeOf({ ...base, "README.md": "9", "docs/usage.md": "9" }),
      { registered },
    );
    assert.equal(c.changed, false);
  });
  await t.step("a data file of a code package changed", () => {
    const c = codeUnderTest(
      treeOf(base),
      treeOf({ ...base, "src/pkg/rates.json": "9" }),
      {
        registered,
      },
    );
    assert.equal(c.changed, true);
  });
});
