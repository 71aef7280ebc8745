import type { PythonExpr } from "../python/python_module.ts";
import { numberOf } from "./_compare_exprs.ts";

/** How {@linkcode claimImplies} compares the parts it does not reason about. */
export interface ClaimContext {
  /** Whether two parts are the same expression (up to the renaming in force). */
  same(strong: PythonExpr, weak: PythonExpr): boolean;
  /** A point to undo a failed attempt to. */
  mark(): number;
  /** Undo what `same` recorded since `mark`. */
  rollback(mark: number): void;
  /**
   * Steps left for every claim compared with this context: a search over
   * nested `and` and `or` grows with their parts multiplied, and a pull
   * request writes them. Once the steps run out the form shows nothing
   * more, and what is left is judged as not shown stronger.
   */
  budget: { left: number };
}

/**
 * Whether the claim `strong` can only hold where `weak` holds, as far as
 * its form shows: the same claim; a conjunction with `weak` among its
 * parts (`a and b` for `a`); a disjunction each part of which implies
 * `weak`; the same comparison with its sides swapped (`y > x` for
 * `x < y`); an equality whose sides are projected alike (`a.f == b.f`
 * for `a == b`, and `a != b` for `a.f != b.f`); a tighter bound
 * (`x <= 1` for `x <= 3`) or tolerance
 * (`pytest.approx`, `math.isclose`, numpy's `isclose`/`allclose`/
 * `assert_allclose`/`assert_almost_equal`, `assertAlmostEqual`); or
 * `pytest.raises`/`pytest.warns` with `match=` added. `false` means the
 * form does not show it, not that it is false.
 */
export function claimImplies(
  strong: PythonExpr,
  weak: PythonExpr,
  context: ClaimContext,
): boolean {
  if (context.budget.left <= 0) return false;
  context.budget.left--;
  return attempt(context, () => context.same(strong, weak)) ||
    attempt(context, () => byParts(strong, weak, context)) ||
    attempt(context, () => byForm(strong, weak, context));
}

/** The parts a claim holds only when all of them hold: `a and b`, `a < b < c`. */
export function conjuncts(claim: PythonExpr): PythonExpr[] {
  const parts = operands(claim, "and");
  if (parts.length > 1) return parts.flatMap(conjuncts);
  const pairs = comparisonPairs(claim);
  // Stryker disable next-line ConditionalExpression,EqualityOperator: `comparisonPairs` gives a claim that is no chain back as its one element, so one pair is `[claim]` already
  return pairs.length > 1 ? pairs : [claim];
}

function attempt(context: ClaimContext, fn: () => boolean): boolean {
  const mark = context.mark();
  if (fn()) return true;
  context.rollback(mark);
  return false;
}

function byParts(
  strong: PythonExpr,
  weak: PythonExpr,
  context: ClaimContext,
): boolean {
  const implies = (s: PythonExpr, w: PythonExpr) =>
    attempt(context, () => claimImplies(s, w, context));
  const weakAll = conjuncts(weak);
  if (weakAll.length > 1) return weakAll.every((w) => implies(strong, w));
  const strongAny = operands(strong, "or");
  if (strongAny.length > 1) return strongAny.every((s) => implies(s, weak));
  // A conjunction may hold one part that implies the claim, or imply one
  // of the claim's alternatives whole: `a and b` for `(a and b) or c`.
  const strongAll = conjuncts(strong);
  if (strongAll.length > 1 && strongAll.some((s) => implies(s, weak))) {
    return true;
  }
  const weakAny = operands(weak, "or");
  if (weakAny.length > 1) return weakAny.some((w) => implies(strong, w));
  const s = negated(strong);
  const w = negated(weak);
  return s !== undefined && w !== undefined && claimImplies(w, s, context);
}

function byForm(
  strong: PythonExpr,
  weak: PythonExpr,
  context: ClaimContext,
): boolean {
  const s = comparison(strong);
  const w = comparison(weak);
  if (s !== undefined && w !== undefined) {
    return attempt(context, () => swapped(s, w, context)) ||
      attempt(context, () => projected(s, w, context)) ||
      tighterBound(s, w, context) || tighterApprox(s, w, context);
  }
  // Stryker disable next-line ConditionalExpression,LogicalOperator: both readings below ask for a callee name followed by an argument list, which only a call has
  if (strong.type !== "call" || weak.type !== "call") return false;
  return tighterCall(strong, weak, context) ||
    matchAdded(strong, weak, context);
}

