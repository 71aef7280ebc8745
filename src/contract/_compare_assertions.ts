import type { AssertionSite, PythonExpr } from "../python/python_module.ts";
import { exprKey } from "../python/_python_expr.ts";
import {
  type ClaimContext,
  claimImplies,
  conjuncts,
} from "./_claim_implies.ts";
import { Renaming, type RenamingScope } from "./_renaming.ts";

/** An assertion and the function it is made in. */
export interface ScopedAssertion {
  /** The assertion. */
  site: AssertionSite;
  /** The function, for renaming its locals. */
  scope: RenamingScope;
}

/** A base assertion (or one part of an `and`) and the head's that took its place. */
export interface AssertionPair {
  /** The base's. */
  base: AssertionSite;
  /** The head's. */
  head: AssertionSite;
}

/** How the head's assertions stand to the base's. */
export interface AssertionComparison {
  /** Base assertions (or parts) with no counterpart left at the head. */
  dropped: AssertionSite[];
  /** Base assertions the head makes weaker: the base's implies the head's, and not the other way. */
  weakened: AssertionPair[];
  /** Base assertions whose place a head assertion took that the form shows neither stronger nor weaker. */
  rewritten: AssertionPair[];
}

/** Claim comparisons one test's assertions may take, all pairs together. */
const STEPS = 100_000;

/** One thing an assertion checks: an `assert`'s conjunct, an asserting call, a `raise`. */
interface Unit {
  site: AssertionSite;
  scope: RenamingScope;
  kind: "condition" | "call" | "raise";
  expr?: PythonExpr;
  key: string;
}

/**
 * Pair each base assertion with a head assertion at least as strong,
 * each head assertion used once: first those spelled the same, then
 * those equal up to a consistent renaming of locals and parameters or
 * recognisably stronger (see {@linkcode claimImplies}). An `assert a and
 * b` counts as its two parts. What is left over is weakened (the base's
 * implies a head's), rewritten (a head assertion is left to take its
 * place), or dropped.
 */
export function compareAssertions(
  base: readonly ScopedAssertion[],
  head: readonly ScopedAssertion[],
): AssertionComparison {
  const b = base.flatMap(units);
  const h = head.flatMap(units);
  const used: boolean[] = h.map(() => false);
  const renaming = new Renaming();
  const budget = { left: STEPS };
  const take = (
    unit: Unit,
    fits: (candidate: Unit) => boolean,
  ): Unit | undefined => {
    for (const [i, candidate] of h.entries()) {
      // Stryker disable next-line ConditionalExpression: an asserting call inside an `assert` is collected as a call too, so a condition the form could pair with a call has a call twin on the same side, and which of the two a head unit takes changes no count
      if (used[i] || candidate.kind !== unit.kind) continue;
      const mark = renaming.mark();
      if (fits(candidate)) {
        used[i] = true;
        return candidate;
      }
      renaming.rollback(mark);
    }
    return undefined;
  };
  // As spelled first, then up to renaming or stronger.
  const spelled = b.filter((unit) =>
    take(unit, (c) => c.key === unit.key && same(renaming, unit, c)) ===
      undefined
  );
  const unmatched = spelled.filter((unit) =>
    take(unit, (c) => implies(renaming, budget, c, unit)) === undefined
  );
  const out: AssertionComparison = { dropped: [], weakened: [], rewritten: [] };
  const rest: Unit[] = [];
  for (const unit of unmatched) {
    const weaker = take(unit, (c) => {
      const mark = renaming.mark();
      const found = implies(renaming, budget, unit, c, true);
      renaming.rollback(mark);
      return found;
    });
    if (weaker === undefined) rest.push(unit);
    else out.weakened.push({ base: unit.site, head: weaker.site });
  }
  for (const unit of rest) {
    const index = used.indexOf(false);
    if (index === -1) {
      out.dropped.push(unit.site);
      continue;
    }
    used[index] = true;
    out.rewritten.push({ base: unit.site, head: (h[index] as Unit).site });
  }
  return out;
}

function units(assertion: ScopedAssertion): Unit[] {
  const { site, scope } = assertion;
  const claim = site.claim;
  if (claim === undefined) {
    // Stryker disable next-line StringLiteral: a kind is only compared with the other units' kinds, and no other unit's kind is ""
    return [{ site, scope, kind: "raise", key: site.key }];
  }
  // Stryker disable next-line StringLiteral: a kind is only compared with the other units' kinds; every call taken as a condition is a condition's call twin (see `take`), and its conjuncts are itself
  const kind = site.key.startsWith("assert_statement(") ? "condition" : "call";
  // Stryker disable next-line ConditionalExpression: a call is neither an `and` nor a chained comparison, so its conjuncts are itself
  const parts = kind === "condition" ? conjuncts(claim) : [claim];
  return parts.map((expr) => ({
    site,
    scope,
    kind,
    expr,
    key: exprKey(expr),
  }));
}

function same(renaming: Renaming, base: Unit, head: Unit): boolean {
  // Stryker disable next-line LogicalOperator,ConditionalExpression: units compared are of one kind and only a `raise` has no expression, so both sides have one or neither does (either test alone, or both, decides alike)
  if (base.expr === undefined || head.expr === undefined) {
    // Stryker disable next-line ConditionalExpression: only a `raise` has no expression, and the one pass that asks for the same spelling has compared the keys already
    return base.key === head.key;
  }
  return renaming.same(base.expr, head.expr, {
    base: base.scope,
    head: head.scope,
  });
}

/**
 * Whether `strong`'s claim implies `weak`'s. The renaming always maps the
 * base's names to the head's: `reversed` when `strong` is the base's.
 */
function implies(
  renaming: Renaming,
  budget: { left: number },
  strong: Unit,
  weak: Unit,
  reversed = false,
): boolean {
  // Stryker disable next-line LogicalOperator,ConditionalExpression: units compared are of one kind and only a `raise` has no expression, so both sides have one or neither does (either test alone, or both, decides alike)
  if (strong.expr === undefined || weak.expr === undefined) return false;
  const [base, head] = reversed ? [strong, weak] : [weak, strong];
  const scopes = { base: base.scope, head: head.scope };
  const context: ClaimContext = {
    same: (s, w) =>
      reversed ? renaming.same(s, w, scopes) : renaming.same(w, s, scopes),
    mark: () => renaming.mark(),
    rollback: (mark) => renaming.rollback(mark),
    budget,
  };
  return claimImplies(strong.expr, weak.expr, context);
}
