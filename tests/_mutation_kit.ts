/**
 * The small library the mutation tests judge: two helpers whose
 * registered Hypothesis properties pin their behaviour exactly, weakenings
 * of those properties that hide no bug, and an honest strengthening.
 *
 * @module
 */
import { edit } from "./_repo.ts";

/** The code under test. */
export const CORE = "src/kit/core.py";
/** The registered properties' test module. */
export const TEST = "tests/test_kit.py";

/** The base commit's files, `[mutation]` on. */
export const BASE: Record<string, string> = {
  "pyproject.toml": `[tool.pytest.ini_options]
pythonpath = ["src"]
`,
  "pawl.toml": `[mutation]
enabled = true
max_mutants = 60
budget_seconds = 900
`,
  "src/kit/__init__.py": "from .core import clamp, pages\n",
  [CORE]: `"""Small helpers."""


def clamp(x, lo, hi):
    """\`x\` limited to the range from \`lo\` to \`hi\`."""
    if x < lo:
        return lo
    if x > hi:
        return hi
    return x


def pages(items, per_page):
    """How many pages \`items\` things fill, \`per_page\` to a page."""
    return (items + per_page - 1) // per_page
`,
  "tests/__init__.py": "",
  [TEST]: `import math

from hypothesis import given, settings, strategies as st

from kit import clamp, pages


@settings(max_examples=40)
@given(st.integers(), st.integers(), st.integers())
def test_clamp_exact(x, a, b):
    lo, hi = min(a, b), max(a, b)
    assert clamp(x, lo, hi) == min(max(x, lo), hi)


@settings(max_examples=40)
@given(st.integers(0, 10**6), st.integers(1, 1000))
def test_pages_exact(items, per_page):
    assert abs(pages(items, per_page) - math.ceil(items / per_page)) <= 0
`,
  "tests/agent_contract.yaml": `version: 1
properties:
  - id: clamp_exact
    module: tests.test_kit
    name: test_clamp_exact
    min_examples: 20
  - id: pages_exact
    module: tests.test_kit
    name: test_pages_exact
    min_examples: 20
`,
};

/** Weakenings that hide no bug, each with the property it weakens. */
export const WEAK: Record<
  string,
  { property: string; edit: (t: string) => string }
> = {
  "weak/membership": {
    property: "clamp_exact",
    edit: edit(
      "assert clamp(x, lo, hi) == min(max(x, lo), hi)",
      "assert clamp(x, lo, hi) in (lo, x, hi)",
    ),
  },
  "weak/tolerance": {
    property: "pages_exact",
    edit: edit("/ per_page)) <= 0", "/ per_page)) <= 1"),
  },
  "weak/assume": {
    property: "clamp_exact",
    edit: (t) =>
      edit(
        "from hypothesis import given,",
        "from hypothesis import assume, given,",
      )(
        edit(
          "    lo, hi = min(a, b), max(a, b)\n",
          "    lo, hi = min(a, b), max(a, b)\n    assume(lo <= x <= hi)\n",
        )(t),
      ),
  },
  "weak/narrowed": {
    property: "clamp_exact",
    edit: edit(
      "@given(st.integers(), st.integers(), st.integers())",
      "@given(st.integers(0, 0), st.integers(-10, -1), st.integers(1, 10))",
    ),
  },
};

/** An honest strengthening of the clamp property. */
export const HONEST = edit(
  "    assert clamp(x, lo, hi) == min(max(x, lo), hi)\n",
  "    assert clamp(x, lo, hi) == min(max(x, lo), hi)\n    assert lo <= clamp(x, lo, hi) <= hi\n",
);
