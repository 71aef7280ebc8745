"""pawl's observer: a pytest plugin pawl loads into every test run.

pawl copies this file into a root-owned, read-only directory outside the
repository, under a module name chosen afresh for each run, puts that
directory first on PYTHONPATH and in the user site (PYTHONUSERBASE, which a
test command that sets its own PYTHONPATH leaves alone) and loads it with
``-p <name>``. It reports,
while the run goes, one JSON line per event over a unix socket pawl listens
on: what was collected, every report's outcome (as the report was made and
as it was finally logged), collection errors, how many Hypothesis examples
each test really executed (and, for a state machine, how many steps),
which seed Hypothesis used, who loaded a Hypothesis settings profile,
where the examples a test discarded were discarded (the raise point of each
``UnsatisfiedAssumption`` or invalid mark outside Hypothesis' own package),
how often each assert of a test that ran Hypothesis passed (on the runs
pawl asks for it, see ``_count_passing_asserts``),
which of Hypothesis' own functions, classes and methods something
replaced after pawl's patches (see ``_Watch``), and, in the full suite's
run, which changed lines of the code under test ran (see
``_start_tracing``).
pawl checks these lines against the JUnit report, so a report rewritten
later (at exit, by the code under test) or an outcome rewritten between
making and logging a report is seen. A setup or teardown that passed both
as made and as logged is left out: pawl reads nothing from that pair (see
``_quiet``), and leaving it out keeps a test's cost to one write.

Only the standard library, pytest and (when installed) Hypothesis are used.

PYTEST_DONT_REWRITE: pytest rewrites the asserts of every module loaded
with ``-p``; this one has none, and walking its syntax tree cost each run
more than compiling it.
"""

import itertools
import json
import operator
import os
import socket
import sys

import pytest

_SOCKET = os.environ.pop("PAWL_OBSERVER_SOCKET", "")
_TOKEN = os.environ.pop("PAWL_OBSERVER_TOKEN", "")
_REACH = os.environ.pop("PAWL_OBSERVER_REACH", "") == "1"
_TEXT_CHARS = 4000

_stream = None
# One encoder for every line: json.dumps with options builds one per call.
_encode = json.JSONEncoder(sort_keys=True, default=str).encode
# Lines that leave with the next write (see _send).
_held = []
# A setup or teardown made as a pass and not logged yet:
# ((nodeid, when), raised), or None.
_quiet_made = [None]
# Every (nodeid, when) whose last "made" line (a pass) was left out, because
# its report was logged as a pass too, and that line's "raised". pawl reads
# nothing from such a pair; a report logged later for the same phase
# without a "made" of its own (a plugin logging reports by hand) is
# preceded by the line left out, so pawl compares it with the same "made"
# outcome as when every line was sent.
_quiet = {}
_current = [None]
# Whether the current test ran Hypothesis' engine (it asked for a seed).
_ran_hypothesis = [False]
# Invariant checks per state machine run during the current test: Hypothesis
# checks once before the first step and once after every step.
_machine_checks = []
# Where the current test's examples were discarded: (file, line) -> count.
_discards = {}
# The most discard sites kept per test; a discard at any further site is
# dropped, not counted.
_MAX_SITES = 20
# How often each assert of the current test passed: (file, line) -> count.
_reach = {}
# Directories of the frames between a passing assert and its hook.
_HOOK_DIRS = [()]


def _connect():
    global _stream
    if _SOCKET == "":
        return
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.connect(_SOCKET)
    _stream = sock
    _send({"event": "hello", "token": _TOKEN, "file": __file__,
           "pid": os.getpid()})


def _line(event):
    return (_encode(event) + "\n").encode("utf-8", "replace")


def _made_line(key, raised):
    """The "made" line of a pass, exactly as it would have been sent."""
    return _line({"event": "made", "nodeid": key[0], "when": key[1],
                  "outcome": "passed", "raised": raised})


