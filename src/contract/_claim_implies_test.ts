import assert from "node:assert/strict";
import fc from "fast-check";
import { loadPythonParser } from "../python/load_python_parser.ts";
import type { PythonExpr } from "../python/python_module.ts";
import { ImportAliases } from "../python/_import_aliases.ts";
import { exprKey, pythonExpr } from "../python/_python_expr.ts";
import {
  type ClaimContext,
  claimImplies,
  conjuncts,
} from "./_claim_implies.ts";

const parser = await loadPythonParser();

/** The expression `text`, names as the imports make them. */
function expr(text: string): PythonExpr {
  const source = `import math\nimport pytest\n(${text})\n`;
  const tree = parser.parse(source);
  try {
    const statement = tree.rootNode.namedChildren.at(-1);
    const node = statement?.namedChildren[0];
    assert.ok(node !== undefined && node !== null, text);
    return pythonExpr(node, ImportAliases.fromModule(tree.rootNode));
  } finally {
    tree.delete();
  }
}

function context(steps = 1000): ClaimContext {
  return {
    same: (s, w) => exprKey(s) === exprKey(w),
    mark: () => 0,
    rollback: () => {},
    budget: { left: steps },
  };
}

function implies(strong: string, weak: string, steps?: number): boolean {
  return claimImplies(expr(strong), expr(weak), context(steps));
}

Deno.test("claimImplies() reads implication from the form of two claims, in one direction only", async (t) => {
  const cases: [string, string][] = [
    ["a and b", "b"],
    ["c and a and b", "a and b"],
    ["a", "a or b"],
    ["not (a or b)", "not a"],
    ["x < 3", "x <= 3"],
    ["0 <= x <= 5", "x <= 10"],
    ["x >= 7", "x > 5"],
    ["3 > x", "x < 4"],
    ["x == pytest.approx(y, abs=1e-9)", "x == pytest.approx(y, abs=1e-6)"],
    ["x != pytest.approx(y, rel=1e-2)", "x != pytest.approx(y, rel=1e-4)"],
    ["math.isclose(x, y, abs_tol=0.0)", "math.isclose(x, y, abs_tol=1e-9)"],
    ['pytest.raises(E, match="m")', "pytest.raises(E)"],
    ["parse(t) == e", "parse(t).cents == e.cents"],
    ["parse(t) == e", "e.cents == parse(t).cents"],
    ["a == b", "a.f.g == b.f.g"],
    ["a == b", "a[0] == b[0]"],
    ["a == b", "a[k].f == b[k].f"],
    ["a == b", "len(a) == len(b)"],
    ["a == b", "str(b) == str(a)"],
    ["f(x) == y", "len(str(f(x).items)) == len(str(y.items))"],
    ["c and a == b", "c and a.f == b.f"],
    ["a.f != b.f", "a != b"],
    ["(a or b) and c", "c"],
    ["x > 0 and x < 10", "x is None or (x > 0 and x < 10)"],
    ["a and b", "(b and a) or c"],
    ["a < b < c", "b > a"],
    ["x <= 3 < y", "x <= 3.0"],
    ["(a and b) or (a and c)", "a"],
    ["3 >= x", "x <= 5"],
    ["pytest.approx(y, abs=1e-9) == x", "x == pytest.approx(y, abs=1e-6)"],
    ["pytest.approx(y, rel=1e-2) != x", "x != pytest.approx(y, rel=1e-4)"],
    ["0.5 == pytest.approx(x, abs=1e-9)", "0.5 == pytest.approx(x, abs=1e-6)"],
    ["pytest.approx(x, abs=1e-9) == 0.5", "pytest.approx(x, abs=1e-6) == 0.5"],
    ["pytest.approx(x, abs=1e-6) != 0.5", "pytest.approx(x, abs=1e-9) != 0.5"],
  ];
  for (const [strong, weak] of cases) {
    await t.step(`${strong} ⇒ ${weak}`, () => {
      assert.equal(implies(strong, weak), true);
      assert.equal(implies(weak, strong), false);
    });
  }
});

