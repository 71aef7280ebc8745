import assert from "node:assert/strict";
import { callDifferences } from "../gate/judge_call_replay.ts";
import { LocalSandbox } from "./_local_sandbox.ts";
import type { RecordedCall } from "./calls/call_streams.ts";
import {
  CALLS_IN_ALL,
  CALLS_PER_FUNCTION,
  recordCalls,
} from "./calls/record_calls.ts";
import { REPLAY_CALLS, replayCalls } from "./calls/replay_calls.ts";
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

async function project(
  files: Record<string, string> = {
    "work/pkg/core.py": CORE,
    "work/tests/test_core.py": TESTS,
  },
) {
  const root = await Deno.makeTempDir({ prefix: "pawl-calls-" });
  const work = `${root}/work`;
  const reports = `${root}/reports`;
  await Deno.mkdir(`${work}/pkg`, { recursive: true });
  await Deno.mkdir(`${work}/tests`, { recursive: true });
  await Deno.mkdir(reports);
  await Deno.writeTextFile(`${work}/pkg/__init__.py`, "");
  for (const [path, text] of Object.entries(files)) {
    await Deno.mkdir(`${root}/${path.slice(0, path.lastIndexOf("/"))}`, {
      recursive: true,
    });
    await Deno.writeTextFile(`${root}/${path}`, text);
  }
  return { root, work, reports, plugin: await installObserver(root) };
}

const COMMAND = ["python3", "-m", "pytest", "-q", "-p", "no:cacheprovider"];

/** Record the tests' calls into `pkg/core.py` of project `p`. */
async function record(p: Awaited<ReturnType<typeof project>>) {
  const recording = await recordCalls(new LocalSandbox(), {
    workDir: p.work,
    reportDir: p.reports,
    command: COMMAND,
    observer: p.plugin,
    codeFiles: ["pkg/__init__.py", "pkg/core.py"],
  });
  assert.ok(recording !== null);
  assert.equal(recording.complete, true);
  return recording;
}

/** The first positional argument of a recorded call, as its form shows it. */
function firstArgument(call: RecordedCall): unknown {
  const [, [[, positional]]] = call.shown as [
    string,
    [[string, unknown[]]],
  ];
  return positional[0];
}

