import assert from "node:assert/strict";
import fc from "fast-check";
import { analyzePython } from "../python/analyze_python.ts";
import { loadPythonParser } from "../python/load_python_parser.ts";
import type { PythonExpr, PythonModule } from "../python/python_module.ts";
import {
  type Direction,
  ExprComparison,
  numberOf,
  textOf,
} from "./_compare_exprs.ts";
import type { NameSide } from "./_resolve_names.ts";

const parser = await loadPythonParser();
const PATH = "tests/test_p.py";
const PRELUDE = "from hypothesis import strategies as st\n";

/** One commit of `files`, each analysed with the strategies import on top. */
function sideOf(files: Record<string, string>): NameSide {
  const modules = new Map<string, PythonModule>();
  const tree = new Map();
  for (const [path, text] of Object.entries(files)) {
    modules.set(path, analyzePython(parser, `${PRELUDE}${text}`));
    tree.set(path, { path, kind: "file", oid: path, size: 1 });
  }
  return { modules, tree };
}

/** What `S` is assigned in `tests/test_p.py` of `side`. */
function placed(side: NameSide) {
  const module = side.modules.get(PATH)!;
  const expr = module.definitions?.get("S")?.expr;
  assert.ok(expr !== undefined, "S has one plain assignment");
  return { expr, at: { path: PATH, module } };
}

/**
 * Why the head's `S` is not at least as wide (or, with `equal`, not the
 * same) as the base's; undefined when it is. `base` and `head` are the
 * module's text after `S = ...` is written, or whole files by path.
 */
function why(
  base: string | Record<string, string>,
  head: string | Record<string, string>,
  direction: Direction = "widening",
): string | undefined {
  const files = (text: string | Record<string, string>) =>
    typeof text === "string" ? { [PATH]: text } : text;
  const b = sideOf(files(base));
  const h = sideOf(files(head));
  return new ExprComparison(b, h).compare(placed(b), placed(h), direction)
    ?.why;
}

/** `S = <strategy>` after `top`. */
const S = (strategy: string, top = "") => `${top}\nS = ${strategy}\n`;

type Case = [string, string, string, RegExp | undefined];

async function table(
  t: Deno.TestContext,
  cases: Case[],
  direction: Direction = "widening",
) {
  for (const [name, base, head, want] of cases) {
    await t.step(name, () => {
      const got = why(base, head, direction);
      if (want === undefined) assert.equal(got, undefined);
      else {
        assert.ok(got !== undefined, "a difference");
        assert.match(got, want);
      }
    });
  }
}

Deno.test("ExprComparison judges a strategy's bounds by their values: looser or dropped widens, tighter or added narrows", async (t) => {
  await table(t, [
    ["the same", S("st.integers(0, 100)"), S("st.integers(0, 100)"), undefined],
    [
      "a lower bound lowered",
      S("st.integers(0, 100)"),
      S("st.integers(-5, 100)"),
      undefined,
    ],
    [
      "an upper bound raised",
      S("st.integers(0, 100)"),
      S("st.integers(0, 101)"),
      undefined,
    ],
    [
      "a lower bound raised by one",
      S("st.integers(0, 100)"),
      S("st.integers(1, 100)"),
      /^min_value narrowed from 0 to 1$/,
    ],
    [
      "an upper bound lowered by one",
      S("st.integers(0, 100)"),
      S("st.integers(0, 99)"),
      /^max_value narrowed from 100 to 99$/,
    ],
    [
      "positional bounds written as keywords",
      S("st.integers(0, 100)"),
      S("st.integers(max_value=100, min_value=0)"),
      undefined,
    ],
    [
      "a bound dropped",
      S("st.lists(st.integers(), min_size=1, max_size=10)"),
      S("st.lists(st.integers(), min_size=1)"),
      undefined,
    ],
    [
      "a bound added",
      S("st.lists(st.integers())"),
      S("st.lists(st.integers(), max_size=3)"),
      /^it adds the bound max_size=3$/,
    ],
    [
      "a lower bound added",
      S("st.text()"),
      S("st.text(min_size=1)"),
      /^it adds the bound min_size=1$/,
    ],
    [
      "a bound through a constant, narrowed",
      S("st.integers(0, MAX)", "MAX = 10"),
      S("st.integers(0, MAX)", "MAX = 9"),
      /^max_value narrowed from MAX \(10\) to MAX \(9\)$/,
    ],
    [
      "a bound through a constant, widened",
      S("st.integers(0, MAX)", "MAX = 10"),
      S("st.integers(0, MAX)", "MAX = 11"),
      undefined,
    ],
    [
      "a bound through a chain of constants",
      S("st.integers(0, MAX)", "LIMIT = 10\nMAX = LIMIT"),
      S("st.integers(0, MAX)", "LIMIT = 9\nMAX = LIMIT"),
      /^max_value narrowed/,
    ],
    [
      "a bound as arithmetic",
      S("st.integers(-(2**8), 10**6)"),
      S("st.integers(-256, 2 * 500_000 - 1 + 1)"),
      undefined,
    ],
    [
      "a bound as arithmetic, narrowed",
      S("st.integers(0, 10**6)"),
      S("st.integers(0, 10**6 - 1)"),
      /^max_value narrowed from 10\*\*6 \(1000000\) to/,
    ],
    [
      "a bound that is not a number, unchanged",
      S("st.integers(0, limit())"),
      S("st.integers(0, limit())"),
      undefined,
    ],
    [
      "a bound that is not a number, changed",
      S("st.integers(0, limit())"),
      S("st.integers(0, other())"),
      /^max_value changed from limit\(\) to other\(\)$/,
    ],
    [
      "a float bound narrowed",
      S("st.floats(0.5, 2.5)"),
      S("st.floats(0.5, 2.25)"),
      /^max_value narrowed/,
    ],
    [
      "max_codepoint lowered",
      S("st.characters(max_codepoint=1000)"),
      S("st.characters(max_codepoint=999)"),
      /^max_codepoint narrowed/,
    ],
    [
      "min_leaves raised",
      S("st.recursive(st.none(), st.lists, min_leaves=1)"),
      S("st.recursive(st.none(), st.lists, min_leaves=2)"),
      /^min_leaves narrowed/,
    ],
    [
      "max_leaves lowered",
      S("st.recursive(st.none(), st.lists, max_leaves=10)"),
      S("st.recursive(st.none(), st.lists, max_leaves=9)"),
      /^max_leaves narrowed/,
    ],
  ]);
});