Deno.test("claimImplies() takes two claims that imply each other by form as doing so both ways", async (t) => {
  const cases: [string, string][] = [
    ["a == b", "b == a"],
    ["parse(t) == e", "e == parse(t)"],
    ["x < y", "y > x"],
    ["x >= y", "y <= x"],
    ["a != b", "b != a"],
    ["a == b", "a == b and a.f == b.f"],
  ];
  for (const [one, other] of cases) {
    await t.step(`${one} ⇔ ${other}`, () => {
      assert.equal(implies(one, other), true);
      assert.equal(implies(other, one), true);
    });
  }
});

Deno.test("claimImplies() sees no projection where the two sides are not projected alike", async (t) => {
  const cases: [string, string][] = [
    ["a == b", "a.f == b.g"],
    ["a == b", "a[0] == b[1]"],
    ["a == b", "len(a) == str(b)"],
    ["a == b", "f(a, x) == f(b, y)"],
    ["a == b", "a.f == c.f"],
    ["a != b", "a.f != b.f"],
    ["a < b", "a.f < b.f"],
    ["a.f < b.f", "a < b"],
    ["a == b", "a.f != b.f"],
    ["a == b", "(a < c) == (b < c < d)"],
    ["a == b", "(a < c < d) == (b < c)"],
  ];
  for (const [strong, weak] of cases) {
    await t.step(`${strong} ⇏ ${weak}`, () => {
      assert.equal(implies(strong, weak), false);
    });
  }
});

Deno.test("claimImplies() reads no claim that holds neither side as a projection of them, since `c == c` itself can fail", async (t) => {
  const cases: [string, string][] = [
    ["a == b", "c == c"],
    ["a == b", "len(c) == len(c)"],
    ["a == b", "c.f == c.f"],
    ["c != c", "a != b"],
    ["len(c) != len(c)", "a != b"],
  ];
  for (const [strong, weak] of cases) {
    await t.step(`${strong} ⇏ ${weak}`, () => {
      assert.equal(implies(strong, weak), false);
    });
  }
  await t.step(
    "one side projected beside a part spelled alike still is",
    () => {
      assert.equal(implies("a == b", "f(a, c) == f(b, c)"), true);
    },
  );
});

Deno.test("claimImplies() sees no projection where a part beside the projected sides differs", async (t) => {
  const cases: [string, string][] = [
    ["a == b", "f(a, 1) == f(b, x)"],
    ["a == b", "f(a, g(c)) == f(b, g(c, d))"],
    ["a == b", "f(a, g(c, d)) == f(b, g(c))"],
    ["f(a, 1) != f(b, x)", "a != b"],
  ];
  for (const [strong, weak] of cases) {
    await t.step(`${strong} ⇏ ${weak}`, () => {
      assert.equal(implies(strong, weak), false);
    });
  }
  await t.step(
    "a part too large to copy is not the same part beside the projected sides",
    () => {
      const big: PythonExpr = { type: "opaque", line: 1, text: "c" };
      const withBig = (e: PythonExpr): PythonExpr =>
        e.type === "name" && e.text === "c"
          ? { ...big }
          : e.children === undefined
          ? e
          : { ...e, children: e.children.map(withBig) };
      const weak = withBig(expr("f(a, c) == f(b, c)"));
      assert.equal(claimImplies(expr("a == b"), weak, context()), false);
      assert.equal(implies("a == b", "f(a, c) == f(b, c)"), true);
    },
  );
});

Deno.test("claimImplies() shows nothing once its budget of steps is spent", () => {
  assert.equal(implies("a and b", "b", 3), true);
  assert.equal(implies("a and b", "b", 2), false);
});

Deno.test("claimImplies() spends a step on each pair of parts a projection compares", () => {
  // One for the claim, then `a.f`/`b.f`, `a`/`b`, `.`/`.` and `f`/`f`.
  const shown = [0, 1, 2, 3, 4, 5, 6].map((steps) =>
    implies("a == b", "a.f == b.f", steps)
  );
  assert.deepEqual(shown, [false, false, false, false, false, true, true]);
});

