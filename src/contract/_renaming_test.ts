import assert from "node:assert/strict";
import { analyzePython } from "../python/analyze_python.ts";
import { loadPythonParser } from "../python/load_python_parser.ts";
import type { PythonExpr } from "../python/python_module.ts";
import { Renaming, type RenamingScope } from "./_renaming.ts";

const parser = await loadPythonParser();

const HEADER = "from shop import Invoice, total\n\nLIMIT = 3\nCAP = 5\n\n";

/**
 * `def f(<params>):` with `body`, whose last statement is an `assert`:
 * its condition, and the function as a renaming scope. The parameters
 * named in `slots` may be renamed, each kept to its slot.
 */
function side(
  params: string,
  body: string,
  slots: readonly string[] = [],
): { claim: PythonExpr; scope: RenamingScope } {
  const text = `${HEADER}def f(${params}):\n${
    body.trim().split("\n").map((l) => `    ${l}`).join("\n")
  }\n`;
  const fn = analyzePython(parser, text).functions.get("f");
  const claim = fn?.assertions?.at(-1)?.claim;
  assert.ok(fn !== undefined && claim !== undefined, text);
  const names = fn.scope?.params ?? [];
  return {
    claim,
    scope: {
      id: "f",
      scope: fn.scope,
      params: new Map(
        names.flatMap((p, i) => slots.includes(p) ? [[p, `p${i}`]] : []),
      ),
    },
  };
}

function same(
  base: ReturnType<typeof side>,
  head: ReturnType<typeof side>,
  renaming = new Renaming(),
): boolean {
  return renaming.same(base.claim, head.claim, {
    base: base.scope,
    head: head.scope,
  });
}

