import assert from "node:assert/strict";
import { LocalSandbox } from "./_local_sandbox.ts";
import { findExecutable } from "../sandbox/find_executable.ts";
import { startBytecodeCompiler } from "./bytecode_compiler.ts";
import { installObserver } from "./observer.ts";
import { runPytest, SANDBOX_PATH } from "./run_pytest.ts";

async function project(files: Record<string, string>) {
  const root = await Deno.makeTempDir({ prefix: "pawl-obs-code-" });
  const work = `${root}/work`;
  const reports = `${root}/reports`;
  await Deno.mkdir(work);
  await Deno.mkdir(reports);
  for (const [path, text] of Object.entries(files)) {
    const full = path.startsWith("/") ? `${root}${path}` : `${work}/${path}`;
    await Deno.mkdir(full.slice(0, full.lastIndexOf("/")), { recursive: true });
    await Deno.writeTextFile(full, text);
  }
  const plugin = await installObserver(root);
  return { root, work, reports, plugin };
}

async function observed(
  files: Record<string, string>,
  countAsserts = false,
) {
  const p = await project(files);
  try {
    if (countAsserts) await compileAhead(p.root, p.work);
    const run = await runPytest(new LocalSandbox(), {
      workDir: p.work,
      reportDir: p.reports,
      command: [
        "python3",
        "-m",
        "pytest",
        "-q",
        "-p",
        "no:cacheprovider",
        "--hypothesis-seed=5",
      ],
      observer: p.plugin,
      countAsserts,
    });
    const o = run.observation;
    assert.ok(o !== undefined && o.hello && o.finished, run.result.outputTail);
    assert.deepEqual(o.problems, []);
    return { o, work: await Deno.realPath(p.work), run };
  } finally {
    await Deno.remove(p.root, { recursive: true });
  }
}

/** pawl's bytecode compiler writes the copy's bytecode, pytest's rewritten test modules included. */
async function compileAhead(root: string, work: string): Promise<void> {
  const python = await findExecutable("python3", SANDBOX_PATH.split(":"));
  assert.ok(python !== undefined);
  const cacheDir = `${root}/bytecode-cache`;
  await Deno.mkdir(cacheDir, { mode: 0o700 });
  const compiler = await startBytecodeCompiler({ python, cacheDir });
  try {
    const made = await compiler.compile(work);
    assert.ok(made !== undefined && made.written > 0, JSON.stringify(made));
  } finally {
    await compiler.close();
  }
}

const CODE = `import importlib


class Skip(importlib.import_module("hypothesis.errors").UnsatisfiedAssumption):
    def __init__(self):
        pass  # no super().__init__()


def half(n):
    if n % 3 == 0:
        raise Skip.__new__(Skip)
    return n // 2


def mark(n):
    if n % 4 == 0:
        control = importlib.import_module("hypothesis.control")
        control.current_build_context().data.mark_invalid()
    return n


def fours():
    """A strategy the package ships for its tests."""
    st = importlib.import_module("hypothesis.strategies")

    @st.composite
    def draw_four(draw):
        return draw(st.integers(0, 1000).filter(lambda n: n % 4 == 0))

    return draw_four()
`;

const TESTS = `from hypothesis import assume, given, strategies as st

from pkg import fours, half, mark


@given(st.integers(0, 1000))
def test_half(n):
    assert half(n) <= n


@given(st.integers(0, 1000))
def test_mark(n):
    assert mark(n) == n


@given(st.integers(0, 1000))
def test_assume(n):
    assume(n % 2)
    assert n % 2 == 1


@given(fours())
def test_fours(n):
    assert n % 4 == 0


def test_plain():
    assert True


@given(st.builds(mark, st.integers(0, 1000)))
def test_built(n):
    assert n % 4
`;

Deno.test("the observer says where each discarded example was discarded, however the discard was raised", async () => {
  const { o, work } = await observed({
    "pkg/__init__.py": "from .core import fours, half, mark\n",
    "pkg/core.py": CODE,
    "tests/__init__.py": "",
    "tests/test_a.py": TESTS,
  });
  const sites = (name: string) =>
    (o.discards.get(`tests/test_a.py::${name}`) ?? []).map((s) =>
      `${s.file.replace(`${work}/`, "")}:${s.line}`
    );
  // A subclass whose __init__ never ran, raised from the code.
  assert.deepEqual(sites("test_half"), ["pkg/core.py:11"]);
  // The data marked invalid by hand, from the code.
  assert.deepEqual(sites("test_mark"), ["pkg/core.py:18"]);
  // The test's own assume().
  assert.deepEqual(sites("test_assume"), ["tests/test_a.py:18"]);
  assert.deepEqual(sites("test_plain"), []);
  // The code's discard while Hypothesis draws an argument it builds.
  assert.deepEqual(sites("test_built"), ["pkg/core.py:18"]);
  // What a shipped strategy's filter rejects while drawing is the strategy's.
  assert.ok((o.examples.get("tests/test_a.py::test_fours")?.invalid ?? 0) > 0);
  assert.deepEqual(sites("test_fours"), []);
  const half = o.discards.get("tests/test_a.py::test_half")?.[0]?.count ?? 0;
  const invalid = o.examples.get("tests/test_a.py::test_half")?.invalid ?? 0;
  assert.ok(half > 0 && half <= invalid, `${half} of ${invalid}`);
  // pawl's own patches of Hypothesis are never reported.
  assert.deepEqual(o.patches, []);
});

