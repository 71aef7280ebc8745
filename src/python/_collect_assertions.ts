import type { Node } from "web-tree-sitter";
import type { ImportAliases } from "./_import_aliases.ts";
import type { PythonExpr } from "./python_module.ts";
import { pythonExpr } from "./_python_expr.ts";
import { constantTruthiness } from "./_constant_truthiness.ts";
import { isLiteral } from "./_is_literal.ts";
import { realChildren } from "./_real_children.ts";
import { structureKey } from "./_structure_key.ts";
import { unwrapParentheses } from "./_unwrap_parentheses.ts";
import { NESTED_SCOPES } from "./_nested_scopes.ts";
import { walk } from "./_walk.ts";

/** Whether an assertion can fail, and if not, why. */
export type AssertionVerdict = "real" | "constant" | "tautology";

/** One assertion found in a function body. */
export interface Assertion {
  /** `real` when the assertion can fail. */
  verdict: AssertionVerdict;
  /** 1-based line. */
  line: number;
  /** Compares a value with a literal (`assert f(x) == 3`, `assertEqual(y, "a")`). */
  example: boolean;
  /** The assertion's structure (whitespace, comments and quotes ignored). */
  key: string;
  /** What it checks: the condition of an `assert`, or the asserting call. */
  claim?: PythonExpr;
}

/** Calls that assert by their nature. */
const ASSERTING_CALLS = new Set([
  "pytest.raises",
  "pytest.warns",
  "pytest.deprecated_call",
  "pytest.fail",
]);

/** unittest methods that pass whenever their one argument is truthy / falsy. */
const ASSERT_TRUTHY = new Set(["assertTrue", "assert_", "failUnless"]);
const ASSERT_FALSY = new Set(["assertFalse", "failIf"]);

/** Comparison operators that hold when both sides are the same expression. */
const REFLEXIVE_OPERATORS = new Set(["==", "is", "<=", ">="]);

/**
 * Every assertion in a function body, in document order: `assert`
 * statements, calls to `*.assert*` / `assert*` helpers (unittest, mock,
 * numpy, pandas), `pytest.raises` / `warns` / `deprecated_call` / `fail`,
 * `self.fail(...)` and `raise AssertionError`.
 *
 * Nested functions, classes and lambdas are not entered: their bodies may
 * never run, so an assertion there proves nothing about the outer test.
 */
export function collectAssertions(
  body: Node,
  aliases: ImportAliases,
): Assertion[] {
  const found: Assertion[] = [];
  walk(body, (node, _parent, type) => {
    if (node !== body && NESTED_SCOPES.has(type)) return false;
    const line = () => node.startPosition.row + 1;
    if (type === "try_statement" && swallowsFailures(node, aliases)) {
      // The body's assertions cannot fail the test; handlers and `else`
      // still can (a `finally` that returns swallows those too).
      for (const clause of realChildren(node)) {
        if (clause.type === "block") continue;
        if (clause.type !== "finally_clause" && finallyReturns(node)) continue;
        found.push(...collectAssertions(clause, aliases));
      }
      return false;
    }
    if (type === "with_statement" && suppressingWith(node, aliases)) {
      return false;
    }
    if (type === "assert_statement") {
      const test = realChildren(node)[0];
      if (test !== undefined) {
        found.push({
          ...assertStatement(test),
          line: line(),
          key: structureKey(node),
          claim: pythonExpr(test, aliases),
        });
      }
    } else if (type === "call") {
      const assertion = assertingCall(node, aliases);
      if (assertion !== undefined) {
        found.push({
          ...assertion,
          line: line(),
          key: structureKey(node),
          claim: pythonExpr(node, aliases),
        });
      }
    } else if (type === "raise_statement" && raisesAssertionError(node)) {
      found.push({
        verdict: "real",
        line: line(),
        example: false,
        key: structureKey(node),
      });
    }
  });
  return found;
}

function assertStatement(test: Node): Omit<Assertion, "line" | "key"> {
  const verdict: AssertionVerdict = constantTruthiness(test) === true
    ? "constant"
    : isSelfComparison(test)
    ? "tautology"
    : "real";
  return { verdict, example: comparesWithLiteral(test) };
}