Deno.test("ExprComparison reads an argument given by position as its parameter, named", async (t) => {
  // Each strategy's arguments by position, then the head's: the same by
  // keyword, or with its bounds dropped, which widens.
  const cases: [string, string][] = [
    ["st.integers(0, 10)", "st.integers()"],
    ["st.floats(0, 10)", "st.floats(max_value=10)"],
    ["st.decimals(0, 10)", "st.decimals(min_value=0)"],
    ["st.fractions(0, 10)", "st.fractions()"],
    ["st.dates(A, B)", "st.dates(max_value=B)"],
    ["st.datetimes(A, B)", "st.datetimes(min_value=A)"],
    ["st.times(A, B)", "st.times()"],
    ["st.timedeltas(A, B)", "st.timedeltas(max_value=B)"],
    ["st.binary(1, 10)", "st.binary(max_size=10)"],
    ['st.text("ab", 1, 10)', 'st.text(alphabet="ab", max_size=10)'],
    ["st.lists(E, 1, 10)", "st.lists(elements=E, max_size=10)"],
    ["st.sets(E, 1, 10)", "st.sets(elements=E, max_size=10)"],
    ["st.frozensets(E, 1, 10)", "st.frozensets(elements=E, min_size=1)"],
    ["st.iterables(E, 1, 10)", "st.iterables(elements=E)"],
    ["st.dictionaries(K, V)", "st.dictionaries(values=V, keys=K)"],
    ["st.sampled_from([1, 2])", "st.sampled_from(elements=[1, 2, 3])"],
  ];
  for (const [base, head] of cases) {
    await t.step(`${base} as ${head}`, () => {
      assert.equal(why(S(base), S(head)), undefined);
    });
  }
});

Deno.test("ExprComparison judges a strategy's other arguments as written", async (t) => {
  await table(t, [
    [
      "an argument added",
      S("st.floats()"),
      S("st.floats(allow_nan=False)"),
      /^it adds the argument allow_nan=False$/,
    ],
    [
      "an argument dropped",
      S("st.floats(allow_nan=False)"),
      S("st.floats()"),
      /^it drops the argument allow_nan$/,
    ],
    [
      "an argument changed",
      S("st.text(alphabet='ab')"),
      S("st.text(alphabet='a')"),
      /is not/,
    ],
    [
      "another strategy",
      S("st.integers(0, 10)"),
      S("st.floats(0, 10)"),
      /is not/,
    ],
    [
      "a narrowed strategy inside another",
      S("st.lists(st.integers(0, 10))"),
      S("st.lists(st.integers(0, 5))"),
      /^max_value narrowed from 10 to 5$/,
    ],
    [
      "a widened strategy inside another",
      S("st.lists(st.integers(0, 10))"),
      S("st.lists(st.integers(0, 50))"),
      undefined,
    ],
    [
      "a narrowed strategy inside a tuple",
      S("st.tuples(st.integers(0, 10), st.booleans())"),
      S("st.tuples(st.integers(0, 5), st.booleans())"),
      /^max_value narrowed/,
    ],
    [
      "a narrowed strategy inside a list literal argument",
      S("st.builds(make, [st.integers(0, 10)])"),
      S("st.builds(make, [st.integers(0, 5)])"),
      /^max_value narrowed/,
    ],
    [
      "a widened strategy inside a list literal argument",
      S("st.builds(make, [st.integers(0, 10)])"),
      S("st.builds(make, [st.integers(0, 50)])"),
      undefined,
    ],
    [
      "a widened alternative of one_of, read as a choice lost",
      S("st.one_of([st.integers(0, 10)])"),
      S("st.one_of([st.integers(0, 50)])"),
      /^one_of lost 1 of its choices$/,
    ],
    [
      "a call with a ** splat, compared as written",
      S("st.integers(**BOUNDS)"),
      S("st.integers(**BOUNDS)"),
      undefined,
    ],
    [
      "a widened strategy in a call with a * splat",
      S("st.builds(make, *ARGS, st.integers(0, 10))"),
      S("st.builds(make, *ARGS, st.integers(0, 50))"),
      undefined,
    ],
    [
      "a narrowed strategy in a call with a * splat",
      S("st.builds(make, *ARGS, st.integers(0, 10))"),
      S("st.builds(make, *ARGS, st.integers(0, 5))"),
      /^max_value narrowed from 10 to 5$/,
    ],
    [
      "a widened strategy inside a tuple literal argument",
      S("st.builds(make, (st.integers(0, 10),))"),
      S("st.builds(make, (st.integers(0, 50),))"),
      undefined,
    ],
    [
      "a widened strategy inside a set literal argument",
      S("st.builds(make, {st.integers(0, 10)})"),
      S("st.builds(make, {st.integers(0, 50)})"),
      undefined,
    ],
    [
      "a widened strategy inside a dict literal argument, compared as written",
      S("st.builds(make, {1: st.integers(0, 10)})"),
      S("st.builds(make, {1: st.integers(0, 50)})"),
      /^50 is not 10$/,
    ],
    [
      "a call with a ** splat changed",
      S("st.integers(**BOUNDS)"),
      S("st.integers(**OTHER)"),
      /is not/,
    ],
  ]);
});

