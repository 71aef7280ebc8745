/**
 * Registered tests' assertions and strategies judged by what they check,
 * not how they are spelled, on real repositories with the real CLI and a
 * real sandboxed pytest run of the suite, which every head here passes.
 * Honest rewrites pass: a local or a drawn parameter renamed, an extra
 * assertion, `match=` added to `pytest.raises`, an extra conjunct, a tighter
 * tolerance, an equality's sides swapped, a strategy widened through a
 * constant a helper reads. The matching weakenings are rejected: an
 * assertion dropped, `and` turned into `or`, a looser tolerance, the
 * helper's constant narrowed, an equality of values narrowed to one of
 * their projections (even where the mutants cannot tell the two apart).
 * Where the form of a rewrite cannot decide and mutation runs, the kill
 * sets decide.
 */
import assert from "node:assert/strict";
import {
  blocking,
  check,
  explain,
  type FindingJson,
  mapPool,
  type PawlResult,
  rules,
} from "./_cli.ts";
import { buildRepo, edit, type FileEdit } from "./_repo.ts";

const TEST = "tests/test_shop.py";
const STRATEGIES = "tests/strategies.py";

const SHOP = `"""Invoices, amounts and labels."""


class ParseError(ValueError):
    """Text that is not an amount."""


def parse_amount(text):
    if text.strip() == "":
        raise ParseError("empty amount")
    return int(text)


class Invoice:
    def __init__(self, lines):
        self.lines = list(lines)

    @property
    def total(self):
        result = 0
        for amount in self.lines:
            result += amount
        return result


def mean(values):
    return sum(values) / len(values)


def label(name):
    return name.upper()
`;

const TESTS = `import pytest
from hypothesis import given, settings, strategies as st

from shop import Invoice, ParseError, label, mean, parse_amount
from tests.strategies import names


@settings(max_examples=50, deadline=None)
@given(st.lists(st.integers(0, 1000), min_size=1, max_size=10))
def test_total(lines):
    obj = Invoice(lines)
    assert obj.total == sum(lines)
    assert obj.total >= 0


@settings(max_examples=20, deadline=None)
@given(st.text(alphabet=" ", max_size=3))
def test_empty_amount(text):
    with pytest.raises(ParseError):
        parse_amount(text)


@settings(max_examples=50, deadline=None)
@given(st.lists(st.integers(0, 1000), min_size=1, max_size=10))
def test_mean(values):
    assert mean(values) == pytest.approx(sum(values) / len(values), rel=1e-9)
    assert min(values) <= mean(values) and mean(values) <= max(values)


@settings(max_examples=50, deadline=None)
@given(names())
def test_label(name):
    assert label(name) == name.upper()
`;

const STRATEGIES_SOURCE = `from hypothesis import strategies as st

MAX_NAME = 5


def names():
    return st.text(alphabet="abc", min_size=1, max_size=MAX_NAME)
`;

const CONTRACT = `version: 1
properties:
${
  ["total", "empty_amount", "mean", "label"].map((name) =>
    `  - id: shop.${name}
    module: tests.test_shop
    name: test_${name}
    min_examples: 10
`
  ).join("")
}fixtures: []
freezes: []
`;

function baseFiles(pawlToml: string): Record<string, string> {
  return {
    "pyproject.toml":
      `[project]\nname = "shop"\nversion = "1.0"\n\n[tool.pytest.ini_options]\ntestpaths = ["tests"]\n`,
    "shop/__init__.py": SHOP,
    "tests/__init__.py": "",
    [TEST]: TESTS,
    [STRATEGIES]: STRATEGIES_SOURCE,
    "tests/agent_contract.yaml": CONTRACT,
    "pawl.toml": pawlToml,
  };
}

/** A head and what pawl must decide: accepted, or the blocking rule. */
interface Scenario {
  branch: string;
  files: Record<string, FileEdit>;
  want: string | null;
}

