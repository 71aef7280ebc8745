/**
 * Minimal reproductions of what went wrong when real open-source projects
 * were brought to pawl as a new user would (docs/real-projects.md): each
 * repository here is written from scratch in the shape of such a project
 * and judged by the real CLI with a real pytest run.
 */
import assert from "node:assert/strict";
import { blocking, check, explain, rules } from "./_cli.ts";
import { buildRepo, replaceOnce } from "./_repo.ts";

/** A flat package, as pyrsistent has it: no `src/`, no `tests/__init__.py`. */
const VEC = `"""A persistent vector."""


class Vec:
    def __init__(self, items=()):
        self._items = tuple(items)

    def __len__(self):
        return len(self._items)

    def __getitem__(self, index):
        return self._items[index]

    def __iter__(self):
        return iter(self._items)

    def append(self, item):
        return Vec(self._items + (item,))

    def delete(self, index):
        items = list(self._items)
        del items[index]
        return Vec(items)
`;

/** A state machine whose rule asserts through a module-level helper. */
const MACHINE = `from hypothesis import settings, strategies as st
from hypothesis.stateful import Bundle, RuleBasedStateMachine, rule

from vec import Vec


def assert_equal(items, vec):
    assert len(items) == len(vec)
    assert items == list(iter(vec))


class VecMachine(RuleBasedStateMachine):
    pairs = Bundle("pairs")

    @rule(target=pairs, start=st.lists(st.integers()))
    def initial(self, start):
        return start, Vec(start)

    @rule(target=pairs, former=pairs, item=st.integers())
    def append(self, former, item):
        items, vec = former
        return items + [item], vec.append(item)

    @rule(target=pairs, former=pairs, data=st.data())
    def delete(self, former, data):
        items, vec = former
        if not items:
            return items, vec
        i = data.draw(st.integers(0, len(items) - 1))
        return items[:i] + items[i + 1:], vec.delete(i)

    @rule(pair=pairs)
    def compare(self, pair):
        assert_equal(*pair)


VecMachine.TestCase.settings = settings(max_examples=40, deadline=None)
VecTests = VecMachine.TestCase
`;

/** A plain property with two assertions in its body. */
const PLAIN = `from hypothesis import given, settings, strategies as st

from vec import Vec


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers()), st.integers())
def test_append(items, item):
    vec = Vec(items).append(item)
    assert len(vec) == len(items) + 1
    assert vec[len(items)] == item
`;

const CONTRACT = `version: 1
properties:
  - id: vec_machine
    module: tests.vec_machine_test
    name: VecTests
    min_examples: 40
  - id: vec_append
    module: tests.vec_plain_test
    name: test_append
    min_examples: 40
`;

/** \`__iter__\` loses the last item: only the helper's second assertion sees it. */
const ITER_BUG = replaceOnce(
  VEC,
  "        return iter(self._items)",
  "        return iter(self._items[:-1] if len(self._items) > 2 else self._items)",
);

Deno.test("an assertion dropped from a registered property is a reject, even when others remain", async (t) => {
  await using repo = await buildRepo({
    base: {
      "vec.py": VEC,
      "tests/vec_machine_test.py": MACHINE,
      "tests/vec_plain_test.py": PLAIN,
      "tests/agent_contract.yaml": CONTRACT,
    },
    heads: {
      "honest": {
        "vec.py": replaceOnce(
          VEC,
          "        items = list(self._items)\n        del items[index]\n        return Vec(items)",
          "        index = range(len(self._items))[index]\n        return Vec(self._items[:index] + self._items[index + 1:])",
        ),
      },
      "weak/helper": {
        "vec.py": ITER_BUG,
        "tests/vec_machine_test.py": replaceOnce(
          MACHINE,
          "    assert items == list(iter(vec))\n",
          "",
        ),
      },
      "weak/body": {
        "tests/vec_plain_test.py": replaceOnce(
          PLAIN,
          "    assert vec[len(items)] == item\n",
          "",
        ),
      },
    },
  });
  await t.step("the honest refactor is accepted", async () => {
    const result = await check(repo.dir, "honest");
    assert.equal(result.code, 0, explain(result));
    assert.equal(result.verdict?.decision, "accept", explain(result));
  });
  await t.step(
    "an assertion dropped from a rule's helper is rejected",
    async () => {
      const result = await check(repo.dir, "weak/helper");
      assert.equal(result.code, 1, explain(result));
      const found = blocking(result.verdict).filter((f) =>
        f.rule === "property.assertion_removed"
      );
      assert.equal(found.length, 1, explain(result));
      assert.match(found[0]!.message, /"vec_machine"/);
      assert.match(found[0]!.message, /line\(s\) 9\b/);
      // The base's machine still catches the bug on the head's code.
      assert.ok(
        rules(blocking(result.verdict)).includes("property.oracle_failed"),
        explain(result),
      );
    },
  );
  await t.step(
    "an assertion dropped from a test body is rejected",
    async () => {
      const result = await check(repo.dir, "weak/body");
      assert.equal(result.code, 1, explain(result));
      // Rejected by its source alone, so no mutant runs.
      assert.deepEqual(
        rules(blocking(result.verdict)),
        ["property.assertion_removed"],
        explain(result),
      );
    },
  );
});

