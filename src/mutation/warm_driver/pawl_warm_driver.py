"""pawl's warm mutant driver: one interpreter runs many mutants.

pawl copies this file into a root-owned, read-only directory outside every
tree the tests can write and runs it in the sandbox in place of
``python3 -m pytest``, in a copy of the tree whose mutated files are
schemata: every mutant compiled in, the active one chosen at call time by
the builtin ``__pawl_active__`` (a mutant id, or None for the original
code). It talks to pawl over a unix socket, one JSON object a line:

    driver -> pawl  {"event": "hello", "token": ..., "pid": ...}
    pawl -> driver  {"event": "config", "args": [...], "observer": ...,
                     "select": [...], "files": [...], "baseline": CHILD,
                     "cpu": {"factor": ..., "margin": ...}, "wall": {...}}
    driver -> pawl  {"event": "baseline", "exit": ..., "threads": ...,
                     "tests": {nodeid: {"cpu": ..., "passed": ...}},
                     "overhead": ...}
    pawl -> driver  {"event": "mutant", "id": ..., "cover": [...] | null,
                     "run": [...] | null, "child": CHILD}
    driver -> pawl  {"event": "result", "id": ..., "status": ...,
                     "selected": [...], "cpuLimit": ..., "cpu": ...,
                     "wall": ..., "exit": ..., "signal": ...,
                     "wallKilled": ...}
    pawl -> driver  {"event": "end"}

CHILD is where one run reports: its JUnit file, its HOME, and its own
observer socket and token.

This process only collects (``pytest --collect-only`` with the command's
arguments, those naming tests left out by pawl, and the registered
properties): the project and the tests are imported once, as a fresh ``python3 -m pytest`` would import them, and no
test runs here, so nothing a test does carries over to the next run. The
baseline runs in a forked child, with the original code and pawl's
observer, while a trace function limited to the schemata files records
which of their lines each test executes and a pytest hook the CPU time
each test takes; the child hands that to this process in a file. Then,
per mutant, the tests whose lines meet the mutant's ``cover`` lines are
selected (none: the mutant is not covered and never runs; lines run only
while collecting, where no mutant is active yet: ``import_only``, for pawl
to run the old way), or, when pawl names them (``run``), those tests. A
forked child activates the mutant, limits its own CPU time to the selected
tests' baseline time with a margin (ITIMER_PROF, and RLIMIT_CPU as a hard
backstop it cannot lift), runs ``pytest.main`` on them with the observer on
the mutant's own socket and its own JUnit file, and exits. This process
waits for it under a wall-clock ceiling, removes what it left in its
process group, and reports how it ended; pawl reads the outcome from the
child's report and observer stream, never from this process's word.

Only the standard library and pytest are used (Hypothesis when installed).
"""

import atexit
import builtins
import json
import os
import resource
import select
import signal
import socket
import sys
import threading
import time

_MAX_LINE = 16 * 1024 * 1024


class _Channel:
    """The line protocol with pawl."""

    def __init__(self, path):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(path)
        self.fd = self.sock.fileno()
        self.reader = self.sock.makefile("rb")

    def send(self, event):
        line = json.dumps(event, sort_keys=True, default=str) + "\n"
        self.sock.sendall(line.encode("utf-8", "replace"))

    def receive(self):
        line = self.reader.readline(_MAX_LINE)
        if not line.endswith(b"\n"):
            os._exit(3)  # pawl went away or sent nonsense: nothing to do
        return json.loads(line)