/** `x == x`, `f(a) is f(a)`, `x <= x == x`. */
function isSelfComparison(expression: Node): boolean {
  const node = unwrapParentheses(expression);
  if (node.type !== "comparison_operator") return false;
  const operators = node.childrenForFieldName("operators");
  if (
    !operators.every((operator) =>
      operator !== null && REFLEXIVE_OPERATORS.has(operator.type)
    )
  ) {
    return false;
  }
  const keys = realChildren(node).map(structureKey);
  return keys.length >= 2 && keys.every((key) => key === keys[0]);
}

/** `a == <literal>`, `<literal> == a`, `a is None`: one comparison, one side literal. */
function comparesWithLiteral(expression: Node): boolean {
  const node = unwrapParentheses(expression);
  if (node.type !== "comparison_operator") return false;
  const operators = node.childrenForFieldName("operators");
  const operands = realChildren(node);
  const [left, right] = operands;
  if (operators.length !== 1 || left === undefined || right === undefined) {
    return false;
  }
  const operator = operators[0]?.type;
  if (operator !== "==" && operator !== "is") return false;
  return isLiteral(left) || isLiteral(right);
}

function assertingCall(
  call: Node,
  aliases: ImportAliases,
): Omit<Assertion, "line" | "key"> | undefined {
  const callee = call.childForFieldName("function");
  if (callee === null) return undefined;
  const canonical = aliases.canonical(callee);
  if (canonical !== undefined && ASSERTING_CALLS.has(canonical)) {
    return { verdict: "real", example: false };
  }
  const name = calleeName(callee);
  if (name === "fail" && callee.childForFieldName("object")?.text === "self") {
    return { verdict: "real", example: false };
  }
  if (name === undefined || !name.startsWith("assert")) return undefined;
  const args = positionalArguments(call);
  const [first, second] = args ?? [];
  let verdict: AssertionVerdict = "real";
  if (
    first !== undefined && ASSERT_TRUTHY.has(name) &&
    constantTruthiness(first) === true
  ) {
    verdict = "constant";
  } else if (
    first !== undefined && ASSERT_FALSY.has(name) &&
    constantTruthiness(first) === false
  ) {
    verdict = "constant";
  } else if (
    first !== undefined && name === "assertIsNone" &&
    unwrapParentheses(first).type === "none"
  ) {
    verdict = "constant";
  } else if (
    first !== undefined && second !== undefined && isReflexiveAssertion(name) &&
    structureKey(first) === structureKey(second)
  ) {
    verdict = "tautology";
  }
  const example = isEqualityAssertion(name) &&
    [first, second].some((arg) => arg !== undefined && isLiteral(arg));
  return { verdict, example };
}

/** The called name: `f` for `f(...)`, `m` for `a.b.m(...)`. */
function calleeName(callee: Node): string | undefined {
  if (callee.type === "identifier") return callee.text;
  if (callee.type === "attribute") {
    return callee.childForFieldName("attribute")?.text;
  }
  return undefined;
}

/** Positional arguments up to the first splat; undefined for `f(x for x in y)`. */
function positionalArguments(call: Node): Node[] | undefined {
  const list = call.childForFieldName("arguments");
  if (list === null || list.type !== "argument_list") return undefined;
  const out: Node[] = [];
  for (const argument of realChildren(list)) {
    if (argument.type === "keyword_argument") continue;
    if (
      argument.type === "list_splat" || argument.type === "dictionary_splat"
    ) break;
    out.push(argument);
  }
  return out;
}

/** `assertEqual`, `assertAlmostEqual`, `assert_array_equal`, `assertIs`: equality checks. */
function isEqualityAssertion(name: string): boolean {
  const lower = name.toLowerCase();
  return isReflexiveAssertion(name) && !lower.includes("greater") &&
    !lower.includes("less");
}

/** Assertions that pass whenever both arguments are the same expression. */
function isReflexiveAssertion(name: string): boolean {
  const lower = name.toLowerCase();
  return name === "assertIs" ||
    (lower.includes("equal") && !lower.includes("not"));
}

/** Exception names that catch a failed assertion. */
const CATCHES_ASSERTION = new Set([
  "AssertionError",
  "Exception",
  "BaseException",
  "builtins.AssertionError",
  "builtins.Exception",
  "builtins.BaseException",
]);