Deno.test("Renaming.same() follows a consistent renaming of a function's own names, and only of those", async (t) => {
  const slots = ["a", "b", "x", "y"];
  const cases: [string, [string, string], [string, string], boolean][] = [
    ["the same spelling", ["a", "assert a > 0"], ["a", "assert a > 0"], true],
    [
      "a local spelled like a module constant, read as that constant at head",
      ["a", "LIMIT = Invoice(a)\nassert total(LIMIT, LIMIT)"],
      ["a", "w = Invoice(a)\nassert total(LIMIT, w)"],
      false,
    ],
    [
      "a local spelled like a module constant, kept alike",
      ["a", "LIMIT = Invoice(a)\nassert total(LIMIT, LIMIT)"],
      ["a", "LIMIT = Invoice(a)\nassert total(LIMIT, LIMIT)"],
      true,
    ],
    [
      "a local renamed, bound alike",
      ["a", "v = Invoice(a)\nassert v.total == a"],
      ["a", "w = Invoice(a)\nassert w.total == a"],
      true,
    ],
    [
      "a local renamed, bound to something else",
      ["a", "v = Invoice(a)\nassert v.total == a"],
      ["a", "w = Invoice(a + 1)\nassert w.total == a"],
      false,
    ],
    [
      "a local renamed, bound alike once but once more at the head",
      ["a", "v = Invoice(a)\nassert v.total == a"],
      ["a", "w = Invoice(a)\nw = Invoice(a)\nassert w.total == a"],
      false,
    ],
    [
      "a local renamed to a module-level name",
      ["a", "v = Invoice(a)\nassert v == a"],
      ["a", "v = Invoice(a)\nassert LIMIT == a"],
      false,
    ],
    [
      "a module-level name renamed to a local",
      ["a", "v = Invoice(a)\nassert LIMIT == a"],
      ["a", "v = Invoice(a)\nassert v == a"],
      false,
    ],
    [
      "a module-level name renamed to another",
      ["a", "assert LIMIT == a"],
      ["a", "assert Invoice == a"],
      false,
    ],
    [
      "a parameter renamed in its slot",
      ["a, b", "assert a > b"],
      ["x, b", "assert x > b"],
      true,
    ],
    [
      "parameters swapped with their slots",
      ["a, b", "assert a > b"],
      ["b, a", "assert b > a"],
      true,
    ],
    [
      "a parameter renamed to one in another slot",
      ["a, b", "assert a > 0"],
      ["a, b", "assert b > 0"],
      false,
    ],
    [
      "a parameter kept as spelled in another slot",
      ["a, b", "assert a > 0"],
      ["b, a", "assert a > 0"],
      false,
    ],
    [
      "a parameter renamed to a local",
      ["a", "v = a\nassert a > 0"],
      ["a", "v = a\nassert v > 0"],
      false,
    ],
    [
      "a pytest fixture renamed: it is found by name",
      ["tmp", "assert tmp.exists()"],
      ["path", "assert path.exists()"],
      false,
    ],
    [
      "an attribute's name changed",
      ["a", "v = Invoice(a)\nassert v.total == a"],
      ["a", "v = Invoice(a)\nassert v.paid == a"],
      false,
    ],
    [
      "an attribute's name changed after a call",
      ["a", "assert Invoice(a).total == a"],
      ["a", "assert Invoice(a).paid == a"],
      false,
    ],
    [
      "a keyword's name changed",
      ["a", "assert total(a, start=1) > 0"],
      ["a", "assert total(a, begin=1) > 0"],
      false,
    ],
    [
      "a keyword's value renamed with its local",
      ["a", "v = Invoice(a)\nassert total(a, start=v) > 0"],
      ["a", "w = Invoice(a)\nassert total(a, start=w) > 0"],
      true,
    ],
    [
      "two locals made one",
      ["a", "v = Invoice(a)\nw = Invoice(a)\nassert total(v, w) > 0"],
      ["a", "v = Invoice(a)\nw = Invoice(a)\nassert total(v, v) > 0"],
      false,
    ],
    [
      "one local made two",
      ["a", "v = Invoice(a)\nw = Invoice(a)\nassert total(v, v) > 0"],
      ["a", "v = Invoice(a)\nw = Invoice(a)\nassert total(v, w) > 0"],
      false,
    ],
    [
      "a lambda's parameters renamed",
      ["a", "assert sorted([a], key=lambda v, w=1: v * w)"],
      ["a", "assert sorted([a], key=lambda p, q=1: p * q)"],
      true,
    ],
    [
      "a lambda's parameters swapped in its body",
      ["a", "assert sorted([a], key=lambda v, w: v - w)"],
      ["a", "assert sorted([a], key=lambda v, w: w - v)"],
      false,
    ],
    [
      "a lambda's parameter default read outside it, renamed with its local",
      ["a", "v = Invoice(a)\nassert sorted([a], key=lambda p=v: p)"],
      ["a", "w = Invoice(a)\nassert sorted([a], key=lambda p=w: p)"],
      true,
    ],
    [
      "a lambda's parameter turned into the enclosing function's",
      ["a", "assert sorted([a], key=lambda v: v)"],
      ["a", "assert sorted([a], key=lambda v: a)"],
      false,
    ],
    [
      "a comprehension's variable renamed",
      ["a", "assert all(v > 0 for v in [a])"],
      ["a", "assert all(w > 0 for w in [a])"],
      true,
    ],
    [
      "a comprehension's iterable renamed with its local",
      ["a", "vs = [a]\nassert all(v > 0 for v in vs)"],
      ["a", "ws = [a]\nassert all(v > 0 for v in ws)"],
      true,
    ],
    [
      "a comprehension's iterable changed",
      ["a", "assert all(v > 0 for v in [a])"],
      ["a", "assert all(v > 0 for v in [a, a])"],
      false,
    ],
    [
      "a comprehension's two variables swapped in its body",
      ["a", "assert all(v < w for v, w in [(a, a)])"],
      ["a", "assert all(w < v for v, w in [(a, a)])"],
      false,
    ],
    [
      "a comprehension's variable bound twice, alike",
      ["a", "assert all(v for v in [a] for v in [v])"],
      ["a", "assert all(w for w in [a] for w in [w])"],
      true,
    ],
    [
      "a comprehension's variable bound twice, then two names",
      ["a", "assert all(v for v in [a] for v in [v])"],
      ["a", "assert all(w for w in [a] for u in [w])"],
      false,
    ],
    [
      "a comprehension with a variable fewer",
      ["a", "assert all(v for v, w in [(a, a)])"],
      ["a", "assert all(v for v in [(a, a)])"],
      false,
    ],
    [
      "a comprehension's variable that is also a local, renamed with it",
      ["a", "v = a\nassert all(v > 0 for v in [a])"],
      ["a", "w = a\nassert all(w > 0 for w in [a])"],
      true,
    ],
    [
      "a lambda's parameter renamed, and the same names read after it",
      ["a", "assert (lambda p: p)(a) == p"],
      ["a", "assert (lambda q: q)(a) == q"],
      false,
    ],
    [
      "a lambda's default changed from one module-level name to another",
      ["a", "assert sorted([a], key=lambda p=LIMIT: p)"],
      ["a", "assert sorted([a], key=lambda p=CAP: p)"],
      false,
    ],
    [
      "a comparison chained further",
      ["a, b", "assert a < b"],
      ["a, b", "assert a < b < 2"],
      false,
    ],
    [
      "an attribute of a call renamed with its local",
      ["a", "v = Invoice(a)\nassert total(v).paid"],
      ["a", "w = Invoice(a)\nassert total(w).paid"],
      true,
    ],
    [
      "a keyword named like a renamed local keeps its name",
      ["a", "v = Invoice(a)\nassert total(v, v=1)"],
      ["a", "w = Invoice(a)\nassert total(w, v=1)"],
      true,
    ],
    [
      "a global renamed: it is not the function's own",
      ["a", "global G\nG = Invoice(a)\nassert G.paid"],
      ["a", "global H\nH = Invoice(a)\nassert H.paid"],
      false,
    ],
    [
      "a dotted module name's rest changed",
      ["a", "import os\nassert os.path.exists(a)"],
      ["a", "import os\nassert os.sep.exists(a)"],
      false,
    ],
  ];
  for (const [name, [bp, bb], [hp, hb], want] of cases) {
    await t.step(name, () => {
      const base = side(bp, bb, slots);
      const head = side(hp, hb, slots);
      assert.equal(same(base, head), want);
      // The renaming is a bijection: read from the head, it holds alike.
      assert.equal(same(head, base), want);
    });
  }
});

