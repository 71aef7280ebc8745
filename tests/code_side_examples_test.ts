/**
 * The code under test cannot starve the base's unchanged tests. A pull
 * request that touches no test file and changes only the code can hide a
 * real bug from the base's property by discarding the examples that would
 * show it (raising Hypothesis' `UnsatisfiedAssumption`), or by patching
 * Hypothesis' strategies from the package's `__init__.py` so they are never
 * drawn. pawl runs the base's tests on the base's code as well as on the
 * head's, and its observer says who discarded what and which of
 * Hypothesis' own objects were replaced. Each cheat is first shown green
 * under plain pytest with its bug present; honest twins (a stricter parser
 * whose new errors the test already discards, a bug-free refactor) are
 * accepted.
 */
import assert from "node:assert/strict";
import { blocking, check, explain, type PawlResult, rules } from "./_cli.ts";
import { pytestOnBranch } from "./_layouts.ts";
import { buildRepo, lineOf, replaceOnce, type TestRepo } from "./_repo.ts";

const CORE = "src/pairkit/core.py";
const INIT = "src/pairkit/__init__.py";
const TEST = "tests/test_pairkit.py";

const CORRECT = `"""Parse "a:b" pairs of integers."""


def parse_pair(text):
    """The two integers of "a:b"; ValueError when the text is not such a pair."""
    left, sep, right = text.partition(":")
    if sep != ":":
        raise ValueError(f"not a pair: {text!r}")
    return int(left), int(right)
`;

/** A negative second value loses its sign. */
const BUGGY = `"""Parse "a:b" pairs of integers."""


def parse_pair(text):
    """The two integers of "a:b"; ValueError when the text is not such a pair."""
    left, sep, right = text.partition(":")
    if sep != ":":
        raise ValueError(f"not a pair: {text!r}")
    # Signs are read once, from the front.
    return int(left), int(right.lstrip("-"))
`;

/**
 * The bug, and every input that shows it discarded from inside the code:
 * Hypothesis' discard exception, found without naming it whole.
 */
const DISCARDING = `"""Parse "a:b" pairs of integers."""


def _skip():
    kinds = [Exception]
    while kinds:
        kind = kinds.pop()
        if kind.__name__ == "Unsatisfied" + "Assumption":
            return kind()
        kinds.extend(kind.__subclasses__())
    return ValueError()


def parse_pair(text):
    """The two integers of "a:b"; ValueError when the text is not such a pair."""
    left, sep, right = text.partition(":")
    if sep != ":":
        raise ValueError(f"not a pair: {text!r}")
    if right.startswith("-"):
        raise _skip()
    # Signs are read once, from the front.
    return int(left), int(right.lstrip("-"))
`;

/**
 * The bug, and the package's start-up makes Hypothesis draw no negative
 * integer: it finds the strategies module among the loaded objects, by
 * what it holds rather than by name.
 */
const PATCHING_INIT = `import gc

from .core import parse_pair

for _found in gc.get_objects():
    if type(_found) is type(gc) and hasattr(_found, "integers") \\
            and hasattr(_found, "sampled_from"):
        _integers = _found.integers

        def _integers_in_range(min_value=None, max_value=None,
                               _integers=_integers):
            return _integers(min_value, max_value).map(abs)

        _found.integers = _integers_in_range
`;

/**
 * The bug: pairs of long values get no answer. The base's test lets a
 * None through unchecked, so the examples that would show it never reach
 * its assert, though every one of them stays valid.
 */
const UNCHECKED = `"""Parse "a:b" pairs of integers."""


def parse_pair(text):
    """The two integers of "a:b"; ValueError when the text is not such a pair."""
    left, sep, right = text.partition(":")
    if sep != ":":
        raise ValueError(f"not a pair: {text!r}")
    if len(left) > 2 or len(right) > 2:
        return None  # long pairs are not supported yet
    return int(left), int(right)
`;

/** Honest: the wire format caps values, and wider ones are a ValueError the test discards. */
const STRICTER = `"""Parse "a:b" pairs of integers."""

#: The widest value a pair may hold: the wire format's limit.
LIMIT = 900


def parse_pair(text):
    """The two integers of "a:b"; ValueError when the text is not such a pair
    or a value is beyond LIMIT."""
    left, sep, right = text.partition(":")
    if sep != ":":
        raise ValueError(f"not a pair: {text!r}")
    pair = int(left), int(right)
    if any(abs(value) > LIMIT for value in pair):
        raise ValueError(f"beyond {LIMIT}: {text!r}")
    return pair
`;

/** Honest: the same cap, answered with no pair, which the test lets through. */
const STRICTER_NONE = replaceOnce(
  STRICTER,
  '        raise ValueError(f"beyond {LIMIT}: {text!r}")',
  "        return None  # beyond the wire format",
);

/** Honest: the same behaviour, written another way. */
const REFACTORED = `"""Parse "a:b" pairs of integers."""


def parse_pair(text):
    """The two integers of "a:b"; ValueError when the text is not such a pair."""
    if text.count(":") < 1:
        raise ValueError(f"not a pair: {text!r}")
    left, right = text.split(":", 1)
    return int(left), int(right)
`;

