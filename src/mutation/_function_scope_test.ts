import assert from "node:assert/strict";
import { loadPythonParser } from "../python/load_python_parser.ts";
import { functionScope, moduleScope } from "./_function_scope.ts";

const parser = await loadPythonParser();

/** The own-scope facts of the file's first top-level function, as plain data. */
function scopeOf(text: string) {
  return parser.withTree(text, (tree) => {
    const fn = tree.rootNode.namedChildren.find((n) =>
      n?.type === "function_definition"
    );
    assert.ok(fn !== undefined && fn !== null, "no function");
    const scope = functionScope(fn);
    return {
      bound: [...new Set(scope.bindings.map((b) => b.name))].sort(),
      yields: scope.yields.map((y) => text.slice(y.start, y.end)).sort(),
      declarations: scope.declarations.map((d) => d.text),
      declared: [...scope.declared].sort(),
      isAsync: scope.isAsync,
    };
  });
}

Deno.test("functionScope() finds every name the function binds in its own scope", async (t) => {
  const cases: [string, string, string[]][] = [
    [
      "parameters of every kind",
      "def f(a, b=1, *c, d: int = 2, **e):\n    pass\n",
      ["a", "b", "c", "d", "e"],
    ],
    [
      "starred parameters with annotations",
      "def f(*a: int, b, **c: str):\n    pass\n",
      ["a", "b", "c"],
    ],
    [
      "plain, augmented and unpacking assignments",
      "def f():\n    a = 1\n    b += 1\n    c, (d, [e, *g]) = h\n",
      ["a", "b", "c", "d", "e", "g"],
    ],
    ["a walrus", "def f(x):\n    if (n := x):\n        pass\n", ["n", "x"]],
    [
      "a for loop's targets",
      "def f(xs):\n    for i, j in xs:\n        pass\n",
      ["i", "j", "xs"],
    ],
    [
      "a comprehension's walrus binds here, its target does not",
      "def f(xs):\n    return [y for v in xs if (y := v)]\n",
      ["xs", "y"],
    ],
    [
      "a walrus in a comprehension's iterable binds here",
      "def f():\n    return [v for v in (ys := [1])]\n",
      ["ys"],
    ],
    [
      "with ... as, and except ... as",
      "def f():\n    with open('x') as fh:\n        pass\n    try:\n        pass\n    except OSError as err:\n        pass\n",
      ["err", "fh"],
    ],
    ["a del", "def f():\n    del a, b\n", ["a", "b"]],
    ["a del of a parenthesized name", "def f():\n    del (a)\n", ["a"]],
    ["a del of a list of names", "def f():\n    del [a, b]\n", ["a", "b"]],
    [
      "with ... as a list of names",
      "def f():\n    with x as [a, b]:\n        pass\n",
      ["a", "b"],
    ],
    [
      "with ... as a tuple with a starred name",
      "def f():\n    with x as (a, *b):\n        pass\n",
      ["a", "b"],
    ],
    [
      "imports: the first name of a dotted one, and aliases",
      "def f():\n    import os.path\n    import json as j\n    from m import a, b as c\n",
      ["a", "c", "j", "os"],
    ],
    [
      "a nested def and class bind their names, not their bodies' names",
      "def f():\n    def g(p):\n        q = 1\n    class C:\n        r = 2\n",
      ["C", "g"],
    ],
    [
      "a lambda binds nothing here, but its defaults run here",
      "def f():\n    return lambda p=(d := 1): p\n",
      ["d"],
    ],
    [
      "a nested def's defaults and annotations run here",
      "def f():\n    def g(p=(a := 1)) -> (b := int):\n        pass\n",
      ["a", "b", "g"],
    ],
    [
      "a walrus inside a yielded value",
      "def f():\n    yield (n := 1)\n",
      ["n"],
    ],
    [
      "a nested class's bases run here",
      "def f():\n    class C((b := object)):\n        r = 2\n",
      ["C", "b"],
    ],
    [
      "captures of a match statement's patterns",
      "def f(v):\n    match v:\n        case [x, *rest]:\n            pass\n        case P(k=w):\n            pass\n        case {'a': z} as whole:\n            pass\n",
      ["rest", "v", "w", "whole", "x", "z"],
    ],
    [
      "a bare capture pattern of a match statement",
      "def f(v):\n    match v:\n        case other:\n            pass\n",
      ["other", "v"],
    ],
    [
      "positional-only and keyword-only markers bind nothing",
      "def f(a, /, b, *, c):\n    pass\n",
      ["a", "b", "c"],
    ],
    [
      "an attribute or a subscript as a target binds nothing",
      "def f():\n    a.b = 1\n    c[0] += 2\n    for d.e in []:\n        pass\n",
      [],
    ],
    [
      "a walrus in an assignment's value, an augmented one's, or another walrus",
      "def f():\n    a = (b := 1)\n    c += (d := 2)\n    (e := (g := 3))\n",
      ["a", "b", "c", "d", "e", "g"],
    ],
    [
      "a walrus in a for loop's iterable or a del's subscript",
      "def f(a):\n    for x in (ys := []):\n        pass\n    del a[(i := 0)]\n",
      ["a", "i", "x", "ys"],
    ],
    [
      "a value pattern of a match statement binds nothing",
      "def f(v):\n    match v:\n        case Color.RED:\n            pass\n",
      ["v"],
    ],
  ];
  for (const [name, text, bound] of cases) {
    await t.step(name, () => {
      assert.deepEqual(scopeOf(text).bound, bound);
    });
  }
});

