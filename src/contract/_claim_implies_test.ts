import assert from "node:assert/strict";
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
    ["a == b", "a.f != b.f"],
  ];
  for (const [strong, weak] of cases) {
    await t.step(`${strong} ⇏ ${weak}`, () => {
      assert.equal(implies(strong, weak), false);
    });
  }
});

Deno.test("claimImplies() shows nothing once its budget of steps is spent", () => {
  assert.equal(implies("a and b", "b", 3), true);
  assert.equal(implies("a and b", "b", 2), false);
});

Deno.test("conjuncts() splits `and` and chained comparisons", () => {
  assert.deepEqual(
    conjuncts(expr("a and (b and 0 < c <= d)")).map((e) => e.type),
    ["name", "name", "comparison_operator", "comparison_operator"],
  );
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
    // numpy's isclose and allclose: rtol 1e-5, atol 1e-8, equal_nan off.
    ["numpy.isclose(x, y, rtol=1e-6)", "numpy.isclose(x, y)", true, false],
    ["numpy.allclose(x, y, atol=1e-9)", "numpy.allclose(x, y)", true, false],
    ["numpy.allclose(x, y, 1e-6)", "numpy.allclose(x, y)", true, false],
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
  ];
  for (const [one, other, forward, backward] of cases) {
    await t.step(`${one} vs ${other}`, () => {
      assert.equal(implies(one, other), forward, `${one} ⇒ ${other}`);
      assert.equal(implies(other, one), backward, `${other} ⇒ ${one}`);
    });
  }
});