Deno.test("ExprComparison takes a filter dropped, an alternative added, or a choice added as a widening, and not the other way", async (t) => {
  await table(t, [
    [
      "a filter dropped",
      S("st.integers().filter(lambda n: n > 0)"),
      S("st.integers()"),
      undefined,
    ],
    [
      "a filter dropped from a narrower strategy",
      S("st.integers(0, 10).filter(lambda n: n > 0)"),
      S("st.integers(0, 5)"),
      /^max_value narrowed/,
    ],
    [
      "a filter added",
      S("st.integers()"),
      S("st.integers().filter(lambda n: n > 0)"),
      /is not/,
    ],
    [
      "a filter changed",
      S("st.integers().filter(lambda n: n > 0)"),
      S("st.integers().filter(lambda n: n > 1)"),
      /is not/,
    ],
    [
      "an alternative added on the right",
      S("st.integers()"),
      S("st.integers() | st.none()"),
      undefined,
    ],
    [
      "an alternative added on the left",
      S("st.integers()"),
      S("st.none() | st.integers()"),
      /is not/,
    ],
    [
      "a wider strategy inside a union is compared as written",
      S("st.integers(0, 10) | st.none()"),
      S("st.integers(0, 20) | st.none()"),
      /^20 is not 10$/,
    ],
    [
      "a narrower strategy with an alternative",
      S("st.integers(0, 10)"),
      S("st.integers(0, 5) | st.none()"),
      /is not/,
    ],
    [
      "a choice added to sampled_from",
      S("st.sampled_from([1, 2])"),
      S("st.sampled_from([1, 2, 3])"),
      undefined,
    ],
    [
      "sampled_from's choices reordered",
      S("st.sampled_from([1, 2])"),
      S("st.sampled_from((2, 1))"),
      undefined,
    ],
    [
      "a choice dropped from sampled_from",
      S("st.sampled_from([1, 2, 3])"),
      S("st.sampled_from([1])"),
      /^sampled_from lost 2 of its choices$/,
    ],
    [
      "choices dropped from sampled_from, a list made a tuple",
      S("st.sampled_from([1, 2, 3])"),
      S("st.sampled_from((1,))"),
      /^sampled_from lost 2 of its choices$/,
    ],
    [
      "sampled_from's choices through a constant",
      S("st.sampled_from(CHOICES)", "CHOICES = [1, 2]"),
      S("st.sampled_from(CHOICES)", "CHOICES = [2]"),
      /^sampled_from lost 1 of its choices$/,
    ],
    [
      "a choice added to sampled_from of a set",
      S("st.sampled_from({1, 2})"),
      S("st.sampled_from({3, 2, 1})"),
      undefined,
    ],
    [
      "sampled_from of something not a literal, unchanged",
      S("st.sampled_from(Colour)"),
      S("st.sampled_from(Colour)"),
      undefined,
    ],
    [
      "sampled_from of something not a literal, changed",
      S("st.sampled_from(Colour)"),
      S("st.sampled_from(Shade)"),
      /^the sampled_from choices changed$/,
    ],
    [
      "an alternative added to one_of",
      S("st.one_of(st.integers(), st.text())"),
      S("st.one_of(st.text(), st.integers(), st.none())"),
      undefined,
    ],
    [
      "an alternative dropped from one_of",
      S("st.one_of(st.integers(), st.text())"),
      S("st.one_of(st.integers())"),
      /^one_of lost 1 of its choices$/,
    ],
  ]);
});

Deno.test("ExprComparison follows names to what they stand for on each side", async (t) => {
  await table(t, [
    [
      "a constant inlined",
      S("NUMBERS", "NUMBERS = st.integers(0, 10)"),
      S("st.integers(0, 10)"),
      undefined,
    ],
    [
      "an inline strategy made a constant, narrowed",
      S("st.integers(0, 10)"),
      S("NUMBERS", "NUMBERS = st.integers(0, 5)"),
      /^max_value narrowed/,
    ],
    [
      "the same constant, narrowed where it is defined",
      S("NUMBERS", "NUMBERS = st.integers(0, 10)"),
      S("NUMBERS", "NUMBERS = st.integers(0, 5)"),
      /^max_value narrowed/,
    ],
    [
      "a name neither side defines",
      S("undefined_strategy"),
      S("undefined_strategy"),
      undefined,
    ],
    [
      "a name the head no longer defines",
      S("NUMBERS", "NUMBERS = st.integers()"),
      S("NUMBERS"),
      /^"NUMBERS" no longer resolves$/,
    ],
    [
      "a name the head defines anew",
      S("NUMBERS"),
      S("NUMBERS", "NUMBERS = st.integers()"),
      /^"NUMBERS" is new$/,
    ],
    [
      "another name that stands for nothing pawl reads",
      S("numbers"),
      S("other_numbers"),
      /^"other_numbers" is not "numbers"$/,
    ],
    [
      "a function kept as it was",
      S("make()", "def make():\n    x = 1\n    return st.integers(0, x)"),
      S("make()", "def make():\n    x = 1\n    return st.integers(0, x)"),
      undefined,
    ],
    [
      "a function whose body changed",
      S("make()", "def make():\n    x = 1\n    return st.integers(0, x)"),
      S("make()", "def make():\n    x = 2\n    return st.integers(0, x)"),
      /^the definition of "make" changed$/,
    ],
    [
      "a function kept as it was, a constant it reads changed",
      S(
        "make()",
        "LIMIT = 1\ndef make():\n    x = LIMIT\n    return st.integers(0, x)",
      ),
      S(
        "make()",
        "LIMIT = 2\ndef make():\n    x = LIMIT\n    return st.integers(0, x)",
      ),
      /LIMIT|2 is not 1/,
    ],
    [
      "a name that refers to itself",
      S("LOOP", "LOOP = st.deferred(lambda: LOOP)"),
      S("LOOP", "LOOP = st.deferred(lambda: LOOP)"),
      undefined,
    ],
  ]);
  // `A0 = n`, `A1 = A0`, ...: a bound read through `links` names.
  const chain = (links: number, n: number) =>
    Array.from(
      { length: links },
      (_, i) => i === 0 ? `A0 = ${n}` : `A${i} = A${i - 1}`,
    ).join("\n");
  await table(t, [
    [
      "a bound through eight constants, widened",
      S("st.integers(0, A7)", chain(8, 10)),
      S("st.integers(0, A7)", chain(8, 11)),
      undefined,
    ],
    [
      "a bound through eight constants, narrowed",
      S("st.integers(0, A7)", chain(8, 10)),
      S("st.integers(0, A7)", chain(8, 9)),
      /^max_value narrowed from A7 \(10\) to A7 \(9\)$/,
    ],
    [
      "a bound through nine constants is compared as written",
      S("st.integers(0, A8)", chain(9, 10)),
      S("st.integers(0, A8)", chain(9, 11)),
      /^max_value changed from A8 to A8$/,
    ],
  ]);
  await t.step("a name imported from another module, narrowed there", () => {
    const base = {
      [PATH]: S("NUMBERS", "from tests.strategies import NUMBERS"),
      "tests/strategies.py": "NUMBERS = st.integers(0, 10)\n",
    };
    const head = {
      ...base,
      "tests/strategies.py": "NUMBERS = st.integers(0, 5)\n",
    };
    assert.match(why(base, head)!, /^max_value narrowed/);
    assert.equal(why(head, base), undefined);
  });
});

