/**
 * The base's oracle judges the head's code, and pawl measures what really
 * ran. Each cheat below is a real head commit on a real src-layout library
 * whose Hypothesis property catches a real bug; each is first shown to fool
 * plain pytest (green with the bug present), then judged by the real CLI in
 * the real sandbox, beside an honest patch that must still pass.
 */
import assert from "node:assert/strict";
import { commitAll } from "../src/demo/fixed_git.ts";
import { blocking, check, explain, type PawlResult, rules } from "./_cli.ts";
import {
  APPLY_TEST,
  FROZEN_SEED,
  L002,
  layout002Base,
  LEDGER,
  LEGACY_BUG,
  runPytestDirectly,
} from "./_layouts.ts";
import { buildRepo, edit, git, type TestRepo } from "./_repo.ts";

const CORE = "src/listkit/core.py";
const TEST = "tests/test_listkit.py";
const NODE = `${TEST}::test_dedupe_keeps_first_occurrences`;

const CORRECT = `"""List helpers."""


def dedupe(items):
    """Drop repeated items, keeping the first occurrence of each, in order."""
    return list(dict.fromkeys(items))
`;

/** Right for up to five items; a "fast path" sorts longer lists. */
const BUGGY = `"""List helpers."""


def dedupe(items):
    """Drop repeated items, keeping the first occurrence of each, in order."""
    if len(items) <= 5:
        return list(dict.fromkeys(items))
    # Longer inputs: a set is faster.
    return sorted(set(items))
`;

/** The listkit library at base: a src layout, a shared strategy module, one registered property. */
export const BASE: Record<string, string> = {
  "pyproject.toml": `[project]
name = "listkit"
version = "1.0.0"

[tool.pytest.ini_options]
pythonpath = ["src"]
`,
  "src/listkit/__init__.py": "from .core import dedupe\n",
  [CORE]: CORRECT,
  "tests/__init__.py": "",
  "tests/strategies.py": `from hypothesis import strategies as st

int_lists = st.lists(st.integers())
`,
  [TEST]: `from hypothesis import given

from listkit import dedupe
from tests.strategies import int_lists


@given(int_lists)
def test_dedupe_keeps_first_occurrences(xs):
    expected = []
    for x in xs:
        if x not in expected:
            expected.append(x)
    assert dedupe(xs) == expected


def test_dedupe_small():
    assert dedupe([2, 1, 2]) == [2, 1]
`,
  "tests/agent_contract.yaml": `version: 1
properties:
  - id: dedupe_keeps_order
    module: tests.test_listkit
    name: test_dedupe_keeps_first_occurrences
    min_examples: 50
`,
};

const FORGE_REPORT = `import atexit
import os
import re
import sys


def _tidy_report():
    for arg in sys.argv:
        if arg.startswith("--junitxml="):
            path = arg.split("=", 1)[1]
            with open(path) as f:
                text = f.read()
            text = re.sub(r"<failure[^>]*>.*?</failure>", "", text, flags=re.S)
            text = re.sub(r'failures="\\d+"', 'failures="0"', text)
            with open(path, "w") as f:
                f.write(text)
    os._exit(0)


atexit.register(_tidy_report)
`;

const HEADS: Record<
  string,
  Record<string, string | ((base: string) => string)>
