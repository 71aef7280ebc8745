import assert from "node:assert/strict";
import { LocalSandbox } from "./_local_sandbox.ts";
import { crossCheckReport } from "./cross_check_report.ts";
import type { Observation } from "./observation.ts";
import { installObserver, type ObserverPlugin } from "./observer.ts";
import type { TestCaseResult } from "./parse_junit.ts";
import { runPytest } from "./run_pytest.ts";

/** The observer as it was when it sent every line in a write of its own. */
const REFERENCE = new URL("./testdata/reference_observer.py", import.meta.url);

async function project(files: Record<string, string>) {
  const root = await Deno.makeTempDir({ prefix: "pawl-obs-stream-" });
  const work = `${root}/work`;
  await Deno.mkdir(work);
  for (const [path, text] of Object.entries(files)) {
    const dir = path.includes("/") ? path.slice(0, path.lastIndexOf("/")) : "";
    if (dir !== "") await Deno.mkdir(`${work}/${dir}`, { recursive: true });
    await Deno.writeTextFile(`${work}/${path}`, text);
  }
  return { root, work, plugin: await installObserver(root) };
}

/** The reference observer installed the way `installObserver` installs pawl's. */
async function installReference(root: string): Promise<ObserverPlugin> {
  const top = `${root}/reference`;
  await Deno.mkdir(`${top}/lib`, { recursive: true });
  await Deno.mkdir(`${top}/run`, { mode: 0o711 });
  const module = "_pawl_reference_observer";
  await Deno.copyFile(REFERENCE, `${top}/lib/${module}.py`);
  return { root: top, dir: `${top}/lib`, module, channels: `${top}/run` };
}

// Every kind of phase outcome, rewritten outcomes, a report logged by hand
// with no "made" of its own, a report made and never logged, a pass made
// by a plugin although the setup raised, and a profile loaded between
// making and logging a report. A copy of every write goes to STREAM_COPY.
const CONFTEST = `import os
import sys

import pytest
from _pytest.reports import TestReport
from _pytest.runner import CallInfo, runtestprotocol
from hypothesis import settings

_config = []
settings.register_profile("between", max_examples=3)
_observer = next(m for n, m in list(sys.modules.items())
                 if n.startswith("_pawl_") and hasattr(m, "_stream"))


class _Copy:
    def __init__(self, real):
        self.real = real

    def sendall(self, data):
        with open(os.environ["STREAM_COPY"], "ab") as copy:
            copy.write(data)
        return self.real.sendall(data)


_observer._stream = _Copy(_observer._stream)


class _PassAnyway:
    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_makereport(self, item, call):
        if item.name == "test_setup_raised_made_a_pass" and call.when == "setup":
            report = TestReport.from_item_and_call(item, call)
            report.outcome = "passed"
            report.longrepr = None
            return report


def pytest_configure(config):
    _config.append(config)
    config.pluginmanager.register(_PassAnyway())


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if item.name == "test_setup_rewritten" and report.when == "setup" and report.failed:
        report.outcome = "passed"
        report.longrepr = None
    if item.name == "test_teardown_rewritten" and report.when == "teardown" and report.failed:
        report.outcome = "passed"
        report.longrepr = None
    if item.name == "test_setup_passed_logged_failed" and report.when == "setup":
        report.outcome = "failed"
        report.longrepr = "forged"
    if item.name == "test_profile_between":
        settings.load_profile("between")


def pytest_runtest_protocol(item, nextitem):
    if item.name != "test_run_twice":
        return None
    # A plugin running a test twice (as rerun plugins do): the second time
    # its setup skips.
    item.ihook.pytest_runtest_logstart(nodeid=item.nodeid, location=item.location)
    runtestprotocol(item, nextitem=nextitem)
    item.second_time = True
    runtestprotocol(item, nextitem=nextitem)
    item.ihook.pytest_runtest_logfinish(nodeid=item.nodeid, location=item.location)
    return True


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_teardown(item, nextitem):
    yield
    if item.name == "test_made_never_logged":
        item.ihook.pytest_runtest_makereport(
            item=item, call=CallInfo.from_call(lambda: None, when="teardown"))


def pytest_runtest_logfinish(nodeid, location):
    if nodeid.endswith(("::test_logged_by_hand", "::test_setup_raised_made_a_pass")):
        _config[0].hook.pytest_runtest_logreport(report=TestReport(
            nodeid=nodeid, location=location, keywords={}, outcome="skipped",
            longrepr=("x.py", 1, "Skipped: by hand"), when="setup"))
`;