/** The operands of a chain of one boolean operator, flattened. */
function operands(expr: PythonExpr, operator: "and" | "or"): PythonExpr[] {
  const kids = expr.children;
  // Stryker disable next-line LogicalOperator,ConditionalExpression,OptionalChaining: a boolean operator always has three children, and only a boolean operator has `and` or `or` between two: the next line decides
  if (expr.type !== "boolean_operator" || kids?.length !== 3) return [expr];
  // Stryker disable next-line OptionalChaining: a boolean operator's middle child is always there
  if (kids[1]?.type !== operator) return [expr];
  return [
    ...operands(kids[0] as PythonExpr, operator),
    ...operands(kids[2] as PythonExpr, operator),
  ];
}

function negated(expr: PythonExpr): PythonExpr | undefined {
  // Stryker disable next-line OptionalChaining: a `not` always has its operand
  return expr.type === "not_operator" ? expr.children?.[1] : undefined;
}

/** `a < b < c` as `a < b`, `b < c`; one comparison as itself. */
function comparisonPairs(expr: PythonExpr): PythonExpr[] {
  // Stryker disable next-line ArrayDeclaration: a node without children is no comparison, and is returned on the next line
  const kids = expr.children ?? [];
  // Stryker disable next-line ArrayDeclaration: `conjuncts` reads no pairs as the claim itself
  if (expr.type !== "comparison_operator") return [expr];
  // Stryker disable next-line ConditionalExpression,EqualityOperator,ArrayDeclaration: one comparison gives one pair, a copy of itself, and `conjuncts` reads one pair, or none, as the claim itself
  if (kids.length <= 3) return [expr];
  const out: PythonExpr[] = [];
  // Stryker disable next-line EqualityOperator: a chain has an odd number of children (operands with operators between), so the even `i + 2` never equals its length
  for (let i = 0; i + 2 < kids.length; i += 2) {
    out.push({ ...expr, children: kids.slice(i, i + 3) });
  }
  return out;
}

/** One comparison, `left op right`. */
interface Comparison {
  left: PythonExpr;
  op: string;
  right: PythonExpr;
}

const FLIPPED: Record<string, string> = {
  "<": ">",
  "<=": ">=",
  ">": "<",
  ">=": "<=",
  "==": "==",
  "!=": "!=",
};

function comparison(expr: PythonExpr): Comparison | undefined {
  const kids = expr.children;
  // Stryker disable next-line ConditionalExpression: another node of three children has no comparison operator between them, and every reading of a comparison refuses an operator it does not know
  if (expr.type !== "comparison_operator") return undefined;
  // Stryker disable next-line OptionalChaining: a comparison always has children
  if (kids?.length !== 3) return undefined;
  const [left, operator, right] = kids as [PythonExpr, PythonExpr, PythonExpr];
  // Stryker disable ConditionalExpression,LogicalOperator,ArrowFunction,StringLiteral: an operator leaf's type is its text; a two-word operator (`not in`, `is not`) is only ever compared with the six one-word comparisons, which no spelling of it equals
  const op = operator.children === undefined
    ? operator.text ?? operator.type
    : operator.children.map((c) => c.text ?? c.type).join(" ");
  // Stryker restore ConditionalExpression,LogicalOperator,ArrowFunction,StringLiteral
  return { left, op, right };
}

/** `x < y` implies `y > x`: the same comparison, its sides swapped. */
function swapped(
  strong: Comparison,
  weak: Comparison,
  context: ClaimContext,
): boolean {
  return FLIPPED[strong.op] === weak.op &&
    context.same(strong.left, weak.right) &&
    context.same(strong.right, weak.left);
}

/**
 * `a == b` implies `P(a) == P(b)`, and `P(a) != P(b)` implies `a != b`,
 * for any projection `P` applied alike to both sides: an attribute
 * `.f`, an item `[k]`, a call `len(...)`, nested, either side first.
 * Equal values give equal projections, as far as the form shows.
 */
