import { deepEqual } from "node:assert/strict";
import { FakeGit } from "../git/fake_git.ts";
import { readChangedLines } from "./read_changed_lines.ts";

Deno.test("readChangedLines() reads the changed lines of the code under test only", async () => {
  const git = new FakeGit({
    commits: {
      base: {
        "src/shop/billing.py": "def total(a):\n    return sum(a)\n",
        "src/shop/same.py": "x = 1\n",
        "src/shop/removed_only.py": "a = 1\nb = 2\n",
        "tests/test_billing.py": "def test_a():\n    pass\n",
        "README.md": "old\n",
      },
      head: {
        "src/shop/billing.py":
          "def total(a):\n    if not a:\n        return 0\n    return sum(a)\n",
        "src/shop/same.py": "x = 1\n",
        "src/shop/removed_only.py": "a = 1\n",
        "src/shop/new.py": "y = 2\n",
        "src/shop/tool.py": { executable: "print(1)\n" },
        "tests/test_billing.py": "def test_a():\n    assert True\n",
        "README.md": "new\n",
      },
    },
  });
  const [base, head] = await Promise.all([
    git.listTree("base"),
    git.listTree("head"),
  ]);
  const changed = await readChangedLines(git, {
    baseTree: base,
    headTree: head,
    isTestSide: (path) => path.startsWith("tests/"),
  });
  deepEqual(Object.fromEntries(changed), {
    "src/shop/billing.py": [2, 3],
    "src/shop/new.py": [1],
    "src/shop/tool.py": [1],
  });
});
