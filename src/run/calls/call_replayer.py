# The calls the tests made into the code under test, made again where no
# test is watching: a clean interpreter started with `python3 -c` and this
# text (so no file name on the stack says what it is), with no test
# framework imported, no pytest, Hypothesis or pawl variables, `sys.argv`
# as `python3 -c` leaves it, and the project's import roots on the path as
# the test run had them. The canonical form of values (`call_forms.py`)
# is prepended. Full-line comments are removed before it runs.
#
# Two modes. "passes": the recorded sequence once (every outcome is sent),
# then again and again up to a bound on calls and on CPU seconds (the
# process's own time, which a busy machine does not shorten), sending only
# the outcomes that differ from the first pass's. "twice": each call made twice in a
# row, both outcomes sent, which tells a function of its arguments from a
# call whose outcome depends on what ran before. The outcomes go to pawl
# over a unix socket pawl owns, never through the run's output.
import base64 as _b64
import importlib as _il
import os as _os
import pickle as _pk
import socket as _sk
import sys as _sys
import time as _tm


def _go():
    where, mode = _sys.argv[1], _sys.argv[2]
    _sys.argv[:] = ["-c"]
    with open(where, encoding="utf-8") as handle:
        plan = _js.load(handle)
    line = _sk.socket(_sk.AF_UNIX, _sk.SOCK_STREAM)
    line.connect(plan["socket"])

    def send(message):
        line.sendall((_js.dumps(message, sort_keys=True) + "\n").encode("utf-8", "surrogatepass"))

    send({"hello": plan["token"]})
    here = _os.getcwd()
    _PLACES[:] = _places()
    _sys.path[0:0] = [here if r == "." else _os.path.join(here, r) for r in plan["roots"]]
    calls = plan["calls"]
    if mode == "twice":
        for i, call in enumerate(calls):
            send({"i": i, "first": _one(call), "second": _one(call)})
    else:
        first = []
        for i, call in enumerate(calls):
            outcome = _one(call)
            first.append(_key(outcome))
            send({"i": i, "p": 1, "out": outcome})
        made = len(calls)
        until = _tm.process_time() + float(plan["seconds"])
        p = 1
        while calls and made < int(plan["limit"]) and _tm.process_time() < until:
            p += 1
            for i, call in enumerate(calls):
                if made >= int(plan["limit"]) or _tm.process_time() >= until:
                    break
                made += 1
                outcome = _one(call)
                if _key(outcome) != first[i]:
                    send({"i": i, "p": p, "out": outcome})
        send({"passes": p})
    send({"end": True})
    line.close()


def _one(call):
    module, qualname, blob = call
    try:
        value = _il.import_module(module)
        for part in qualname.split("."):
            value = getattr(value, part)
        args, kwargs = _pk.loads(_b64.b64decode(blob))
    except BaseException as error:
        return {"error": _tname(type(error))}
    try:
        result = value(*args, **kwargs)
        return [_form(result), _form((args, kwargs))]
    except BaseException as error:
        return [_raised(error), _form((args, kwargs))]


_go()