def _send(event, hold=False):
    """Write one line to pawl, after every line held before it.

    A held line (a report as it was made) leaves in the same write as the
    next line, usually the report as it was logged. Between the two only
    hook implementations run (makereport wrappers outside this one,
    logreport hooks), registered before the phase began; nothing a test
    runs (setup, the test, teardown) starts before every line of the
    phases before it has left the process (see _flush).
    """
    if _stream is None:
        return
    if _quiet_made[0] is not None:
        _release()
    line = _line(event)
    if hold:
        _held.append(line)
    else:
        _write(line)


def _release():
    """The pass still waiting for its report is sent after all."""
    made = _quiet_made[0]
    if made is not None:
        _quiet_made[0] = None
        _quiet.pop(made[0], None)
        _held.append(_made_line(*made))


def _write(line=b""):
    if _held:
        line = b"".join(_held) + line
        del _held[:]
    if line:
        _stream.sendall(line)


def _flush():
    if _stream is None:
        return
    if _quiet_made[0] is not None:
        _release()
    if _held:
        _write()


def _full_text(longrepr):
    if longrepr is None:
        return ""
    try:
        return str(longrepr)
    except Exception as error:  # a hostile repr must not stop the stream
        return "<unprintable: %s>" % type(error).__name__


def _text(longrepr):
    return _full_text(longrepr)[:_TEXT_CHARS]


def _caller_file():
    frame = sys._getframe(2)
    return frame.f_code.co_filename if frame is not None else ""


def _patch_hypothesis():
    """Count examples, see seeds and profile loads; no-op without Hypothesis."""
    try:
        import hypothesis
        import hypothesis.core as core
    except ImportError:
        return
    original_note = core.note_statistics

    def note_statistics(stats):
        counts = {"valid": 0, "invalid": 0, "overrun": 0, "interesting": 0}
        for phase in ("reuse", "generate"):
            for case in stats.get(phase + "-phase", {}).get("test-cases", []):
                status = case.get("status")
                if status in counts:
                    counts[status] += 1
        counts["event"] = "examples"
        counts["nodeid"] = _current[0]
        counts["stopped"] = str(stats.get("stopped-because", ""))
        _send(counts)
        return original_note(stats)

    core.note_statistics = note_statistics
    _patch_stateful()
    _patch_discards(core)
    original_random = core.get_random_for_wrapped_test

    def get_random_for_wrapped_test(test, wrapped_test):
        explicit = getattr(wrapped_test, "_hypothesis_internal_use_seed", None)
        settings = getattr(wrapped_test, "_hypothesis_internal_use_settings",
                           None)
        if explicit is not None:
            source, seed = "explicit", explicit
        elif settings is not None and settings.derandomize:
            source, seed = "derandomize", None
        elif core.global_force_seed is not None:
            source, seed = "forced", core.global_force_seed
        else:
            source, seed = "random", None
        _ran_hypothesis[0] = True
        _send({"event": "seed", "nodeid": _current[0], "source": source,
               "seed": None if seed is None else str(seed),
               "max_examples": getattr(settings, "max_examples", None)})
        return original_random(test, wrapped_test)

    core.get_random_for_wrapped_test = get_random_for_wrapped_test
    original_load = hypothesis.settings.load_profile

    def load_profile(name):
        _send({"event": "profile", "name": str(name), "file": _caller_file(),
               "nodeid": _current[0]})
        return original_load(name)

    # The settings class refuses plain assignment; its metaclass is bypassed.
    type.__setattr__(hypothesis.settings, "load_profile",
                     staticmethod(load_profile))