function projected(
  strong: Comparison,
  weak: Comparison,
  context: ClaimContext,
): boolean {
  if (strong.op !== weak.op) return false;
  let whole: Comparison, parts: Comparison, match: Match;
  if (strong.op === "==") {
    [whole, parts] = [strong, weak];
    match = (w, p) => context.same(w, p);
  } else if (strong.op === "!=") {
    [whole, parts] = [weak, strong];
    match = (w, p) => context.same(p, w);
  } else return false;
  const orders = [[whole.left, whole.right], [whole.right, whole.left]];
  return orders.some(([left, right]) =>
    attempt(context, () => {
      const holes: Holes = {
        left: left as PythonExpr,
        right: right as PythonExpr,
        match,
        context,
        filled: false,
      };
      // A projection of neither side (`c == c`) follows from nothing: an
      // `__eq__` of the code under test, or a NaN, can make it fail.
      return alike(parts.left, parts.right, holes) && holes.filled;
    })
  );
}

/** Whether a side of the whole claim is the part at the same place in a projection. */
type Match = (whole: PythonExpr, part: PythonExpr) => boolean;

/** The two sides of a whole claim, to find in the two sides of a projected one. */
interface Holes {
  left: PythonExpr;
  right: PythonExpr;
  match: Match;
  context: ClaimContext;
  /** Whether the whole's sides were found at some place. */
  filled: boolean;
}

/**
 * Whether `x` and `y` are spelled alike except where `x` has the whole's
 * left side and `y`, at the same place, its right side.
 */
function alike(x: PythonExpr, y: PythonExpr, holes: Holes): boolean {
  const { context } = holes;
  if (context.budget.left <= 0) return false;
  context.budget.left--;
  if (
    attempt(
      context,
      () => holes.match(holes.left, x) && holes.match(holes.right, y),
    )
  ) {
    holes.filled = true;
    return true;
  }
  [x, y] = [unfolded(x), unfolded(y)];
  // Stryker disable next-line ConditionalExpression: nodes the parser gives one place under one parent type and the same text and children are of one type: the types that share their leaves (a tuple and a call's arguments, a dict's `k: v` and a slice, a keyword argument and an assignment) stand under parents of different types
  if (x.type !== y.type) return false;
  if (x.text !== y.text || x.type === "opaque") return false;
  const xs = x.children ?? [];
  const ys = y.children ?? [];
  if (xs.length !== ys.length) return false;
  return xs.every((child, i) => alike(child, ys[i] as PythonExpr, holes));
}

/** A dotted name `a.b.c` as the attribute `(a.b).c` it is read from. */
function unfolded(expr: PythonExpr): PythonExpr {
  // Stryker disable next-line StringLiteral: only a node without text reads the fallback, and such a node is no name, which the next lines return as it is
  const text = expr.text ?? "";
  const dot = text.lastIndexOf(".");
  // Stryker disable next-line ConditionalExpression,EqualityOperator: a number or string with a dot unfolds alike on both sides and still differs exactly where its text did; a name never starts with a dot (relative imports make no names)
  if (expr.type !== "name" || dot <= 0) return expr;
  const { line } = expr;
  return {
    type: "attribute",
    line,
    children: [
      { type: "name", line, text: text.slice(0, dot) },
      { type: ".", line, text: "." },
      { type: "name", line, text: text.slice(dot + 1) },
    ],
  };
}

/**
 * With an `approx(...)` on the right when either side has one, else a
 * number when either side has one.
 */
function numberRight(c: Comparison): Comparison {
  const flip = FLIPPED[c.op];
  // Stryker disable next-line ConditionalExpression: an operator with no mirror (`in`, `is`) is neither a bound nor an equality, so neither reading of a bound or tolerance takes it, whichever way it faces
  if (flip === undefined) return c;
  if (fixedness(c.left) <= fixedness(c.right)) return c;
  return { left: c.right, op: flip, right: c.left };
}

/** 2 for an `approx(...)`, 1 for a number, 0 for anything else. */
function fixedness(expr: PythonExpr): number {
  if (isApprox(expr)) return 2;
  return numberOf(expr) === undefined ? 0 : 1;
}