const SCENARIOS: Scenario[] = [
  {
    branch: "honest/rename-local",
    files: {
      [TEST]: edit(
        "    obj = Invoice(lines)\n    assert obj.total == sum(lines)\n    assert obj.total >= 0",
        "    invoice = Invoice(lines)\n    assert invoice.total == sum(lines)\n    assert invoice.total >= 0",
      ),
    },
    want: null,
  },
  {
    branch: "honest/rename-parameter",
    files: {
      [TEST]: edit(
        "def test_mean(values):\n    assert mean(values) == pytest.approx(sum(values) / len(values), rel=1e-9)\n    assert min(values) <= mean(values) and mean(values) <= max(values)",
        "def test_mean(xs):\n    assert mean(xs) == pytest.approx(sum(xs) / len(xs), rel=1e-9)\n    assert min(xs) <= mean(xs) and mean(xs) <= max(xs)",
      ),
    },
    want: null,
  },
  {
    branch: "honest/extra-assertion",
    files: {
      [TEST]: edit(
        "    assert label(name) == name.upper()\n",
        "    assert label(name) == name.upper()\n    assert len(label(name)) == len(name)\n",
      ),
    },
    want: null,
  },
  {
    branch: "honest/match-added",
    files: {
      [TEST]: edit(
        "pytest.raises(ParseError)",
        'pytest.raises(ParseError, match="empty")',
      ),
    },
    want: null,
  },
  {
    branch: "honest/extra-conjunct",
    files: {
      [TEST]: edit(
        "    assert obj.total >= 0\n",
        "    assert obj.total >= 0 and obj.total <= 1000 * len(lines)\n",
      ),
    },
    want: null,
  },
  {
    branch: "honest/tighter-tolerance",
    files: { [TEST]: edit("rel=1e-9)", "rel=1e-12)") },
    want: null,
  },
  {
    branch: "honest/sides-swapped",
    files: {
      [TEST]: edit(
        "assert label(name) == name.upper()",
        "assert name.upper() == label(name)",
      ),
    },
    want: null,
  },
  {
    branch: "honest/helper-constant-widened",
    files: { [STRATEGIES]: edit("MAX_NAME = 5", "MAX_NAME = 6") },
    want: null,
  },
  {
    branch: "weak/assertion-dropped",
    files: { [TEST]: edit("    assert obj.total == sum(lines)\n", "") },
    want: "property.assertion_removed",
  },
  {
    branch: "weak/and-to-or",
    files: {
      [TEST]: edit(
        "min(values) <= mean(values) and mean(values)",
        "min(values) <= mean(values) or mean(values)",
      ),
    },
    want: "property.assertion_removed",
  },
  {
    branch: "weak/looser-tolerance",
    files: { [TEST]: edit("rel=1e-9)", "rel=1e-3)") },
    want: "property.assertion_removed",
  },
  {
    branch: "weak/helper-constant-narrowed",
    files: { [STRATEGIES]: edit("MAX_NAME = 5", "MAX_NAME = 4") },
    want: "property.strategy_narrowed",
  },
  {
    branch: "unclassified/rewrite-without-mutation",
    files: {
      [TEST]: edit(
        "    obj = Invoice(lines)\n    assert obj.total == sum(lines)\n",
        "    obj = Invoice(lines)\n    assert sum(lines) - obj.total == 0\n",
      ),
    },
    // A rewrite the form cannot classify, with no mutation to decide it.
    want: "property.assertion_removed",
  },
];