Deno.test("ExprComparison reads a helper that only returns a strategy as that strategy, with its arguments in place", async (t) => {
  const helper = "def names(size):\n    return st.text(max_size=size)";
  await table(t, [
    [
      "a wider argument",
      S("names(5)", helper),
      S("names(6)", helper),
      undefined,
    ],
    [
      "a narrower argument",
      S("names(5)", helper),
      S("names(4)", helper),
      /^max_size narrowed from 5 to 4$/,
    ],
    [
      "the argument by keyword",
      S("names(5)", helper),
      S("names(size=4)", helper),
      /^max_size narrowed/,
    ],
    [
      "the helper inlined",
      S("names(5)", helper),
      S("st.text(max_size=4)"),
      /^max_size narrowed/,
    ],
    [
      "a helper of two parameters",
      S(
        "ints(0, 10)",
        "def ints(low, high):\n    return st.integers(low, high)",
      ),
      S(
        "ints(0, 9)",
        "def ints(low, high):\n    return st.integers(low, high)",
      ),
      /^max_value narrowed/,
    ],
    [
      "a helper of no parameters inlined",
      S("names()", "def names():\n    return st.text(max_size=5)"),
      S("st.text(max_size=5)"),
      undefined,
    ],
    [
      "a call with an argument too many is compared as written",
      S("names(5)", helper),
      S("names(4, 1)", helper),
      /is not/,
    ],
    [
      "a call with an unknown keyword is compared as written",
      S("names(5)", helper),
      S("names(other=4)", helper),
      /is not/,
    ],
    [
      "a keyword of the returned call that spells a parameter stays a keyword",
      S("cap(5)", "def cap(max_size):\n    return st.text(max_size=max_size)"),
      S("cap(4)", "def cap(max_size):\n    return st.text(max_size=max_size)"),
      /^max_size narrowed from 5 to 4$/,
    ],
    [
      "a parameter bound again by a lambda is compared as written",
      S(
        "f(5)",
        "def f(n):\n    return st.integers(0, n).map(lambda n: n + 1)",
      ),
      S(
        "f(4)",
        "def f(n):\n    return st.integers(0, n).map(lambda n: n + 1)",
      ),
      /is not/,
    ],
    [
      "a parameter bound again by a comprehension is compared as written",
      S(
        "f(5)",
        "def f(n):\n    return st.sampled_from([n for n in range(3)] + [n])",
      ),
      S(
        "f(4)",
        "def f(n):\n    return st.sampled_from([n for n in range(3)] + [n])",
      ),
      /is not/,
    ],
    [
      "a parameter a comprehension iterates over is substituted",
      S("f(5)", "def f(n):\n    return st.just([x for x in range(n)])"),
      S("st.just([x for x in range(5)])"),
      undefined,
    ],
    [
      "a parameter used as param.attr is compared as written",
      S("f(A)", "def f(n):\n    return st.integers(0, n.limit)"),
      S("f(B)", "def f(n):\n    return st.integers(0, n.limit)"),
      /is not/,
    ],
  ]);
  await t.step(
    "a name passed to a helper of another module is compared as written",
    () => {
      const files = (arg: string) => ({
        [PATH]: S(`names(${arg})`, "from tests.strategies import names"),
        "tests/strategies.py": helper,
      });
      assert.equal(why(files("5"), files("6")), undefined);
      assert.match(why(files("LIMIT"), files("OTHER"))!, /is not/);
      assert.match(
        why(files("[LIMIT]"), files("[OTHER]"))!,
        /^"OTHER" is not "LIMIT"$/,
      );
    },
  );
});

Deno.test("ExprComparison with `equal` takes nothing but the same expression", async (t) => {
  await table(t, [
    ["the same", S("st.integers(0, 10)"), S("st.integers(0, 10)"), undefined],
    [
      "a wider bound",
      S("st.integers(0, 10)"),
      S("st.integers(0, 11)"),
      /^11 is not 10$/,
    ],
    [
      "a filter dropped",
      S("st.integers().filter(f)"),
      S("st.integers()"),
      /is not/,
    ],
    [
      "an alternative added",
      S("st.integers()"),
      S("st.integers() | st.none()"),
      /is not/,
    ],
    [
      "a choice added",
      S("st.sampled_from([1])"),
      S("st.sampled_from([1, 2])"),
      /is not/,
    ],
    [
      "a helper inlined",
      S("names(5)", "def names(n):\n    return st.text(max_size=n)"),
      S("st.text(max_size=5)"),
      /is not/,
    ],
  ], "equal");
});