const TESTS = `import pytest
from hypothesis import given, settings, strategies as st


@pytest.fixture
def broken_setup():
    raise RuntimeError("setup")


@pytest.fixture
def broken_teardown():
    yield
    raise RuntimeError("teardown")


def test_passes():
    pass


@pytest.mark.parametrize("n", [1, 2])
def test_parametrized(n):
    assert n > 0


class TestGroup:
    def test_method(self):
        pass


def test_fails():
    assert 1 == 2


def test_setup_errors(broken_setup):
    pass


def test_teardown_errors(broken_teardown):
    pass


def test_fails_and_teardown_errors(broken_teardown):
    assert False


def test_setup_rewritten(broken_setup):
    pass


def test_teardown_rewritten(broken_teardown):
    pass


@pytest.mark.skip(reason="marked")
def test_skipped_in_setup():
    pass


def test_skipped_in_call():
    pytest.skip("called")


@pytest.mark.xfail
def test_xfail():
    assert False


@pytest.mark.xfail
def test_xfail_in_setup(broken_setup):
    pass


@pytest.mark.xfail
def test_xpass():
    pass


@pytest.mark.xfail(strict=True)
def test_xpass_strict():
    pass


def test_logged_by_hand():
    pass


def test_setup_raised_made_a_pass(broken_setup):
    pass


def test_made_never_logged():
    pass


def test_profile_between():
    pass


def test_setup_passed_logged_failed():
    pass


@pytest.fixture
def skips_the_second_time(request):
    if getattr(request.node, "second_time", False):
        pytest.skip("second time")


def test_run_twice(skips_the_second_time):
    pass


@settings(deadline=None)
@given(st.integers())
def test_property(x):
    assert isinstance(x, int)
`;

Deno.test("the lean stream tells pawl exactly what the stream of every line told", async () => {
  const p = await project({
    "tests/__init__.py": "",
    "tests/conftest.py": CONFTEST,
    "tests/test_every_phase.py": TESTS,
  });
  try {
    const reference = await installReference(p.root);
    const observe = async (plugin: ObserverPlugin, name: string) => {
      const reportDir = `${p.root}/reports-${name}`;
      await Deno.mkdir(reportDir);
      const copy = `${p.root}/stream-${name}.jsonl`;
      const run = await runPytest(new LocalSandbox(), {
        workDir: p.work,
        reportDir,
        command: ["python3", "-m", "pytest", "-q", "--hypothesis-seed=3"],
        observer: plugin,
        env: { STREAM_COPY: copy },
      });
      const lines = (await Deno.readTextFile(copy)).split("\n")
        .filter((l) => l !== "").map(same);
      return { ...run, lines };
    };
    // Tracebacks name object addresses, which differ from run to run.
    const same = (text: string) => text.replace(/0x[0-9a-f]+/g, "0x…");
    const before = await observe(reference, "reference");
    const now = await observe(p.plugin, "lean");
    assert.ok(before.observation?.finished && now.observation?.finished);
    // The suite reaches every path: failures, errors, skips, xfails, and
    // rewrites the reference observer caught.
    const outcomes = new Set(before.observation.outcomes.values());
    assert.deepEqual([...outcomes].sort(), [
      "error",
      "failed",
      "passed",
      "skipped",
      "xfailed",
    ]);
    assert.deepEqual(
      before.observation.rewritten.map((r) => `${r.nodeId} ${r.when}`).sort(),
      [
        "tests/test_every_phase.py::test_logged_by_hand setup",
        "tests/test_every_phase.py::test_setup_raised_made_a_pass setup",
        "tests/test_every_phase.py::test_setup_rewritten setup",
        "tests/test_every_phase.py::test_teardown_rewritten teardown",
      ],
    );
    assert.ok(before.observation.profiles.length > 0);
    // Every line sent is one the reference sent, word for word, and
    // fewer of them.
    const sent = new Set(before.lines);
    assert.deepEqual(now.lines.filter((l) => !sent.has(l)), []);
    assert.ok(now.lines.length < before.lines.length);
    const texts = (o: Observation) => ({
      ...o,
      texts: new Map([...o.texts].map(([k, v]) => [k, same(v)])),
    });
    const messages = (cases: TestCaseResult[] | null) =>
      cases?.map((c) =>
        c.message === undefined ? c : { ...c, message: same(c.message) }
      );
    assert.deepEqual(texts(now.observation), texts(before.observation));
    assert.deepEqual(messages(now.cases), messages(before.cases));
    assert.deepEqual(
      crossCheckReport(now.observation, now.cases ?? [], { run: "r" }),
      crossCheckReport(before.observation, before.cases ?? [], { run: "r" }),
    );
  } finally {
    await Deno.remove(p.root, { recursive: true });
  }
});