Deno.test("Renaming keeps each pairing it made until it is rolled back", async (t) => {
  const base = side("a", "v = Invoice(a)\nassert v.total == a");
  const toW = side("a", "w = Invoice(a)\nassert w.total == a");
  const toU = side("a", "u = Invoice(a)\nassert u.total == a");
  await t.step("a local paired once is paired for good", () => {
    const renaming = new Renaming();
    assert.equal(same(base, toW, renaming), true);
    assert.equal(same(base, toU, renaming), false);
  });
  await t.step("a pairing rolled back frees the local", () => {
    const renaming = new Renaming();
    const mark = renaming.mark();
    assert.equal(same(base, toW, renaming), true);
    renaming.rollback(mark);
    assert.equal(same(base, toU, renaming), true);
  });
  await t.step("a rollback keeps what was paired before its mark", () => {
    const renaming = new Renaming();
    assert.equal(same(base, toW, renaming), true);
    const mark = renaming.mark();
    renaming.rollback(mark);
    assert.equal(same(base, toU, renaming), false);
  });
  await t.step("a name kept as spelled is paired with itself", () => {
    const renaming = new Renaming();
    assert.equal(same(base, base, renaming), true);
    assert.equal(same(base, toW, renaming), false);
  });
  await t.step("pairings of one pair of functions bind no other pair", () => {
    const renaming = new Renaming();
    assert.equal(same(base, toW, renaming), true);
    const other = side("a", "v = Invoice(a)\nassert v.total == a");
    other.scope = { ...other.scope, id: "g" };
    const otherU = side("a", "u = Invoice(a)\nassert u.total == a");
    otherU.scope = { ...otherU.scope, id: "g" };
    assert.equal(same(other, otherU, renaming), true);
  });
});

