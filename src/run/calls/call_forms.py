# The canonical form of a value, shared by the call recorder and the
# replayer (both are built from this text): a JSON structure computed from
# the value's real contents, never through the value's own `__eq__`,
# `__repr__`, `__iter__` or `__getattribute__`, which the code may
# overload. Builtins are read through their base type's methods; dicts and
# sets are sorted by the form of their keys; an object is its type's
# qualified name and its `__dict__` and slots; an object with neither is
# what `__reduce_ex__` of its type gives; functions, classes and modules
# by name. Depth and size are bounded: what lies past a bound is one
# "cut" marker on both sides, so it compares equal. The copy of the tree
# and the HOME differ between the runs: in text they read "<tree>" and
# "<home>". No name here says what the text is for.
import hashlib as _hl
import json as _js
import os as _os_f
import types as _ty

_DEPTH = 8
_NODES = 2000
_TEXT = 512
_REF_TYPES = (
    type,
    _ty.FunctionType,
    _ty.BuiltinFunctionType,
    _ty.ModuleType,
    _ty.MethodType,
)


def _tname(t):
    return "%s.%s" % (
        type.__getattribute__(t, "__module__"),
        type.__getattribute__(t, "__qualname__"),
    )


_PLACES = []


def _places():
    here = _os_f.getcwd()
    found = [(here, "<tree>"), (_os_f.path.realpath(here), "<tree>")]
    home = _os_f.environ.get("HOME")
    if home and len(home) > 1:
        found.append((home, "<home>"))
    return sorted(found, key=lambda p: -len(p[0]))


def _text(s):
    for place, name in _PLACES:
        if place in s:
            s = s.replace(place, name)
    if len(s) <= _TEXT:
        return s
    digest = _hl.sha256(s.encode("utf-8", "surrogatepass")).hexdigest()
    return "%s...[%d chars, sha256 %s]" % (s[:_TEXT], len(s), digest)


def _key(form):
    return _js.dumps(form, sort_keys=True)


def _form(value):
    return _f(value, 0, [_NODES])


def _raised(error):
    return ["raise", _tname(type(error))]


def _f(x, depth, left):
    if left[0] <= 0:
        return ["cut"]
    left[0] -= 1
    t = type(x)
    if x is None or t is bool:
        return x
    if t is int:
        return ["int", _text(int.__repr__(x))]
    if t is float:
        return ["float", float.__repr__(x)]
    if t is str:
        return ["str", _text(x)]
    if depth >= _DEPTH:
        return ["deep", _tname(t)]
    base = _builtin(x, t, depth, left)
    if base is not None:
        if t in (int, float, str, bytes, bytearray, complex, list, tuple, dict, set, frozenset):
            return base
        return ["sub", _tname(t), base, _attrs(x, t, depth, left)]
    if isinstance(x, _REF_TYPES):
        return ["ref", _refname(x)]
    if isinstance(x, BaseException):
        return ["exception", _tname(t), _f(BaseException.__getattribute__(x, "args"), depth + 1, left)]
    attrs = _attrs(x, t, depth, left)
    if attrs is not None:
        return ["obj", _tname(t), attrs]
    return ["opaque", _tname(t), _reduced(x, t, depth, left)]


def _builtin(x, t, depth, left):
    if isinstance(x, int):
        return ["int", _text(int.__repr__(x))]
    if isinstance(x, float):
        return ["float", float.__repr__(x)]
    if isinstance(x, str):
        return ["str", _text(str.__str__(x))]
    if isinstance(x, bytes):
        raw = bytes.__bytes__(x)
        return ["bytes", _text(raw.hex()), len(raw)]
    if isinstance(x, bytearray):
        raw = bytes(bytearray.copy(x))
        return ["bytes", _text(raw.hex()), len(raw)]
    if isinstance(x, complex):
        return ["complex", float.__repr__(x.real), float.__repr__(x.imag)]
    if isinstance(x, (list, tuple)):
        items = list.__iter__(x) if isinstance(x, list) else tuple.__iter__(x)
        name = "list" if isinstance(x, list) else "tuple"
        return [name, [_f(e, depth + 1, left) for e in items]]
    if isinstance(x, dict):
        pairs = [[_f(k, depth + 1, left), _f(v, depth + 1, left)] for k, v in dict.items(x)]
        pairs.sort(key=lambda p: _key(p[0]))
        return ["dict", pairs]
    if isinstance(x, (set, frozenset)):
        items = [_f(e, depth + 1, left) for e in (set.__iter__(x) if isinstance(x, set) else frozenset.__iter__(x))]
        items.sort(key=_key)
        return ["set", items]
    return None


def _attrs(x, t, depth, left):
    found = {}
    try:
        found.update(dict.items(object.__getattribute__(x, "__dict__")))
    except Exception:
        pass
    for klass in type.__getattribute__(t, "__mro__"):
        slots = type.__getattribute__(klass, "__dict__").get("__slots__", ())
        for name in [slots] if isinstance(slots, str) else slots:
            if name in ("__dict__", "__weakref__"):
                continue
            try:
                found[name] = object.__getattribute__(x, name)
            except Exception:
                pass
    if not found and not hasattr(t, "__slots__"):
        try:
            object.__getattribute__(x, "__dict__")
        except Exception:
            return None
    pairs = [[str(k), _f(v, depth + 1, left)] for k, v in found.items()]
    pairs.sort(key=lambda p: p[0])
    return pairs


def _reduced(x, t, depth, left):
    try:
        reduced = object.__reduce_ex__(x, 2) if t.__reduce_ex__ is object.__reduce_ex__ else t.__reduce_ex__(x, 2)
    except Exception:
        return None
    if not isinstance(reduced, tuple):
        return ["name", str(reduced)]
    return _f(tuple(reduced[1:3]), depth + 1, left)


def _refname(x):
    module = getattr(x, "__module__", None) or getattr(x, "__name__", "")
    if isinstance(x, _ty.ModuleType):
        return "module " + str(x.__name__)
    return "%s.%s" % (module, getattr(x, "__qualname__", getattr(x, "__name__", "?")))