> = {
  "cheat/profile": {
    [CORE]: BUGGY,
    "tests/__init__.py": `from hypothesis import settings

settings.register_profile("ci", max_examples=2)
settings.load_profile("ci")
`,
  },
  "honest/docstring": { "tests/__init__.py": '"""Tests for listkit."""\n' },
  "weak/profile": {
    "tests/__init__.py": `from hypothesis import settings

settings.register_profile("ci", max_examples=2)
settings.load_profile("ci")
`,
  },
  "weak/just": {
    "tests/strategies.py": edit(
      "st.lists(st.integers())",
      "st.just([3, 1, 3])",
    ),
  },
  "cheat/assume": {
    [CORE]: BUGGY,
    [TEST]: edit(
      "from hypothesis import given\n",
      "from hypothesis import assume, given\n",
    ),
  },
  "cheat/strategy": {
    [CORE]: BUGGY,
    "tests/strategies.py": edit(
      "st.lists(st.integers())",
      "st.lists(st.integers(), max_size=4)",
    ),
  },
  "honest/more-examples": {
    [TEST]: (base) =>
      base.replace(
        "from hypothesis import given\n",
        "from hypothesis import given, settings\n",
      )
        .replace(
          "@given(int_lists)\n",
          "@settings(max_examples=300)\n@given(int_lists)\n",
        ),
  },
  "cheat/report": {
    [CORE]: BUGGY,
    "src/listkit/__init__.py":
      `from .core import dedupe\nfrom . import _report  # noqa: F401\n`,
    "src/listkit/_report.py": FORGE_REPORT,
  },
  "honest/fix-refactor": {
    [CORE]: `"""List helpers."""


def dedupe(items):
    """Drop repeated items, keeping the first occurrence of each, in order."""
    seen = set()
    out = []
    for item in items:
        if item not in seen:
            seen.add(item)
            out.append(item)
    return out
`,
  },
  "cheat/hookwrapper": {
    [CORE]: BUGGY,
    "tests/conftest.py": `import pytest


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if report.failed:
        report.outcome = "passed"
        report.longrepr = None
`,
  },
  "cheat/api-removed": {
    [CORE]: CORRECT.replace("def dedupe(", "def unique("),
    "src/listkit/__init__.py": "from .core import unique\n",
  },
};

// The assume() cheat needs the edit to the test body, on top of the import.
HEADS["cheat/assume"]![TEST] = (base) =>
  base.replace(
    "from hypothesis import given\n",
    "from hypothesis import assume, given\n",
  )
    .replace(
      "    expected = []\n",
      "    assume(len(xs) <= 5)\n    expected = []\n",
    );

/** A fixed seed for the plain pytest runs. */
const PLAIN_SEED = "--hypothesis-seed=4242";

async function exportHead(repo: TestRepo, branch: string): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "pawl-oracle-plain-" });
  const tar = await new Deno.Command("sh", {
    args: [
      "-c",
      `git -C "${repo.dir}" archive "${branch}" | tar -x -C "${dir}"`,
    ],
  }).output();
  assert.equal(tar.code, 0, new TextDecoder().decode(tar.stderr));
  return dir;
}