Deno.test("Renaming.same() follows names a lambda or comprehension binds, within it and only there", async (t) => {
  const slots = ["a", "b", "x", "y"];
  const cases: [string, [string, string], [string, string], boolean][] = [
    [
      "a comprehension variable spelled like one of the function's locals, renamed within it, is the same test",
      ["a", "v = a\nassert all(v > 0 for v in [a])"],
      ["a", "v = a\nassert all(u > 0 for u in [a])"],
      true,
    ],
    [
      "a comprehension body reading the function's local in place of its own variable is not",
      ["a", "v = a\nassert all(w > 0 for w in [a])"],
      ["a", "v = a\nassert all(v > 0 for w in [a])"],
      false,
    ],
    [
      "a list comprehension's loop variable renamed alike in its body is the same test",
      ["a", "assert [v > 0 for v in [a]]"],
      ["a", "assert [w > 0 for w in [a]]"],
      true,
    ],
    [
      "a set comprehension's loop variable renamed alike in its body is the same test",
      ["a", "assert {v > 0 for v in [a]}"],
      ["a", "assert {w > 0 for w in [a]}"],
      true,
    ],
    [
      "a dictionary comprehension's loop variables renamed alike in its body are the same test",
      ["a", "assert {k: v for k, v in [(a, a)]}"],
      ["a", "assert {p: q for p, q in [(a, a)]}"],
      true,
    ],
    [
      "a comprehension's two loop variables renamed alike are the same test",
      ["a", "assert all(v < w for v, w in [(a, a)])"],
      ["a", "assert all(p < q for p, q in [(a, a)])"],
      true,
    ],
    [
      "an async comprehension's loop variable renamed alike is the same test",
      ["a", "assert [v async for v in a]"],
      ["a", "assert [w async for w in a]"],
      true,
    ],
    [
      "a comprehension's first iterable changed to another outer name, each spelled like its variable, is not",
      ["v, w", "assert all(v for v in v)"],
      ["v, w", "assert all(w for w in w)"],
      false,
    ],
    [
      "a lambda's parameter renamed, read alone in its body, is the same test",
      ["a", "assert sorted([a], key=lambda v: v)"],
      ["a", "assert sorted([a], key=lambda w: w)"],
      true,
    ],
    [
      "a lambda's parameter swapped with an outer name of the same spelling is not",
      ["a, v", "assert sorted([a], key=lambda v: v)"],
      ["a, v", "assert sorted([a], key=lambda u: v)"],
      false,
    ],
    [
      "a module-level name read in a lambda's body changed to another is not",
      ["a", "assert sorted([a], key=lambda p: p + LIMIT)"],
      ["a", "assert sorted([a], key=lambda p: p + CAP)"],
      false,
    ],
    [
      "an attribute named like a renamed local, renamed with it, is not",
      ["a", "v = Invoice(a)\nassert total(v).v"],
      ["a", "w = Invoice(a)\nassert total(w).w"],
      false,
    ],
    [
      "a local renamed, bound alike first and otherwise after, is not",
      ["a", "v = Invoice(a)\nv = total(v)\nassert v"],
      ["a", "w = Invoice(a)\nw = total(w, 1)\nassert w"],
      false,
    ],
  ];
  for (const [name, [bp, bb], [hp, hb], want] of cases) {
    await t.step(name, () => {
      const base = side(bp, bb, slots);
      const head = side(hp, hb, slots);
      assert.equal(same(base, head), want);
      assert.equal(same(head, base), want);
    });
  }
});

