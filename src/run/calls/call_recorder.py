# pawl's call recorder, a pytest plugin installed beside the observer: it
# records the calls the tests make into the code under test, so that pawl
# can make them again where no test is watching (`call_replayer.py`). The
# canonical form of values (`call_forms.py`) is prepended to this text when
# it is installed. After collection every project function and method
# (defined in a file the gate names as code, outside the test side) is
# wrapped where test modules and project modules reach it; a call is
# recorded only when the frame that makes it is test code. Its arguments
# are pickled before the call (the call may change them); calls whose
# arguments cannot be pickled, or would load a test module or the test
# framework to be unpickled, are not recorded. Counts and bytes are
# bounded. Records go to pawl over a unix socket pawl owns, as the
# observer's stream does.
import base64 as _b64
import functools as _ft
import os as _os
import pickle as _pk
import pickletools as _pt
import socket as _sk
import sys as _sys
import types as _types

_FRAMEWORK = {"pytest", "_pytest", "pluggy", "hypothesis", "_hypothesis_pytestplugin", "py", "iniconfig"}


class _State:
    def __init__(self, spec):
        self.root = _os.path.realpath(_os.getcwd())
        self.code = set(spec["code"])
        self.per = int(spec["per"])
        self.total = int(spec["total"])
        self.bytes = int(spec["bytes"])
        self.counts = {}
        self.repeats = {}
        self.made = 0
        self.sent = 0
        self.skipped = 0
        self.busy = False
        self.ran = None
        self.files = {}
        self.wrapped = {}
        self.sock = _sk.socket(_sk.AF_UNIX, _sk.SOCK_STREAM)
        self.sock.connect(spec["socket"])
        self.send({"hello": spec["token"]})

    def send(self, message):
        line = (_js.dumps(message, sort_keys=True) + "\n").encode("utf-8", "surrogatepass")
        self.sent += len(line)
        self.sock.sendall(line)

    def rel(self, filename):
        known = self.files.get(filename)
        if known is None:
            path = _os.path.realpath(filename) if filename else ""
            rel = _os.path.relpath(path, self.root) if path.startswith(self.root + _os.sep) else None
            kind = None if rel is None or not rel.endswith(".py") else ("code" if rel in self.code else "tests")
            known = (rel, kind)
            self.files[filename] = known
        return known


_state = None
_SKIP = object()


def _safely(function, value):
    """`function(value)`, or `_SKIP` when it fails: the recorder never fails a test."""
    try:
        return function(value)
    except Exception:
        return _SKIP


def _profile(frame, event, arg):
    if event == "call" and _state is not None and _state.ran is not None:
        _state.ran.add(frame.f_code)


def _ranges(codes):
    out = set()
    for code in codes:
        if code.co_name == "<module>":
            continue
        rel, kind = _state.rel(code.co_filename)
        if kind != "code":
            continue
        lines = [line for _, _, line in code.co_lines() if line is not None]
        out.add((rel, min(lines + [code.co_firstlineno]), max(lines + [code.co_firstlineno])))
    return sorted(out)


def pytest_configure(config):
    global _state
    path = _os.environ.get("PAWL_RECORD_SPEC")
    if not path or _state is not None:
        return
    with open(path, encoding="utf-8") as handle:
        _state = _State(_js.load(handle))
    _PLACES[:] = _places()
    _state.ran = set()
    _sys.setprofile(_profile)


def pytest_collection_finish(session):
    if _state is None:
        return
    _sys.setprofile(None)
    ran, _state.ran = _state.ran, None
    roots = []
    for entry in _sys.path:
        path = _os.path.realpath(entry or ".")
        if path == _state.root:
            roots.append(".")
        elif path.startswith(_state.root + _os.sep):
            roots.append(_os.path.relpath(path, _state.root))
    _state.send({"roots": roots, "ran": _ranges(ran)})
    _wrap_all()


def pytest_sessionfinish(session):
    if _state is None:
        return
    _state.send({"end": True, "skipped": _state.skipped})
    _state.sock.close()


def _modules(kind):
    for name, module in list(_sys.modules.items()):
        filename = getattr(module, "__file__", None)
        if isinstance(filename, str) and _state.rel(filename)[1] == kind:
            yield name, module


def _wrap_all():
    for name, module in _modules("code"):
        for attr, value in list(vars(module).items()):
            if isinstance(value, type) and value.__module__ == name and value.__qualname__ == attr:
                _wrap_class(name, value)
            elif _wrappable(value) and getattr(value, "__module__", None) == name:
                if _resolve(name, getattr(value, "__qualname__", "")) is value:
                    _wrap(name, value.__qualname__, value, False)
    for kind in ("code", "tests"):
        for _, module in _modules(kind):
            for attr, value in list(vars(module).items()):
                wrapper = _state.wrapped.get(id(value))
                if wrapper is not None and wrapper[0] is value:
                    setattr(module, attr, wrapper[1])