Deno.test("functionScope() finds the function's own yields, declarations and async", async (t) => {
  await t.step("yields of this scope only", () => {
    const s = scopeOf(
      "def f(x):\n    yield x\n    y = yield\n    def g():\n        yield 1\n    return (lambda: (yield))\n",
    );
    assert.deepEqual(s.yields, ["yield", "yield x"]);
  });
  await t.step("global and nonlocal statements, in text order", () => {
    const s = scopeOf(
      "def f():\n    global b, a\n    if x:\n        nonlocal c\n    def g():\n        global d\n",
    );
    assert.deepEqual(s.declarations, ["global b, a", "nonlocal c"]);
    assert.deepEqual(s.declared, ["a", "b", "c"]);
  });
  await t.step("async def", () => {
    assert.equal(scopeOf("async def f():\n    pass\n").isAsync, true);
    assert.equal(scopeOf("def f():\n    pass\n").isAsync, false);
  });
});

Deno.test("moduleScope() finds the names the module binds at its own level", () => {
  const text =
    "import os\nA = 1\nif A:\n    B = 2\nfor C in []:\n    pass\ndef f():\n    D = 3\nclass K:\n    E = 4\n";
  const names = parser.withTree(
    text,
    (
      tree,
    ) => [...new Set(moduleScope(tree.rootNode).bindings.map((b) => b.name))],
  );
  assert.deepEqual(names.sort(), ["A", "B", "C", "K", "f", "os"]);
});

Deno.test("functionScope() records each binding once, at the name that binds it", () => {
  const text =
    "def f(p, q=1):\n    a, (b, c) = 1, (2, 3)\n    with x as (d, e):\n        pass\n    match v:\n        case [g, *h] as k:\n            pass\n    import m.n as o\n    from r import s as t\n";
  const places = parser.withTree(text, (tree) => {
    const fn = tree.rootNode.namedChildren.find((n) =>
      n?.type === "function_definition"
    );
    assert.ok(fn !== undefined && fn !== null);
    return functionScope(fn).bindings.map((b) => {
      assert.equal(text.slice(b.start, b.end), b.name);
      return `${b.name}@${b.start}`;
    });
  });
  assert.deepEqual(
    places.toSorted(),
    [...new Set(places)].toSorted(),
    "no place twice",
  );
  assert.deepEqual(
    places.map((p) => p.split("@")[0]).toSorted(),
    ["a", "b", "c", "d", "e", "g", "h", "k", "o", "p", "q", "t"],
  );
});

Deno.test("moduleScope() records only bindings, and no yield or async of its own", () => {
  const scope = parser.withTree("A = 1\n", (tree) => {
    const s = moduleScope(tree.rootNode);
    return {
      bindings: s.bindings.map((b) => b.name),
      yields: s.yields,
      declarations: s.declarations.length,
      declared: [...s.declared],
      isAsync: s.isAsync,
    };
  });
  assert.deepEqual(scope, {
    bindings: ["A"],
    yields: [],
    declarations: 0,
    declared: [],
    isAsync: false,
  });
});
