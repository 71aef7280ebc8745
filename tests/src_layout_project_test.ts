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
import { blocking, check, explain, pawl, rules } from "./_cli.ts";
import { buildRepo, type TestRepo } from "./_repo.ts";
import { BASE, HEADS } from "./_src_layout_project.ts";

async function withProject(
  fn: (repo: TestRepo) => Promise<void>,
): Promise<void> {
  await using repo = await buildRepo({
    base: BASE,
    heads: HEADS,
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

    await t.step(
      "the verdict records the base's interpreter, import path and variable names, the same bytes on a re-run",
      async () => {
        const first = await check(repo.dir, "fix/stream");
        const again = await check(repo.dir, "fix/stream");
        assert.equal(first.code, 0, explain(first));
        assert.equal(again.outText, first.outText);
        const tests = JSON.parse(first.outText ?? "null")?.tests;
        assert.deepEqual(tests?.environment, {
          command: [
            "/usr/bin/python3",
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
          ],
          python: "/usr/bin/python3",
          pythonpath: ["src"],
          env: ["CHUNKING_UNDER_TEST"],
        });
        assert.ok(
          first.stdout.includes(
            "\n  ran with: /usr/bin/python3; PYTHONPATH src; env CHUNKING_UNDER_TEST\n",
          ),
          explain(first),
        );
      },
    );

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
      heads: { "fix/stream": HEADS["fix/stream"]! },
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

Deno.test("an interpreter that is no Python is exit 2, not a reject of the pull request", async () => {
  await using repo = await buildRepo({
    base: {
      ...BASE,
      "pawl.toml":
        '[environment]\npython = "/bin/true"\npythonpath = ["src"]\n',
    },
    heads: { "fix/stream": HEADS["fix/stream"]! },
  });
  const result = await check(repo.dir, "fix/stream");
  assert.equal(result.code, 2, explain(result));
  assert.match(
    result.stderr,
    /Cannot run the tests: the interpreter "\/bin\/true" of \[environment\] python does not work in the sandbox \(it exited with 0 instead of running a one-line Python script\)/,
  );
  assert.equal(result.verdict?.decision, "undecided" as never);
});

Deno.test("a src layout without [environment] pythonpath is told what to set", async (t) => {
  // Debian's more_itertools has no chunks_of: the installed copy is imported.
  const module = `from more_itertools import chunks_of


def test_chunks_of():
    assert chunks_of([1, 2, 3], 2) == [[1, 2], [3]]
`;
  await using repo = await buildRepo({
    base: {
      "src/more_itertools/__init__.py":
        "def chunks_of(items, n):\n    return [items[i:i + n] for i in range(0, len(items), n)]\n",
      "tests/test_chunks.py": module,
      "tests/agent_contract.yaml": "version: 1\nproperties: []\n",
    },
    heads: {
      "code-only": {
        "src/more_itertools/__init__.py":
          '"""Chunks."""\n\n\ndef chunks_of(items, n):\n    return [items[i:i + n] for i in range(0, len(items), n)]\n',
      },
      "test-changed": { "tests/test_chunks.py": `${module}\n# more\n` },
      // A syntax error: a failure of its own, not the base's.
      "test-broken": {
        "tests/test_chunks.py": module.replace(
          "def test_chunks_of():",
          "def test_chunks_of(:",
        ),
      },
    },
  });
  const hint =
    'The tree has the package "more_itertools" in "src/", but Python imported an installed copy from outside the tree: to test the checkout, add [environment] pythonpath = ["src"] to pawl.toml on the base branch';
  await t.step(
    "an unchanged test file: the base's problem, exit 2",
    async () => {
      const result = await check(repo.dir, "code-only");
      assert.equal(result.code, 2, explain(result));
      assert.ok(result.stderr.includes("already fails to collect"));
      assert.ok(result.stderr.includes(hint), explain(result));
    },
  );
  await t.step(
    "a changed test file failing at the base the same way: the base's problem too, exit 2",
    async () => {
      const result = await check(repo.dir, "test-changed");
      assert.equal(result.code, 2, explain(result));
      assert.ok(result.stderr.includes("already fails to collect"));
      assert.ok(result.stderr.includes(hint), explain(result));
    },
  );
  await t.step(
    "a changed test file failing its own way: a reject",
    async () => {
      const result = await check(repo.dir, "test-broken");
      assert.equal(result.code, 1, explain(result));
      const collect = blocking(result.verdict).find((f) =>
        f.rule === "tests.collection_error"
      );
      assert.ok(collect !== undefined, explain(result));
    },
  );
});

Deno.test("pawl propose on a src layout without pawl.toml says to set [environment] pythonpath, and writes no pawl.toml", async (t) => {
  const {
    "pawl.toml": _settings,
    "tests/agent_contract.yaml": _contract,
    ...withoutSettings
  } = BASE;
  await using repo = await buildRepo({ base: withoutSettings });
  const hint =
    'The package "more_itertools" is under "src/" (a src layout): pawl tests the checkout only with [environment] pythonpath = ["src"] in pawl.toml on the base branch, else Python imports an installed copy or none; create pawl.toml with "[environment]" and "pythonpath = ["src"]" (pawl propose never writes pawl.toml)';
  await t.step("printed: in the header and on stderr", async () => {
    const result = await pawl(["propose", "--repo", repo.dir], { out: false });
    assert.equal(result.code, 0, explain(result));
    assert.ok(
      result.stdout.includes(`# Settings pawl.toml needs:\n# - ${hint}\n`),
      result.stdout,
    );
    assert.ok(result.stderr.includes(`pawl: ${hint}\n`), result.stderr);
  });
  await t.step("--write writes the contract alone", async () => {
    const result = await pawl(["propose", "--repo", repo.dir, "--write"], {
      out: false,
    });
    assert.equal(result.code, 0, explain(result));
    assert.equal(result.stdout, "wrote tests/agent_contract.yaml\n");
    assert.ok(result.stderr.includes(`pawl: ${hint}\n`), result.stderr);
    await assert.rejects(Deno.lstat(`${repo.dir}/pawl.toml`));
  });
  await t.step("with the setting in place it says nothing", async () => {
    await using set = await buildRepo({ base: BASE });
    const result = await pawl(["propose", "--repo", set.dir], { out: false });
    assert.equal(result.code, 0, explain(result));
    assert.equal(result.stdout.includes("Settings pawl.toml needs"), false);
    assert.equal(result.stderr.includes("src layout"), false);
  });
});