def _patch_discards(core):
    """See where each discarded example was discarded.

    Hypothesis discards an example when ``UnsatisfiedAssumption`` (what
    ``assume`` and ``reject`` raise, or a subclass of it, however made)
    leaves the test, or when something marks the example's data invalid
    (``StopTest`` with the data's status invalid). The wrapper sees both
    as they leave ``execute_once``, before Hypothesis' engine catches them,
    and notes the innermost frame outside Hypothesis' own package: the
    test's ``assume`` or the code under test's raise. Which side that file
    is on is pawl's to decide.
    """
    try:
        from hypothesis.errors import StopTest, UnsatisfiedAssumption
        import hypothesis.internal.conjecture.data as conjecture_data
        state = core.StateForActualGivenExecution
        original = state.execute_once
        invalid = conjecture_data.Status.INVALID
    except Exception:  # another Hypothesis: no discard sites
        return
    package = os.path.dirname(os.path.abspath(core.__file__)) + os.sep

    def execute_once(self, *args, **kwargs):
        try:
            return original(self, *args, **kwargs)
        except UnsatisfiedAssumption as error:
            _note_discard(error, package)
            raise
        except StopTest as error:
            data = args[0] if args else kwargs.get("data")
            if getattr(data, "status", None) == invalid:
                _note_discard(error, package)
            raise

    execute_once.__wrapped__ = original
    state.execute_once = execute_once


def _note_discard(error, package):
    """Count the discard at its raise point; never raises.

    A discard raised inside one of Hypothesis' draws (a filter, or an
    ``assume`` in a composite strategy, rejecting what it drew) is the
    strategy's, not its caller's: it is not noted.
    """
    try:
        site = None
        drawing = False
        draw = os.path.join("conjecture", "data.py")
        tb = error.__traceback__
        while tb is not None:
            code = tb.tb_frame.f_code
            name = code.co_filename
            if type(name) is not str or name == __file__:
                pass
            elif name.startswith(package):
                if code.co_name == "draw" and name.endswith(draw):
                    drawing = True
            elif name[:1] != "<":
                site = (name, tb.tb_lineno)
                drawing = False
            tb = tb.tb_next
        if site is None or drawing:
            return
        if site in _discards or len(_discards) < _MAX_SITES:
            _discards[site] = _discards.get(site, 0) + 1
    except Exception:  # a hostile traceback must not stop the stream
        pass


def _send_discards(nodeid):
    sites = [{"file": file, "line": line, "count": count}
             for (file, line), count in _discards.items()]
    _discards.clear()
    _send({"event": "discards", "nodeid": nodeid, "sites": sites})


def _patch_stateful():
    """Count the steps each state machine runs (check_invariants calls)."""
    try:
        import hypothesis.stateful as stateful
    except Exception:  # no stateful support in this Hypothesis
        return
    machine = stateful.RuleBasedStateMachine
    original_check = machine.check_invariants

    def check_invariants(self, *args, **kwargs):
        state = self.__dict__
        slot = state.get("_pawl_observer_slot")
        if slot is None:
            slot = len(_machine_checks)
            _machine_checks.append(0)
            state["_pawl_observer_slot"] = slot
        _machine_checks[slot] += 1
        return original_check(self, *args, **kwargs)

    machine.check_invariants = check_invariants


def _watchable(value):
    """A function, class, method or descriptor: what a patch replaces."""
    try:
        return callable(value) or isinstance(
            value, (staticmethod, classmethod, property))
    except Exception:  # a hostile object is nothing to watch
        return False


def _source_file(value):
    """The file a replacing function was written in, or ""."""
    try:
        for holder in (value, getattr(value, "__func__", None),
                       getattr(value, "fget", None)):
            code = getattr(holder, "__code__", None)
            name = getattr(code, "co_filename", None)
            if type(name) is str:
                return name
    except Exception:  # a hostile object names no file
        pass
    return ""


_call = getattr(operator, "call", None) or (lambda function, key: function(key))
_WARM_DRIVER = os.sep + "pawl_warm_driver.py"
_START_DIR = os.getcwd() + os.sep


