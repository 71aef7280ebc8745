/**
 * Small Python modules for the schemata tests, each with calls whose
 * results tell its mutants apart. Together they cover what a rewrite of a
 * function body can get wrong: strings spanning lines, bodies on the `def`
 * line, decorators, methods and `super()`, nested scopes, generators and
 * coroutines, `global`, docstrings, tabs, CRLF and lines left of the body's
 * indentation.
 *
 * @module
 */

/** One module of the corpus. */
export interface SchemataCase {
  /** What the module exercises. */
  name: string;
  /** The module's text. */
  text: string;
  /** Python expressions evaluated in the module's namespace, in order. */
  calls: string[];
}

const arithmetic = `LIMIT = 10


def clamp(x, lo=0, hi=LIMIT):
    """Clamp x into [lo, hi].

    Indented docstring text stays as it is.
    """
    if x < lo:
        return lo
    elif x > hi:
        return hi
    return x


def window(xs, n):
    out = []
    for i in range(len(xs) - n + 1):
        out.append(sum(xs[i:i + n]) // n)
    return out


def describe(n):
    parts = []
    if n % 2 == 0 and n != 0:
        parts.append("even")
    if not n > 3:
        parts.append("small")
    return ",".join(parts) or "none"
`;

const strings = `def banner(name):
    text = """Hello
    {name}
  end"""
    return text.format(name=name)


def report(a, b):
    return f"""sum={a + b}
  diff={a -
 b}
    done"""


def joined(a):
    s = "one \\
two"
    return s + str(a * 2)


def repeated(x):
    if x > 1:
        return '''
x''' * x
    return '''
  y'''
`;

const sameLine = `def inc(x): return x + 1
def twice(x): y = x * 2; return y - 1
def documented(x):
    """Doc."""; return x > 0
class K:
    def m(self, v): return v * 3
def check(x): assert x > 0; return x
`;

const classes = `import functools


def logged(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        return fn(*args, **kwargs) * 2
    return wrapper


class Base:
    def __init__(self, n):
        self.__n = n
        self.items = [n]

    def size(self):
        return self.__n * 2

    @property
    def double(self):
        return self.size() + 1

    @classmethod
    def make(cls, n):
        return cls(n + 1)

    @staticmethod
    def helper(a, b):
        return a - b


class Child(Base):
    def size(self):
        return super().size() + 10

    @logged
    def decorated(self, k):
        return self.double * k
`;

const nested = `def counter(start):
    count = start
    def step(by=1):
        nonlocal count
        count += by
        return count
    return step


def run_counter(n):
    step = counter(n)
    step()
    return step(2)


def adders(k):
    fs = [lambda x, i=i: x + i * k for i in range(3)]
    return [f(10) for f in fs]


def firsts(xs):
    return [y for x in xs if (y := x * 2) > 4]


def make_point(a):
    class Point:
        def __init__(self, x):
            self.x = x

        def norm(self):
            return abs(self.x - a)
    return Point(a + 3).norm()
`;

const generators = `import asyncio


def evens(n):
    for i in range(n):
        if i % 2 == 0:
            yield i
    return


def delegate(n):
    yield from evens(n)
    yield -1


def only_yield(x):
    yield x + 1


async def fetch(x):
    await asyncio.sleep(0)
    return x * 2


async def agen(n):
    for i in range(n):
        yield i + 1


async def collect(n):
    return [v async for v in agen(n)]
`;

const globals = `COUNT = 0
LAST = None


def bump(n):
    if n > 0:
        global COUNT
        COUNT += n
    return COUNT


def reset(n):
    global COUNT
    global LAST
    LAST = COUNT
    COUNT = n - 1
    return LAST


def total(xs):
    acc = 0
    for x in xs:
        acc += x
    result = acc * 2
    return result


def shadow(xs):
    len = 3
    return len + xs
`;

const control = `import contextlib


def parse(s):
    try:
        n = int(s)
    except ValueError as e:
        return -1
    else:
        n += 1
    finally:
        pass
    return n


def search(xs, t):
    i = 0
    while i < len(xs):
        if xs[i] == t:
            break
        i += 1
    else:
        return None
    return i


def kind(v):
    match v:
        case 0:
            return "zero"
        case [a, b]:
            return a + b
        case {"k": w}:
            return w * 2
        case _:
            return "other"


def guarded(x):
    with contextlib.suppress(ZeroDivisionError):
        return 10 // x
    return 0
`;

const tabs = [
  "class Box:",
  "\tdef scaled(self, x):",
  '\t\t"""Tab-indented."""',
  "\t\tif x > 2:",
  "\t\t\treturn x * 3",
  '\t\tnote = """a',
  '\tb"""',
  "\t\treturn [x - 1,",
  "  len(note)]",
  "",
  "def free(x):",
  "\treturn x % 3 == 1",
  "",
].join("\n");