/** `x <= 1` implies `x <= 3`; `x > 5` implies `x >= 5`. */
function tighterBound(
  strong: Comparison,
  weak: Comparison,
  context: ClaimContext,
): boolean {
  const s = numberRight(strong);
  const w = numberRight(weak);
  const sn = numberOf(s.right);
  const wn = numberOf(w.right);
  // Stryker disable next-line ConditionalExpression: with one bound a number and the other not, no comparison below holds, and when both are not numbers the next line returns
  if (sn === undefined) return false;
  // Stryker disable next-line ConditionalExpression: with `sn` a number and `wn` not, no comparison below holds
  if (wn === undefined) return false;
  const upper = (op: string) => op === "<" || op === "<=";
  const lower = (op: string) => op === ">" || op === ">=";
  let tighter: boolean;
  if (upper(s.op) && upper(w.op)) {
    tighter = sn < wn || (sn === wn && (s.op === "<" || w.op === "<="));
  } else if (lower(s.op) && lower(w.op)) {
    tighter = sn > wn || (sn === wn && (s.op === ">" || w.op === ">="));
  } else return false;
  return tighter && context.same(s.left, w.left);
}

/** `x == approx(y, abs=1e-6)` implies `x == approx(y, abs=1e-3)`; `!=` the other way. */
function tighterApprox(
  strong: Comparison,
  weak: Comparison,
  context: ClaimContext,
): boolean {
  const s = numberRight(strong);
  const w = numberRight(weak);
  if (s.op !== w.op || (s.op !== "==" && s.op !== "!=")) return false;
  // Stryker disable next-line LogicalOperator: with one side an approx and the other not, their callees differ and `tighterCall` refuses them
  if (!isApprox(s.right) || !isApprox(w.right)) return false;
  const [tight, loose] = s.op === "=="
    ? [s.right, w.right]
    : [w.right, s.right];
  return tighterCall(tight, loose, context) && context.same(s.left, w.left);
}

function isApprox(expr: PythonExpr): boolean {
  return expr.type === "call" && calleeOf(expr) === "pytest.approx";
}

function calleeOf(call: PythonExpr): string | undefined {
  // Stryker disable next-line OptionalChaining: only a call is asked for its callee, and a call always has children
  const callee = call.children?.[0];
  // Stryker disable next-line ConditionalExpression,OptionalChaining: a callee that is no name is a node without text or a literal, which names no tolerance function or check; a call always has a callee
  return callee?.type === "name" ? callee.text : undefined;
}

/** How a tolerance function reads its arguments. */
interface ToleranceSpec {
  /** Leading arguments compared as values. */
  values: number;
  /** Names of the arguments after the values, by position. */
  positional: readonly string[];
  /** Tolerances: `true` when a smaller number is tighter, `false` when a larger one is. */
  tolerances: Readonly<Record<string, boolean>>;
  /** Each tolerance as the function applies it, given what was passed. */
  fill(given: ReadonlyMap<string, number>): Map<string, number> | undefined;
  /** Arguments that only word the failure. */
  messages?: readonly string[];
}

/** The given tolerances, each missing one at its default. */
function defaults(values: Record<string, number>) {
  return (given: ReadonlyMap<string, number>) =>
    new Map(Object.entries(values).map(([k, v]) => [k, given.get(k) ?? v]));
}

const NUMPY_CLOSE: ToleranceSpec = {
  values: 2,
  positional: ["rtol", "atol", "equal_nan"],
  tolerances: { rtol: true, atol: true, "equal_nan": true },
  fill: defaults({ rtol: 1e-5, atol: 1e-8, "equal_nan": 0 }),
};

const NUMPY_DECIMAL = (decimal: number): ToleranceSpec => ({
  values: 2,
  positional: ["decimal", "err_msg", "verbose"],
  tolerances: { decimal: false },
  fill: defaults({ decimal }),
  messages: ["err_msg", "verbose"],
});

const UNITTEST_ALMOST: ToleranceSpec = {
  values: 2,
  positional: ["places", "msg", "delta"],
  tolerances: { places: false, delta: true },
  // `delta` and `places` are two kinds of check: only like compares.
  fill: (given) => {
    if (given.has("delta")) {
      return given.has("places") ? undefined : new Map(given);
    }
    // Stryker disable next-line StringLiteral: the key only looks up `tolerances`, where `places` reads false (more is tighter) as any unknown key does, and a `delta` on one side fails the lookup under either key
    return new Map([["places", given.get("places") ?? 7]]);
  },
  messages: ["msg"],
};

