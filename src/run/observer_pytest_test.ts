import assert from "node:assert/strict";
import { LocalSandbox } from "./_local_sandbox.ts";
import { crossCheckReport } from "./cross_check_report.ts";
import { examplesOf, judgeExamples } from "./judge_examples.ts";
import { installObserver } from "./observer.ts";
import { runPytest } from "./run_pytest.ts";

async function project(files: Record<string, string>) {
  const root = await Deno.makeTempDir({ prefix: "pawl-obs-" });
  const work = `${root}/work`;
  const reports = `${root}/reports`;
  await Deno.mkdir(work);
  await Deno.mkdir(reports);
  for (const [path, text] of Object.entries(files)) {
    const dir = path.includes("/") ? path.slice(0, path.lastIndexOf("/")) : "";
    if (dir !== "") await Deno.mkdir(`${work}/${dir}`, { recursive: true });
    await Deno.writeTextFile(`${work}/${path}`, text);
  }
  const plugin = await installObserver(root);
  return { root, work, reports, plugin };
}

/** `python3 -m pytest -q ARGS` in the project, observed. */
function observedRun(
  p: Awaited<ReturnType<typeof project>>,
  ...args: string[]
) {
  return runPytest(new LocalSandbox(), {
    workDir: p.work,
    reportDir: p.reports,
    command: ["python3", "-m", "pytest", "-q", ...args],
    observer: p.plugin,
  });
}

const TESTS = `import pytest
from hypothesis import assume, given, settings, strategies as st


@given(st.integers())
def test_even(x):
    assume(x % 2 == 0)
    assert x % 2 == 0


@settings(max_examples=7)
@given(st.integers())
def test_small(x):
    pass


def test_fails():
    assert 1 == 2


@pytest.mark.xfail(strict=True)
def test_xfail():
    assert 0
`;

Deno.test("the observer streams outcomes and Hypothesis example counts of a real pytest run", async () => {
  const p = await project({
    "tests/__init__.py": "",
    "tests/test_a.py": TESTS,
  });
  try {
    const run = await observedRun(p, "--hypothesis-seed=11");
    const o = run.observation;
    assert.ok(o !== undefined && o.hello && o.finished);
    assert.deepEqual(o.problems, []);
    assert.deepEqual(o.collected, [
      "tests/test_a.py::test_even",
      "tests/test_a.py::test_small",
      "tests/test_a.py::test_fails",
      "tests/test_a.py::test_xfail",
    ]);
    assert.deepEqual(Object.fromEntries(o.outcomes), {
      "tests/test_a.py::test_even": "passed",
      "tests/test_a.py::test_small": "passed",
      "tests/test_a.py::test_fails": "failed",
      "tests/test_a.py::test_xfail": "xfailed",
    });
    const even = examplesOf(o, "tests/test_a.py::test_even");
    assert.equal(even?.valid, 100);
    assert.ok((even?.invalid ?? 0) > 0, "assume() rejects are counted");
    assert.equal(examplesOf(o, "tests/test_a.py::test_small")?.valid, 7);
    assert.deepEqual(o.seeds.get("tests/test_a.py::test_small"), [
      { source: "forced", seed: "11", maxExamples: 7 },
    ]);
    assert.deepEqual(o.rewritten, []);
    assert.deepEqual(crossCheckReport(o, run.cases ?? [], { run: "r" }), []);
  } finally {
    await Deno.remove(p.root, { recursive: true });
  }
});

Deno.test("pytest loads the observer as it is, without rewriting its asserts", async () => {
  const p = await project({
    "tests/test_loaded.py": `import sys


def test_observer_loaded_unrewritten():
    mods = [m for n, m in sys.modules.items() if n.startswith("_pawl_observer_")]
    assert len(mods) == 1
    assert not hasattr(mods[0], "@pytest_ar"), "the observer was rewritten"
`,
  });
  try {
    const run = await observedRun(p);
    assert.deepEqual(run.cases?.map((c) => [c.outcome, c.message]), [[
      "passed",
      undefined,
    ]]);
    assert.equal(
      run.observation?.outcomes.get(
        "tests/test_loaded.py::test_observer_loaded_unrewritten",
      ),
      "passed",
    );
  } finally {
    await Deno.remove(p.root, { recursive: true });
  }
});

