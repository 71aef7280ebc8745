import assert from "node:assert/strict";
import type { Finding } from "../core/finding.ts";
import type { Tree, TreeEntry } from "../git/git.ts";
import {
  importPathHint,
  missingDependencyHint,
  withImportPathHints,
} from "./import_path_hint.ts";

function tree(...paths: string[]): Tree {
  return new Map(paths.map((path): [string, TreeEntry] => [path, {
    path,
    kind: "file",
    oid: "0".repeat(40),
    size: 0,
  }]));
}

const SRC = tree("src/attr/__init__.py", "src/attr/_compat.py", "tests/t.py");
const INSTALLED =
  "ImportError: cannot import name 'PY_3_10_PLUS' from 'attr._compat' (/usr/lib/python3/dist-packages/attr/_compat.py)";

Deno.test("importPathHint() names the setting when a package of the tree came from an installed copy or nowhere", async (t) => {
  await t.step("an installed copy", () => {
    assert.equal(
      importPathHint(INSTALLED, { tree: SRC, pythonpath: [] }),
      'The tree has the package "attr" in "src/", but Python imported an installed copy from outside the tree: to test the checkout, add [environment] pythonpath = ["src"] to pawl.toml on the base branch',
    );
  });
  await t.step("no module at all", () => {
    assert.match(
      importPathHint("E   ModuleNotFoundError: No module named 'attr'", {
        tree: SRC,
        pythonpath: [],
      }) ?? "",
      /"attr" in "src\/", but Python found no module of that name/,
    );
  });
  await t.step("a single-file module under lib/", () => {
    assert.match(
      importPathHint("No module named 'helpers'", {
        tree: tree("lib/helpers.py"),
        pythonpath: [],
      }) ?? "",
      /pythonpath = \["lib"\]/,
    );
  });
  await t.step("nothing when the directory is configured", () => {
    assert.equal(
      importPathHint(INSTALLED, { tree: SRC, pythonpath: ["src"] }),
      undefined,
    );
  });
  await t.step("nothing for a package the tree does not have", () => {
    assert.equal(
      importPathHint("No module named 'numpy'", { tree: SRC, pythonpath: [] }),
      undefined,
    );
  });
  await t.step("nothing for a package only a test directory holds", () => {
    assert.equal(
      importPathHint("No module named 'fixtures'", {
        tree: tree("tests/fixtures/__init__.py"),
        pythonpath: [],
      }),
      undefined,
    );
  });
});

Deno.test("withImportPathHints() adds the hint to tests findings only", () => {
  const findings: Finding[] = [
    {
      layer: "tests",
      rule: "tests.collection_error",
      message: `Cannot collect "tests/t.py":\n${INSTALLED}`,
      path: "tests/t.py",
      blocking: true,
    },
    {
      layer: "property",
      rule: "property.not_passed",
      message: INSTALLED,
      blocking: true,
    },
  ];
  const out = withImportPathHints(findings, { tree: SRC, pythonpath: [] });
  assert.match(out[0]?.message ?? "", /\nThe tree has the package "attr"/);
  assert.equal(out[1], findings[1]);
});

Deno.test("missingDependencyHint() names the module and both ways out, and leaves the tree's own modules alone", () => {
  const text =
    "tests/typing_test.py:3: in <module>\n    from typing_extensions import assert_type\nE   ModuleNotFoundError: No module named 'typing_extensions'";
  const hint = missingDependencyHint(text, {
    tree: SRC,
    files: ["tests/typing_test.py"],
  });
  assert.match(hint ?? "", /import "typing_extensions"/);
  assert.match(hint ?? "", /\[environment\.setup\]/);
  assert.match(hint ?? "", /\[\[excuses\]\] test = "tests\/typing_test\.py"/);
  assert.equal(
    missingDependencyHint("No module named 'attr'", { tree: SRC, files: [] }),
    undefined,
  );
  assert.equal(
    missingDependencyHint("NameError: name 'x'", { tree: SRC, files: [] }),
    undefined,
  );
});