/** Pairs of claims, each way round, to try at every budget. */
const BUDGET_PAIRS: [string, string][] = [
  ["a == b", "a.f == b.f"],
  ["a == b", "a.f == b.g"],
  ["a == b", "len(a) == str(b)"],
  ["a.f != b.f", "a != b"],
  ["c and a == b", "c and a.f == b.f"],
  ["(a and b) or (a and c)", "a"],
  ["not (a or b)", "not a"],
  ["0 <= x <= 5", "x <= 10"],
  ["x == pytest.approx(y, abs=1e-9)", "x == pytest.approx(y, abs=1e-6)"],
  ['pytest.raises(E, match="m")', "pytest.raises(E)"],
];

Deno.test("claimImplies() shows with more steps all it shows with fewer, and no more than with all it needs", async (t) => {
  for (const [one, other] of BUDGET_PAIRS) {
    const orders: [string, string][] = [[one, other], [other, one]];
    for (const [strong, weak] of orders) {
      await t.step(`${strong} vs ${weak}`, () => {
        const unlimited = implies(strong, weak);
        let before = false;
        for (let steps = 0; steps <= 40; steps++) {
          const now = implies(strong, weak, steps);
          assert.ok(
            !before || now,
            `shown at ${steps - 1} steps, not ${steps}`,
          );
          assert.ok(!now || unlimited, `shown at ${steps} steps only`);
          before = now;
        }
        assert.equal(before, unlimited, "40 steps show what all show");
      });
    }
  }
});

Deno.test("claimImplies() sees no projection of a part too large to copy, not even into itself", () => {
  const whole = expr("a == b");
  const big: PythonExpr = { type: "opaque", line: 1, text: "f(a, b)" };
  const equals = whole.children?.[1] as PythonExpr;
  const weak: PythonExpr = {
    type: "comparison_operator",
    line: 1,
    children: [big, equals, { ...big }],
  };
  assert.equal(claimImplies(whole, weak, context()), false);
});

Deno.test("claimImplies() reads no more than the form of each part shows", async (t) => {
  const cases: [string, string][] = [
    // A negation against a claim that is none.
    ["a", "not b"],
    ["not a", "b"],
    ["a", "not a"],
    // A bound is a number.
    ["x < y", "x < z"],
    // A call of a call names no tolerance function or check.
    ["f(a)(x)", "g(b)(y)"],
    // A tolerance only between two equalities, or two inequalities.
    ["x == pytest.approx(y, abs=1e-9)", "x != pytest.approx(y, abs=1e-6)"],
    ["x < pytest.approx(y, abs=1e-6)", "x < pytest.approx(y, abs=1e-9)"],
    ["x == math.isclose(a, b, rel_tol=1e-10)", "x == math.isclose(a, b)"],
  ];
  for (const [one, other] of cases) {
    await t.step(`${one} vs ${other}`, () => {
      assert.equal(implies(one, other), false, `${one} ⇒ ${other}`);
      assert.equal(implies(other, one), false, `${other} ⇒ ${one}`);
    });
  }
});

Deno.test("conjuncts() splits `and` and chained comparisons", () => {
  assert.deepEqual(
    conjuncts(expr("a and (b and 0 < c <= d)")).map((e) => e.type),
    ["name", "name", "comparison_operator", "comparison_operator"],
  );
});

Deno.test("conjuncts() keeps whole what is neither an `and` nor a chain", async (t) => {
  const cases: [string, string[]][] = [
    ["(a or b) and c", ["boolean_operator", "name"]],
    ["a if b else c", ["conditional_expression"]],
    ["a or b", ["boolean_operator"]],
    ["x < y", ["comparison_operator"]],
  ];
  for (const [claim, types] of cases) {
    await t.step(claim, () => {
      assert.deepEqual(conjuncts(expr(claim)).map((e) => e.type), types);
    });
  }
});