Deno.test("ExprComparison gives up on an expression too deep or too large to compare, unless it is spelled the same", async (t) => {
  const nested = (n: number, leaf: string) =>
    `${"st.lists(".repeat(n)}${leaf}${")".repeat(n)}`;
  await table(t, [
    [
      "twelve lists deep",
      S(nested(12, "st.integers()")),
      S(nested(12, "st.integers()")),
      undefined,
    ],
    [
      "twenty-three lists deep, the deepest compared",
      S(nested(23, "st.integers()")),
      S(nested(23, "st.integers()")),
      undefined,
    ],
    [
      "twenty-four lists deep, the first too deep",
      S(nested(24, "st.integers()")),
      S(nested(24, "st.integers()")),
      /^the expression nests too deep to compare$/,
    ],
  ]);
  const large = (leaf: string) =>
    `st.sampled_from([${
      Array.from({ length: 2500 }, (_, i) => i).join(", ")
    }, ${leaf}])`;
  await table(t, [
    ["too large, spelled the same", S(large("1")), S(large("1")), undefined],
    [
      "too large, changed",
      S(large("1")),
      S(large("2")),
      /^it is too large to compare$/,
    ],
    [
      "too large at base only",
      S(large("1")),
      S("st.sampled_from([1])"),
      /^it is too large to compare$/,
    ],
    [
      "too large at head only",
      S("st.sampled_from([1])"),
      S(large("1")),
      /^it is too large to compare$/,
    ],
  ]);
});

/** The expression `text`, as the analysis reads it. */
function expr(text: string): PythonExpr {
  return sideOf({ [PATH]: S(text) }).modules.get(PATH)!.definitions!.get("S")!
    .expr!;
}

Deno.test("numberOf() reads the value of a numeric literal expression", async (t) => {
  const cases: [string, number | undefined][] = [
    ["5", 5],
    ["2.5", 2.5],
    ["1_000", 1000],
    ["0x10", 16],
    ["-5", -5],
    ["+5", 5],
    ["--5", 5],
    ["(5)", 5],
    ["10**6", 1e6],
    ["2 * 3", 6],
    ["2 + 3", 5],
    ["2 - 3", -1],
    ["-(2**8) + 1", -255],
    ["7 / 2", undefined],
    ["7 // 2", undefined],
    ["~5", undefined],
    ["n", undefined],
    ["n + 1", undefined],
    ["1 + n", undefined],
    ["-n", undefined],
    ["f(1)", undefined],
    ["1e400", Infinity],
    ["2j", undefined],
    ["0o17", 15],
  ];
  for (const [text, want] of cases) {
    await t.step(text, () => assert.equal(numberOf(expr(text)), want));
  }
  await t.step("a name, given what names stand for", () => {
    const resolve = (name: string) => (name === "N" ? 7 : undefined);
    assert.equal(numberOf(expr("N * 2"), resolve), 14);
    assert.equal(numberOf(expr("M * 2"), resolve), undefined);
  });
});

Deno.test("textOf() writes an expression as source, shortened past 80 characters", () => {
  assert.equal(
    textOf(expr("st.integers(0, 10)")),
    "hypothesis.strategies.integers(0,10)",
  );
  const long = textOf(expr(`f(${"x, ".repeat(40)}y)`));
  assert.equal(long.length, 80);
  assert.ok(long.endsWith("..."));
  const exact = textOf(expr(`f(${"x".repeat(77)})`));
  assert.equal(exact, `f(${"x".repeat(77)})`);
});

Deno.test("ExprComparison places a difference where the head writes it", async (t) => {
  const where = (
    base: Record<string, string>,
    head: Record<string, string>,
  ) => {
    const b = sideOf(base);
    const h = sideOf(head);
    const found = new ExprComparison(b, h).compare(
      placed(b),
      placed(h),
      "widening",
    );
    return found === undefined ? undefined : `${found.path}:${found.line}`;
  };
  // Each file starts with the strategies import on line 1.
  await t.step("a narrowed bound: the head's line of it", () => {
    assert.equal(
      where(
        { [PATH]: "S = st.integers(0, 10)\n" },
        { [PATH]: "\n\nS = st.integers(\n    0,\n    5,\n)\n" },
      ),
      `${PATH}:4`,
    );
  });
  await t.step("a name defined anew: its definition", () => {
    assert.equal(
      where(
        { [PATH]: "S = NUMBERS\n" },
        { [PATH]: "\nNUMBERS = st.integers()\nS = NUMBERS\n" },
      ),
      `${PATH}:3`,
    );
  });
  await t.step("a name defined anew in another module: there", () => {
    const files = (strategies: string) => ({
      [PATH]: "import tests.strategies\nS = tests.strategies.NUMBERS\n",
      "tests/strategies.py": strategies,
    });
    assert.equal(
      where(files("OTHER = 1\n"), files("\nNUMBERS = st.integers()\n")),
      "tests/strategies.py:3",
    );
  });
  await t.step("a name no longer defined: where the head uses it", () => {
    assert.equal(
      where(
        { [PATH]: "NUMBERS = st.integers()\nS = NUMBERS\n" },
        { [PATH]: "\n\nS = NUMBERS\n" },
      ),
      `${PATH}:4`,
    );
  });
  await t.step("a function whose body changed: its definition", () => {
    const module = (x: number, blank: string) =>
      `${blank}def make():\n    x = ${x}\n    return st.integers(0, x)\nS = make()\n`;
    assert.equal(
      where({ [PATH]: module(1, "") }, { [PATH]: module(2, "\n") }),
      `${PATH}:3`,
    );
  });
  await t.step("a constant narrowed in another module: that module", () => {
    const base = {
      [PATH]: "from tests.strategies import NUMBERS\nS = NUMBERS\n",
      "tests/strategies.py": "NUMBERS = st.integers(0, 10)\n",
    };
    const head = {
      ...base,
      "tests/strategies.py": "\nNUMBERS = st.integers(0, 5)\n",
    };
    assert.equal(where(base, head), "tests/strategies.py:3");
  });
});

