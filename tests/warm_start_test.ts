/**
 * Warm test interpreters: the same judgement gives the same verdict bytes
 * whether the suite's interpreter was started ahead of its run or cold
 * (`PAWL_COLD_START=1`), and a tree that holds a module the warm
 * interpreter loaded is run cold, as plain `python3 -m pytest` runs it.
 */
import assert from "node:assert/strict";
import { buildRepo, git, type TestRepo } from "./_repo.ts";
import { withoutMutationNotes } from "./_layouts.ts";
import { judgedJson } from "./_judge.ts";
import { realGatePorts } from "../src/gate/real_gate_ports.ts";
import type { GatePorts } from "../src/gate/gate_ports.ts";

/** This file's uids (the warm-start tests' range). */
const RANGE = { first: 64475, last: 64479 };

/**
 * `textwrap` is one of the modules `import pytest` loads. This one, at the
 * top of the tree, is what a cold `python3 -m pytest` loads instead (the
 * working directory comes first on `sys.path`): it is the standard one
 * with a mark added.
 */
const SHADOW = `import importlib.machinery, importlib.util, os, sys
_here = os.path.dirname(os.path.abspath(__file__))
_path = [p for p in sys.path if os.path.abspath(p or ".") != _here]
_spec = importlib.machinery.PathFinder.find_spec("textwrap", _path)
_real = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_real)
globals().update({k: v for k, v in vars(_real).items() if not k.startswith("__")})
SHADOWED_BY_THE_REPOSITORY = True
`;

const SHADOW_TEST = `import sys


def test_textwrap_is_the_repositorys():
    assert getattr(sys.modules["textwrap"], "SHADOWED_BY_THE_REPOSITORY", False)
`;

const HEADS = {
  "warm/honest": {
    "tests/test_misc.py": "def test_misc():\n    assert 2 + 2 == 4\n",
  },
  "warm/failing": {
    "tests/test_misc.py":
      "import os\n\n\ndef test_cwd():\n    assert os.getcwd() == '/nowhere'\n",
  },
  // Code under test changed: the suite's run traces its changed lines.
  "warm/code-change": {
    "payments/parser.py": (base: string) =>
      `${base}\n\ndef unused_helper(text):\n    return text.strip()\n`,
  },
  "warm/shadowed": {
    "textwrap.py": SHADOW,
    "tests/test_shadow.py": SHADOW_TEST,
  },
};

/** Judge `head` in-process with the real ports; count the runs that went warm. */
async function judge(
  repo: TestRepo,
  head: string,
  coldStart: boolean,
): Promise<{ json: string; warm: number; runs: number }> {
  const real = realGatePorts({
    sandbox: { lease: { range: RANGE }, coldStart },
  });
  let warm = 0;
  let runs = 0;
  const ports: GatePorts = {
    ...real,
    sandbox: async (request) => {
      const sandbox = await real.sandbox(request);
      return {
        ...sandbox,
        run: async (command) => {
          const result = await sandbox.run(command);
          runs++;
          if (result.warm === true) warm++;
          return result;
        },
      };
    },
  };
  return { json: await judgedJson(repo, head, ports), warm, runs };
}

Deno.test("a judgement gives the same verdict bytes with the suite's interpreter warm or forced cold", async () => {
  await using repo = await buildRepo({ heads: HEADS });
  for (const head of ["warm/honest", "warm/failing", "warm/code-change"]) {
    const warm = await judge(repo, head, false);
    const cold = await judge(repo, head, true);
    assert.equal(warm.warm, 1, `${head}: the suite's run went warm`);
    assert.equal(cold.warm, 0, `${head}: nothing went warm when forced cold`);
    assert.equal(warm.json, cold.json, head);
    if (head !== "warm/code-change") continue;
    // The warm interpreter read the changed lines as a cold one does.
    const verdict = JSON.parse(warm.json);
    assert.equal(verdict.tests.changedCode?.traced, "yes", warm.json);
    assert.equal(verdict.tests.changedCode?.unexecuted, 1, warm.json);
  }
});

Deno.test("a tree with a top-level module the warm interpreter loaded runs cold, as plain pytest runs it", async () => {
  await using repo = await buildRepo({ heads: HEADS });
  // Plain pytest in that tree imports the repository's textwrap.py.
  const tree = await Deno.makeTempDir({ prefix: "pawl-warm-tree-" });
  try {
    await git(repo.dir, [
      "worktree",
      "add",
      "-q",
      "--detach",
      tree,
      "warm/shadowed",
    ]);
    const plain = await new Deno.Command("python3", {
      args: [
        "-m",
        "pytest",
        "-q",
        "-p",
        "no:cacheprovider",
        "tests/test_shadow.py",
      ],
      cwd: tree,
      env: { PYTHONDONTWRITEBYTECODE: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.equal(plain.code, 0, new TextDecoder().decode(plain.stdout));
  } finally {
    await git(repo.dir, ["worktree", "remove", "--force", tree]);
    await Deno.remove(tree, { recursive: true }).catch(() => {});
  }
  // pawl's run does too: the test passes, so the suite started cold. (The
  // static rules reject the pull request for the shadowing itself; the
  // tests still ran.)
  const judged = await judge(repo, "warm/shadowed", false);
  assert.equal(judged.warm, 0);
  const verdict = JSON.parse(judged.json);
  const { summary } = verdict.tests;
  assert.ok(summary.total >= 2, judged.json);
  assert.equal(summary.passed, summary.total, judged.json);
  assert.deepEqual(
    withoutMutationNotes(verdict.findings as { rule: string }[]).map((f) =>
      f.rule
    ),
    ["harness.stdlib_shadowed"],
  );
});
