/**
 * A real src-layout project, judged end to end through `pawl.toml`'s
 * `[environment]` alone: its package lives under `src/` and has the name
 * of a module Debian's python3 already has installed (`more_itertools`,
 * whose `chunked` is correct), its tests need a Debian package the system
 * does not bring along (`toolz`, installed by tools/test_prereqs.sh), and
 * a Hypothesis property catches a real bug. The installed copy must never
 * be the one imported: were it, the bug would pass unseen.
 */
import assert from "node:assert/strict";
import { blocking, check, explain, rules } from "./_cli.ts";
import { buildRepo, type TestRepo } from "./_repo.ts";

const CHUNKING = "src/more_itertools/chunking.py";
const TEST = "tests/test_chunking.py";

/** The base: correct, but it copies the whole input first. */
const CORRECT = `"""Split an iterable into lists of n items."""


def chunked(iterable, n):
    """Lists of n items of iterable, in order; the last may be shorter."""
    if n < 1:
        raise ValueError("n must be at least 1")
    items = list(iterable)
    return [items[i:i + n] for i in range(0, len(items), n)]
`;

/** An honest fix of the copy: streams the input, same results. */
const STREAMING = `"""Split an iterable into lists of n items."""

from itertools import islice


def chunked(iterable, n):
    """Lists of n items of iterable, in order; the last may be shorter."""
    if n < 1:
        raise ValueError("n must be at least 1")
    it = iter(iterable)
    out = []
    while True:
        chunk = list(islice(it, n))
        if not chunk:
            return out
        out.append(chunk)
`;

/** The same "fix", but a short last chunk is lost. */
const LOSES_TAIL = `"""Split an iterable into lists of n items."""


def chunked(iterable, n):
    """Lists of n items of iterable, in order; the last may be shorter."""
    if n < 1:
        raise ValueError("n must be at least 1")
    it = iter(iterable)
    return [list(group) for group in zip(*[it] * n)]
`;

const BASE: Record<string, string> = {
  "pyproject.toml": `[project]
name = "more-itertools-lite"
version = "0.1.0"

[tool.pytest.ini_options]
testpaths = ["tests"]
`,
  "pawl.toml": `[environment]
python = "/usr/bin/python3"
pythonpath = ["src"]

[environment.env]
CHUNKING_UNDER_TEST = "checkout"
`,
  "src/more_itertools/__init__.py":
    '"""A src-layout package that shares its name with an installed one."""\n\nfrom .chunking import chunked\n\n__all__ = ["chunked"]\n',
  [CHUNKING]: CORRECT,
  "tests/__init__.py": "",
  [TEST]: `import os
import pathlib

import more_itertools
import toolz
from hypothesis import given, settings
from hypothesis import strategies as st

from more_itertools import chunked


def test_the_checkout_is_imported():
    checkout = pathlib.Path.cwd().resolve() / "src"
    assert pathlib.Path(more_itertools.__file__).resolve().is_relative_to(checkout)
    assert os.environ["CHUNKING_UNDER_TEST"] == "checkout"


@settings(max_examples=200)
@given(st.lists(st.integers()), st.integers(min_value=1, max_value=6))
def test_chunked_matches_partition_all(items, n):
    expected = [list(part) for part in toolz.partition_all(n, items)]
    assert chunked(items, n) == expected


def test_chunked_refuses_zero():
    try:
        chunked([1], 0)
    except ValueError:
        return
    raise AssertionError("chunked(_, 0) must raise")
`,
  "tests/agent_contract.yaml": `version: 1
properties:
  - id: chunked_matches_partition_all
    module: tests.test_chunking
    name: test_chunked_matches_partition_all
    min_examples: 200
`,
};

async function withProject(
  fn: (repo: TestRepo) => Promise<void>,
): Promise<void> {
  await using repo = await buildRepo({
    base: BASE,
    heads: {
      "fix/stream": { [CHUNKING]: STREAMING },
      "bug/loses-tail": { [CHUNKING]: LOSES_TAIL },
    },
  });
  await fn(repo);
}