Deno.test("ExprComparison counts each step it follows toward the depth it gives up at", async (t) => {
  const lists = (n: number) =>
    `${"st.lists(".repeat(n)}st.integers()${")".repeat(n)}`;
  const calls = (n: number) => `${"f(".repeat(n)}x${")".repeat(n)}`;
  // `A0 = st.integers()`, `A1 = A0`, ...: `n` names, `A<n-1>` the last.
  const chain = (n: number) =>
    Array.from(
      { length: n },
      (_, i) => i === 0 ? "A0 = st.integers()" : `A${i} = A${i - 1}`,
    ).join("\n");
  const make = (n: number) =>
    `${chain(n)}\ndef make():\n    x = A${n - 1}\n    return x`;
  const cases: [
    string,
    (n: number) => [string, string, Direction],
    number,
    RegExp,
  ][] = [
    [
      "lists inside lists, with equal",
      (n) => [S(lists(n)), S(lists(n)), "equal"],
      11,
      /^the expression nests too deep to compare$/,
    ],
    [
      "a chain of constants on both sides",
      (n) => [S(`A${n - 1}`, chain(n)), S(`A${n - 1}`, chain(n)), "widening"],
      23,
      /^the expression nests too deep to compare$/,
    ],
    [
      "a constant at head written inline at base",
      (n) => [S(lists(n)), S("N", `N = ${lists(n)}`), "widening"],
      22,
      /^the expression nests too deep to compare$/,
    ],
    [
      "a helper inlined",
      (n) => [
        S("h()", `def h():\n    return ${lists(n)}`),
        S(lists(n)),
        "widening",
      ],
      22,
      /^the expression nests too deep to compare$/,
    ],
    [
      "a filter dropped",
      (n) => [S(`${lists(n)}.filter(f)`), S(lists(n)), "widening"],
      22,
      /^the expression nests too deep to compare$/,
    ],
    [
      "an alternative added",
      (n) => [S(lists(n)), S(`${lists(n)} | st.none()`), "widening"],
      22,
      /is not/,
    ],
    [
      "a bound that is not a number",
      (n) => [
        S(`st.integers(0, ${calls(n)})`),
        S(`st.integers(0, ${calls(n)})`),
        "widening",
      ],
      11,
      /^max_value changed from/,
    ],
    [
      "a constant an unchanged function reads, through a chain",
      (n) => [S("make()", make(n)), S("make()", make(n)), "widening"],
      20,
      /^the expression nests too deep to compare$/,
    ],
  ];
  for (const [name, build, deepest, beyond] of cases) {
    await t.step(`${name}: ${deepest} deep compared, one more not`, () => {
      assert.equal(why(...build(deepest)), undefined);
      const got = why(...build(deepest + 1));
      assert.ok(got !== undefined, "a difference");
      assert.match(got, beyond);
    });
  }
});

Deno.test("ExprComparison with `equal` compares what is nested in a call or a literal with `equal` too", async (t) => {
  await table(t, [
    [
      "a wider bound of a strategy inside another",
      S("st.lists(st.integers(0, 10))"),
      S("st.lists(st.integers(0, 11))"),
      /^11 is not 10$/,
    ],
    [
      "a wider bound of a strategy inside a list literal",
      S("[st.integers(0, 10)]"),
      S("[st.integers(0, 11)]"),
      /^11 is not 10$/,
    ],
    [
      "an argument added",
      S("st.tuples(st.integers())"),
      S("st.tuples(st.integers(), st.none())"),
      /^\(hypothesis\.strategies\.integers\(\),hypothesis\.strategies\.none\(\)\) is not \(hypothesis\.strategies\.integers\(\)\)$/,
    ],
    [
      "a comparison cut short",
      S("st.integers().filter(lambda n: 0 < n < 10)"),
      S("st.integers().filter(lambda n: 0 < n)"),
      /^0<n is not 0<n<10$/,
    ],
    [
      "a list made a tuple",
      S("[1, 2]"),
      S("(1, 2)"),
      /^\(1,2\) is not \[1,2\]$/,
    ],
  ], "equal");
});

Deno.test("ExprComparison compares as written what it cannot read as a strategy's arguments", async (t) => {
  await table(t, [
    [
      "a * splat added",
      S("st.integers(0, 10)"),
      S("st.integers(*BOUNDS)"),
      /^\(\*BOUNDS\) is not \(0,10\)$/,
    ],
    [
      "a * splat dropped",
      S("st.integers(*BOUNDS)"),
      S("st.integers(0, 10)"),
      /^\(0,10\) is not \(\*BOUNDS\)$/,
    ],
    [
      "a bound after a * splat, which may not be the one its place names",
      S("st.integers(*LOW, 10)"),
      S("st.integers(*LOW, 20)"),
      /^20 is not 10$/,
    ],
    [
      "a generator argument",
      S("st.sampled_from(c for c in A)"),
      S("st.sampled_from(c for c in B)"),
      /^"B" is not "A"$/,
    ],
    [
      "a bound that became a number",
      S("st.integers(0, limit())"),
      S("st.integers(0, 10)"),
      /^max_value changed from limit\(\) to 10$/,
    ],
    [
      "a bound that stopped being a number",
      S("st.integers(0, 10)"),
      S("st.integers(0, limit())"),
      /^max_value changed from 10 to limit\(\)$/,
    ],
    [
      "a bound through a name assigned twice, unchanged",
      S("st.integers(0, MAX)", "MAX = 5\nMAX = 10"),
      S("st.integers(0, MAX)", "MAX = 5\nMAX = 10"),
      undefined,
    ],
    [
      "a bound through a name assigned twice, changed",
      S("st.integers(0, MAX)", "MAX = 5\nMAX = 10"),
      S("st.integers(0, MAX)", "MAX = 5\nMAX = 9"),
      /^max_value changed from MAX to MAX$/,
    ],
    [
      "a value turned into a call",
      S("st.just([1])"),
      S("st.just(f(1))"),
      /^f\(1\) is not \[1\]$/,
    ],
    [
      "a call turned into a value",
      S("st.just(f(1))"),
      S("st.just([1])"),
      /^\[1\] is not f\(1\)$/,
    ],
    [
      "a value or-ed with another",
      S("st.builds(f, 5)"),
      S("st.builds(f, 5 | 6)"),
      /^5\|6 is not 5$/,
    ],
    [
      "a value with another added to it",
      S("st.just((1, 2))"),
      S("st.just((1, 2) + (3,))"),
      /^\(1,2\)\+\(3,\) is not \(1,2\)$/,
    ],
    [
      "a map dropped",
      S("st.integers().map(str)"),
      S("st.integers()"),
      /is not/,
    ],
  ]);
});

