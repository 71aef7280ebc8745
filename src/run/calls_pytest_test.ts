import assert from "node:assert/strict";
import { callDifferences } from "../gate/judge_call_replay.ts";
import { LocalSandbox } from "./_local_sandbox.ts";
import { recordCalls } from "./calls/record_calls.ts";
import { replayCalls } from "./calls/replay_calls.ts";
import { installObserver } from "./observer.ts";

const CORE = `import functools
import sys

_seen = [0]


def double(x):
    if "_py" + "test" in sys.modules:
        return 2 * x
    return 2 * x + 1


@functools.lru_cache(maxsize=None)
def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)


def _inner(x):
    return x


def outer(x):
    return _inner(x) + 1


class Account:
    def __init__(self):
        self.balance = 0

    def deposit(self, amount):
        self.balance += amount
        return self.balance

    @staticmethod
    def fee(amount):
        return amount // 10

    @classmethod
    def opened(cls, amount):
        made = cls()
        made.deposit(amount)
        return made


def tally(x):
    _seen[0] += 1
    return x if _seen[0] <= 30 else x + 1
`;

const TESTS = `from hypothesis import given, settings, strategies as st

import pkg.core as core
from pkg.core import Account, double, fib, outer, tally


class Cents(int):
    pass


@settings(max_examples=12, database=None)
@given(st.integers(min_value=0, max_value=100))
def test_double(x):
    assert double(x) == 2 * x


def test_alias_and_cache():
    assert core.fib(12) == 144
    fib.cache_clear()
    assert outer(3) == 4


def test_methods():
    account = Account()
    assert account.deposit(5) == 5
    assert Account.fee(100) == 10
    assert Account.opened(7).balance == 7


def test_arguments_of_test_side_types_are_not_recorded():
    assert Account().deposit(Cents(3)) == 3
    assert tally(1) == 1
`;

async function project() {
  const root = await Deno.makeTempDir({ prefix: "pawl-calls-" });
  const work = `${root}/work`;
  const reports = `${root}/reports`;
  await Deno.mkdir(`${work}/pkg`, { recursive: true });
  await Deno.mkdir(`${work}/tests`, { recursive: true });
  await Deno.mkdir(reports);
  await Deno.writeTextFile(`${work}/pkg/__init__.py`, "");
  await Deno.writeTextFile(`${work}/pkg/core.py`, CORE);
  await Deno.writeTextFile(`${work}/tests/test_core.py`, TESTS);
  return { root, work, reports, plugin: await installObserver(root) };
}

Deno.test("the recorder records the test's calls into the code wherever the tests reach it, and the replay shows what differs", async () => {
  const p = await project();
  try {
    const sandbox = new LocalSandbox();
    const command = ["python3", "-m", "pytest", "-q", "-p", "no:cacheprovider"];
    const recording = await recordCalls(sandbox, {
      workDir: p.work,
      reportDir: p.reports,
      command,
      observer: p.plugin,
      codeFiles: ["pkg/__init__.py", "pkg/core.py"],
    });
    assert.ok(recording !== null);
    assert.equal(recording.complete, true);
    const called = new Set(recording.calls.map((c) => c.fn[1]));
    // Module functions through `from` imports and a module alias, a cached
    // function, methods, static and class methods; never a call the code
    // makes itself (`_inner`, `fib`'s recursion).
    for (
      const name of [
        "double",
        "fib",
        "outer",
        "Account.deposit",
        "Account.fee",
        "Account.opened",
        "tally",
      ]
    ) {
      assert.ok(called.has(name), `${name} not recorded: ${[...called]}`);
    }
    assert.ok(!called.has("_inner"));
    const count = (name: string) =>
      recording.calls.filter((c) => c.fn[1] === name).length;
    assert.equal(count("fib"), 1);
    // `opened`'s own deposit is the code's call; `Cents` is the tests' type.
    assert.equal(count("Account.deposit"), 1);
    assert.deepEqual(recording.roots.includes("."), true);

    const options = {
      workDir: p.work,
      reportDir: p.reports,
      env: { PYTEST_ADDOPTS: "-x", CONTRACT_SEED: "1" },
      command,
      seedEnv: ["CONTRACT_SEED"],
      observer: p.plugin,
    };
    const passes = await replayCalls(sandbox, recording, {
      ...options,
      mode: "passes",
    });
    const twice = await replayCalls(sandbox, recording, {
      ...options,
      mode: "twice",
    });
    assert.equal(passes.complete, true);
    assert.ok(passes.passes >= 2);
    const differing = new Set(
      callDifferences(recording, { passes, twice }).map((d) => d.call.fn[1]),
    );
    // `double` finds pytest; `tally` goes wrong after 30 calls in one process.
    assert.deepEqual([...differing].sort(), ["double", "tally"]);
  } finally {
    await Deno.remove(p.root, { recursive: true });
  }
});