def _wrappable(value):
    if isinstance(value, type) or not callable(value):
        return False
    if isinstance(value, (_types.BuiltinFunctionType, _types.MethodType)):
        return False
    if isinstance(value, _types.FunctionType):
        return not (value.__code__.co_flags & 0x2A0)  # generator, coroutine, async generator
    return isinstance(getattr(value, "__qualname__", None), str)


def _wrap_class(module, klass):
    for attr, raw in list(vars(klass).items()):
        if attr.startswith("__") and attr.endswith("__"):
            continue
        qualname = "%s.%s" % (klass.__qualname__, attr)
        if isinstance(raw, staticmethod) and _wrappable(raw.__func__):
            setattr(klass, attr, staticmethod(_wrap(module, qualname, raw.__func__, False)))
        elif isinstance(raw, classmethod) and _wrappable(raw.__func__):
            setattr(klass, attr, classmethod(_wrap(module, qualname, raw.__func__, True)))
        elif isinstance(raw, _types.FunctionType) and _wrappable(raw):
            setattr(klass, attr, _wrap(module, qualname, raw, False))


def _resolve(module, qualname):
    value = _sys.modules.get(module)
    for part in qualname.split("."):
        value = getattr(value, part, None)
    return value


def _where(function):
    for _ in range(20):
        inner = getattr(function, "__wrapped__", None)
        if inner is None:
            break
        function = inner
    code = getattr(function, "__code__", None)
    if code is None:
        return None
    rel, kind = _state.rel(code.co_filename)
    return [rel, code.co_firstlineno] if kind == "code" else None


def _wrap(module, qualname, function, bound_class):
    key = "%s:%s" % (module, qualname)
    where = _where(function)

    @_ft.wraps(function)
    def wrapper(*args, **kwargs):
        state = _state
        if (
            state is None or state.busy or state.made >= state.total
            or state.counts.get(key, 0) >= state.per or state.sent >= state.bytes
            or state.rel(_sys._getframe(1).f_code.co_filename)[1] != "tests"
        ):
            return function(*args, **kwargs)
        if bound_class and (not args or not isinstance(args[0], type) or args[0].__qualname__ + "." + function.__name__ != qualname):
            return function(*args, **kwargs)
        given = (tuple(args[1:]) if bound_class else tuple(args), dict(kwargs))
        blob = _pickled(given)
        if blob is None:
            state.skipped += 1
            return function(*args, **kwargs)
        # The same arguments twice tell whether the function answers them
        # the same; a third time only takes the place of other arguments.
        seen = (key, blob)
        if state.repeats.get(seen, 0) >= 2:
            return function(*args, **kwargs)
        state.repeats[seen] = state.repeats.get(seen, 0) + 1
        shown = _safely(_form, given)
        if shown is _SKIP:
            state.skipped += 1
            return function(*args, **kwargs)
        state.counts[key] = state.counts.get(key, 0) + 1
        state.made += 1
        state.busy = True
        state.ran = set()
        previous = _sys.getprofile()
        _sys.setprofile(_profile)
        outcome = _SKIP
        try:
            result = function(*args, **kwargs)
            _sys.setprofile(previous)
            outcome = _safely(_form, result)
            return result
        except BaseException as error:
            _sys.setprofile(previous)
            # A warning raised as an error obeys the run's warning filters,
            # which a program started without the test runner does not have.
            outcome = _SKIP if isinstance(error, Warning) else _raised(error)
            raise
        finally:
            _sys.setprofile(previous)
            ran, state.ran = state.ran, None
            after = _safely(_form, given)
            if outcome is not _SKIP and after is not _SKIP:
                _safely(state.send, {
                    "call": [module, qualname],
                    "at": where,
                    "args": _b64.b64encode(blob).decode("ascii"),
                    "shown": shown,
                    "out": [outcome, after],
                    "ran": _safely(_ranges, ran),
                })
            state.busy = False

    for extra in ("cache_info", "cache_clear", "cache_parameters"):
        if hasattr(function, extra):
            setattr(wrapper, extra, getattr(function, extra))
    _state.wrapped[id(function)] = (function, wrapper)
    return wrapper


def _pickled(value):
    try:
        blob = _pk.dumps(value, protocol=2, fix_imports=False)
        for op, arg, _ in _pt.genops(blob):
            if op.name != "GLOBAL":
                continue
            name = str(arg).split(" ")[0]
            if name.split(".")[0] in _FRAMEWORK or name == "__main__":
                return None
            module = _sys.modules.get(name)
            filename = getattr(module, "__file__", None)
            if module is None or (isinstance(filename, str) and _state.rel(filename)[1] == "tests"):
                return None
        return blob
    except Exception:
        return None