Deno.test("claimImplies() compares tolerances as each function applies them, its defaults included", async (t) => {
  // [stronger?, weaker?, whether the first implies the second, and the second the first]
  const cases: [string, string, boolean, boolean][] = [
    // pytest.approx: rel 1e-6 and abs 1e-12 by default; an abs alone turns rel off.
    ["x == pytest.approx(y, rel=1e-7)", "x == pytest.approx(y)", true, false],
    ["x == pytest.approx(y, abs=1e-13)", "x == pytest.approx(y)", true, false],
    ["x == pytest.approx(y, abs=1e-11)", "x == pytest.approx(y)", false, false],
    ["x == pytest.approx(y, abs=1e-12)", "x == pytest.approx(y)", true, false],
    ["x == pytest.approx(y, rel=1e-6)", "x == pytest.approx(y)", true, true],
    [
      "x == pytest.approx(y, nan_ok=False)",
      "x == pytest.approx(y)",
      true,
      true,
    ],
    [
      "x == pytest.approx(y)",
      "x == pytest.approx(y, nan_ok=True)",
      true,
      false,
    ],
    ["x == pytest.approx(y, rel=None)", "x == pytest.approx(y)", true, true],
    [
      "x == pytest.approx(y, None, 1e-13)",
      "x == pytest.approx(y, abs=1e-12)",
      true,
      false,
    ],
    [
      "x == pytest.approx(y, 1e-7, 1e-13, True, 1)",
      "x == pytest.approx(y, 1e-6, 1e-12, True, 1)",
      false,
      false,
    ],
    ["x == pytest.approx(y, 1e-7)", "x == pytest.approx(y)", true, false],
    [
      "x == pytest.approx(y, 1e-6, 1e-12, False)",
      "x == pytest.approx(y)",
      true,
      true,
    ],
    [
      "x == pytest.approx(y, 1e-9, rel=1e-3)",
      "x == pytest.approx(y, rel=1e-3)",
      false,
      false,
    ],
    [
      "x == pytest.approx(y, 1e-7, 1e-13)",
      "x == pytest.approx(y, rel=1e-6, abs=1e-12)",
      true,
      false,
    ],
    [
      "x == pytest.approx(y, 1e-7, 1e-13, True, 1)",
      "x == pytest.approx(y)",
      false,
      false,
    ],
    [
      "x == pytest.approx(y, rel=1e-9)",
      "x == pytest.approx(z, rel=1e-3)",
      false,
      false,
    ],
    [
      "x == pytest.approx(y, rel=1e-9)",
      "z == pytest.approx(y, rel=1e-3)",
      false,
      false,
    ],
    ["x == pytest.approx(y, rel=tight)", "x == pytest.approx(y)", false, false],
    ["x == pytest.approx(y, **tol)", "x == pytest.approx(y)", false, false],
    [
      "x == pytest.approx(y, rel=1e-9)",
      "x == approx(y, rel=1e-3)",
      false,
      false,
    ],
    // math.isclose: rel_tol 1e-9 and abs_tol 0 by default, no tolerance by position.
    ["math.isclose(x, y, rel_tol=1e-10)", "math.isclose(x, y)", true, false],
    ["math.isclose(x, y, abs_tol=1e-9)", "math.isclose(x, y)", false, true],
    ["math.isclose(x, y, 1e-10)", "math.isclose(x, y)", false, false],
    ["math.isclose(x, y, rel_tol=1e-10)", "math.isclose(y, x)", false, false],
    [
      "math.isclose(x, y, 1e-10, rel_tol=1e-10)",
      "math.isclose(x, y, 1e-10)",
      false,
      false,
    ],
    ["math.isclose(x, rel_tol=1e-10)", "math.isclose(x, y)", false, false],
    // numpy's isclose and allclose: rtol 1e-5, atol 1e-8, equal_nan off.
    ["numpy.isclose(x, y, rtol=1e-6)", "numpy.isclose(x, y)", true, false],
    ["numpy.allclose(x, y, atol=1e-9)", "numpy.allclose(x, y)", true, false],
    ["numpy.allclose(x, y, 1e-6)", "numpy.allclose(x, y)", true, false],
    ["numpy.isclose(x, y, 1e-5, 1e-9)", "numpy.isclose(x, y)", true, false],
    [
      "numpy.allclose(x, y, 1e-5, 1e-8, True)",
      "numpy.allclose(x, y)",
      false,
      true,
    ],
    [
      "numpy.allclose(x, y, equal_nan=False)",
      "numpy.allclose(x, y)",
      true,
      true,
    ],
    [
      "numpy.allclose(x, y)",
      "numpy.allclose(x, y, equal_nan=True)",
      true,
      false,
    ],
    ["numpy.allclose(x, y, rtol=1e-6)", "numpy.isclose(x, y)", false, false],
    ["numpy.isclose(x, y, out=z)", "numpy.isclose(x, y)", false, false],
    ["numpy.isclose(x, y, out=z)", "numpy.isclose(x, y, out=z)", true, true],
    ["numpy.isclose(x, y, out=z)", "numpy.isclose(x, y, out=w)", false, false],
    [
      "numpy.isclose(x, y, rtol=1e-6, out=z)",
      "numpy.isclose(x, y, out=z)",
      true,
      false,
    ],
    // numpy.testing.assert_allclose: rtol 1e-7, atol 0, equal_nan on; messages ignored.
    [
      "numpy.testing.assert_allclose(x, y, rtol=1e-8)",
      "numpy.testing.assert_allclose(x, y)",
      true,
      false,
    ],
    [
      "numpy.testing.assert_allclose(x, y, atol=1e-9)",
      "numpy.testing.assert_allclose(x, y)",
      false,
      true,
    ],
    [
      "numpy.testing.assert_allclose(x, y, equal_nan=False)",
      "numpy.testing.assert_allclose(x, y)",
      true,
      false,
    ],
    [
      'numpy.testing.assert_allclose(x, y, err_msg="sum", verbose=False)',
      "numpy.testing.assert_allclose(x, y)",
      true,
      true,
    ],
    [
      "numpy.testing.assert_allclose(x, y, 1e-7, 0, True, 'sum')",
      "numpy.testing.assert_allclose(x, y)",
      true,
      true,
    ],
    [
      "numpy.testing.assert_allclose(x, y, 1e-7, 0, True, 'sum', False)",
      "numpy.testing.assert_allclose(x, y)",
      true,
      true,
    ],
    // assert_almost_equal: 7 decimals by default, assert_array_almost_equal 6; more is tighter.
    [
      "numpy.testing.assert_almost_equal(x, y, decimal=8)",
      "numpy.testing.assert_almost_equal(x, y)",
      true,
      false,
    ],
    [
      "numpy.testing.assert_almost_equal(x, y, 7)",
      "numpy.testing.assert_almost_equal(x, y)",
      true,
      true,
    ],
    [
      "numpy.testing.assert_almost_equal(x, y, 7, 'sum', False)",
      "numpy.testing.assert_almost_equal(x, y)",
      true,
      true,
    ],
    [
      'numpy.testing.assert_almost_equal(x, y, err_msg="sum", verbose=False)',
      "numpy.testing.assert_almost_equal(x, y)",
      true,
      true,
    ],
    [
      "numpy.testing.assert_almost_equal(x, y, 8, 'm', **kw)",
      "numpy.testing.assert_almost_equal(x, y, 7, 'm', **kw)",
      false,
      false,
    ],
    [
      "numpy.testing.assert_array_almost_equal(x, y, 6)",
      "numpy.testing.assert_array_almost_equal(x, y)",
      true,
      true,
    ],
    [
      "numpy.testing.assert_array_almost_equal(x, y, 7)",
      "numpy.testing.assert_array_almost_equal(x, y)",
      true,
      false,
    ],
    // unittest: 7 places by default, or a delta; only like compares.
    [
      "self.assertAlmostEqual(x, y, places=8)",
      "self.assertAlmostEqual(x, y)",
      true,
      false,
    ],
    [
      "self.assertAlmostEqual(x, y, 7)",
      "self.assertAlmostEqual(x, y)",
      true,
      true,
    ],
    [
      "self.assertAlmostEquals(x, y, 8)",
      "self.assertAlmostEquals(x, y)",
      true,
      false,
    ],
    [
      "self.assertAlmostEqual(x, y, 7, 'sum')",
      "self.assertAlmostEqual(x, y)",
      true,
      true,
    ],
    [
      "self.assertAlmostEqual(x, y, None, 'sum', 0.1)",
      "self.assertAlmostEqual(x, y, delta=0.2)",
      true,
      false,
    ],
    [
      'self.assertAlmostEqual(x, y, msg="sum")',
      "self.assertAlmostEqual(x, y)",
      true,
      true,
    ],
    [
      "self.assertAlmostEqual(x, y, delta=0.1)",
      "self.assertAlmostEqual(x, y, delta=0.2)",
      true,
      false,
    ],
    [
      "self.assertAlmostEqual(x, y, delta=0.1)",
      "self.assertAlmostEqual(x, y)",
      false,
      false,
    ],
    [
      "self.assertAlmostEqual(x, y, places=8, delta=0.1)",
      "self.assertAlmostEqual(x, y, places=8, delta=0.1)",
      true,
      true,
    ],
    [
      "self.assertAlmostEqual(x, y, places=8, delta=0.1)",
      "self.assertAlmostEqual(x, y, places=9, delta=0.1)",
      false,
      false,
    ],
    [
      "self.assertAlmostEqual(x, y, places=8, delta=0.1)",
      "self.assertAlmostEqual(x, y, delta=0.1)",
      false,
      false,
    ],
    [
      "mock.self.assertAlmostEqual(x, y, places=8)",
      "mock.self.assertAlmostEqual(x, y)",
      false,
      false,
    ],
    [
      "self.assertAlmostEqualish(x, y, places=8)",
      "self.assertAlmostEqualish(x, y)",
      false,
      false,
    ],
    [
      "other.assertAlmostEqual(x, y, places=8)",
      "other.assertAlmostEqual(x, y)",
      false,
      false,
    ],
    [
      "self.assertNearly(x, y, places=8)",
      "self.assertNearly(x, y)",
      false,
      false,
    ],
    // pytest.raises and pytest.warns: match= added in the `with` form only.
    ['pytest.warns(W, match="m")', "pytest.warns(W)", true, false],
    ['pytest.raises(E, match="m")', "pytest.raises(F)", false, false],
    [
      'pytest.raises(E, match="a")',
      'pytest.raises(E, match="b")',
      false,
      false,
    ],
    ['pytest.raises(E, f, match="m")', "pytest.raises(E, f)", false, false],
    ['pytest.raises(E, match="m")', "pytest.raises(E, f)", false, false],
    ['pytest.raises(E, f, match="m")', "pytest.raises(E)", false, false],
    ['pytest.raises(E, match="m")', "pytest.warns(E)", false, false],
    ['pytest.raises(E, match="m")', "pytest.raises(*errors)", false, false],
    ['f(E, match="m")', "f(E)", false, false],
    [
      'pytest.raises(E, match="m", check=c)',
      "pytest.raises(E, check=c)",
      true,
      false,
    ],
    ['pytest.raises(E, match="m", check=c)', "pytest.raises(E)", false, false],
    [
      'pytest.raises(E, match="m", check=c)',
      "pytest.raises(E, check=d)",
      false,
      false,
    ],
    [
      'pytest.deprecated_call(match="m")',
      "pytest.deprecated_call()",
      false,
      false,
    ],
    [
      'pytest.raises(*errors, match="m")',
      "pytest.raises(*errors)",
      false,
      false,
    ],
    // Bounds: the same side against a tighter number.
    ["x < 3", "x <= 3", true, false],
    ["x <= 2", "x < 3", true, false],
    ["x > 5", "x >= 5", true, false],
    ["x >= 6", "x > 5", true, false],
    ["3 > x", "x <= 3", true, false],
    ["x <= 3", "x >= 3", false, false],
    ["x < 3", "y < 5", false, false],
    ["x == 3", "x <= 3", false, false],
    // A bound is its value, however spelled.
    ["x < 3", "x < 3.0", true, true],
    ["x <= 3", "x <= 3.0", true, true],
    ["x <= 3", "x < 2 + 1", false, true],
    ["x > 3", "x > 3.0", true, true],
    ["x >= 3", "x >= 3.0", true, true],
    ["x >= 3", "x > 2 + 1", false, true],
    // Numbers on both sides are read as written; a subscript is a value, even of pytest.approx.
    ["1 <= 2", "1 <= 3", true, false],
    ["3 <= pytest.approx[0]", "pytest.approx[0] >= 2", true, false],
  ];
  for (const [one, other, forward, backward] of cases) {
    await t.step(`${one} vs ${other}`, () => {
      assert.equal(implies(one, other), forward, `${one} ⇒ ${other}`);
      assert.equal(implies(other, one), backward, `${other} ⇒ ${one}`);
    });
  }
});