/** Tolerance functions by canonical name (unittest's by method name). */
const TOLERANCES: Readonly<Record<string, ToleranceSpec>> = {
  // pytest: an `abs` alone turns the relative tolerance off.
  "pytest.approx": {
    values: 1,
    positional: ["rel", "abs", "nan_ok"],
    tolerances: { rel: true, abs: true, "nan_ok": true },
    fill: (given) =>
      new Map([
        ["rel", given.get("rel") ?? (given.has("abs") ? 0 : 1e-6)],
        ["abs", given.get("abs") ?? 1e-12],
        ["nan_ok", given.get("nan_ok") ?? 0],
      ]),
  },
  "math.isclose": {
    values: 2,
    positional: [],
    tolerances: { "rel_tol": true, "abs_tol": true },
    fill: defaults({ "rel_tol": 1e-9, "abs_tol": 0 }),
  },
  "numpy.isclose": NUMPY_CLOSE,
  "numpy.allclose": NUMPY_CLOSE,
  "numpy.testing.assert_allclose": {
    values: 2,
    positional: ["rtol", "atol", "equal_nan", "err_msg", "verbose"],
    tolerances: { rtol: true, atol: true, "equal_nan": true },
    fill: defaults({ rtol: 1e-7, atol: 0, "equal_nan": 1 }),
    messages: ["err_msg", "verbose"],
  },
  "numpy.testing.assert_almost_equal": NUMPY_DECIMAL(7),
  "numpy.testing.assert_array_almost_equal": NUMPY_DECIMAL(6),
  assertAlmostEqual: UNITTEST_ALMOST,
  assertAlmostEquals: UNITTEST_ALMOST,
};

function toleranceSpec(callee: string): ToleranceSpec | undefined {
  if (Object.hasOwn(TOLERANCES, callee)) return TOLERANCES[callee];
  const method = /^self\.(assertAlmostEquals?)$/.exec(callee)?.[1];
  // Stryker disable next-line ConditionalExpression: there is no tolerance function named `undefined`, so the lookup gives undefined either way
  return method === undefined ? undefined : TOLERANCES[method];
}

/** The same tolerance function on the same values, each tolerance at least as tight. */
function tighterCall(
  strong: PythonExpr,
  weak: PythonExpr,
  context: ClaimContext,
): boolean {
  const callee = calleeOf(strong);
  // Stryker disable next-line ConditionalExpression: a call without a named callee is refused on the next lines, as no tolerance function's name
  if (callee === undefined) return false;
  if (callee !== calleeOf(weak)) return false;
  const spec = toleranceSpec(callee);
  if (spec === undefined) return false;
  const s = callArguments(strong, spec);
  const w = callArguments(weak, spec);
  if (s === undefined || w === undefined) return false;
  const sValues = s.values;
  if (sValues.length !== w.values.length) return false;
  for (const [i, value] of sValues.entries()) {
    if (!context.same(value, w.values[i] as PythonExpr)) return false;
  }
  const names = new Set([...s.named.keys(), ...w.named.keys()]);
  const sGiven = new Map<string, number>();
  const wGiven = new Map<string, number>();
  for (const name of names) {
    if (spec.messages?.includes(name)) continue;
    const sv = s.named.get(name);
    const wv = w.named.get(name);
    if (!Object.hasOwn(spec.tolerances, name)) {
      if (sv === undefined || wv === undefined) {
        // Stryker disable next-line ConditionalExpression: the name comes from one of the two calls, so when one lacks it the other has it
        if (sv !== wv) return false;
      } else if (!context.same(sv, wv)) return false;
      continue;
    }
    for (const [value, into] of [[sv, sGiven], [wv, wGiven]] as const) {
      if (value === undefined) continue;
      const n = toleranceValue(value);
      if (n === undefined) return false;
      into.set(name, n);
    }
  }
  const sTol = spec.fill(sGiven);
  const wTol = spec.fill(wGiven);
  if (sTol === undefined || wTol === undefined) return false;
  // Stryker disable next-line ConditionalExpression,BooleanLiteral: each spec fills one shape of map (unittest's a `places` or a `delta`, each alone), so the sizes always agree; a different key fails the lookup below
  if (sTol.size !== wTol.size) return false;
  for (const [name, sn] of sTol) {
    const wn = wTol.get(name);
    if (wn === undefined) return false;
    if (spec.tolerances[name] ? sn > wn : sn < wn) return false;
  }
  return true;
}