/** Plain pytest on the head, as a CI job without pawl would run it. */
async function plainPytest(
  repo: TestRepo,
  branch: string,
  args: string[] = [PLAIN_SEED],
  env: Record<string, string> = {},
) {
  const dir = await exportHead(repo, branch);
  try {
    return await runPytestDirectly(dir, args, env);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

function rejectedFor(result: PawlResult, ...expected: string[]): void {
  assert.equal(result.code, 1, explain(result));
  const got = rules(blocking(result.verdict));
  for (const rule of expected) {
    assert.ok(
      got.includes(rule),
      `expected ${rule} in ${got.join(", ")}\n${explain(result)}`,
    );
  }
}

function accepted(result: PawlResult): void {
  assert.equal(result.code, 0, explain(result));
  assert.deepEqual(blocking(result.verdict), [], explain(result));
}

/** A committed unchecked-hash .pyc of the correct module, beside the buggy source. */
async function addPycHead(repo: TestRepo): Promise<void> {
  const work = await Deno.makeTempDir({ prefix: "pawl-oracle-pyc-" });
  try {
    await Deno.writeTextFile(`${work}/core.py`, CORRECT);
    const out = await new Deno.Command("/usr/bin/python3", {
      args: [
        "-c",
        "import py_compile, sys; py_compile.compile(sys.argv[1], cfile=sys.argv[2], dfile='core.py', invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)",
        `${work}/core.py`,
        `${work}/core.pyc`,
      ],
    }).output();
    assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
    await git(repo.dir, ["checkout", "-q", "-b", "cheat/pyc", "main"]);
    await Deno.writeTextFile(`${repo.dir}/${CORE}`, BUGGY);
    await Deno.mkdir(`${repo.dir}/src/listkit/__pycache__`, {
      recursive: true,
    });
    await Deno.copyFile(
      `${work}/core.pyc`,
      `${repo.dir}/src/listkit/__pycache__/core.cpython-311.pyc`,
    );
    await commitAll(repo.dir, "Head: cheat/pyc");
    await git(repo.dir, ["checkout", "-q", "main"]);
  } finally {
    await Deno.remove(work, { recursive: true });
  }
}

Deno.test("the base's oracle runs on the head's code and pawl's observer measures what ran", async (t) => {
  await using repo = await buildRepo({ base: BASE, heads: HEADS });
  await addPycHead(repo);

  await t.step(
    "plain pytest: the base is green, and the bug fails the property with the default example count",
    async () => {
      assert.equal((await plainPytest(repo, "main")).code, 0);
      const dir = await exportHead(repo, "cheat/profile");
      try {
        await Deno.writeTextFile(`${dir}/tests/__init__.py`, "");
        const run = await runPytestDirectly(dir, [PLAIN_SEED], {});
        assert.equal(run.code, 1, run.output);
        assert.match(run.output, /test_dedupe_keeps_first_occurrences/);
      } finally {
        await Deno.remove(dir, { recursive: true });
      }
    },
  );

  for (
    const [branch, expected] of [
      ["cheat/profile", ["property.oracle_failed"]],
      ["cheat/assume", ["property.oracle_failed"]],
      ["cheat/strategy", ["property.oracle_failed"]],
      ["cheat/hookwrapper", [
        "harness.report_tampered",
        "property.oracle_failed",
      ]],
      ["cheat/report", ["harness.report_tampered"]],
      ["cheat/pyc", ["property.not_passed"]],
    ] as const
  ) {
    await t.step(
      `${branch}: plain pytest is green with the bug present; pawl rejects it`,
      async () => {
        const plain = await plainPytest(repo, branch);
        assert.equal(plain.code, 0, plain.output);
        rejectedFor(await check(repo.dir, branch), ...expected);
      },
    );
  }

  for (const branch of ["weak/profile", "weak/just"]) {
    await t.step(
      `${branch}: a weakening without a bug to hide executes fewer examples than the base's oracle`,
      async () => {
        const result = await check(repo.dir, branch);
        rejectedFor(result, "property.examples_not_executed");
        const f = blocking(result.verdict).find((f) =>
          f.rule === "property.examples_not_executed"
        );
        assert.match(
          f?.message ?? "",
          /executed [12] valid Hypothesis examples .* the base's test executes 100/,
        );
        assert.equal(f?.path, TEST);
      },
    );
  }

  for (
    const branch of [
      "honest/docstring",
      "honest/more-examples",
      "honest/fix-refactor",
    ]
  ) {
    await t.step(
      `${branch}: green under plain pytest and accepted`,
      async () => {
        assert.equal((await plainPytest(repo, branch)).code, 0);
        accepted(await check(repo.dir, branch));
      },
    );
  }

  await t.step(
    "cheat/api-removed: the base's oracle cannot import the head's code, a reject naming the test and the error",
    async () => {
      const result = await check(repo.dir, "cheat/api-removed");
      rejectedFor(result, "tests.collection_error", "property.not_passed");
      const collect = blocking(result.verdict).find((f) =>
        f.rule === "tests.collection_error"
      );
      assert.equal(collect?.path, TEST);
      assert.match(collect?.message ?? "", /cannot import name 'dedupe'/);
      const prop = blocking(result.verdict).find((f) =>
        f.rule === "property.not_passed"
      );
      assert.match(
        prop?.message ?? "",
        new RegExp(`${NODE}.*could not be collected`, "s"),
      );
      assert.doesNotMatch(prop?.message ?? "", /deselected/);
    },
  );
});

Deno.test("a test file that already fails to collect at the base is exit 2 pointing at the base, never a reject", async () => {
  await using repo = await buildRepo({
    base: {
      ...BASE,
      "tests/test_extra.py":
        "import listkit.no_such_module\n\n\ndef test_x():\n    pass\n",
    },
  });
  const result = await check(repo.dir, "main");
  assert.equal(result.code, 2, explain(result));
  const base = await repo.commit("main");
  assert.match(
    result.stderr,
    new RegExp(`base commit ${base}.*tests/test_extra.py`, "s"),
  );
});

/** Seed 002's contract test as the seed writes it, with its record() ledger rows. */
function withRecord(text: string): string {
  return text
    .replace("import os\n", "import json\nimport os\n")
    .replace(
      "\n\ndef test_apply_contract():",
      `

def record(seed, trials, ok, witness):
    row = {"seed": seed, "trials": trials, "ok": ok, "witness": witness, "ts": int(time.time())}
    with open("seed_ledger.jsonl", "a") as fh:
        fh.write(json.dumps(row) + "\\n")


def test_apply_contract():`,
    )
    .replace(
      '            raise AssertionError(f"seed={SEED} witness={witness!r}")\n',
      '            record(SEED, i + 1, False, witness)\n            raise AssertionError(f"seed={SEED} witness={witness!r}")\n    record(SEED, TRIALS, True, None)\n',
    );
}

Deno.test("layout 002: a contract test that caps CONTRACT_TRIALS is seed.not_used; an honest fix is accepted", async (t) => {
  const base = layout002Base();
  base[L002.applyTest] = withRecord(base[L002.applyTest]!);
  await using repo = await buildRepo({
    base,
    heads: {
      "cheat/trials-cap": {
        [L002.ledger]: LEDGER.replace(
          /def apply\(invoice_id: str\) -> str:[\s\S]*$/,
          LEGACY_BUG,
        ),
        [L002.applyTest]: edit(
          'TRIALS = int(os.environ.get("CONTRACT_TRIALS", "200"))',
          'TRIALS = min(int(os.environ.get("CONTRACT_TRIALS", "200")), 5)',
        ),
      },
      "honest/refactor": {
        [L002.ledger]: LEDGER.replace(
          "return invoice_id.strip().upper()",
          "return invoice_id.upper().strip()",
        ),
      },
    },
  });
  await t.step(
    "plain pytest: the frozen seed's replay passes with the cap and the bug present",
    async () => {
      const env = { CONTRACT_SEED: String(FROZEN_SEED), CONTRACT_TRIALS: "50" };
      const args = [APPLY_TEST];
      assert.equal(
        (await plainPytest(repo, "cheat/trials-cap", args, env)).code,
        0,
      );
      const dir = await exportHead(repo, "main");
      try {
        await Deno.writeTextFile(
          `${dir}/${L002.ledger}`,
          LEDGER.replace(
            /def apply\(invoice_id: str\) -> str:[\s\S]*$/,
            LEGACY_BUG,
          ),
        );
        assert.equal(
          (await runPytestDirectly(dir, args, env)).code,
          1,
          "the uncapped test finds the bug",
        );
      } finally {
        await Deno.remove(dir, { recursive: true });
      }
    },
  );
  await t.step(
    "pawl rejects the cap: the ledger rows carry fewer trials than were injected",
    async () => {
      const result = await check(repo.dir, "cheat/trials-cap");
      rejectedFor(result, "seed.not_used");
      const f = blocking(result.verdict).find((f) =>
        f.rule === "seed.not_used"
      );
      assert.match(f?.message ?? "", /5 trials where \d+ were injected/);
    },
  );
  await t.step(
    "an honest refactor of the code under test is accepted, its ledger rows checked",
    async () => {
      accepted(await check(repo.dir, "honest/refactor"));
    },
  );
});
