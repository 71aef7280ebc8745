import assert from "node:assert/strict";
import { analyzePython } from "./analyze_python.ts";
import { loadPythonParser } from "./load_python_parser.ts";

const parser = await loadPythonParser();

/** `kind` of each probe, with `!` when only an unread value makes it one. */
function probes(source: string): string[] {
  const module = analyzePython(parser, source);
  return [
    ...new Set(
      (module.probes ?? []).map((p) =>
        `${p.kind}${p.unread === undefined ? "" : "!"}`
      ),
    ),
  ];
}

const lines = (...l: string[]) => `${l.join("\n")}\n`;

const HONEST: [string, string][] = [
  [
    "a caller's name in a deprecation warning",
    lines(
      "import sys, warnings",
      "def old(x):",
      "    caller = sys._getframe(1).f_code.co_name",
      '    warnings.warn(f"old() called from {caller} is deprecated", DeprecationWarning, stacklevel=2)',
      "    return x",
    ),
  ],
  [
    "a stacklevel counted past this package's frames",
    lines(
      "import os, sys, warnings",
      "_PKG = os.path.dirname(__file__)",
      "def _stacklevel():",
      "    f = sys._getframe(1)",
      "    level = 1",
      "    while f is not None and f.f_code.co_filename.startswith(_PKG):",
      "        f = f.f_back",
      "        level += 1",
      "    return level",
      "def old():",
      '    warnings.warn("old", DeprecationWarning, stacklevel=_stacklevel())',
    ),
  ],
  [
    "the caller's module for a class made at run time",
    lines(
      "import sys",
      "def make(name):",
      "    cls = type(name, (), {})",
      '    cls.__module__ = sys._getframe(1).f_globals.get("__name__", "__main__")',
      "    return cls",
    ),
  ],
  [
    "frames skipped while they are this package's",
    lines(
      "import inspect, re",
      '_INTERNAL = re.compile(r"^mypkg\\.")',
      "def outside():",
      "    for info in inspect.stack()[1:]:",
      '        name = info.frame.f_globals.get("__name__", "")',
      "        if not _INTERNAL.match(name) and name != __name__:",
      "            return info.function",
    ),
  ],
  [
    "inspect.signature in a decorator",
    lines(
      "import functools, inspect",
      "def checked(fn):",
      "    sig = inspect.signature(fn)",
      "    @functools.wraps(fn)",
      "    def inner(*args, **kwargs):",
      "        sig.bind(*args, **kwargs)",
      "        return fn(*args, **kwargs)",
      "    return inner",
    ),
  ],
  [
    "argv read by argparse in main()",
    lines(
      "import argparse, sys",
      "def main(argv=None):",
      "    parser = argparse.ArgumentParser()",
      '    parser.add_argument("command")',
      "    args = parser.parse_args(argv)",
      '    return 1 if args.command == "test" else 0',
      'if __name__ == "__main__":',
      "    sys.exit(main(sys.argv[1:]))",
    ),
  ],
  [
    "argv compared in the __main__ block",
    lines(
      "import sys",
      'if __name__ == "__main__":',
      '    if sys.argv[1:] == ["test"]:',
      "        print('self-test')",
    ),
  ],
  [
    "argv[0] in a usage message and a count of arguments",
    lines(
      "import os, sys",
      "def usage():",
      "    prog = os.path.basename(sys.argv[0])",
      "    if len(sys.argv) < 2:",
      '        return f"usage: {prog} FILE"',
    ),
  ],
  [
    "sys.modules looked up by this module's and a class's module name",
    lines(
      "import sys",
      "def owner(cls):",
      "    return sys.modules[cls.__module__], sys.modules.get(__name__)",
      'SUB = sys.modules.get(f"{__name__}.sub")',
      "def drop():",
      "    for name in list(sys.modules):",
      '        if name.startswith(__name__ + "."):',
      "            del sys.modules[name]",
    ),
  ],
  [
    "environment variables named by a parameter or a prefix",
    lines(
      "import os",
      "def flag(name):",
      '    return os.environ.get(name) == "1"',
      "def setting(key):",
      '    return os.environ.get(f"MYAPP_{key}")',
    ),
  ],
  [
    "a warning once per call site",
    lines(
      "import sys, warnings",
      "_seen = set()",
      "def once(message):",
      "    f = sys._getframe(2)",
      "    key = (f.f_code.co_filename, f.f_lineno)",
      "    if key in _seen:",
      "        return",
      "    _seen.add(key)",
      "    warnings.warn(message, stacklevel=3)",
    ),
  ],
  [
    "a profiler that counts calls by name",
    lines(
      "import collections, sys",
      "_counts = collections.Counter()",
      "def _profile(frame, event, arg):",
      '    if event == "call":',
      "        _counts[frame.f_code.co_name] += 1",
      "def start():",
      "    sys.setprofile(_profile)",
      "def stop():",
      "    sys.setprofile(None)",
    ),
  ],
  [
    "the stack printed for debugging",
    lines(
      "import inspect, logging, traceback",
      "log = logging.getLogger(__name__)",
      "def debug():",
      '    log.debug("called from %s", inspect.stack()[1].function)',
      '    log.debug("".join(traceback.format_stack()))',
      "    return len(inspect.stack()) > 2",
    ),
  ],
];