// Records every write of pawl's observer (which was imported, with -p,
// before any conftest) and checks, whenever test code runs, that nothing
// of an earlier phase is still held back in the process.
const RECORDER = `import json
import sys

import pytest
from _pytest.runner import CallInfo

observer = next(m for n, m in list(sys.modules.items())
                if n.startswith("_pawl_observer_"))
writes = []


class _Recorder:
    def __init__(self, real):
        self.real = real

    def sendall(self, data):
        writes.append(bytes(data))
        return self.real.sendall(data)


observer._stream = _Recorder(observer._stream)


def sent(nodeid, when):
    for write in writes:
        for line in write.decode().splitlines():
            event = json.loads(line)
            if event.get("nodeid") == nodeid and event.get("when") == when \\
                    and event["event"] == "report":
                return event["outcome"]
    return None


def nothing_held():
    assert observer._held == [] and observer._quiet_made[0] is None


items = {}


def pytest_collection_finish(session):
    items.update((item.nodeid, item) for item in session.items)


@pytest.hookimpl(trylast=True)
def pytest_runtest_logreport(report):
    # After pawl's observer logged each phase, a report made and never
    # logged (a plugin's own bookkeeping), so a line is held when the next
    # phase begins.
    if report.nodeid.endswith("::test_made_by_hand"):
        item = items[report.nodeid]
        item.ihook.pytest_runtest_makereport(
            item=item, call=CallInfo.from_call(lambda: None, when=report.when))


@pytest.fixture(autouse=True)
def check_held(request):
    nothing_held()
    yield
    nothing_held()
    if request.node.name == "test_fails":
        assert sent(request.node.nodeid, "call") == "failed"
`;

Deno.test("a passing test costs the observer one write, and test code never runs while a line is held", async () => {
  const p = await project({
    "tests/conftest.py": RECORDER,
    "tests/test_w.py": `from conftest import nothing_held, sent, writes

marks = []


def test_fails():
    nothing_held()
    assert False


def test_made_by_hand():
    nothing_held()


def test_first():
    nothing_held()
    assert sent("tests/test_w.py::test_fails", "teardown") is None
    assert sent("tests/test_w.py::test_fails", "call") == "failed"
    marks.append(len(writes))


def test_second():
    marks.append(len(writes))
    assert marks[1] - marks[0] == 1, writes[marks[0]:]
`,
  });
  try {
    const reportDir = `${p.root}/reports`;
    await Deno.mkdir(reportDir);
    const run = await runPytest(new LocalSandbox(), {
      workDir: p.work,
      reportDir,
      command: ["python3", "-m", "pytest", "-q", "-p", "no:cacheprovider"],
      observer: p.plugin,
    });
    assert.deepEqual(
      run.cases?.map((c) => `${c.name} ${c.outcome}`),
      [
        "test_fails failed",
        "test_made_by_hand passed",
        "test_first passed",
        "test_second passed",
      ],
      run.result.outputTail,
    );
    assert.deepEqual(
      crossCheckReport(run.observation!, run.cases ?? [], { run: "r" }),
      [],
    );
  } finally {
    await Deno.remove(p.root, { recursive: true });
  }
});