Deno.test("assertions and strategies are judged by meaning: honest rewrites are accepted, the matching weakenings rejected", async (t) => {
  await using repo = await buildRepo({
    // Mutation off: the rules of the assertions' and strategies' form
    // alone decide here (the kill sets are the test below).
    base: baseFiles(
      "[tests]\ntimeout_seconds = 120\n\n[mutation]\nenabled = false\n",
    ),
    heads: Object.fromEntries(SCENARIOS.map((s) => [s.branch, s.files])),
  });
  const results = await mapPool(
    SCENARIOS,
    2,
    (s) => check(repo.dir, s.branch),
  );
  for (const [i, scenario] of SCENARIOS.entries()) {
    await t.step(scenario.branch, () => {
      const result = results[i] as PawlResult;
      if (scenario.want === null) {
        assert.equal(result.code, 0, explain(result));
        assert.deepEqual(blocking(result.verdict), [], explain(result));
        return;
      }
      // The suite passes: the static rule alone rejects the head.
      assert.equal(result.code, 1, explain(result));
      assert.deepEqual(
        rules(blocking(result.verdict)),
        [scenario.want],
        explain(result),
      );
    });
  }
});

/** uids of the mutation runs below (each run leases spares from them). */
const MUTATION_UIDS = "64610-64629";

const REWRITES: Record<string, Record<string, FileEdit>> = {
  // The same claim, written another way: kills every mutant the base's kills.
  "honest/rewritten": {
    [TEST]: edit(
      "    assert obj.total == sum(lines)\n",
      "    assert sum(lines) - obj.total == 0\n",
    ),
  },
  // A claim that lets a mutant of `total` through that the base's catches.
  "weak/rewritten": {
    [TEST]: edit(
      "    assert obj.total == sum(lines)\n",
      "    assert obj.total >= max(lines)\n",
    ),
  },
  // Both sides projected alike: weaker by form, however the mutants fare.
  "weak/projected": {
    [TEST]: edit(
      "    assert obj.total == sum(lines)\n",
      "    assert str(sum(lines)) == str(obj.total)\n",
    ),
  },
};

function rewriteFindings(result: PawlResult): FindingJson[] {
  return (result.verdict?.findings ?? []).filter((f) =>
    f.rule === "property.assertion_rewritten" ||
    f.rule === "property.assertion_removed"
  );
}

Deno.test("with mutation on, the kill sets decide an assertion rewrite its form cannot classify", async (t) => {
  await using repo = await buildRepo({
    base: baseFiles(
      "[tests]\ntimeout_seconds = 120\n\n[mutation]\nenabled = true\nmax_mutants = 30\nbudget_seconds = 600\n",
    ),
    heads: REWRITES,
  });
  const branches = Object.keys(REWRITES);
  const results = await mapPool(
    branches,
    2,
    (b) => check(repo.dir, b, { env: { PAWL_SANDBOX_UIDS: MUTATION_UIDS } }),
  );
  const [honest, weak, projected] = results as [
    PawlResult,
    PawlResult,
    PawlResult,
  ];
  await t.step("a rewrite that kills what the base's kills is accepted", () => {
    assert.equal(honest.code, 0, explain(honest));
    const found = rewriteFindings(honest);
    assert.deepEqual(
      found.map((f) => [f.rule, f.blocking]),
      [["property.assertion_rewritten", false]],
      explain(honest),
    );
    assert.match(found[0]?.message ?? "", /"shop\.total"/);
    assert.match(found[0]?.message ?? "", /still kills all \d+ mutants?/);
  });
  await t.step("a rewrite that lets a mutant through is rejected", () => {
    assert.equal(weak.code, 1, explain(weak));
    const found = rules(blocking(weak.verdict));
    assert.ok(found.includes("property.assertion_removed"), explain(weak));
    assert.ok(found.includes("property.oracle_weakened"), explain(weak));
    assert.ok(
      !rewriteFindings(weak).some((f) =>
        f.rule === "property.assertion_rewritten"
      ),
      explain(weak),
    );
  });
  await t.step(
    "a rewrite weaker by form is rejected even where the kill sets agree",
    () => {
      assert.equal(projected.code, 1, explain(projected));
      const found = rewriteFindings(projected);
      assert.deepEqual(
        found.map((f) => [f.rule, f.blocking]),
        [["property.assertion_removed", true]],
        explain(projected),
      );
      assert.match(found[0]?.message ?? "", /weakens 1 of the base's/);
    },
  );
});
