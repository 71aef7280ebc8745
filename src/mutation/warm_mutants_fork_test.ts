/**
 * The warm engine against tests that tell a forked run from a fresh one:
 * the mutants they see must end in the cold engine's outcomes.
 */
import assert from "node:assert/strict";
import { fixture, TEST, warm } from "./_warm_mutants_fixture.ts";

/** The weakened test, plus a way to tell a forked run from a fresh one. */
const TELLS: Record<string, string> = {
  "a marker the first run leaves in the tree": `import pathlib

import pytest
from hypothesis import given, settings, strategies as st

from kit.core import clamp, firsts


@pytest.fixture(scope="module")
def first_run():
    marker = pathlib.Path(__file__).with_name(".ran")
    first = not marker.exists()
    marker.touch()
    return first


@settings(max_examples=40)
@given(st.integers(), st.integers(), st.integers())
def test_clamp(first_run, x, a, b):
    assert first_run
    lo, hi = min(a, b), max(a, b)
    assert clamp(x, lo, hi) in (lo, x, hi)


def test_firsts():
    assert list(firsts(2)) == [2]
`,
  "the process id at import": `import os

from hypothesis import given, settings, strategies as st

from kit.core import clamp, firsts

PID = os.getpid()


@settings(max_examples=40)
@given(st.integers(), st.integers(), st.integers())
def test_clamp(x, a, b):
    assert os.getpid() == PID
    lo, hi = min(a, b), max(a, b)
    assert clamp(x, lo, hi) in (lo, x, hi)


def test_firsts():
    assert list(firsts(2)) == [2]
`,
};

Deno.test("runWarmMutants() runs the head cold when its test can tell a forked run from a fresh one, so the weakening still shows", async (t) => {
  for (const [tell, head] of Object.entries(TELLS)) {
    await t.step(tell, async () => {
      // Plain pytest, once on a fresh tree, passes the weakened test.
      await using plain = await fixture();
      const tree = (await plain.options({ "tests/test_kit.py": head }))
        .base.template;
      const pytest = await new Deno.Command("python3", {
        args: ["-m", "pytest", "-q", "-p", "no:cacheprovider"],
        cwd: tree,
        stdout: "null",
        stderr: "null",
      }).output();
      assert.equal(pytest.code, 0);

      await using f = await fixture();
      const options = await f.options({ "tests/test_kit.py": TEST }, {
        "tests/test_kit.py": head,
      });
      const ran = await warm(f, options);
      const weakened = ran.results.filter((r) =>
        r.base["000/clamp"] === "killed" &&
        r.head?.["000/clamp"] === "survived"
      );
      assert.ok(weakened.length > 0, f.progress.join("\n"));
      assert.ok(
        f.progress.some((l) => /head.*(forked run|warm interpreter)/.test(l)),
        f.progress.join("\n"),
      );
    });
  }
});