const ORDERS = ["<", "<=", ">", ">="] as const;
const MIRRORED: Record<string, string> = {
  "<": ">",
  "<=": ">=",
  ">": "<",
  ">=": "<=",
};

/** Whether `x op n` holds. */
function holds(x: number, op: string, n: number): boolean {
  return op === "<"
    ? x < n
    : op === "<="
    ? x <= n
    : op === ">"
    ? x > n
    : x >= n;
}

/** A bound on `x`, its number spelled whole or as a float, on either side. */
const bound = fc.record({
  op: fc.constantFrom(...ORDERS),
  n: fc.integer({ min: -4, max: 4 }),
  float: fc.boolean(),
  mirrored: fc.boolean(),
});

function spelled(
  b: { op: string; n: number; float: boolean; mirrored: boolean },
) {
  const n = b.float ? `${b.n}.0` : `${b.n}`;
  return b.mirrored ? `${n} ${MIRRORED[b.op]} x` : `x ${b.op} ${n}`;
}

Deno.test("claimImplies() takes one bound on a value as implying another exactly when every value within the first is within the second", () => {
  fc.assert(
    fc.property(bound, bound, (strong, weak) => {
      // Bounds at whole numbers from -4 to 4: halves from -6 to 6 try every case.
      const halves = Array.from({ length: 25 }, (_, i) => i / 2 - 6);
      const within = halves.every((x) =>
        !holds(x, strong.op, strong.n) || holds(x, weak.op, weak.n)
      );
      assert.equal(implies(spelled(strong), spelled(weak)), within);
    }),
    { numRuns: 300 },
  );
});

