"""Run one module's variants and report what each call gave.

Usage: python3 schemata_harness.py SPEC.json

SPEC: {"calls": [...], "runs": [{"key": ..., "path": ..., "active": id|null}]}.
Each run compiles the file at `path`, sets `builtins.__pawl_active__` to
`active`, executes the module in a fresh namespace and evaluates every call
in it. Prints {key: {"results": [...], "lines": [...]}} as JSON, or
{key: {"compile": message}} when the file does not compile. `lines` are the
file's lines that ran (line events, as a coverage tool sees them). A run that
takes more than LIMIT line events is stopped and reported as "timeout", so a
mutant that loops forever ends the same way in every variant.
"""

import asyncio  # noqa: F401  (calls may use it)
import builtins
import json
import sys

LIMIT = 100_000


class Timeout(BaseException):
    pass


def describe(error):
    # UnboundLocalError is the NameError a schemata raises where a mutated
    # copy finds no binding at all; both are NameErrors to a test.
    if isinstance(error, NameError):
        return "NameError"
    return f"{type(error).__name__}: {error}"


def run(path, active, calls):
    with open(path, encoding="utf-8", newline="") as f:
        source = f.read()
    try:
        code = compile(source, path, "exec")
    except SyntaxError as e:
        return {"compile": f"{e.msg} at line {e.lineno}"}
    builtins.__pawl_active__ = active
    lines = set()
    steps = [0]

    def tracer(frame, event, arg):
        if frame.f_code.co_filename != path:
            return None
        if event == "line":
            lines.add(frame.f_lineno)
            steps[0] += 1
            if steps[0] > LIMIT:
                raise Timeout()
        return tracer

    namespace = {"__name__": "schemata_case"}
    results = []

    def traced(run):
        # A trace function that raises is unset: set it again for each run.
        steps[0] = 0
        sys.settrace(tracer)
        try:
            return run()
        finally:
            sys.settrace(None)

    try:
        traced(lambda: exec(code, namespace))
    except BaseException as e:  # noqa: BLE001
        results.append(["import", describe(e)])
    for call in calls:
        try:
            results.append(["ok", repr(traced(lambda: eval(call, namespace)))])
        except Timeout:
            results.append(["timeout"])
        except BaseException as e:  # noqa: BLE001
            results.append(["raise", describe(e)])
    return {"results": results, "lines": sorted(lines)}


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        spec = json.load(f)
    sys.setrecursionlimit(300)
    out = {}
    for r in spec["runs"]:
        out[r["key"]] = run(r["path"], r["active"], spec["calls"])
    json.dump(out, sys.stdout)


main()