/** What Debian's python3 imports for `name` from `cwd`, with no import path of pawl's. */
async function systemImport(name: string, cwd: string): Promise<string> {
  const out = await new Deno.Command("/usr/bin/python3", {
    args: ["-c", `import ${name}; print(${name}.__file__)`],
    cwd,
    clearEnv: true,
    env: { PATH: "/usr/bin:/bin" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.ok(out.success, new TextDecoder().decode(out.stderr));
  return new TextDecoder().decode(out.stdout).trim();
}

Deno.test("a src-layout project whose package shadows an installed one is judged on its checkout", async (t) => {
  await withProject(async (repo) => {
    await t.step(
      "without pythonpath the system's copy would win: the test is meaningful",
      async () => {
        const file = await systemImport("more_itertools", repo.dir);
        assert.ok(file.startsWith("/usr/lib/python3/"), file);
        assert.ok(
          (await systemImport("toolz", repo.dir)).startsWith("/usr/lib/"),
        );
      },
    );

    await t.step("the honest fix is accepted", async () => {
      const result = await check(repo.dir, "fix/stream");
      assert.equal(result.code, 0, explain(result));
      assert.equal(result.verdict?.decision, "accept");
      assert.deepEqual(blocking(result.verdict), [], explain(result));
      assert.deepEqual(result.verdict?.tests?.summary, {
        total: 3,
        passed: 3,
        failed: 0,
        errors: 0,
        skipped: 0,
        xfailed: 0,
      });
      assert.deepEqual(
        result.verdict?.tests?.properties.map((p) => [p.id, p.outcome]),
        [["chunked_matches_partition_all", "passed"]],
      );
    });

    await t.step("the bug is rejected by the property", async () => {
      const result = await check(repo.dir, "bug/loses-tail");
      assert.equal(result.code, 1, explain(result));
      assert.equal(result.verdict?.decision, "reject");
      const found = blocking(result.verdict);
      assert.ok(
        rules(found).includes("property.not_passed"),
        explain(result),
      );
      // Only the property fails: the checkout (not the system's correct
      // copy) was imported, and the extra variable reached the tests.
      const failed = found.filter((f) => f.rule === "tests.failed");
      assert.deepEqual(
        failed.map((f) => f.message.match(/::(test_\w+)/)?.[1]),
        ["test_chunked_matches_partition_all"],
        explain(result),
      );
      assert.equal(result.verdict?.tests?.summary["passed"], 2);
    });
  });
});

Deno.test("an interpreter the sandbox cannot see is exit 2, explaining the sandbox's file system", async () => {
  // A root-only directory under /tmp: invisible under bubblewrap's private
  // /tmp, and closed to the sandbox uid at every other tier.
  const hidden = await Deno.makeTempDir({ prefix: "pawl-e2e-venv-" });
  try {
    await Deno.chmod(hidden, 0o700);
    await Deno.mkdir(`${hidden}/bin`);
    await Deno.symlink("/usr/bin/python3", `${hidden}/bin/python`);
    await using repo = await buildRepo({
      base: {
        ...BASE,
        "pawl.toml":
          `[environment]\npython = "${hidden}/bin/python"\npythonpath = ["src"]\n`,
      },
      heads: { "fix/stream": { [CHUNKING]: STREAMING } },
    });
    const result = await check(repo.dir, "fix/stream");
    assert.equal(result.code, 2, explain(result));
    for (
      const part of [
        `the interpreter "${hidden}/bin/python" does not exist in the sandbox or the sandbox cannot run it`,
        "/tmp",
        "the repository is a fresh export of the head tree at",
        "with no supplementary groups",
        "[environment] python",
      ]
    ) {
      assert.ok(result.stderr.includes(part), `${part}\n${explain(result)}`);
    }
  } finally {
    await Deno.remove(hidden, { recursive: true });
  }
});