/** Small claims, and `and`/`or` of them. */
const claim: fc.Arbitrary<string> = fc.letrec<{ claim: string }>((tie) => ({
  claim: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.constantFrom(
      "a",
      "not c",
      "x < 3",
      "3 >= x",
      "a == b",
      "a.f != b.f",
      "x == pytest.approx(y, abs=1e-9)",
      'pytest.raises(E, match="m")',
      "math.isclose(x, y, rel_tol=1e-10)",
    ),
    fc.tuple(tie("claim"), fc.constantFrom("and", "or"), tie("claim")).map((
      [l, op, r],
    ) => `(${l}) ${op} (${r})`),
  ),
})).claim;

Deno.test("claimImplies() takes a claim as implying itself, a conjunction as implying each part, and a part as implying a disjunction", () => {
  fc.assert(
    fc.property(claim, claim, (one, other) => {
      assert.equal(implies(one, one), true, "itself");
      assert.equal(implies(`(${one}) and (${other})`, one), true, "and");
      assert.equal(implies(`(${one}) and (${other})`, other), true, "and");
      assert.equal(implies(one, `(${one}) or (${other})`), true, "or");
      assert.equal(implies(other, `(${one}) or (${other})`), true, "or");
    }),
    { numRuns: 60 },
  );
});
