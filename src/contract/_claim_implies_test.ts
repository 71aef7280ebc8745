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