const PATCHING = `import gc
import importlib

from .core import half, mark

strategies = importlib.import_module("hypo" + "thesis.strategies")
_integers = strategies.integers
strategies.integers = lambda lo=None, hi=None: _integers(lo, hi).map(abs)


class Hostile:
    def __eq__(self, other):
        return True

    def __getattr__(self, name):
        raise RuntimeError(name)

    def __call__(self, *args):
        return _integers()


provisional = importlib.import_module("hypothesis.provisional")
provisional.domains = Hostile()
`;

const PATCHING_TESTS = `from hypothesis import given, strategies as st
from hypothesis.strategies._internal.strategies import SearchStrategy


def test_plain_patch():
    SearchStrategy.filter = lambda self, condition: self


@given(st.integers(0, 10))
def test_after(n):
    assert n >= 0
`;

Deno.test("the observer names Hypothesis objects replaced after its own patches, hostile ones too", async () => {
  const { o, work } = await observed({
    "pkg/__init__.py": PATCHING,
    "pkg/core.py": CODE,
    "tests/__init__.py": "",
    "tests/test_a.py": `import pkg  # noqa: F401\n${PATCHING_TESTS}`,
  });
  const seen = o.patches.map((p) =>
    `${p.name} ${p.file.replace(`${work}/`, "")} ${p.nodeId}`
  );
  assert.deepEqual(seen, [
    // At the end of collection: the package's start-up patched them.
    "hypothesis.strategies.integers pkg/__init__.py null",
    // A module imported later is snapshotted as it is imported.
    "hypothesis.provisional.domains  null",
    // At the end of the next test that ran Hypothesis.
    "hypothesis.strategies.SearchStrategy.filter tests/test_a.py tests/test_a.py::test_after",
  ]);
});

Deno.test("the observer leaves out pawl's mutant driver's patch, but not a file of the repository named like it", async () => {
  const driver =
    `from hypothesis.internal.conjecture.engine import ConjectureRunner

more = ConjectureRunner.should_generate_more
ConjectureRunner.should_generate_more = lambda self: more(self)
`;
  const conftest = (path: string) =>
    `import importlib.util


def pytest_configure(config):
    spec = importlib.util.spec_from_file_location("driver", ${
      JSON.stringify(path)
    })
    spec.loader.exec_module(importlib.util.module_from_spec(spec))
`;
  const tests = `from hypothesis import given, strategies as st


@given(st.integers())
def test_a(n):
    pass
`;
  const outside = await project({});
  const away = `${outside.root}/driver/pawl_warm_driver.py`;
  try {
    await Deno.mkdir(`${outside.root}/driver`);
    await Deno.writeTextFile(away, driver);
    const pawls = await observed({
      "conftest.py": conftest(away),
      "test_a.py": tests,
    });
    assert.deepEqual(pawls.o.patches, []);
  } finally {
    await Deno.remove(outside.root, { recursive: true });
  }
  const own = await observed({
    "conftest.py": conftest("pawl_warm_driver.py"),
    "pawl_warm_driver.py": driver,
    "test_a.py": tests,
  });
  assert.deepEqual(own.o.patches.map((p) => p.name), [
    "hypothesis.internal.conjecture.engine.ConjectureRunner.should_generate_more",
  ]);
});

const REACHED = `from hypothesis import given, strategies as st


def check(n):
    assert n >= 0


@given(st.integers(0, 100))
def test_reach(n):
    if n % 2:
        return
    assert n % 2 == 0
    check(n)


def test_plain():
    assert True


@given(st.integers(0, 100))
def test_every(n):
    assert n >= 0
`;