class _Recorder:
    """The schemata lines run, by where they ran, and each test's CPU time.

    Lines run in a test's call phase are that test's (``calls``); lines
    run in any setup or teardown (fixtures, perhaps shared by many tests)
    are ``shared``; lines run outside every test (collection) are
    ``outside``.
    """

    def __init__(self, files):
        self.files = files
        self.outside = set()
        self.shared = set()
        self.calls = {}
        self.cpu = {}
        self.failed = set()
        self.called = set()
        self.bucket = self.outside

    def trace(self, frame, event, arg):
        if frame.f_code.co_filename in self.files:
            return self.line
        return None

    def line(self, frame, event, arg):
        if event == "line":
            self.bucket.add((frame.f_code.co_filename, frame.f_lineno))
        return self.line

    def pytest_sessionstart(self, session):
        # From here on: pytest, its plugins and Hypothesis are imported,
        # the project and the tests (in this process) not yet.
        threading.settrace(self.trace)
        sys.settrace(self.trace)

    def pytest_sessionfinish(self, session, exitstatus):
        sys.settrace(None)
        threading.settrace(None)

    def pytest_runtest_protocol(self, item, nextitem):
        start = time.process_time()
        yield
        self.cpu[item.nodeid] = self.cpu.get(item.nodeid, 0.0) + \
            time.process_time() - start
        self.bucket = self.outside

    def pytest_runtest_setup(self, item):
        self.bucket = self.shared
        yield

    def pytest_runtest_call(self, item):
        self.bucket = self.calls.setdefault(item.nodeid, set())
        yield
        self.bucket = self.shared

    def pytest_runtest_teardown(self, item, nextitem):
        self.bucket = self.shared
        yield

    def pytest_runtest_logreport(self, report):
        if report.failed:
            self.failed.add(report.nodeid)
        if report.when == "call" and report.passed:
            self.called.add(report.nodeid)

    def passed(self, nodeid):
        return nodeid in self.called and nodeid not in self.failed

    def dump(self):
        """What the baseline child hands back: JSON-ready."""
        return {"outside": sorted(self.outside), "shared": sorted(self.shared),
                "calls": {k: sorted(v) for k, v in self.calls.items()},
                "cpu": self.cpu,
                "passed": sorted(n for n in self.cpu if self.passed(n))}


_WRAPPERS = ("pytest_runtest_protocol", "pytest_runtest_setup",
             "pytest_runtest_call", "pytest_runtest_teardown")


def _mark_hooks():
    """The hook marks pytest.hookimpl sets, once pytest is imported."""
    import pytest
    for name in _WRAPPERS:
        pytest.hookimpl(hookwrapper=True)(getattr(_Recorder, name))
    pytest.hookimpl(tryfirst=True)(_Recorder.pytest_sessionstart)
    pytest.hookimpl(trylast=True)(_Recorder.pytest_sessionfinish)


class _Baseline:
    """The baseline as this process knows it, from what the child handed."""

    def __init__(self, outside, data, select):
        self.outside = outside | {tuple(x) for x in data["outside"]}
        self.shared = {tuple(x) for x in data["shared"]}
        self.calls = {k: {tuple(x) for x in v}
                      for k, v in data["calls"].items()}
        self.cpu = data["cpu"]
        passed = set(data["passed"])
        owned = {}
        for nodeid in self.cpu:
            owner = _owner(nodeid, select)
            if owner is not None:
                owned.setdefault(owner, []).append(nodeid)
        # A registered test takes part only when all of it passed.
        self.owners = {o: items for o, items in owned.items()
                       if all(i in passed for i in items)}
        self.overhead = 0.0


def _owner(nodeid, select):
    """The selected node id a collected test belongs to, or None."""
    for wanted in select:
        if nodeid == wanted or ("[" not in wanted
                                and nodeid.startswith(wanted + "[")):
            return wanted
    return None


def _paths(files):
    """Every name a file of the tree may run under (as given, resolved)."""
    out = set()
    for path in files:
        full = os.path.join(os.getcwd(), path)
        out.update((os.path.abspath(full), os.path.realpath(full)))
    return out


def _places(child):
    """Point the run's report, HOME and observer at `child`'s."""
    home = child["home"]
    os.environ["HOME"] = home
    os.environ["TMPDIR"] = home
    os.environ["HYPOTHESIS_STORAGE_DIRECTORY"] = os.path.join(home,
                                                              "hypothesis")
    os.environ["PAWL_OBSERVER_SOCKET"] = child["socket"]
    os.environ["PAWL_OBSERVER_TOKEN"] = child["token"]
    import tempfile
    tempfile.tempdir = None
    if "hypothesis.configuration" in sys.modules:
        sys.modules["hypothesis.configuration"].set_hypothesis_home_dir(
            os.environ["HYPOTHESIS_STORAGE_DIRECTORY"])


def _argv(config, child, nodeids):
    return list(config["args"]) + [
        "-p", config["observer"], "--junitxml=" + child["junit"],
        "-o", "junit_family=xunit2"] + list(nodeids)


def _run_pytest(config, child, nodeids, plugins):
    """pytest.main as `python3 -m pytest` would run it, in a child."""
    import pytest
    _places(child)
    args = _argv(config, child, nodeids)
    sys.argv = [os.path.join(os.path.dirname(pytest.__file__),
                             "__main__.py")] + args
    return int(pytest.main(args, plugins=plugins))


