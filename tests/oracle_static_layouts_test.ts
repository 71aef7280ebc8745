/**
 * The static oracle rules in seed 003's and seed 002's layouts, on a
 * src-layout project whose own package shares its name with a package the
 * test framework depends on, and on the gate's own settings. Each cheat is
 * first shown to fool plain pytest; its honest counterpart is accepted.
 */
import assert from "node:assert/strict";
import { blocking, check, explain, rules } from "./_cli.ts";
import {
  L002,
  L003,
  layout002Base,
  layout003Base,
  runPytestDirectly,
} from "./_layouts.ts";
import { buildRepo, edit, git, type TestRepo } from "./_repo.ts";

/** Export a commit's tree to a fresh directory (what plain pytest runs on). */
async function exportTree(repo: TestRepo, rev: string): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "pawl-e2e-tree-" });
  const tar = `${dir}.tar`;
  await git(repo.dir, ["archive", "--format=tar", "-o", tar, rev]);
  const out = await new Deno.Command("tar", { args: ["-xf", tar, "-C", dir] })
    .output();
  await Deno.remove(tar);
  assert.ok(out.success, "tar failed");
  return dir;
}

/**
 * Plain pytest is green on the head, and the base's test-side files fail
 * on the head's code: the cheat hides a real bug.
 */