Deno.test("ExprComparison reads the arguments of a strategy from a module it does not know by the strategy's last name", async (t) => {
  await table(t, [
    [
      "a bound widened",
      S("mystrats.integers(0, 10)"),
      S("mystrats.integers(0, 20)"),
      undefined,
    ],
    [
      "a bound narrowed",
      S("mystrats.integers(0, 10)"),
      S("mystrats.integers(0, 5)"),
      /^max_value narrowed from 10 to 5$/,
    ],
  ]);
});

Deno.test("ExprComparison compares the widening forms by what they draw from", async (t) => {
  await table(t, [
    [
      "the same filter on both sides",
      S("st.integers().filter(f)"),
      S("st.integers().filter(f)"),
      undefined,
    ],
    [
      "a widened strategy with an alternative added",
      S("st.integers(0, 10)"),
      S("st.integers(0, 20) | st.none()"),
      undefined,
    ],
    [
      "sampled_from of nothing, unchanged",
      S("st.sampled_from()"),
      S("st.sampled_from()"),
      undefined,
    ],
    [
      "sampled_from of nothing given choices",
      S("st.sampled_from()"),
      S("st.sampled_from([1])"),
      /^the sampled_from choices changed$/,
    ],
    [
      "sampled_from of a literal made of something else",
      S("st.sampled_from([1, 2])"),
      S("st.sampled_from(Colour)"),
      /^the sampled_from choices changed$/,
    ],
    [
      "sampled_from of something else made a literal",
      S("st.sampled_from(Colour)"),
      S("st.sampled_from([1, 2])"),
      /^the sampled_from choices changed$/,
    ],
  ]);
});

Deno.test("ExprComparison inlines a helper on either side, where its arguments mean the same", async (t) => {
  const helper = "def names(size):\n    return st.text(max_size=size)";
  await table(t, [
    [
      "the helper used at head only, narrower",
      S("st.text(max_size=5)", helper),
      S("names(4)", helper),
      /^max_size narrowed from 5 to 4$/,
    ],
    [
      "the helper used at head only, wider",
      S("st.text(max_size=5)", helper),
      S("names(6)", helper),
      undefined,
    ],
    [
      "a constant of the helper's module as the argument, narrowed",
      S("names(LIMIT)", `${helper}\nLIMIT = 5`),
      S("names(LIMIT)", `${helper}\nLIMIT = 4`),
      /^max_size narrowed from LIMIT \(5\) to LIMIT \(4\)$/,
    ],
    [
      "a constant of the helper's module as the argument, widened",
      S("names(LIMIT)", `${helper}\nLIMIT = 5`),
      S("names(LIMIT)", `${helper}\nLIMIT = 6`),
      undefined,
    ],
    [
      "a * splat as the argument, unchanged",
      S("names(*A)", helper),
      S("names(*A)", helper),
      undefined,
    ],
    [
      "a * splat as the argument, changed",
      S("names(*A)", helper),
      S("names(*B)", helper),
      /^"B" is not "A"$/,
    ],
  ]);
  // The helper's first argument is narrowed; where a binder inside it takes
  // the parameter's name again, the call is compared as written instead.
  const rebinding: [string, RegExp][] = [
    ["lambda n: n", /^4 is not 5$/],
    ["lambda m, n: m", /^4 is not 5$/],
    ["lambda m, n=1: m", /^4 is not 5$/],
    ["[n for n, _ in P]", /^4 is not 5$/],
    ["[m for m in range(n)]", /^max_value narrowed from 5 to 4$/],
  ];
  for (const [binder, want] of rebinding) {
    await t.step(`a helper returning ${binder}`, () => {
      const top =
        `def f(n):\n    return st.tuples(st.integers(0, n), st.just(${binder}))`;
      assert.match(why(S("f(5)", top), S("f(4)", top))!, want);
    });
  }
  await t.step(
    "an unknown keyword to a helper of another module is compared as written",
    () => {
      const files = (arg: string) => ({
        [PATH]: S(`names(${arg})`, "from tests.strategies import names"),
        "tests/strategies.py": helper,
      });
      assert.equal(why(files("other=4"), files("other=4")), undefined);
      assert.match(why(files("other=5"), files("other=4"))!, /^4 is not 5$/);
    },
  );
});

Deno.test("ExprComparison compares definitions that are not one plain assignment by their source and what they read", async (t) => {
  await table(t, [
    [
      "a name assigned twice made one assignment",
      S("NUMBERS", "NUMBERS = st.integers()\nNUMBERS = st.integers()"),
      S("NUMBERS", "NUMBERS = st.integers()"),
      /^the definition of "NUMBERS" changed$/,
    ],
    [
      "one assignment made two",
      S("NUMBERS", "NUMBERS = st.integers()"),
      S("NUMBERS", "NUMBERS = st.integers()\nNUMBERS = st.integers()"),
      /^the definition of "NUMBERS" changed$/,
    ],
    [
      "a function kept as it was, the second constant it reads changed",
      S(
        "make()",
        "A = 1\nB = 1\ndef make():\n    x = A\n    y = B\n    return st.integers(x, y)",
      ),
      S(
        "make()",
        "A = 1\nB = 2\ndef make():\n    x = A\n    y = B\n    return st.integers(x, y)",
      ),
      /^2 is not 1$/,
    ],
  ]);
  await t.step(
    "a constant an unchanged function reads, gone: placed at the function",
    () => {
      const module = (top: string) =>
        `${top}\n\ndef make():\n    x = LIMIT\n    return st.integers(0, x)\nS = make()\n`;
      const b = sideOf({ [PATH]: module("LIMIT = 1") });
      const h = sideOf({ [PATH]: module("") });
      const found = new ExprComparison(b, h).compare(
        placed(b),
        placed(h),
        "widening",
      );
      assert.deepEqual(found, {
        path: PATH,
        line: 4,
        why: '"LIMIT" no longer resolves',
      });
    },
  );
});