class _Watch:
    """Hypothesis' own objects, by identity, as they were after pawl's patches.

    Each ``hypothesis`` module is snapshotted right after it is imported
    (the ones ``import hypothesis`` brings once pawl patched them, later
    ones as the import hook sees them end, any other at the next check):
    every function and class in its namespace, and every function, method
    and descriptor in the namespace of each class it defines. At the end of
    each test that ran Hypothesis (and of collection and of the session:
    a patch made during another test is seen there) every entry is looked
    up again; one that is no longer the same object, or gone, and a class
    that gained an entry, is reported once per change as a ``patched``
    event, with the file the replacing function was written in. The check
    is a few C-level passes (one ``itemgetter`` per namespace, one identity
    comparison over a flat list); only a change costs more.
    """

    def __init__(self):
        self.on = False
        self.modules = set()
        self.seen = 0
        # Per watched namespace: the mapping, its watched keys, their
        # objects, the label names start with, and whether it is a class's.
        self.groups = []
        # Per namespace: its getter of every watched key at once.
        self.getters = []
        # The mappings, and the objects of every group one after another.
        self.mappings = []
        self.flat = []
        # Each class namespace's size: a gained entry changes it.
        self.classes = []
        self.class_mappings = []
        self.sizes = []

    def start(self):
        self.on = True
        self.scan()

    def scan(self):
        self.seen = len(sys.modules)
        for name, module in list(sys.modules.items()):
            if type(name) is str and name not in self.modules and (
                    name == "hypothesis" or name.startswith("hypothesis.")):
                self.add(name, module)

    def add(self, name, module):
        """Snapshot one module and the classes it defines; never raises."""
        if not self.on or name in self.modules:
            return
        self.modules.add(name)
        try:
            namespace = module.__dict__
            if type(namespace) is not dict:
                return
            items = [(key, value) for key, value in list(namespace.items())
                     if type(key) is str and not key.startswith("__")
                     and _watchable(value)]
            self.group(namespace, items, name, False)
            for key, value in items:
                if isinstance(value, type) \
                        and value.__dict__.get("__module__") == name:
                    mapping = value.__dict__
                    self.group(mapping, [
                        (k, v) for k, v in list(mapping.items())
                        if type(k) is str and _watchable(v)],
                        name + "." + key, True)
        except Exception:  # a module pawl cannot read is not watched
            pass

    def group(self, mapping, items, label, is_class):
        keys = [key for key, _ in items]
        values = [value for _, value in items]
        self.groups.append([mapping, keys, values, label])
        self.getters.append(_getter(keys))
        self.mappings.append(mapping)
        self.flat.extend(values)
        if is_class:
            self.classes.append(len(self.groups) - 1)
            self.class_mappings.append(mapping)
            self.sizes.append(len(mapping))

    def check(self, nodeid):
        """Report what changed since the last check; never raises."""
        if not self.on:
            return
        try:
            if len(sys.modules) != self.seen:
                self.scan()
            sizes = list(map(len, self.class_mappings))
            try:
                now = list(map(_call, self.getters, self.mappings))
                same = not any(map(operator.is_not,
                                   itertools.chain.from_iterable(now),
                                   self.flat))
            except Exception:  # an entry is gone: the slow look
                same = False
            if same and sizes == self.sizes:
                return
            self.report(nodeid)
        except Exception:  # a hostile patch must not stop the stream
            pass

    def report(self, nodeid):
        changed = []
        for group in self.groups:
            mapping, keys, values, label = group
            now = [mapping.get(key, _GONE) for key in keys]
            for i, value in enumerate(now):
                if value is not values[i]:
                    changed.append((label + "." + keys[i], value))
            group[2] = now
        for n, i in enumerate(self.classes):
            mapping, keys, values, label = self.groups[i]
            if len(mapping) == self.sizes[n]:
                continue
            self.sizes[n] = len(mapping)
            known = set(keys)
            for key, value in list(mapping.items()):
                if type(key) is str and key not in known \
                        and _watchable(value):
                    keys.append(key)
                    values.append(value)
                    changed.append((label + "." + key, value))
            self.getters[i] = _getter(keys)
        self.flat = [v for group in self.groups for v in group[2]]
        patches = []
        for name, value in changed:
            source = _source_file(value)
            if source.endswith(_WARM_DRIVER) \
                    and not source.startswith(_START_DIR):
                continue  # pawl's mutant driver stops runs at a kill
            patches.append({"name": name, "file": source,
                            "removed": value is _GONE})
        if patches:
            _send({"event": "patched", "nodeid": nodeid,
                   "patches": patches[:50]})