/** Whether an `except` clause type expression catches `AssertionError`. */
function catchesAssertion(
  clause: Node,
  aliases: ImportAliases,
): boolean {
  const children = realChildren(clause).filter((c) => c.type !== "block");
  let value = children[0];
  if (value === undefined) return true; // bare `except:`
  if (value.type === "as_pattern") value = realChildren(value)[0];
  if (value === undefined) return true;
  const node = unwrapParentheses(value);
  const names = node.type === "tuple" || node.type === "list"
    ? realChildren(node)
    : [node];
  return names.some((name) => {
    const canonical = aliases.canonical(unwrapParentheses(name));
    // A name pawl cannot resolve (a variable holding a tuple) may catch it.
    if (canonical === undefined) return true;
    return CATCHES_ASSERTION.has(canonical) ||
      CATCHES_ASSERTION.has(canonical.slice(canonical.lastIndexOf(".") + 1));
  });
}

/** Whether a block re-raises (any `raise`, or a `fail(...)` call). */
function reRaises(block: Node, aliases: ImportAliases): boolean {
  let found = false;
  walk(block, (node, _parent, type) => {
    if (found) return false;
    if (node !== block && NESTED_SCOPES.has(type)) return false;
    if (type === "raise_statement") found = true;
    if (type === "call") {
      const callee = node.childForFieldName("function");
      const canonical = callee === null ? undefined : aliases.canonical(callee);
      if (
        canonical === "pytest.fail" ||
        (callee !== null && calleeName(callee) === "fail")
      ) found = true;
    }
  });
  return found;
}

/** A `finally` that returns, breaks or continues discards any exception. */
function finallyReturns(tryStatement: Node): boolean {
  const clause = realChildren(tryStatement).find((c) =>
    c.type === "finally_clause"
  );
  if (clause === undefined) return false;
  let found = false;
  walk(clause, (node, _parent, type) => {
    if (found || (node !== clause && NESTED_SCOPES.has(type))) return false;
    if (
      type === "return_statement" || type === "break_statement" ||
      type === "continue_statement"
    ) found = true;
  });
  return found;
}

/** A `try` whose handlers swallow a failed assertion without re-raising. */
function swallowsFailures(tryStatement: Node, aliases: ImportAliases): boolean {
  if (finallyReturns(tryStatement)) return true;
  return realChildren(tryStatement).some((clause) => {
    if (
      clause.type !== "except_clause" && clause.type !== "except_group_clause"
    ) {
      return false;
    }
    if (!catchesAssertion(clause, aliases)) return false;
    const block = realChildren(clause).find((c) => c.type === "block");
    return block === undefined || !reRaises(block, aliases);
  });
}

/** Context managers that swallow (or expect) a failed assertion. */
const SUPPRESSING = new Set([
  "contextlib.suppress",
  "suppress",
  "pytest.raises",
]);

/**
 * `with suppress(AssertionError):` or `with pytest.raises(AssertionError):`:
 * the assertions inside cannot fail the test (the second even passes only
 * when they fail).
 */
function suppressingWith(statement: Node, aliases: ImportAliases): boolean {
  const clause = realChildren(statement).find((c) => c.type === "with_clause");
  if (clause === undefined) return false;
  return realChildren(clause).some((item) => {
    let value = realChildren(item)[0];
    if (value?.type === "as_pattern") value = realChildren(value)[0];
    if (value === undefined || value.type !== "call") return false;
    const callee = value.childForFieldName("function");
    const canonical = callee === null ? undefined : aliases.canonical(callee);
    if (canonical === undefined || !SUPPRESSING.has(canonical)) return false;
    const args = value.childForFieldName("arguments");
    const first = args === null
      ? undefined
      : realChildren(args).find((a) => a.type !== "keyword_argument");
    if (first === undefined) return canonical !== "pytest.raises";
    const types = unwrapParentheses(first);
    const names = types.type === "tuple" ? realChildren(types) : [types];
    if (canonical !== "pytest.raises") {
      return realChildren(args as Node).some((arg) =>
        catchesNames([arg], aliases)
      );
    }
    return catchesNames(names, aliases);
  });
}

function catchesNames(names: Node[], aliases: ImportAliases): boolean {
  return names.some((name) => {
    const canonical = aliases.canonical(unwrapParentheses(name));
    if (canonical === undefined) return false;
    return CATCHES_ASSERTION.has(canonical) ||
      CATCHES_ASSERTION.has(canonical.slice(canonical.lastIndexOf(".") + 1));
  });
}

function raisesAssertionError(statement: Node): boolean {
  const raised = realChildren(statement)[0];
  if (raised === undefined) return false;
  const target = raised.type === "call"
    ? raised.childForFieldName("function")
    : raised;
  if (target === null) return false;
  const name = calleeName(target);
  return name === "AssertionError" || name === "failureException";
}