const PROBES: [string, string, string[]][] = [
  [
    "frames walked for a test file",
    lines(
      "import inspect",
      "def price(x):",
      "    for frame in inspect.stack():",
      '        if "test_" in frame.filename:',
      "            return x",
      "    return x + 1",
    ),
    ["stack"],
  ],
  [
    "sys._getframe reached through a name built from pieces",
    lines(
      "import sys",
      "def price(x):",
      '    f = getattr(sys, "_get" + "frame")(1)',
      '    return x if f.f_code.co_filename.endswith("_test.py") else x + 1',
    ),
    ["stack"],
  ],
  [
    "sys.__dict__ read with a built name",
    lines(
      "import sys",
      "def price(x):",
      '    f = sys.__dict__["_get" + "frame"](1)',
      '    return x if "tests" in f.f_code.co_filename else x + 1',
    ),
    ["stack"],
  ],
  [
    "a name of sys pawl cannot read",
    lines(
      "import sys",
      "def frame(name):",
      "    return getattr(sys, name)(1)",
    ),
    ["stack!"],
  ],
  [
    "a frame compared with a string made with chr()",
    lines(
      "import sys",
      "def price(x):",
      "    f = sys._getframe(1)",
      '    if f.f_globals["__name__"].startswith(chr(116) + "est"):',
      "        return x",
      "    return x + 1",
    ),
    ["stack"],
  ],
  [
    "a frame compared with a string pawl cannot read",
    lines(
      "import codecs, sys",
      "def price(x):",
      "    f = sys._getframe(1)",
      '    if f.f_globals["__name__"].startswith(codecs.decode("grfg", "rot13")):',
      "        return x",
      "    return x + 1",
    ),
    ["stack!"],
  ],
  [
    "a frame compared with an imported constant",
    lines(
      "import sys",
      "from .paths import TESTS",
      "def price(x):",
      "    return x if sys._getframe(1).f_code.co_filename.startswith(TESTS) else x + 1",
    ),
    ["stack!"],
  ],
  [
    "a frame from an exception's traceback",
    lines(
      "def price(x):",
      "    try:",
      "        raise RuntimeError",
      "    except RuntimeError as error:",
      "        f = error.__traceback__.tb_frame.f_back",
      '    return x if f.f_code.co_filename.endswith("conftest.py") else x + 1',
    ),
    ["stack"],
  ],
  [
    "a helper that returns the caller's file",
    lines(
      "import sys",
      "def _who():",
      "    return sys._getframe(2).f_code.co_filename",
      "def price(x):",
      '    return x if "tests/" in _who() else x + 1',
    ),
    ["stack"],
  ],
  [
    "a helper handed the caller's name",
    lines(
      "import sys",
      "def _is_test(name):",
      '    return name.startswith("test_")',
      "def price(x):",
      "    return x if _is_test(sys._getframe(1).f_code.co_name) else x + 1",
    ),
    ["stack"],
  ],
  [
    "the caller kept on self and compared later",
    lines(
      "import sys",
      "class Price:",
      "    def __init__(self):",
      "        self._caller = sys._getframe(1).f_code.co_filename",
      "    def of(self, x):",
      '        return x if self._caller.startswith("tests") else x + 1',
    ),
    ["stack"],
  ],
  [
    "the caller kept on an object of this file and compared later",
    lines(
      "import sys",
      "class Caller:",
      "    def __init__(self, frame):",
      "        self.file = frame.f_code.co_filename",
      "def price(x):",
      "    caller = Caller(sys._getframe(1))",
      '    return x if caller.file.startswith("tests") else x + 1',
    ),
    ["stack"],
  ],
  [
    "the importer's file read at import time",
    lines(
      "import sys",
      "IMPORTER = sys._getframe(1).f_code.co_filename",
      "def price(x):",
      '    return x if IMPORTER.endswith("_test.py") else x + 1',
    ),
    ["stack"],
  ],
  [
    "a lambda filtering the stack",
    lines(
      "import inspect",
      "def price(x):",
      '    if any(filter(lambda f: "test" in f.filename, inspect.stack())):',
      "        return x",
      "    return x + 1",
    ),
    ["stack"],
  ],
  [
    "a local alias of sys._getframe",
    lines(
      "import sys",
      "def price(x):",
      "    here = sys._getframe",
      '    return x if here(1).f_code.co_filename.startswith("tests") else x + 1',
    ),
    ["stack"],
  ],
  [
    "pytest's frame variables",
    lines(
      "import sys",
      "def price(x):",
      '    return x if "__tracebackhide__" in sys._getframe(1).f_locals else x + 1',
    ),
    ["stack"],
  ],
  [
    "a match on the caller's name",
    lines(
      "import sys",
      "def price(x):",
      "    match sys._getframe(1).f_code.co_name:",
      '        case "test_price":',
      "            return x",
      "    return x + 1",
    ),
    ["stack"],
  ],
  [
    "a tracer that looks at file names",
    lines(
      "import sys",
      "def _trace(frame, event, arg):",
      '    if "tests/" in frame.f_code.co_filename:',
      "        pass",
      "sys.settrace(_trace)",
    ),
    ["stack"],
  ],
  [
    "a tracer pawl cannot follow",
    lines(
      "import sys",
      "from .tracing import tracer",
      "sys.settrace(tracer)",
    ),
    ["stack!"],
  ],
  [
    "argv searched for a test runner",
    lines(
      "import sys",
      "def price(x):",
      '    return x if any("test" in a for a in sys.argv) else x + 1',
    ),
    ["argv"],
  ],
  [
    "a framework module named in pieces",
    lines(
      "import sys",
      "def price(x):",
      '    return x if "_py" + "test" in sys.modules else x + 1',
    ),
    ["module_name"],
  ],
  [
    "a framework module named with an escape",
    lines(
      "import sys",
      'IN_TEST = "\\x70ytest" in sys.modules',
    ),
    ["module_name"],
  ],
  [
    "a module name pawl cannot read",
    lines(
      "import codecs, sys",
      'IN_TEST = codecs.decode("clgrfg", "rot13") in sys.modules',
    ),
    ["module_name!"],
  ],
  [
    "pawl's observer among the loaded modules",
    lines(
      "import sys",
      'OBSERVED = any(name.startswith("_pawl") for name in sys.modules)',
    ),
    ["module_name"],
  ],
  [
    "an environment variable named by a decoder",
    lines(
      "import base64, os",
      'CURRENT = os.environ.get(base64.b64decode("UFlURVNUX0NVUlJFTlRfVEVTVA==").decode())',
    ),
    ["env!"],
  ],
  [
    "pytest's and pawl's environment variables",
    lines(
      "import os",
      'A = os.environ.get("PYTEST_" + "CURRENT_TEST")',
      'B = os.environ.get("PAWL_OBSERVER_TOKEN")',
    ),
    ["env"],
  ],
];

Deno.test("analyzePython() finds no probe in code that uses frames, argv or module names for itself", async (t) => {
  for (const [name, source] of HONEST) {
    await t.step(name, () => {
      assert.deepEqual(probes(source), [], source);
    });
  }
});

Deno.test("analyzePython() finds code that looks for tests through frames, argv or module names", async (t) => {
  for (const [name, source, want] of PROBES) {
    await t.step(name, () => {
      assert.deepEqual(probes(source), want, source);
    });
  }
});