def _getter(keys):
    """Every key's object at once, as a tuple (KeyError when one is gone)."""
    if len(keys) == 1:
        key = keys[0]
        return lambda mapping: (mapping[key],)
    if not keys:
        return lambda mapping: ()
    return operator.itemgetter(*keys)


_GONE = object()
_watch = _Watch()


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item):
    _flush()


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_call(item):
    _flush()


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_teardown(item, nextitem):
    _flush()


def _send_steps(nodeid):
    if not _machine_checks:
        return
    steps = [max(checks - 1, 0) for checks in _machine_checks]
    del _machine_checks[:]
    _send({"event": "steps", "nodeid": nodeid, "machines": len(steps),
           "steps": sum(steps), "longest": max(steps)})


def pytest_configure(config):
    _send({"event": "configure",
           "seed": str(config.getoption("hypothesis_seed", None, True))})
    _count_passing_asserts(config)


def _count_passing_asserts(config):
    """On the runs pawl asks for it, count how often each assert passed.

    pytest calls ``pytest_assertion_pass`` for an assert it rewrote with
    its pass hook. Only the modules under the run's root directory (the
    test modules and conftest files pytest rewrites) are rewritten with
    it, never Hypothesis' own (rewritten as a pytest plugin's, whose
    asserts would then pay for an explanation on every pass); and a copy's
    test modules pawl compiled ahead, without the hook, are rewritten from
    their source. Which of these files are the test side is pawl's to say.
    """
    if not _REACH:
        return
    try:
        import _pytest
        import _pytest.assertion.rewrite as rewrite
        import pluggy

        root = str(config.rootpath) + os.sep
        rewriter = rewrite.AssertionRewriter
        original_init = rewriter.__init__
        original_read = rewrite._read_pyc
        _HOOK_DIRS[0] = tuple(
            os.path.dirname(os.path.abspath(m.__file__)) + os.sep
            for m in (_pytest, pluggy)) + (__file__,)

        def inside(path):
            return type(path) is not bytes and str(path).startswith(root)

        def __init__(self, module_path, *args, **kwargs):
            original_init(self, module_path, *args, **kwargs)
            if inside(module_path):
                self.enable_assertion_pass_hook = True

        def _read_pyc(source, *args, **kwargs):
            if inside(source):
                return None
            return original_read(source, *args, **kwargs)

        rewriter.__init__ = __init__
        rewrite._read_pyc = _read_pyc
    except Exception:  # another pytest: asserts are not counted
        pass


def pytest_assertion_pass(item, lineno, orig, expl):
    """Count a passing assert of the running test, by file and line."""
    if not _REACH:
        return
    try:
        frame = sys._getframe(1)
        while frame is not None \
                and frame.f_code.co_filename.startswith(_HOOK_DIRS[0]):
            frame = frame.f_back
        if frame is None or type(lineno) is not int:
            return
        key = (frame.f_code.co_filename, lineno)
        _reach[key] = _reach.get(key, 0) + 1
    except Exception:  # a hostile frame must not stop the stream
        pass


def pytest_collectreport(report):
    if report.failed:
        _send({"event": "collect_error", "nodeid": report.nodeid,
               "path": str(getattr(report, "fspath", "")),
               "text": _text(report.longrepr)})


def pytest_collection_finish(session):
    _send({"event": "collected",
           "nodeids": [item.nodeid for item in session.items]})
    _watch.check(None)


@pytest.hookimpl(hookwrapper=True, tryfirst=True)
def pytest_runtest_protocol(item, nextitem):
    _current[0] = item.nodeid
    del _machine_checks[:]
    _discards.clear()
    _reach.clear()
    yield
    if _machine_checks:
        _send_steps(item.nodeid)
    if _discards:
        _send_discards(item.nodeid)
    if _ran_hypothesis[0]:
        _ran_hypothesis[0] = False
        if _reach:
            _send({"event": "reach", "nodeid": item.nodeid,
                   "asserts": [{"file": f, "line": n, "count": c}
                               for (f, n), c in sorted(_reach.items())]})
        _watch.check(item.nodeid)
    _reach.clear()
    _current[0] = None