Deno.test("the observer catches code under test that rewrites the JUnit report at exit", async () => {
  const p = await project({
    "calc.py": `import atexit, re, sys


def _forge():
    for arg in sys.argv:
        if arg.startswith("--junitxml="):
            path = arg.split("=", 1)[1]
            text = open(path).read()
            text = re.sub(r"<failure[^>]*>.*?</failure>", "", text, flags=re.S)
            text = text.replace('failures="1"', 'failures="0"')
            open(path, "w").write(text)


atexit.register(_forge)


def add(a, b):
    return a - b
`,
    "tests/test_calc.py": `from calc import add


def test_add():
    assert add(2, 2) == 4
`,
  });
  try {
    const run = await observedRun(p);
    assert.deepEqual(run.cases?.map((c) => c.outcome), ["passed"]);
    const findings = crossCheckReport(run.observation!, run.cases ?? [], {
      run: "the suite",
    });
    assert.deepEqual(findings.map((f) => f.rule), ["harness.report_tampered"]);
    assert.match(findings[0]!.message, /test_add" passed, but it failed/);
  } finally {
    await Deno.remove(p.root, { recursive: true });
  }
});

Deno.test("the observer sees a conftest hookwrapper that turns failures into passes", async () => {
  const p = await project({
    "tests/conftest.py": `import pytest


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if report.failed:
        report.outcome = "passed"
        report.longrepr = None
`,
    "tests/test_x.py": `def test_x():
    assert False
`,
  });
  try {
    const run = await observedRun(p);
    assert.equal(run.result.code, 0, "plain pytest is fooled");
    const o = run.observation!;
    assert.deepEqual(o.rewritten, [{
      nodeId: "tests/test_x.py::test_x",
      when: "call",
      made: "failed",
      logged: "passed",
    }]);
    const findings = crossCheckReport(o, run.cases ?? [], { run: "r" });
    assert.deepEqual(findings.map((f) => f.rule), ["harness.report_tampered"]);
  } finally {
    await Deno.remove(p.root, { recursive: true });
  }
});

Deno.test("the observer records collection errors and who loads a Hypothesis profile", async () => {
  const p = await project({
    "lib/__init__.py": `from hypothesis import settings
settings.register_profile("quick", max_examples=2)
settings.load_profile("quick")
`,
    "tests/test_ok.py": `import lib
from hypothesis import given, strategies as st


@given(st.integers())
def test_p(x):
    pass
`,
    "tests/test_broken.py": "import no_such_module_anywhere\n",
    "tests/test_huge_error.py": 'raise RuntimeError("x" * 10000)\n',
  });
  try {
    const run = await runPytest(new LocalSandbox(), {
      workDir: p.work,
      reportDir: p.reports,
      command: [
        "python3",
        "-m",
        "pytest",
        "-q",
        "--continue-on-collection-errors",
      ],
      observer: p.plugin,
    });
    const o = run.observation!;
    assert.deepEqual(o.collectErrors.map((e) => e.nodeId), [
      "tests/test_broken.py",
      "tests/test_huge_error.py",
    ]);
    assert.match(o.collectErrors[0]!.text, /no_such_module_anywhere/);
    // An error's text is cut at its first 4000 characters.
    assert.equal(o.collectErrors[1]!.text.length, 4000);
    assert.equal(o.profiles.length, 1);
    assert.equal(o.profiles[0]!.name, "quick");
    assert.ok(o.profiles[0]!.file.endsWith("/lib/__init__.py"));
    assert.equal(examplesOf(o, "tests/test_ok.py::test_p")?.valid, 2);
    assert.deepEqual(crossCheckReport(o, run.cases ?? [], { run: "r" }), []);
  } finally {
    await Deno.remove(p.root, { recursive: true });
  }
});

Deno.test("addopts cannot block the observer, and a conftest that unregisters it is caught", async (t) => {
  const p = await project({
    "tests/test_x.py": "def test_x():\n    assert True\n",
  });
  try {
    const run = (dir: string) =>
      runPytest(new LocalSandbox(), {
        workDir: dir,
        reportDir: p.reports,
        command: ["python3", "-m", "pytest", "-q"],
        observer: p.plugin,
      });
    await t.step("-p no:<name> in addopts comes before pawl's -p", async () => {
      // The repository cannot know the per-job name; this test can.
      await Deno.writeTextFile(
        `${p.work}/pytest.ini`,
        `[pytest]\naddopts = -p no:${p.plugin.module}\n`,
      );
      const r = await run(p.work);
      assert.equal(r.observation?.configured, true);
      assert.deepEqual(
        crossCheckReport(r.observation!, r.cases ?? [], { run: "r" }),
        [],
      );
    });
    await t.step("a conftest unregistering every pawl plugin", async () => {
      await Deno.writeTextFile(
        `${p.work}/conftest.py`,
        `def pytest_configure(config):
    for name, plugin in list(config.pluginmanager.list_name_plugin()):
        if str(name).startswith("_pawl"):
            config.pluginmanager.unregister(plugin)
`,
      );
      const r = await run(p.work);
      assert.deepEqual(r.cases?.map((c) => c.outcome), ["passed"]);
      const findings = crossCheckReport(r.observation!, r.cases ?? [], {
        run: "r",
      });
      assert.equal(findings.length, 1);
      assert.match(
        findings[0]!.rule,
        /^harness\.(observer_missing|report_tampered)$/,
      );
    });
  } finally {
    await Deno.remove(p.root, { recursive: true });
  }
});

Deno.test("a committed unchecked-hash .pyc never runs: exports lose their bytecode", async () => {
  const { removeBytecode } = await import("./remove_bytecode.ts");
  const p = await project({
    "calc.py": "def add(a, b):\n    return a - b\n",
    "tests/test_calc.py":
      "from calc import add\n\n\ndef test_add():\n    assert add(2, 2) == 4\n",
  });
  try {
    const good = `${p.root}/good.py`;
    await Deno.writeTextFile(good, "def add(a, b):\n    return a + b\n");
    await Deno.mkdir(`${p.work}/__pycache__`);
    const compile = await new Deno.Command("/usr/bin/python3", {
      args: [
        "-c",
        "import py_compile, sys; py_compile.compile(sys.argv[1], cfile=sys.argv[2], invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)",
        good,
        `${p.work}/__pycache__/calc.cpython-311.pyc`,
      ],
    }).output();
    assert.equal(compile.code, 0);
    const cmd = ["python3", "-m", "pytest", "-q"];
    const fooled = await runPytest(new LocalSandbox(), {
      workDir: p.work,
      reportDir: p.reports,
      command: cmd,
    });
    assert.deepEqual(
      fooled.cases?.map((c) => c.outcome),
      ["passed"],
      "the .pyc ran",
    );
    assert.deepEqual(await removeBytecode(p.work), ["__pycache__"]);
    const stripped = await runPytest(new LocalSandbox(), {
      workDir: p.work,
      reportDir: p.reports,
      command: cmd,
    });
    assert.deepEqual(
      stripped.cases?.map((c) => c.outcome),
      ["failed"],
      "the source ran",
    );
  } finally {
    await Deno.remove(p.root, { recursive: true });
  }
});

Deno.test("a failed test whose teardown also errors is two report cases, and that is no tampering", async () => {
  const p = await project({
    "tests/test_t.py": `import pytest


@pytest.fixture
def broken_teardown():
    yield
    raise RuntimeError("teardown")


def test_t(broken_teardown):
    assert False
`,
  });
  try {
    const run = await observedRun(p);
    assert.deepEqual(run.cases?.map((c) => c.outcome).sort(), [
      "error",
      "failed",
    ]);
    assert.deepEqual(
      crossCheckReport(run.observation!, run.cases ?? [], { run: "r" }),
      [],
    );
  } finally {
    await Deno.remove(p.root, { recursive: true });
  }
});

/** A state machine module whose TestCase runs `steps` steps per program. */
function machineModule(steps: number): string {
  return `from hypothesis import settings, strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule


class Counter(RuleBasedStateMachine):
    def __init__(self):
        super().__init__()
        self.n = 0

    @rule(k=st.integers(0, 3))
    def add(self, k):
        self.n += k

    @invariant()
    def non_negative(self):
        assert self.n >= 0


Counter.TestCase.settings = settings(max_examples=12, stateful_step_count=${steps}, deadline=None)
TestCounter = Counter.TestCase
`;
}

Deno.test("the observer counts a state machine's examples and steps, and fewer steps than the oracle's are judged", async () => {
  const node = "tests/test_counter.py::TestCounter::runTest";
  const observe = async (steps: number) => {
    const p = await project({
      "tests/__init__.py": "",
      "tests/test_counter.py": machineModule(steps),
    });
    try {
      const run = await observedRun(p, "--hypothesis-seed=5");
      const o = run.observation;
      assert.ok(o !== undefined && o.finished);
      assert.deepEqual(o.collected, [node]);
      assert.equal(o.outcomes.get(node), "passed");
      return o;
    } finally {
      await Deno.remove(p.root, { recursive: true });
    }
  };
  const base = await observe(9);
  const head = await observe(2);
  assert.equal(examplesOf(base, node)?.valid, 12);
  assert.equal(base.steps.get(node)?.longest, 9);
  assert.equal(head.steps.get(node)?.longest, 2);
  assert.ok((base.steps.get(node)?.machines ?? 0) >= 12);
  const property = [{ id: "counter", nodeId: node }];
  assert.deepEqual(
    judgeExamples(property, { head, oracle: base, seed: 5 }).map((f) => f.rule),
    ["property.examples_not_executed"],
  );
  assert.deepEqual(
    judgeExamples(property, { head: base, oracle: head, seed: 5 }),
    [],
  );
});

Deno.test("the observer loads through its user site when the test command sets its own PYTHONPATH", async (t) => {
  const p = await project({
    "src/shapes/__init__.py": "def area(w, h):\n    return w * h\n",
    "tests/test_area.py":
      "from shapes import area\n\n\ndef test_area():\n    assert area(2, 3) == 6\n",
  });
  const run = (command: string[]) =>
    runPytest(new LocalSandbox(), {
      workDir: p.work,
      reportDir: p.reports,
      command,
      observer: p.plugin,
    });
  try {
    await t.step(
      "every Python 3 version's user site is the plugin's directory",
      async () => {
        const { userBase, dir, module } = p.plugin;
        for (const version of ["python3.11", "python3.13t", "pypy3.10"]) {
          const site = `${userBase}/lib/${version}/site-packages`;
          assert.equal(await Deno.realPath(site), await Deno.realPath(dir));
          assert.ok((await Deno.stat(`${site}/${module}.py`)).isFile);
        }
        assert.equal((await Deno.stat(userBase!)).mode! & 0o222, 0);
      },
    );
    await t.step("env PYTHONPATH=src python3 -m pytest", async () => {
      const observed = await run(
        ["env", "PYTHONPATH=src", "python3", "-m", "pytest", "-q"],
      );
      assert.ok(observed.observation?.hello, observed.result.outputTail);
      assert.deepEqual(observed.cases?.map((c) => c.outcome), ["passed"]);
    });
    await t.step(
      "an isolated interpreter reads neither: no stream, no report",
      async () => {
        const isolated = await run(
          ["env", "PYTHONPATH=src", "python3", "-I", "-m", "pytest", "-q"],
        );
        assert.equal(isolated.observation?.hello, false);
        assert.equal(isolated.cases, null);
        assert.match(isolated.result.outputTail, /Error importing plugin/);
      },
    );
  } finally {
    await Deno.remove(p.root, { recursive: true });
  }
});

Deno.test("the observer streams the end of a long failure, where Hypothesis' falsifying example is", async () => {
  const p = await project({
    "tests/__init__.py": "",
    // Each frame's source is quoted in full: the report runs long.
    "tests/test_deep.py": `from hypothesis import given, strategies as st


def down(n, x):
    ${"# padding so every frame prints long source\n    ".repeat(100)}
    if n == 0:
        assert x < 10
        return
    return down(n - 1, x)


@given(st.integers())
def test_deep(x):
    down(12, x)
`,
  });
  try {
    const run = await observedRun(p, "--hypothesis-seed=3");
    const o = run.observation!;
    const id = "tests/test_deep.py::test_deep";
    assert.equal(o.outcomes.get(id), "failed");
    assert.equal(o.texts.get(id)?.length, 4000);
    assert.doesNotMatch(o.texts.get(id)!, /Falsifying example/);
    const tail = o.tails.get(id) ?? "";
    assert.equal(tail.length, 4000);
    assert.match(
      tail,
      /E\s+Falsifying example: test_deep\(\nE\s+x=10,\nE\s+\)/,
    );
    assert.match(tail, /tests\/test_deep\.py:\d+: AssertionError$/);
  } finally {
    await Deno.remove(p.root, { recursive: true });
  }
});

const SEEDED = `from hypothesis import given, seed, settings, strategies as st


@given(st.integers())
def test_plain(x):
    pass


@seed(42)
@given(st.integers())
def test_explicit(x):
    pass


@settings(derandomize=True)
@given(st.integers())
def test_derandomized(x):
    pass


@seed(7)
@settings(derandomize=True, max_examples=5)
@given(st.integers())
def test_explicit_and_derandomized(x):
    pass
`;

Deno.test("the observer says which seed each Hypothesis test drew from, as Hypothesis chooses it", async (t) => {
  const p = await project({ "tests/test_s.py": SEEDED });
  const id = (name: string) => `tests/test_s.py::${name}`;
  try {
    const cases = [
      {
        name: "without --hypothesis-seed, a plain test draws a random seed",
        args: [],
        plain: { source: "random", seed: null, maxExamples: 100 },
      },
      {
        name: "with --hypothesis-seed, a plain test draws the forced seed",
        args: ["--hypothesis-seed=11"],
        plain: { source: "forced", seed: "11", maxExamples: 100 },
      },
    ];
    for (const c of cases) {
      await t.step(c.name, async () => {
        const o = (await observedRun(p, ...c.args)).observation!;
        assert.deepEqual(Object.fromEntries(o.seeds), {
          [id("test_plain")]: [c.plain],
          // @seed and derandomize come before the forced seed, @seed first.
          [id("test_explicit")]: [
            { source: "explicit", seed: "42", maxExamples: 100 },
          ],
          [id("test_derandomized")]: [
            { source: "derandomize", seed: null, maxExamples: 100 },
          ],
          [id("test_explicit_and_derandomized")]: [
            { source: "explicit", seed: "7", maxExamples: 5 },
          ],
        });
      });
    }
  } finally {
    await Deno.remove(p.root, { recursive: true });
  }
});

Deno.test("the observer counts a failing example replayed from the test's own example database", async () => {
  const p = await project({
    "tests/test_db.py":
      `from hypothesis import given, settings, strategies as st
from hypothesis.database import InMemoryExampleDatabase

db = InMemoryExampleDatabase()


def below_ten(x):
    assert x < 10


# Both run the same function, so they share its key in the database: the
# second replays what the first saved.
test_first = settings(database=db)(given(st.integers())(below_ten))
test_again = settings(database=db)(given(st.integers())(below_ten))
`,
  });
  try {
    // Without --hypothesis-seed: a forced seed turns the database off.
    const o = (await observedRun(p)).observation!;
    assert.equal(o.outcomes.get("tests/test_db.py::test_again"), "failed");
    const again = examplesOf(o, "tests/test_db.py::test_again");
    assert.ok((again?.interesting ?? 0) > 0, JSON.stringify(again));
    assert.ok(
      (examplesOf(o, "tests/test_db.py::test_first")?.interesting ?? 0) > 0,
    );
  } finally {
    await Deno.remove(p.root, { recursive: true });
  }
});

Deno.test("the observer streams a failure text whole up to its limit, and its end only past it", async () => {
  const p = await project({
    "tests/conftest.py": `import pytest


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if report.when == "call" and report.failed:
        size = item.callspec.params["size"]
        report.longrepr = "<" + "x" * (size - 2) + ">"
`,
    "tests/test_t.py": `import pytest


@pytest.mark.parametrize("size", [3999, 4000, 4001])
def test_text(size):
    assert False
`,
  });
  try {
    const o = (await observedRun(p)).observation!;
    const id = (size: number) => `tests/test_t.py::test_text[${size}]`;
    const x = (n: number) => "x".repeat(n);
    assert.equal(o.texts.get(id(3999)), `<${x(3997)}>`);
    assert.equal(o.texts.get(id(4000)), `<${x(3998)}>`);
    assert.equal(o.texts.get(id(4001)), `<${x(3999)}`);
    assert.deepEqual(Object.fromEntries(o.tails), {
      [id(4001)]: `${x(3999)}>`,
    });
  } finally {
    await Deno.remove(p.root, { recursive: true });
  }
});