Deno.test("the observer counts how often each assert passed on the runs that ask for it, however pytest's bytecode was compiled", async () => {
  const files = {
    "tests/__init__.py": "",
    "tests/test_r.py": REACHED,
  };
  const { o, work } = await observed(files, true);
  const asserts = (o.reach.get("tests/test_r.py::test_reach") ?? []).map((
    a,
  ) => [a.file.replace(`${work}/`, ""), a.line, a.count]);
  // Hypothesis' own asserts are not counted, nor a test that ran no Hypothesis.
  assert.deepEqual(asserts.map(([f, l]) => `${f}:${l}`), [
    "tests/test_r.py:5",
    "tests/test_r.py:12",
  ]);
  const [helper, own] = asserts.map(([, , n]) => n as number);
  assert.ok(own !== undefined && own > 10 && own < 100, String(own));
  assert.equal(helper, own);
  assert.equal(o.reach.has("tests/test_r.py::test_plain"), false);
  // An assert every example passes passed once per valid example.
  const every = "tests/test_r.py::test_every";
  assert.deepEqual(
    o.reach.get(every)?.map((a) =>
      `${a.file.replace(`${work}/`, "")}:${a.line}`
    ),
    ["tests/test_r.py:22"],
  );
  assert.equal(o.reach.get(every)?.[0]?.count, o.examples.get(every)?.valid);
  // Not asked for: nothing counted.
  assert.equal((await observed(files)).o.reach.size, 0);
});

/** A test that discards every other example, cycling over `sites` assume lines (13 onwards). */
function cyclingDiscards(sites: number): string {
  const assumes = Array.from(
    { length: sites },
    (_, i) => `    assume(k != ${(i + 1) % sites})\n`,
  ).join("");
  return `from hypothesis import assume, given, settings, strategies as st

calls = [0]


@settings(max_examples=100)
@given(st.integers())
def test_sites(n):
    calls[0] += 1
    if calls[0] % 2:
        return
    k = calls[0] // 2 % ${sites}
${assumes}`;
}

Deno.test("the observer keeps a test's first 20 discard sites and counts every discard at them", async () => {
  const { o, work } = await observed({
    "tests/test_s.py": cyclingDiscards(21),
  });
  const id = "tests/test_s.py::test_sites";
  const sites = (o.discards.get(id) ?? []).map((s) =>
    `${s.file.replace(`${work}/`, "")}:${s.line} ${s.count}`
  );
  // The n-th discard is at the assume of k = n % 21; the one of k = 0
  // (line 33) is the 21st site, left out.
  const discarded = o.examples.get(id)?.invalid ?? 0;
  assert.ok(discarded > 21, String(discarded));
  const expected = Array.from({ length: 20 }, (_, i) => {
    const k = i + 1;
    const count = Math.floor((discarded - k) / 21) + 1;
    return `tests/test_s.py:${12 + k} ${count}`;
  });
  assert.deepEqual(sites, expected);
});

Deno.test("the observer names Hypothesis objects added, removed or replaced in a module loaded past its hook", async () => {
  const { o, work } = await observed({
    "tests/__init__.py": "",
    "tests/test_a.py": `import importlib.machinery
import importlib.util
import sys

import hypothesis
import hypothesis.strategies as st
from hypothesis import given
from hypothesis.strategies._internal.strategies import SearchStrategy

# Loaded past every import hook: seen at the next check.
_spec = importlib.machinery.PathFinder.find_spec(
    "hypothesis.provisional", hypothesis.__path__)
provisional = importlib.util.module_from_spec(_spec)
sys.modules["hypothesis.provisional"] = provisional
_spec.loader.exec_module(provisional)


def test_add_and_remove():
    SearchStrategy.shrug = lambda self: self
    del st.uuids
    provisional.domains = lambda: None


@given(st.integers(0, 10))
def test_after(n):
    assert n >= 0
`,
  });
  const after = "tests/test_a.py::test_after";
  assert.deepEqual(
    o.patches.map((p) =>
      `${p.name} ${p.file.replace(`${work}/`, "")} ${p.removed} ${p.nodeId}`
    ).sort(),
    [
      `hypothesis.provisional.domains tests/test_a.py false ${after}`,
      `hypothesis.strategies.SearchStrategy.shrug tests/test_a.py false ${after}`,
      `hypothesis.strategies.uuids  true ${after}`,
    ],
  );
});

Deno.test("the observer sees at the session's end what the last test added to Hypothesis, the first 50 entries", async () => {
  const { o, work } = await observed({
    "test_a.py": `from hypothesis import given, strategies as st
from hypothesis.strategies._internal.strategies import SearchStrategy


@given(st.integers(0, 10))
def test_first(n):
    assert n >= 0


def test_last():
    for i in range(60):
        setattr(SearchStrategy, "extra_%d" % i, lambda self: self)
`,
  });
  const seen = o.patches.map((p) =>
    `${p.name} ${p.file.replace(`${work}/`, "")} ${p.removed} ${p.nodeId}`
  );
  assert.deepEqual(
    seen,
    Array.from(
      { length: 50 },
      (_, i) =>
        `hypothesis.strategies.SearchStrategy.extra_${i} test_a.py false null`,
    ),
  );
});