@pytest.hookimpl(hookwrapper=True, trylast=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    raised = call.excinfo is not None \
        and not call.excinfo.errisinstance(pytest.skip.Exception)
    if _stream is None:
        return
    if _quiet_made[0] is not None:
        _release()
    key = _key(report)
    _quiet.pop(key, None)
    if key is not None and key[1] != "call" \
            and type(report.outcome) is str and report.outcome == "passed":
        _quiet_made[0] = (key, raised)
        return
    _send({"event": "made", "nodeid": report.nodeid, "when": report.when,
           "outcome": report.outcome, "raised": raised}, hold=True)


def pytest_runtest_logreport(report):
    if _stream is None:
        return
    key = _key(report)
    made = _quiet_made[0]
    if made is not None and made[0] == key \
            and type(report.outcome) is str and report.outcome == "passed":
        _quiet_made[0] = None
        _quiet[key] = made[1]
        return
    if made is not None:
        _release()
    if key in _quiet:
        _held.append(_made_line(key, _quiet.pop(key)))
    text = _full_text(report.longrepr) if report.failed else ""
    event = {"event": "report", "nodeid": report.nodeid, "when": report.when,
             "outcome": report.outcome,
             "xfail": hasattr(report, "wasxfail"),
             "text": text[:_TEXT_CHARS]}
    if len(text) > _TEXT_CHARS:
        # The exception and Hypothesis' falsifying example end the text.
        event["tail"] = text[-_TEXT_CHARS:]
    _send(event)


def _key(report):
    """(nodeid, when) when both are plain strings, else None."""
    nodeid, when = report.nodeid, report.when
    if type(nodeid) is str and type(when) is str \
            and when in ("setup", "call", "teardown"):
        return (nodeid, when)
    return None


def pytest_sessionfinish(session, exitstatus):
    _watch.check(None)
    _send({"event": "finish", "exitstatus": int(exitstatus)})


class _PatchOnImport:
    """Patch Hypothesis right after it is first imported, never import it.

    Importing Hypothesis here would slow every run that does not use it;
    waiting for it keeps the patch ahead of any test module or profile.
    Each of its submodules imported later is snapshotted (``_Watch``) as
    soon as it ran, before the module that imported it goes on.
    """

    def find_spec(self, name, path=None, target=None):
        if type(name) is not str or not (
                name == "hypothesis" or name.startswith("hypothesis.")):
            return None
        if name != "hypothesis" and not _watch.on:
            return None
        import importlib.machinery

        spec = importlib.machinery.PathFinder.find_spec(name, path)
        if spec is None or spec.loader is None \
                or not hasattr(spec.loader, "exec_module"):
            return spec
        loader = spec.loader
        original = loader.exec_module

        def exec_module(module):
            original(module)
            if name == "hypothesis":
                _patch_hypothesis()
                _watch.start()
            else:
                _watch.add(name, module)

        loader.exec_module = exec_module
        return spec


_hook = _PatchOnImport()


# Which changed lines of the code under test the run executed. pawl names
# the files and lines the pull request added or changed in a root-owned
# file (PAWL_OBSERVER_LINES, popped at once like the socket's variables);
# only the full suite's run gets it. A trace function (sys.settrace) would
# slow every Python call of the run: Python 3.11 then runs every frame on
# its tracing path, which more than doubled a Hypothesis suite's time.
# Instead, the source loader compiles each changed file with a probe
# before every statement that owns a changed line: a store of 1 into its
# slot of a list held in the code's constants (no name in the module's
# namespace, no call). Code of no other file runs any differently. Which lines can run at all is read from each
# changed file's syntax tree before any code of the repository runs: the
# lines of its statements (a compound statement's header only), without
# blank lines, comments and docstrings. A loader that is no longer pawl's
# at the end of the session (code under test replaced it) makes every
# line unknown rather than unexecuted, and so does a changed file a module
# was loaded from by another loader (pytest's assertion rewriting, say):
# the report says so.
_LINES_FILE = os.environ.pop("PAWL_OBSERVER_LINES", "")
# realpath -> repository-relative path of each changed file.
_changed_files = {}
# Repository-relative path -> (changed lines, executable changed lines,
# [(each probe's flag, each probe's lines)] per compilation of the file).
_lines = {}
_lines_state = {"sent": False, "removed": False, "pid": os.getpid(),
                "get_code": None, "original": None}
# Repository-relative paths of the changed files compiled with probes.
_probed_files = set()
# The constant that stands for the probe until the code is compiled.
_PROBE = "\x00pawl-observer-probe-" + _TOKEN


def _own_lines(stmt):
    """The lines a statement owns: a simple one's all, a compound one's header."""
    first = min([stmt.lineno] + [d.lineno for d in
                                 getattr(stmt, "decorator_list", ())])
    last = stmt.end_lineno or stmt.lineno
    body = getattr(stmt, "body", None)
    if type(body) is list and body:
        last = max(stmt.lineno, body[0].lineno - 1)
    cases = getattr(stmt, "cases", None)
    if cases:
        last = max(stmt.lineno, cases[0].pattern.lineno - 1)
    return range(first, last + 1)


def _is_docstring(stmt):
    import ast

    return type(stmt) is ast.Expr and type(stmt.value) is ast.Constant \
        and type(stmt.value.value) is str


def _walk_body(body, changed, out, probe, lead=()):
    """Probe every statement of ``body`` that owns a changed line.

    Returns the new body; ``out`` gathers the changed lines probed.
    ``lead`` are lines owned by the block's header (an ``except`` or
    ``case`` line), probed first thing in the block.
    """
    import ast

    new = []
    skip = 0
    if body and _is_docstring(body[0]):
        skip = 1
    while skip < len(body) and type(body[skip]) is ast.ImportFrom \
            and body[skip].module == "__future__":
        skip += 1
    head_lines = [line for stmt in body[:skip] for line in _own_lines(stmt)
                  if line in changed and not _is_docstring(stmt)]
    new.extend(body[:skip])
    first = tuple(sorted(set(lead) | set(head_lines)))
    if first and body:
        new.append(probe(first, body[0]))
        out.update(first)
    for stmt in body[skip:]:
        lines = tuple(line for line in _own_lines(stmt) if line in changed)
        if lines:
            new.append(probe(lines, stmt))
            out.update(lines)
        for field in ("body", "orelse", "finalbody"):
            inner = getattr(stmt, field, None)
            if type(inner) is list and inner:
                setattr(stmt, field, _walk_body(inner, changed, out, probe))
        for block in getattr(stmt, "handlers", ()) or ():
            lead_lines = [line for line in _own_lines(block)
                          if line in changed]
            block.body = _walk_body(block.body, changed, out, probe,
                                    lead_lines)
        for case in getattr(stmt, "cases", ()) or ():
            lead_lines = [line for line in range(
                case.pattern.lineno,
                max(case.pattern.lineno, case.body[0].lineno - 1) + 1)
                if line in changed]
            case.body = _walk_body(case.body, changed, out, probe,
                                   lead_lines)
        new.append(stmt)
    return new


def _probed(source, path, changed):
    """``source``'s syntax tree with its probes, the lines they cover, and
    each probe's lines by its index."""
    import ast

    tree = ast.parse(source, path)
    text = source.decode("utf-8", "replace") if type(source) is bytes \
        else source
    # Numbered as the tokenizer numbers them: a form feed ends no line.
    blank = {n + 1 for n, line in enumerate(text.split("\n"))
             if line.strip() == "" or line.strip().startswith("#")}
    probes = []

    def probe(lines, at):
        # `<probe>[i] = 1`: one store into a list, no call.
        probes.append(lines)
        target = ast.Subscript(ast.Constant(_PROBE),
                               ast.Constant(len(probes) - 1), ast.Store())
        stmt = ast.Assign([target], ast.Constant(1))
        return ast.fix_missing_locations(ast.copy_location(stmt, at))

    out = set()
    tree.body = _walk_body(tree.body, set(changed) - blank, out, probe)
    return tree, out, probes


def _with_probe(code, probe):
    consts = tuple(
        probe if type(c) is str and c == _PROBE
        else _with_probe(c, probe) if type(c) is type(code) else c
        for c in code.co_consts)
    return code.replace(co_consts=consts)


def _probed_get_code(self, fullname):
    original = _lines_state["original"]
    try:
        path = self.get_filename(fullname)
        rel = _changed_files.get(os.path.realpath(path))
    except Exception:
        rel = None
    if rel is None:
        return original(self, fullname)
    import warnings

    try:
        source = self.get_data(path)
        tree, _, probes = _probed(source, path, _lines[rel][0])
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", SyntaxWarning)
            code = compile(tree, path, "exec", dont_inherit=True)
        flags = [0] * len(probes)
        code = _with_probe(code, flags)
        _lines[rel][2].append((flags, probes))
    except Exception:
        # The file changed since the start, or the probes do not fit: it
        # loads as it would without pawl, its lines unknown.
        return original(self, fullname)
    _probed_files.add(rel)
    return code


def _start_tracing():
    if _LINES_FILE == "":
        return
    try:
        with open(_LINES_FILE, encoding="utf-8") as f:
            wanted = json.load(f)
        root = wanted.get("root") or os.getcwd()
        for rel, changed in sorted(wanted.get("files", {}).items()):
            path = os.path.join(root, rel)
            try:
                with open(path, "rb") as f:
                    _, lines, _ = _probed(f.read(), path, changed)
            except (OSError, SyntaxError, ValueError, RecursionError):
                continue
            _changed_files[os.path.realpath(path)] = rel
            _lines[rel] = (frozenset(changed), lines, [])
    except (OSError, ValueError, AttributeError, TypeError):
        return
    if not _lines:
        return
    import atexit
    from importlib.machinery import SourceFileLoader

    _lines_state["original"] = SourceFileLoader.get_code
    SourceFileLoader.get_code = _probed_get_code
    _lines_state["get_code"] = SourceFileLoader.get_code
    atexit.register(_send_lines)


def _check_probes():
    if not _lines:
        return
    from importlib.machinery import SourceFileLoader

    if SourceFileLoader.get_code is not _lines_state["get_code"]:
        _lines_state["removed"] = True


def _send_lines():
    """Send the executed changed lines once, at the end of the session or at exit."""
    if not _lines or _lines_state["sent"] \
            or os.getpid() != _lines_state["pid"]:
        return
    _check_probes()
    _lines_state["sent"] = True
    files = {}
    unprobed = _loaded_unprobed()
    for rel, (_, lines, compiled) in _lines.items():
        hits = {line for flags, probes in compiled
                for i, probe in enumerate(probes) if flags[i]
                for line in probe}
        files[rel] = {"executable": sorted(lines),
                      "executed": sorted(lines & hits)}
        if rel in unprobed:
            files[rel]["unprobed"] = True
    _send({"event": "lines", "files": files,
           "removed": _lines_state["removed"]})
    _flush()


def _loaded_unprobed():
    """Changed files a module was loaded from without probes (another loader)."""
    out = set()
    for module in list(sys.modules.values()):
        name = getattr(module, "__file__", None)
        if type(name) is not str:
            continue
        rel = _changed_files.get(os.path.realpath(name))
        if rel is not None and rel not in _probed_files:
            out.add(rel)
    return out


def pytest_runtest_logfinish(nodeid, location):
    _check_probes()


def pytest_unconfigure(config):
    _send_lines()


_connect()
sys.meta_path.insert(0, _hook)
_start_tracing()
if "hypothesis" in sys.modules:
    _patch_hypothesis()
    _watch.start()