/** Strategies written the one way each structure is written. */
const strategyArb: fc.Arbitrary<string> = fc.letrec<{ s: string }>((tie) => ({
  s: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.constantFrom("st.none()", "st.booleans()", "st.text()"),
    fc.tuple(fc.integer({ min: -9, max: 9 }), fc.integer({ min: 0, max: 9 }))
      .map(([low, span]) => `st.integers(${low}, ${low + span})`),
    fc.uniqueArray(fc.integer({ min: 0, max: 9 }), {
      minLength: 1,
      maxLength: 4,
    }).map((xs) => `st.sampled_from([${xs.join(", ")}])`),
    tie("s").map((s) => `st.lists(${s}, max_size=3)`),
    tie("s").map((s) => `${s}.filter(f)`),
    tie("s").map((s) => `${s}.map(g)`),
    fc.tuple(tie("s"), tie("s")).map(([a, b]) => `${a} | ${b}`),
    fc.tuple(tie("s"), tie("s")).map(([a, b]) => `st.one_of(${a}, ${b})`),
    fc.tuple(tie("s"), tie("s")).map(([a, b]) => `st.tuples(${a}, ${b})`),
  ),
})).s;

Deno.test("ExprComparison finds no difference between a strategy and itself, widening or equal", () => {
  fc.assert(
    fc.property(
      strategyArb,
      fc.constantFrom<Direction>("widening", "equal"),
      (strategy, direction) => {
        assert.equal(why(S(strategy), S(strategy), direction), undefined);
      },
    ),
  );
});

/** Places a strategy may sit in, the same on both sides. */
const contexts: ((s: string) => string)[] = [
  (s) => s,
  (s) => `st.lists(${s})`,
  (s) => `st.tuples(st.none(), ${s})`,
  (s) => `st.builds(make, [${s}])`,
  (s) => `st.dictionaries(st.text(), ${s})`,
];

Deno.test("ExprComparison takes looser bounds as a widening and tighter ones, its mirror image, as a narrowing, wherever the strategy sits", () => {
  const bounds = fc.tuple(
    fc.integer({ min: -5, max: 5 }),
    fc.integer({ min: 5, max: 15 }),
  );
  fc.assert(
    fc.property(
      fc.array(fc.nat({ max: contexts.length - 1 }), { maxLength: 3 }),
      bounds,
      bounds,
      (around, [bLow, bHigh], [hLow, hHigh]) => {
        const at = (low: number, high: number) =>
          S(
            around.reduce(
              (s, i) => contexts[i]!(s),
              `st.integers(${low}, ${high})`,
            ),
          );
        const base = at(bLow, bHigh);
        const head = at(hLow, hHigh);
        const wider = hLow <= bLow && hHigh >= bHigh;
        const narrower = bLow <= hLow && bHigh >= hHigh;
        assert.equal(why(base, head) === undefined, wider);
        // The same change backwards is judged as its mirror image.
        assert.equal(why(head, base) === undefined, narrower);
        assert.equal(
          why(base, head, "equal") === undefined,
          wider && narrower,
        );
      },
    ),
  );
});

Deno.test("ExprComparison takes sampled_from at head as wide exactly when it keeps every choice of the base", () => {
  const choices = fc.uniqueArray(fc.integer({ min: 0, max: 6 }), {
    minLength: 1,
    maxLength: 5,
  });
  fc.assert(
    fc.property(choices, choices, (was, is) => {
      const keeps = was.every((choice) => is.includes(choice));
      assert.equal(
        why(
          S(`st.sampled_from([${was.join(", ")}])`),
          S(`st.sampled_from((${is.join(", ")},))`),
        ) === undefined,
        keeps,
      );
    }),
  );
});

Deno.test("ExprComparison takes only a called `.filter` of a call as a filter dropped", async (t) => {
  await table(t, [
    ["a filter dropped", S("make().filter(f)"), S("make()"), undefined],
    [
      "a filter method taken but not called",
      S("make().filter[0]"),
      S("make()"),
      /^make\(\) is not make\(\)\.filter\[0\]$/,
    ],
    [
      "the builtin filter picked by a condition",
      S("(make() if c else filter)(f)"),
      S("make()"),
      /is not/,
    ],
    [
      "a filter dropped from a literal",
      S('st.just("ab".filter(f))'),
      S('st.just("ab")'),
      /^"ab" is not "ab"\.filter\(f\)$/,
    ],
  ]);
});

Deno.test("ExprComparison finds a changed definition again each time it is asked, not only the first", () => {
  // `S` reads `X` inside a list, `T` reads it as it is: two ways to reach it.
  const module = (value: number) =>
    S("[X]", `X = st.integers(0, ${value})\nT = X`);
  const b = sideOf({ [PATH]: module(5) });
  const h = sideOf({ [PATH]: module(6) });
  const assigned = (side: NameSide, name: string) => {
    const module = side.modules.get(PATH)!;
    const expr = module.definitions?.get(name)?.expr;
    assert.ok(expr !== undefined, `${name} has one plain assignment`);
    return { expr, at: { path: PATH, module } };
  };
  const comparison = new ExprComparison(b, h);
  for (const name of ["S", "T", "S", "X"]) {
    assert.equal(
      comparison.compare(assigned(b, name), assigned(h, name), "equal")?.why,
      "6 is not 5",
      name,
    );
  }
});