Deno.test("Renaming.same() follows a name bound twice in one comprehension only when it is bound twice alike", async (t) => {
  const cases: [string, [string, string], [string, string], boolean][] = [
    [
      "a variable bound twice, renamed so that the second iterable reads a name the later for binds, is not",
      ["a", "assert [v for v in a for v in [v]]"],
      ["a", "assert [w for u in a for w in [w]]"],
      false,
    ],
    [
      "two variables made one, the body reading the one the later for binds, is not",
      ["a", "assert [v for v in a for w in [a, a]]"],
      ["a", "assert [u for u in a for u in [a, a]]"],
      false,
    ],
  ];
  for (const [name, [bp, bb], [hp, hb], want] of cases) {
    await t.step(name, () => {
      const base = side(bp, bb);
      const head = side(hp, hb);
      assert.equal(same(base, head), want);
      assert.equal(same(head, base), want);
    });
  }
});

/** A leaf of the given type; `text` left out when undefined. */
function leaf(type: string, text?: string): PythonExpr {
  return text === undefined ? { type, line: 1 } : { type, line: 1, text };
}

/** An inner node of the given type. */
function node(type: string, ...children: PythonExpr[]): PythonExpr {
  return { type, line: 1, children };
}

Deno.test("Renaming.same() compares the nodes themselves: their type, leaf or node, and a leaf that is no name as spelled", async (t) => {
  // `v` at the base and `w` at the head are locals bound alike.
  const base = side("a", "v = Invoice(a)\nassert v");
  const head = side("a", "w = Invoice(a)\nassert w");
  const cases: [string, PythonExpr, PythonExpr, boolean][] = [
    [
      "nodes of two types are not the same, even with the same children",
      node("list", leaf("["), leaf("name", "a"), leaf("]")),
      node("set", leaf("["), leaf("name", "a"), leaf("]")),
      false,
    ],
    [
      "leaves of two types are not the same, even spelled alike",
      leaf("integer", "1"),
      leaf("string", "1"),
      false,
    ],
    [
      "a leaf and a node of one type are not the same",
      leaf("tuple"),
      node("tuple"),
      false,
    ],
    [
      "a leaf that is no name is compared as spelled, even spelled like the locals renamed alike",
      leaf("string", "v"),
      leaf("string", "w"),
      false,
    ],
    [
      "the locals renamed alike, as names, are the same",
      leaf("name", "v"),
      leaf("name", "w"),
      true,
    ],
    [
      "an attribute's names of two types are not the same, even spelled alike",
      node("attribute", leaf("name", "v"), leaf("."), leaf("name", "total")),
      node("attribute", leaf("name", "w"), leaf("."), leaf("string", "total")),
      false,
    ],
    [
      "an attribute's name as a leaf and as a node are not the same",
      node("attribute", leaf("name", "v"), leaf("."), leaf("name", "total")),
      node("attribute", leaf("name", "w"), leaf("."), {
        ...leaf("name", "total"),
        children: [],
      }),
      false,
    ],
    [
      "an attribute's name spelled alike, after the locals renamed alike, is the same",
      node("attribute", leaf("name", "v"), leaf("."), leaf("name", "total")),
      node("attribute", leaf("name", "w"), leaf("."), leaf("name", "total")),
      true,
    ],
    [
      "two names without text are the same name",
      leaf("name"),
      leaf("name"),
      true,
    ],
  ];
  for (const [name, b, h, want] of cases) {
    await t.step(name, () => {
      const scopes = { base: base.scope, head: head.scope };
      assert.equal(new Renaming().same(b, h, scopes), want);
      const back = { base: head.scope, head: base.scope };
      assert.equal(new Renaming().same(h, b, back), want);
    });
  }
});

Deno.test("Renaming.same() renames nothing in a function without a scope of its own", async (t) => {
  const none: RenamingScope = { id: "f", scope: undefined, params: new Map() };
  const cases: [string, string, string, boolean][] = [
    ["a name kept as spelled is the same", "v", "v", true],
    ["a name spelled otherwise is not", "v", "w", false],
  ];
  for (const [name, b, h, want] of cases) {
    await t.step(name, () => {
      const scopes = { base: none, head: none };
      assert.equal(
        new Renaming().same(leaf("name", b), leaf("name", h), scopes),
        want,
      );
    });
  }
});