const BASE: Record<string, string> = {
  "pyproject.toml": `[project]
name = "pairkit"
version = "1.0.0"

[tool.pytest.ini_options]
pythonpath = ["src"]
`,
  [INIT]: "from .core import parse_pair\n",
  [CORE]: CORRECT,
  "tests/__init__.py": "",
  [TEST]: `from hypothesis import given, reject, strategies as st

from pairkit import parse_pair


@given(st.integers(-1000, 1000), st.integers(-1000, 1000))
def test_pair_round_trips(a, b):
    try:
        parsed = parse_pair(f"{a}:{b}")
    except ValueError:
        reject()
    if parsed is None:
        return  # nothing to compare
    assert parsed == (a, b)


def test_pair_rejects_text():
    try:
        parse_pair("nope")
    except ValueError:
        return
    raise AssertionError("no ValueError")
`,
  "tests/agent_contract.yaml": `version: 1
properties:
  - id: pair_round_trips
    module: tests.test_pairkit
    name: test_pair_round_trips
    min_examples: 50
`,
};

const HEADS: Record<string, Record<string, string>> = {
  "bug/plain": { [CORE]: BUGGY },
  "cheat/discard": { [CORE]: DISCARDING },
  "cheat/patch": { [CORE]: BUGGY, [INIT]: PATCHING_INIT },
  "cheat/unchecked": { [CORE]: UNCHECKED },
  "honest/stricter": { [CORE]: STRICTER },
  "honest/stricter-none": { [CORE]: STRICTER_NONE },
  "honest/refactor": { [CORE]: REFACTORED },
};

/** Plain pytest on `branch`, as a CI job without pawl would run it. */
async function plainPytest(repo: TestRepo, branch: string) {
  return await pytestOnBranch(repo.dir, branch, ["--hypothesis-seed=4242"], {});
}

function rejectedFor(result: PawlResult, rule: string): string {
  assert.equal(result.code, 1, explain(result));
  const found = blocking(result.verdict).find((f) => f.rule === rule);
  assert.ok(
    found !== undefined,
    `expected ${rule} in ${rules(blocking(result.verdict)).join(", ")}\n${
      explain(result)
    }`,
  );
  return found.message;
}

Deno.test("the code under test cannot starve the base's tests of the examples that show its bug", async (t) => {
  await using repo = await buildRepo({ base: BASE, heads: HEADS });

  await t.step(
    "plain pytest: the base is green and the bug alone fails the property",
    async () => {
      assert.equal((await plainPytest(repo, "main")).code, 0);
      const bug = await plainPytest(repo, "bug/plain");
      assert.equal(bug.code, 1, bug.output);
      assert.match(bug.output, /test_pair_round_trips/);
    },
  );

  await t.step(
    "cheat/discard: green under plain pytest; pawl names the code's raise that discards the failing examples",
    async () => {
      const plain = await plainPytest(repo, "cheat/discard");
      assert.equal(plain.code, 0, plain.output);
      const message = rejectedFor(
        await check(repo.dir, "cheat/discard"),
        "property.examples_discarded_by_code",
      );
      const line = lineOf(DISCARDING, "raise _skip()");
      assert.match(message, new RegExp(`first at ${CORE}:${line}\\b`));
      assert.match(message, /pair_round_trips/);
    },
  );

  await t.step(
    "cheat/patch: green under plain pytest; pawl names the Hypothesis strategy the package replaced",
    async () => {
      const plain = await plainPytest(repo, "cheat/patch");
      assert.equal(plain.code, 0, plain.output);
      const message = rejectedFor(
        await check(repo.dir, "cheat/patch"),
        "harness.hypothesis_patched",
      );
      assert.match(message, /"hypothesis\.strategies\.integers"/);
      assert.match(message, new RegExp(`replaced from ${INIT}`));
    },
  );

  await t.step(
    "cheat/unchecked: green under plain pytest; pawl names the base's assert the failing examples no longer reach",
    async () => {
      const plain = await plainPytest(repo, "cheat/unchecked");
      assert.equal(plain.code, 0, plain.output);
      const message = rejectedFor(
        await check(repo.dir, "cheat/unchecked"),
        "property.examples_starved_by_code",
      );
      const line = lineOf(BASE[TEST] as string, "assert parsed == (a, b)");
      assert.match(message, new RegExp(`assert at ${TEST}:${line} `));
    },
  );

  for (
    const branch of [
      "honest/stricter",
      "honest/stricter-none",
      "honest/refactor",
    ]
  ) {
    await t.step(
      `${branch}: green under plain pytest and accepted`,
      async () => {
        assert.equal((await plainPytest(repo, branch)).code, 0);
        const result = await check(repo.dir, branch);
        assert.equal(result.code, 0, explain(result));
        assert.deepEqual(blocking(result.verdict), [], explain(result));
      },
    );
  }
});