Deno.test("the recorder records the test's calls into the code wherever the tests reach it, and the replay shows what differs", async () => {
  const p = await project();
  try {
    const sandbox = new LocalSandbox();
    const command = COMMAND;
    const recording = await record(p);
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

const EDGES_CORE = `import functools
import sys
from os.path import join

_count = [0]


def mark(x):
    return x


def inc(x):
    _count[0] += 1
    return x + _count[0]


hooks = []


def run_hooks(x):
    return [hook(x) for hook in hooks]


def count_up(n):
    yield from range(n)


def nag(x):
    raise UserWarning(x)


def refuse(x):
    raise ValueError(x)


def argv():
    return list(sys.argv)


def where():
    return __file__


def shout(x):
    return x


_quiet = shout


def shout(x):
    return _quiet(x) + "!"


class Account:
    def deposit(self, amount):
        return amount


Alias = Account

exec("def made(x):\\n    return x")


@functools.lru_cache(maxsize=None)
def cached(x):
    return x


def counter(x):
    _count[0] += 1
    return _count[0]
`;

const EDGES_TESTS = `import difflib

import pytest
from hypothesis import HealthCheck

import extra
import pkg.core as core


def test_calls():
    for i in range(${CALLS_PER_FUNCTION + 5}):
        core.inc(i)
    for _ in range(3):
        core.mark("same")
    core.hooks.append(lambda v: core.mark("inside"))
    core.run_hooks(0)
    difflib.SequenceMatcher(core.mark, "", "ab")
    assert list(core.count_up(2)) == [0, 1]
    with pytest.raises(UserWarning):
        core.nag("warned")
    with pytest.raises(ValueError):
        core.refuse("refused")
    core.argv()
    core.where()
    core.shout("a")
    core._quiet("b")
    core.Alias().deposit(1)
    core.made(1)
    core.join("x", "y")
    core.mark(HealthCheck.too_slow)
    core.mark({1, 2})
    extra.via_extra()
    for x in range(1, 11):
        core.counter(x)


def test_cache_info():
    core.cached.cache_info()
    core.mark("cached")
`;

const EXTRA = `import pkg.core


def via_extra():
    return pkg.core.mark("extra")
`;

const CONFTEST = `import os
import sys

sys.path.append(os.path.join(os.path.dirname(__file__), "..", "..", "work-extra"))
`;

/** The 1-based line of `text` in `EDGES_CORE`. */
function lineOf(text: string): number {
  return EDGES_CORE.split("\n").indexOf(text) + 1;
}

Deno.test("the recorder records only the calls test code makes and a replay can make again, within its bounds", async () => {
  const p = await project({
    "work/pkg/core.py": EDGES_CORE,
    "work/tests/test_edges.py": EDGES_TESTS,
    "work/tests/conftest.py": CONFTEST,
    "work-extra/extra.py": EXTRA,
  });
  try {
    const recording = await record(p);
    const calls = (name: string) =>
      recording.calls.filter((c) => c.fn[1] === name);
    assert.equal(calls("inc").length, CALLS_PER_FUNCTION);
    // The same arguments twice, not thrice; never a call made while a
    // recorded call runs, from a library or from a file outside the tree,
    // nor with a test framework's value; a builtin type's value is kept.
    assert.deepEqual(calls("mark").map(firstArgument), [
      ["str", "same"],
      ["str", "same"],
      ["set", [["int", "1"], ["int", "2"]]],
      ["str", "cached"],
    ]);
    assert.equal(calls("run_hooks").length, 1);
    // Generators and warnings raised as errors are left out; an error is kept.
    assert.deepEqual(calls("count_up"), []);
    assert.deepEqual(calls("nag"), []);
    assert.deepEqual(calls("refuse").map((c) => c.out), [[
      ["raise", "builtins.ValueError"],
      ["tuple", [["tuple", [["str", "refused"]]], ["dict", []]]],
    ]]);
    // A name that no longer holds its function, a class alias and a
    // function imported from elsewhere are not wrapped.
    assert.deepEqual(calls("shout").map(firstArgument), [["str", "a"]]);
    assert.deepEqual(calls("Account"), []);
    assert.deepEqual(calls("join"), []);
    assert.equal(calls("Account.deposit").length, 1);
    assert.deepEqual(calls("made").map((c) => c.at), [null]);
    assert.deepEqual(calls("inc")[0]?.at, [
      "pkg/core.py",
      lineOf("def inc(x):"),
    ]);
    assert.deepEqual(calls("inc")[0]?.ran, [[
      "pkg/core.py",
      lineOf("def inc(x):"),
      lineOf("def inc(x):") + 2,
    ]]);
    // Importing ran the class body, never counted as the module's own.
    // A directory beside the tree, named like it, is on the path but is no root.
    assert.deepEqual(recording.roots, ["tests", "."]);
    assert.deepEqual(recording.importRan, [[
      "pkg/core.py",
      lineOf("class Account:"),
      lineOf("class Account:") + 1,
    ]]);

    const options = {
      workDir: p.work,
      reportDir: p.reports,
      env: {},
      command: COMMAND,
      seedEnv: [],
      observer: p.plugin,
    };
    const sandbox = new LocalSandbox();
    const passes = await replayCalls(sandbox, recording, {
      ...options,
      mode: "passes",
    });
    const twice = await replayCalls(sandbox, recording, {
      ...options,
      mode: "twice",
    });
    const index = (name: string) =>
      recording.calls.findIndex((c) => c.fn[1] === name);
    assert.deepEqual(passes.first.get(index("argv")), [
      ["list", [["str", "-c"]]],
      ["tuple", [["tuple", []], ["dict", []]]],
    ]);
    assert.deepEqual(
      passes.first.get(index("where")),
      recording.calls[index("where")]?.out,
    );
    // A raised error replays as it was recorded; `run_hooks` ran a hook
    // the tests registered and `argv` read the test run's arguments.
    assert.deepEqual(
      callDifferences(recording, { passes, twice }).map((d) => d.call.fn[1]),
      ["run_hooks", "argv"],
    );
    // Every later making of `inc` and `counter` differs; the replay stops
    // at its bound on calls, in the middle of a pass, before one of them.
    const counted = new Set(
      recording.calls.flatMap((c, i) =>
        c.fn[1] === "inc" || c.fn[1] === "counter" ? [i] : []
      ),
    );
    assert.equal(counted.size, CALLS_PER_FUNCTION + 10);
    assert.ok(counted.has(REPLAY_CALLS % recording.calls.length));
    let made = recording.calls.length;
    let pass = 1;
    let later = 0;
    while (made < REPLAY_CALLS) {
      pass += 1;
      for (let i = 0; i < recording.calls.length && made < REPLAY_CALLS; i++) {
        made += 1;
        if (counted.has(i)) later += 1;
      }
    }
    assert.notEqual(REPLAY_CALLS % recording.calls.length, 0);
    assert.equal(passes.passes, pass);
    assert.equal(passes.later.length, later);
  } finally {
    await Deno.remove(p.root, { recursive: true });
  }
});

Deno.test("the recorder records at most its bound of calls in all", async () => {
  const functions = Math.ceil(CALLS_IN_ALL / CALLS_PER_FUNCTION) + 1;
  const core = Array.from(
    { length: functions },
    (_, n) => `def f${n}(x):\n    return x\n`,
  ).join("\n\n");
  const tests = `import pkg.core as core


def test_many():
    for n in range(${functions}):
        for x in range(${CALLS_PER_FUNCTION}):
            getattr(core, "f%d" % n)(x)
`;
  const p = await project({
    "work/pkg/core.py": core,
    "work/tests/test_many.py": tests,
  });
  try {
    const recording = await record(p);
    assert.equal(recording.calls.length, CALLS_IN_ALL);
  } finally {
    await Deno.remove(p.root, { recursive: true });
  }
});