/** A test module that needs a dependency this runner does not have. */
const NEEDS_MISSING = `from pawl_absent_dependency import assert_type


def test_types():
    assert_type(1, int)
`;

const EXCUSE = `[[excuses]]
test = "tests/typing_test.py"
owner = "platform-team"
expires = "2026-12-31T00:00:00Z"
reason = "this runner's python3 lacks the dependency"
`;

Deno.test("a base test file that cannot import a missing dependency is undecided with both ways out, and judged once a human excuses it", async (t) => {
  const base = {
    "vec.py": VEC,
    "tests/vec_plain_test.py": PLAIN,
    "tests/typing_test.py": NEEDS_MISSING,
    "tests/agent_contract.yaml": CONTRACT.replace(
      / {2}- id: vec_machine\n(?: {4}.*\n){3}/,
      "",
    ),
  };
  const honest = {
    "vec.py": replaceOnce(VEC, '"""A persistent vector."""', '"""Vectors."""'),
  };
  await t.step(
    "without an excuse pawl cannot decide, and says what to do",
    async () => {
      await using repo = await buildRepo({ base, heads: { honest } });
      const result = await check(repo.dir, "honest");
      assert.equal(result.code, 2, explain(result));
      assert.match(result.stderr, /already fails to collect/);
      assert.match(result.stderr, /import "pawl_absent_dependency"/);
      assert.match(
        result.stderr,
        /\[\[excuses\]\] test = "tests\/typing_test\.py"/,
      );
    },
  );
  await t.step(
    "with the excuse the README shows, the honest change is accepted",
    async () => {
      await using repo = await buildRepo({
        base: { ...base, "pawl.toml": EXCUSE },
        heads: { honest },
      });
      const result = await check(repo.dir, "honest");
      assert.equal(result.code, 0, explain(result));
      const excuses = (result.verdict as unknown as {
        excuses: { test: string; status: string }[];
      }).excuses;
      assert.deepEqual(
        excuses.map((e) => [e.test, e.status]),
        [["tests/typing_test.py", "active"]],
      );
    },
  );
});

/** A test that fails on this runner whatever the pull request does. */
const FAILS_HERE = `import sys


def test_needs_an_old_python():
    assert sys.version_info < (3, 0)
`;

Deno.test("a test that already fails at the base is never blamed on the pull request", async (t) => {
  const base = {
    "vec.py": VEC,
    "tests/vec_plain_test.py": PLAIN,
    "tests/runner_test.py": FAILS_HERE,
    "tests/agent_contract.yaml": CONTRACT.replace(
      / {2}- id: vec_machine\n(?: {4}.*\n){3}/,
      "",
    ),
  };
  const heads = {
    honest: {
      "vec.py": replaceOnce(
        VEC,
        '"""A persistent vector."""',
        '"""Vectors."""',
      ),
    },
    "bug/append": {
      "vec.py": replaceOnce(
        VEC,
        "        return Vec(self._items + (item,))",
        "        return Vec(self._items)",
      ),
    },
  };
  await using repo = await buildRepo({ base, heads });
  await t.step(
    "an honest change is undecided, naming the base and the excuse",
    async () => {
      const result = await check(repo.dir, "honest");
      assert.equal(result.code, 2, explain(result));
      assert.match(
        result.stderr,
        /"tests\/runner_test\.py::test_needs_an_old_python" already fails on this runner/,
      );
      assert.match(
        result.stderr,
        /\[\[excuses\]\] test = "tests\/runner_test\.py::test_needs_an_old_python"/,
      );
    },
  );
  await t.step("a change that breaks the code is still rejected", async () => {
    const result = await check(repo.dir, "bug/append");
    assert.equal(result.code, 1, explain(result));
    assert.ok(
      rules(blocking(result.verdict)).includes("property.not_passed"),
      explain(result),
    );
    // The test that fails at the base too is a note, not a blocker.
    const notes = (result.verdict?.findings ?? []).filter((f) =>
      f.rule === "tests.failed_at_base"
    );
    assert.deepEqual(
      notes.map((f) => [f.blocking, f.path]),
      [[false, "tests/runner_test.py"]],
      explain(result),
    );
    assert.ok(
      !blocking(result.verdict).some((f) =>
        f.message.includes("test_needs_an_old_python")
      ),
      explain(result),
    );
  });
  await t.step(
    "once a human excuses the test, the honest change is accepted",
    async () => {
      await using excused = await buildRepo({
        base: {
          ...base,
          "pawl.toml": EXCUSE.replace(
            "tests/typing_test.py",
            "tests/runner_test.py::test_needs_an_old_python",
          ),
        },
        heads,
      });
      const result = await check(excused.dir, "honest");
      assert.equal(result.code, 0, explain(result));
    },
  );
});