const crlf = [
  "def area(w, h):",
  '    """Docstring."""',
  "    if w <= 0 or h <= 0:",
  "        return 0",
  '    label = """big',
  'area"""',
  "    return w * h if w * h < 50 else label",
  "def short(x): return x - 2",
  "",
].join("\r\n");

const columnZero = `def spaced(a,
b):
# a comment at column zero
    total = sum([a,
  b])
    return [total,
 a - b]


def guard(x):
    if x > max([0,
  -x]):
        return x // 2
# another comment at column zero
    return -x
`;

const docstrings = `def after_comment(x):
    # why this exists
    """Halve x, rounding down."""
    if x > 1:
        return x // 2
    return x


def joined_doc(x):
    "Add one, " "then double."
    return (x + 1) * 2


def two_spaces(a):
  """Doc."""; b = a + 1
  if b > 3:
    return b * 2
  return b - 1
`;

/** Every module of the corpus. */
export const SCHEMATA_CORPUS: readonly SchemataCase[] = [
  {
    name: "arithmetic, comparisons, slices and a docstring",
    text: arithmetic,
    calls: [
      "clamp(-1)",
      "clamp(5)",
      "clamp(12)",
      "clamp(3, 4, 8)",
      "clamp(0)",
      "window([1, 2, 3, 4, 5], 2)",
      "window([], 1)",
      "describe(0)",
      "describe(4)",
      "describe(3)",
      "describe(7)",
    ],
  },
  {
    name: "strings and f-strings spanning lines",
    text: strings,
    calls: [
      "banner('ann')",
      "report(1, 2)",
      "joined(3)",
      "repeated(2)",
      "repeated(0)",
    ],
  },
  {
    name: "bodies on the def line",
    text: sameLine,
    calls: [
      "inc(1)",
      "twice(3)",
      "documented(1)",
      "documented(-1)",
      "documented.__doc__",
      "K().m(2)",
      "check(2)",
      "check(-2)",
    ],
  },
  {
    name: "decorators, methods and super()",
    text: classes,
    calls: [
      "Base(2).size()",
      "Base(3).double",
      "Base.make(1).size()",
      "Base.helper(5, 2)",
      "Child(1).size()",
      "Child(2).decorated(3)",
      "Child.decorated.__name__",
      "logged(lambda x: x + 1)(2)",
      "Base(4).items",
    ],
  },
  {
    name: "closures, nonlocal, lambdas, walrus and nested classes",
    text: nested,
    calls: [
      "run_counter(1)",
      "counter(5)(3)",
      "adders(2)",
      "firsts([1, 2, 3, 4])",
      "make_point(1)",
    ],
  },
  {
    name: "generators and coroutines",
    text: generators,
    calls: [
      "list(evens(5))",
      "list(delegate(4))",
      "list(only_yield(3))",
      "asyncio.run(fetch(3))",
      "asyncio.run(collect(3))",
    ],
  },
  {
    name: "global declarations and locals a mutant unbinds",
    text: globals,
    calls: [
      "bump(2)",
      "bump(0)",
      "bump(3)",
      "reset(2)",
      "reset(0)",
      "total([1, 2, 3])",
      "total([])",
      "shadow(1)",
    ],
  },
  {
    name: "try, while, match and with",
    text: control,
    calls: [
      "parse('4')",
      "parse('x')",
      "search([1, 2, 3], 2)",
      "search([1, 2], 5)",
      "search([], 1)",
      "kind(0)",
      "kind([2, 3])",
      "kind({'k': 4})",
      "kind('z')",
      "guarded(2)",
      "guarded(0)",
    ],
  },
  {
    name: "docstrings after a comment, joined, and sharing their line",
    text: docstrings,
    calls: [
      "after_comment(5)",
      "after_comment(1)",
      "after_comment.__doc__",
      "joined_doc(2)",
      "joined_doc.__doc__",
      "two_spaces(3)",
      "two_spaces(1)",
      "two_spaces.__doc__",
    ],
  },
  {
    name: "tab indentation",
    text: tabs,
    calls: ["Box().scaled(3)", "Box().scaled(1)", "free(4)", "free(5)"],
  },
  {
    name: "CRLF line breaks",
    text: crlf,
    calls: ["area(2, 3)", "area(0, 3)", "area(10, 10)", "short(5)"],
  },
  {
    name: "comments at column 0 and continuation lines left of the body",
    text: columnZero,
    calls: ["spaced(5, 2)", "guard(4)", "guard(-3)", "guard(0)"],
  },
];