/** A number, or `True`/`False`/`None` as 1/0/absent. */
function toleranceValue(expr: PythonExpr): number | undefined {
  if (expr.type === "true") return 1;
  if (expr.type === "false") return 0;
  return numberOf(expr);
}

/** A call's leading values and its other arguments by name; undefined with a splat. */
function callArguments(
  call: PythonExpr,
  spec: Pick<ToleranceSpec, "values" | "positional">,
): { values: PythonExpr[]; named: Map<string, PythonExpr> } | undefined {
  // Stryker disable next-line OptionalChaining: only calls are read, and a call always has its arguments
  const list = call.children?.[1];
  // Stryker disable next-line ConditionalExpression,OptionalChaining: a call of a generator (`f(x for x in y)`) read anyway gives its value and its `for` as values, with no tolerance or `match=`: two such calls agree only where the claims are the same, which `same` has shown first
  if (list?.type !== "argument_list") return undefined;
  const values: PythonExpr[] = [];
  const named = new Map<string, PythonExpr>();
  let index = 0;
  // Stryker disable next-line ArrayDeclaration: an argument list always has its parentheses
  for (const arg of list.children ?? []) {
    // Stryker disable next-line Regex,StringLiteral: only a leaf has text, and a leaf argument (a name, number, string or constant) neither starts nor ends with a comma or parenthesis
    if (/^[,()]$/.test(arg.text ?? "")) continue;
    if (arg.type === "list_splat" || arg.type === "dictionary_splat") {
      return undefined;
    }
    if (arg.type === "keyword_argument") {
      // Stryker disable next-line OptionalChaining: a keyword argument is always `name = value`
      const name = arg.children?.[0]?.text;
      // Stryker disable next-line OptionalChaining: a keyword argument is always `name = value`
      const value = arg.children?.[2];
      // Stryker disable next-line ConditionalExpression,LogicalOperator,BlockStatement: a keyword argument is always `name = value`
      if (name === undefined || value === undefined) return undefined;
      if (named.has(name)) return undefined;
      // `None` is what the parameter defaults to.
      if (value.type !== "none") named.set(name, value);
      continue;
    }
    if (index < spec.values) values.push(arg);
    else {
      const name = spec.positional[index - spec.values];
      if (name === undefined || named.has(name)) return undefined;
      if (arg.type !== "none") named.set(name, arg);
    }
    index++;
  }
  return { values, named };
}

/** The checks whose `match=` only adds a condition. */
const MATCHING = new Set(["pytest.raises", "pytest.warns"]);

/** `pytest.raises(E, match="...")` implies `pytest.raises(E)`. */
function matchAdded(
  strong: PythonExpr,
  weak: PythonExpr,
  context: ClaimContext,
): boolean {
  const callee = calleeOf(strong);
  // Stryker disable next-line ConditionalExpression: a call without a named callee is refused on the next line, as no check's name
  if (callee === undefined) return false;
  if (!MATCHING.has(callee)) return false;
  if (callee !== calleeOf(weak)) return false;
  // Stryker disable next-line ArrayDeclaration: every argument before the keywords is a value, so no name by position is read
  const all = { values: Number.MAX_SAFE_INTEGER, positional: [] };
  const s = callArguments(strong, all);
  const w = callArguments(weak, all);
  if (s === undefined || w === undefined) return false;
  // Only the `with` form: in `raises(E, f, ...)` a keyword goes to `f`.
  if (s.values.length !== 1 || w.values.length !== 1) return false;
  if (!context.same(s.values[0] as PythonExpr, w.values[0] as PythonExpr)) {
    return false;
  }
  for (const [name, wv] of w.named) {
    const sv = s.named.get(name);
    if (sv === undefined || !context.same(sv, wv)) return false;
  }
  return [...s.named.keys()].every((name) =>
    w.named.has(name) || name === "match"
  );
}