def _collect(config):
    """Import the project and the tests by collecting them; lines run."""
    import pytest
    recorder = _Recorder(_paths(config["files"]))
    args = list(config["args"]) + ["--collect-only", "-q"] + \
        list(config["select"])
    sys.argv = [os.path.join(os.path.dirname(pytest.__file__),
                             "__main__.py")] + args
    builtins.__pawl_active__ = None
    null = os.open(os.devnull, os.O_WRONLY)
    saved = os.dup(1)
    os.dup2(null, 1)
    try:
        pytest.main(args, plugins=[recorder])
    finally:
        sys.settrace(None)
        threading.settrace(None)
        sys.stdout.flush()
        os.dup2(saved, 1)
        os.close(saved)
        os.close(null)
    return recorder.outside


def _fork(channel, limit=None):
    """Fork a child in its own session, its CPU time limited; 0 in it."""
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:
        os.setsid()
        if limit is not None:
            _limit_cpu(limit)
        os.close(channel.fd)
    return pid


def _baseline(config, channel, outside):
    import tempfile
    # A file, not a pipe: nothing the tests leave running can hold it open
    # and keep this process waiting.
    handed = tempfile.TemporaryFile(dir=config["baseline"]["home"])
    pid = _fork(channel)
    if pid == 0:
        code = 70
        try:
            recorder = _Recorder(_paths(config["files"]))
            start = time.process_time()
            code = _run_pytest(config, config["baseline"], config["select"],
                               [recorder])
            data = recorder.dump()
            data["total"] = time.process_time() - start
            handed.write(json.dumps(data).encode("utf-8", "replace"))
            handed.flush()
            atexit._run_exitfuncs()
        except BaseException:
            pass
        finally:
            os._exit(code & 0xFF)
    status, _, _ = _wait(pid, None)
    handed.seek(0)
    try:
        data = json.loads(handed.read())
    except ValueError:
        os._exit(4)  # the baseline child reported nothing pawl can use
    finally:
        handed.close()
    baseline = _Baseline(outside, data, config["select"])
    baseline.overhead = max(0.0, data["total"] - sum(baseline.cpu.values()))
    channel.send({
        "event": "baseline",
        "exit": os.WEXITSTATUS(status) if os.WIFEXITED(status) else -1,
        "threads": threading.active_count(),
        "tests": {n: {"cpu": c, "passed": n in data["passed"]}
                  for n, c in baseline.cpu.items()},
        "overhead": baseline.overhead})
    return baseline


def _selection(config, baseline, job):
    """(status, property node ids) for one mutant."""
    select_ = config["select"]
    if job.get("run") is not None:
        wanted = set(job["run"])
        return "ran", [n for n in select_ if n in wanted]
    passing = baseline.owners
    lines = set()
    for entry in job.get("cover") or []:
        for path in _paths([entry["file"]]):
            lines.update((path, n) for n in entry["lines"])
    if lines & baseline.shared:
        return "ran", [n for n in select_ if n in passing]
    chosen = {owner for owner, items in passing.items()
              if any(lines & baseline.calls.get(i, set()) for i in items)}
    if chosen:
        return "ran", [n for n in select_ if n in chosen]
    if lines & baseline.outside:
        return "import_only", []
    return "not_covered", []


def _cpu_limit(config, baseline, nodeids):
    """The selected tests' baseline CPU time, with the margin pawl gives."""
    cpu = sum(c for n, c in baseline.cpu.items()
              if _owner(n, nodeids) is not None)
    return baseline.overhead + config["cpu"]["factor"] * cpu + \
        config["cpu"]["margin"]


def _limit_cpu(seconds):
    """This process's CPU time: ITIMER_PROF, then RLIMIT_CPU behind it."""
    signal.signal(signal.SIGPROF, signal.SIG_DFL)
    signal.signal(signal.SIGXCPU, signal.SIG_DFL)
    _, hard = resource.getrlimit(resource.RLIMIT_CPU)
    soft = int(seconds) + 2
    if hard != resource.RLIM_INFINITY:
        soft = min(soft, max(1, hard - 1))
    cap = soft + 1 if hard == resource.RLIM_INFINITY else min(soft + 1, hard)
    resource.setrlimit(resource.RLIMIT_CPU, (soft, cap))
    signal.setitimer(signal.ITIMER_PROF, max(seconds, 0.01))