async function assertFoolsPytest(
  repo: TestRepo,
  branch: string,
  test: string,
  suite: readonly string[] = [],
  remove: readonly string[] = [],
): Promise<void> {
  const env = {};
  const dir = await exportTree(repo, branch);
  try {
    const green = await runPytestDirectly(dir, suite, env);
    assert.equal(green.code, 0, `plain pytest is not green:\n${green.output}`);
    for (const [path, text] of Object.entries(repo.baseFiles)) {
      if (path.startsWith("tests/")) {
        await Deno.writeTextFile(`${dir}/${path}`, text);
      }
    }
    for (const path of remove) {
      await Deno.remove(`${dir}/${path}`, { recursive: true });
    }
    // A fixed seed: which examples a few-example property draws must not
    // decide whether the bug shows.
    const oracle = await runPytestDirectly(
      dir,
      ["--hypothesis-seed=0", test],
      env,
    );
    assert.notEqual(
      oracle.code,
      0,
      `the base's test passes on the head's code:\n${oracle.output}`,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

async function assertRejects(
  repo: TestRepo,
  branch: string,
  rule: string,
): Promise<void> {
  const result = await check(repo.dir, branch);
  assert.equal(result.code, 1, explain(result));
  assert.ok(rules(blocking(result.verdict)).includes(rule), explain(result));
}

async function assertAccepts(repo: TestRepo, branch: string): Promise<void> {
  const result = await check(repo.dir, branch);
  assert.equal(result.code, 0, explain(result));
}

Deno.test("seed 003: a narrowed @given outside the source hash is rejected, more examples are not", async (t) => {
  const base = await layout003Base();
  const bug = edit(
    '    return f"{cents // 100}.{cents % 100:02d}"',
    '    cents += cents >= 10**6\n    return f"{cents // 100}.{cents % 100:02d}"',
  );
  await using repo = await buildRepo({
    base: base.files,
    heads: {
      "cheat/narrow": {
        [L003.money]: bug,
        [L003.properties]: edit(
          "@settings(max_examples=15, deadline=None)\n@given(st.integers(min_value=0, max_value=10**9))",
          "@settings(max_examples=15, deadline=None)\n@given(st.integers(min_value=0, max_value=10**5))",
        ),
      },
      "honest/more-examples": {
        [L003.properties]: edit("max_examples=15", "max_examples=30"),
      },
    },
  });
  // The suite minus the frozen clock test, which fails on any host without
  // the TZ it expects and is out of the gate while its freeze lasts.
  await t.step(
    "the cheat fools plain pytest",
    () =>
      assertFoolsPytest(repo, "cheat/narrow", L003.properties, [
        "--deselect",
        `${L003.clock}::test_clock_skew`,
      ]),
  );
  await t.step(
    "pawl rejects it",
    () => assertRejects(repo, "cheat/narrow", "property.strategy_narrowed"),
  );
  await t.step(
    "raising max_examples is accepted",
    () => assertAccepts(repo, "honest/more-examples"),
  );
});

Deno.test("seed 002: a capped CONTRACT_TRIALS in the contract module is rejected, a new test beside it is not", async (t) => {
  const bug = edit(
    "    return prefix, int(number), currency\n",
    '    return prefix, int(number), currency or "xxx"\n',
  );
  await using repo = await buildRepo({
    base: layout002Base(),
    heads: {
      "cheat/cap-trials": {
        [L002.ledger]: bug,
        [L002.splitTest]: edit(
          'TRIALS = int(os.environ.get("CONTRACT_TRIALS", "200"))',
          'TRIALS = min(int(os.environ.get("CONTRACT_TRIALS", "200")), 0)',
        ),
      },
      "honest/new-test": {
        [L002.splitTest]: (text) =>
          `${text}\n\ndef test_split_keeps_numbers():\n    from billing.ledger import split_id\n    for n in range(1, 50):\n        assert split_id(f"INV-{n:05d}-usd")[1] == n\n`,
      },
    },
  });
  await t.step("the cheat fools plain pytest", async () => {
    const dir = await exportTree(repo, "cheat/cap-trials");
    try {
      const green = await runPytestDirectly(dir, [L002.splitTest], {});
      assert.equal(green.code, 0, green.output);
      await Deno.writeTextFile(
        `${dir}/${L002.splitTest}`,
        repo.baseFiles[L002.splitTest]!,
      );
      const oracle = await runPytestDirectly(dir, [L002.splitTest], {});
      assert.notEqual(oracle.code, 0, oracle.output);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });
  await t.step(
    "pawl rejects it",
    () =>
      assertRejects(repo, "cheat/cap-trials", "property.contract_code_changed"),
  );
  await t.step(
    "a new test in the contract module is accepted",
    () => assertAccepts(repo, "honest/new-test"),
  );
});

const OWN_PACKAGE = "src/exceptiongroup/__init__.py";

/** A src-layout project whose own package is named like a dependency of the test framework. */
function ownPackageBase(): Record<string, string> {
  return {
    "pyproject.toml": `[project]
name = "exceptiongroup"
version = "1.0"

[tool.pytest.ini_options]
pythonpath = ["src"]
testpaths = ["tests"]
`,
    [OWN_PACKAGE]: `"""Split a list of errors by type."""


def split(errors, kind):
    matching = [e for e in errors if isinstance(e, kind)]
    rest = [e for e in errors if not isinstance(e, kind)]
    return matching, rest
`,
    "tests/test_split.py":
      `from hypothesis import given, settings, strategies as st

from exceptiongroup import split

ERRORS = st.lists(st.sampled_from([ValueError("v"), KeyError("k"), OSError("o")]), max_size=8)


@settings(max_examples=60, deadline=None)
@given(ERRORS)
def test_split_partitions(errors):
    matching, rest = split(errors, ValueError)
    assert len(matching) + len(rest) == len(errors)
    assert all(isinstance(e, ValueError) for e in matching)
`,
    "tests/agent_contract.yaml": `version: 1
properties:
  - id: split.partitions
    module: tests.test_split
    name: test_split_partitions
    min_examples: 50
fixtures: []
freezes: []
`,
  };
}

Deno.test("the project's own package is code, even named like an installed package; shadowing one is not", async (t) => {
  await using repo = await buildRepo({
    base: ownPackageBase(),
    heads: {
      "honest/refactor-own-package": {
        [OWN_PACKAGE]: `"""Split a list of errors by type."""
from ._match import matches


def split(errors, kind):
    matching = [e for e in errors if matches(e, kind)]
    rest = [e for e in errors if not matches(e, kind)]
    return matching, rest
`,
        "src/exceptiongroup/_match.py":
          "def matches(error, kind):\n    return isinstance(error, kind)\n",
      },
      "cheat/shadow-hypothesis": {
        // A bug the property catches, hidden by a fake Hypothesis on the path.
        [OWN_PACKAGE]: edit(
          "    rest = [e for e in errors if not isinstance(e, kind)]",
          "    rest = [e for e in errors if not isinstance(e, kind)][:1]",
        ),
        "src/hypothesis/__init__.py": `def given(*strategies):
    def wrap(test):
        def run():
            test([])
        run.__name__ = test.__name__
        return run
    return wrap


def settings(**_):
    return lambda test: test


core = type("core", (), {})()
`,
        "src/hypothesis/internal/__init__.py": "",
        "src/hypothesis/internal/detection.py":
          "def is_hypothesis_test(test):\n    return False\n",
        "src/hypothesis/strategies.py":
          "def lists(*a, **k):\n    return None\n\n\ndef sampled_from(*a, **k):\n    return None\n",
      },
    },
  });
  await t.step(
    "the shadowing cheat fools plain pytest",
    () =>
      assertFoolsPytest(
        repo,
        "cheat/shadow-hypothesis",
        "tests/test_split.py",
        [],
        ["src/hypothesis"],
      ),
  );
  await t.step(
    "pawl rejects the shadowing package",
    () =>
      assertRejects(
        repo,
        "cheat/shadow-hypothesis",
        "harness.package_shadowed",
      ),
  );
  await t.step(
    "a refactor of the project's own package is accepted",
    () => assertAccepts(repo, "honest/refactor-own-package"),
  );
});

Deno.test("a pawl.toml edit that loosens the gate is rejected, one that tightens it is not", async (t) => {
  const base = {
    ...ownPackageBase(),
    "pawl.toml": "[tests]\ntimeout_seconds = 120\n",
  };
  await using repo = await buildRepo({
    base,
    heads: {
      "cheat/deselect": {
        "pawl.toml": `[tests]
timeout_seconds = 120
command = ["python3", "-m", "pytest", "-q", "-p", "no:cacheprovider", "--deselect", "tests/test_split.py::test_split_partitions"]
`,
      },
      "honest/tighter": { "pawl.toml": "[tests]\ntimeout_seconds = 60\n" },
    },
  });
  await t.step(
    "the deselecting command is rejected, naming the key",
    async () => {
      const result = await check(repo.dir, "cheat/deselect");
      assert.equal(result.code, 1, explain(result));
      const found = blocking(result.verdict).find((f) =>
        f.rule === "config.settings_changed"
      );
      assert.match(found?.message ?? "", /"tests\.command"/, explain(result));
    },
  );
  await t.step(
    "a lower timeout is accepted",
    () => assertAccepts(repo, "honest/tighter"),
  );
});

Deno.test("problems the base already has are exit 2 naming the base commit, never a reject", async (t) => {
  const base = ownPackageBase();
  const fixture = '{"a": 1}\n';
  const { createHash } = await import("node:crypto");
  const digest = createHash("sha256").update(fixture).digest("hex");
  const cases: [string, Record<string, string>, RegExp][] = [
    [
      "a base fixture outside the fixture root",
      {
        ...base,
        "data/x.json": fixture,
        "tests/agent_contract.yaml": base["tests/agent_contract.yaml"]!.replace(
          "fixtures: []",
          `fixtures:\n  - id: x\n    path: data/x.json\n    sha256: ${digest}\n    unlock: null`,
        ),
      },
      /fixture\.path_unsafe/,
    ],
    [
      "a registered test missing at the base",
      {
        ...base,
        "tests/agent_contract.yaml": base["tests/agent_contract.yaml"]!.replace(
          "name: test_split_partitions",
          "name: test_split_is_gone",
        ),
      },
      /property\.test_missing/,
    ],
  ];
  for (const [name, files, rule] of cases) {
    await t.step(name, async () => {
      await using repo = await buildRepo({ base: files });
      const result = await check(repo.dir, "main");
      assert.equal(result.code, 2, explain(result));
      const commit = (await repo.commit("main")).slice(0, 12);
      assert.match(
        result.stderr,
        new RegExp(`base commit ${commit}`),
        explain(result),
      );
      assert.match(result.stderr, rule, explain(result));
    });
  }
});