def _wait(pid, seconds):
    """Wait for `pid` (at most `seconds`, then kill it): status, cpu, killed."""
    deadline = None if seconds is None else time.monotonic() + seconds
    killed = False
    fd = None
    try:
        fd = os.pidfd_open(pid)
    except (AttributeError, OSError):
        pass
    try:
        while True:
            left = None if deadline is None else deadline - time.monotonic()
            if fd is not None:
                ready, _, _ = select.select(
                    [fd], [], [], None if left is None else max(0.0, left))
                done = bool(ready)
            else:
                done = _exited(pid)
                if not done and (left is None or left > 0):
                    time.sleep(0.005 if left is None else min(0.005, left))
                    continue
            if done:
                break
            if left is not None and left <= 0:
                killed = True
                _kill_group(pid)
                break
    finally:
        if fd is not None:
            os.close(fd)
    # The child is gone but not reaped: its process group is still its
    # own, and whatever it left in it goes now.
    _kill_group(pid)
    _, status, usage = os.wait4(pid, 0)
    return status, usage.ru_utime + usage.ru_stime, killed


def _exited(pid):
    try:
        return os.waitid(os.P_PID, pid,
                         os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None
    except ChildProcessError:
        return True


def _kill_group(pid):
    for kill in (lambda: os.killpg(pid, signal.SIGKILL),
                 lambda: os.kill(pid, signal.SIGKILL)):
        try:
            kill()
        except OSError:
            pass


def _no_shrinking():
    """The first failing example kills the mutant as it is: shrinking it,
    or looking on for more failures, only costs."""
    if "hypothesis" not in sys.modules:
        return
    try:
        from hypothesis.internal.conjecture.engine import ConjectureRunner
    except Exception:
        return
    ConjectureRunner.shrink_interesting_examples = lambda self: None
    more = getattr(ConjectureRunner, "should_generate_more", None)
    if more is not None:
        ConjectureRunner.should_generate_more = \
            lambda self: not self.interesting_examples and more(self)


def _mutant(config, baseline, job, channel):
    status, nodeids = _selection(config, baseline, job)
    result = {"event": "result", "id": job["id"], "status": status,
              "selected": nodeids, "cpuLimit": 0.0, "cpu": 0.0, "wall": 0.0,
              "exit": None, "signal": None, "wallKilled": False}
    if status != "ran" or not nodeids:
        if status == "ran":
            result["status"] = "not_covered"
        channel.send(result)
        return
    limit = _cpu_limit(config, baseline, nodeids)
    ceiling = config["wall"]["factor"] * limit + config["wall"]["margin"]
    start = time.monotonic()
    pid = _fork(channel, limit)
    if pid == 0:
        code = 70
        try:
            null = os.open(os.devnull, os.O_RDWR)
            os.dup2(null, 1)
            os.dup2(null, 2)
            os.close(null)
            _no_shrinking()
            builtins.__pawl_active__ = job["id"]
            code = _run_pytest(config, job["child"], nodeids, [])
            atexit._run_exitfuncs()
        except BaseException:
            pass
        finally:
            os._exit(code & 0xFF)
    code, cpu, killed = _wait(pid, ceiling)
    result.update({"cpuLimit": limit, "cpu": cpu,
                   "wall": time.monotonic() - start, "wallKilled": killed})
    if os.WIFSIGNALED(code):
        result["signal"] = signal.Signals(os.WTERMSIG(code)).name
    else:
        result["exit"] = os.WEXITSTATUS(code)
    channel.send(result)


def main():
    path = os.environ.pop("PAWL_DRIVER_SOCKET", "")
    token = os.environ.pop("PAWL_DRIVER_TOKEN", "")
    # `python3 -m pytest` has the working directory first on sys.path,
    # where this script's directory is now.
    sys.path[0] = os.getcwd()
    channel = _Channel(path)
    channel.send({"event": "hello", "token": token, "pid": os.getpid()})
    config = channel.receive()
    if config.get("event") != "config":
        os._exit(3)
    _mark_hooks()
    outside = _collect(config)
    baseline = _baseline(config, channel, outside)
    while True:
        job = channel.receive()
        if job.get("event") != "mutant":
            break
        _mutant(config, baseline, job, channel)
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)


if __name__ == "__main__":
    main()
