import type { PythonExpr } from "../python/python_module.ts";
import { exprKey } from "../python/_python_expr.ts";
import {
  type Located,
  type NameSide,
  type Resolved,
  resolveName,
} from "./_resolve_names.ts";

/** Where a head expression stops being provably at least as strong as the base one. */
export interface Difference {
  /** File of the head side. */
  path: string;
  /** 1-based line at head. */
  line: number;
  /** What differs, completing "because ...". */
  why: string;
}

/** An expression and the module its names are resolved in. */
export interface Placed {
  /** The expression. */
  expr: PythonExpr;
  /** The module it is written in. */
  at: Located;
}

/** What the comparison may accept besides structural equality. */
export type Direction = "widening" | "equal";

/** Parameters that bound a strategy from below / above, by position for the common strategies. */
const POSITIONAL: Record<string, readonly string[]> = {
  integers: ["min_value", "max_value"],
  floats: ["min_value", "max_value"],
  decimals: ["min_value", "max_value"],
  fractions: ["min_value", "max_value"],
  dates: ["min_value", "max_value"],
  datetimes: ["min_value", "max_value"],
  times: ["min_value", "max_value"],
  timedeltas: ["min_value", "max_value"],
  binary: ["min_size", "max_size"],
  text: ["alphabet", "min_size", "max_size"],
  lists: ["elements", "min_size", "max_size"],
  sets: ["elements", "min_size", "max_size"],
  frozensets: ["elements", "min_size", "max_size"],
  iterables: ["elements", "min_size", "max_size"],
  dictionaries: ["keys", "values"],
  "sampled_from": ["elements"],
};
const LOWER = new Set(["min_value", "min_size", "min_leaves"]);
const UPPER = new Set(["max_value", "max_size", "max_leaves", "max_codepoint"]);

const STRATEGIES = "hypothesis.strategies.";

/**
 * Compares a base expression with its head counterpart, names followed to
 * their module-level definitions on each side. With `widening`, the head
 * may draw from a superset of the base (a looser bound, a dropped
 * `.filter`, a longer `sampled_from`, an extra `| alternative`); anything
 * pawl cannot show is at least as wide is a {@linkcode Difference}.
 */
export class ExprComparison {
  #base: NameSide;
  #head: NameSide;
  #seen = new Map<string, Difference | undefined>();

  constructor(base: NameSide, head: NameSide) {
    this.#base = base;
    this.#head = head;
  }

  /** The two commits being compared. */
  sides(): { base: NameSide; head: NameSide } {
    return { base: this.#base, head: this.#head };
  }

  /** The first difference, or undefined when head is at least as strong. */
  compare(
    base: Placed,
    head: Placed,
    direction: Direction,
  ): Difference | undefined {
    return this.#compare(base, head, direction, 0);
  }

  /** Compare what two names stand for (definitions), when they resolve. */
  compareName(
    base: Placed,
    head: Placed,
    name: string,
    direction: Direction,
    depth = 0,
  ): Difference | undefined {
    const b = resolveName(this.#base, base.at, name);
    const h = resolveName(this.#head, head.at, name);
    if (b === undefined && h === undefined) return undefined;
    if (b === undefined || h === undefined) {
      return {
        path: h?.at.path ?? head.at.path,
        line: h?.definition.line ?? head.expr.line,
        why: `"${name}" ${h === undefined ? "no longer resolves" : "is new"}`,
      };
    }
    return this.#compareDefinitions(b, h, name, direction, depth);
  }

  #compareDefinitions(
    b: Resolved,
    h: Resolved,
    name: string,
    direction: Direction,
    depth: number,
  ): Difference | undefined {
    const memo =
      `${b.at.path}:${b.definition.line}>${h.at.path}:${h.definition.line}:${direction}`;
    // A definition met again while it is being compared is taken as the
    // same (it reaches itself); one compared before keeps its result.
    if (this.#seen.has(memo)) return this.#seen.get(memo);
    this.#seen.set(memo, undefined);
    const diff = this.#definitionsDiffer(b, h, name, direction, depth);
    this.#seen.set(memo, diff);
    return diff;
  }

  #definitionsDiffer(
    b: Resolved,
    h: Resolved,
    name: string,
    direction: Direction,
    depth: number,
  ): Difference | undefined {
    const bd = b.definition;
    const hd = h.definition;
    if (bd.expr !== undefined && hd.expr !== undefined) {
      return this.#compare(
        { expr: bd.expr, at: b.at },
        { expr: hd.expr, at: h.at },
        direction,
        depth + 1,
      );
    }
    if (bd.key !== hd.key) {
      return {
        path: h.at.path,
        line: hd.line,
        why: `the definition of "${name}" changed`,
      };
    }
    // Same source: what it refers to must be unchanged too.
    for (const ref of hd.refs) {
      const diff = this.compareName(
        // Stryker disable next-line ObjectLiteral,StringLiteral: `compareName` reads only the module of the base side, never its expression
        { expr: { type: "name", line: hd.line, text: ref }, at: b.at },
        // Stryker disable next-line StringLiteral: `compareName` reads of the head's expression only its line, for a name that no longer resolves (the expression itself, whose line is read, is pinned by the tests)
        { expr: { type: "name", line: hd.line, text: ref }, at: h.at },
        ref,
        // Stryker disable next-line StringLiteral: a direction is only ever asked whether it is `widening`; the other spelling only keys the memo apart, so a definition met both ways is compared again, to the result it gave before, unless the depth limit cuts one of the two
        "equal",
        depth + 1,
      );
      if (diff !== undefined) return diff;
    }
    return undefined;
  }

  #compare(
    base: Placed,
    head: Placed,
    direction: Direction,
    depth: number,
  ): Difference | undefined {
    const b = base.expr;
    const h = head.expr;
    const here = (why: string): Difference => ({
      path: head.at.path,
      line: h.line,
      why,
    });
    if (depth > 24) return here("the expression nests too deep to compare");
    if (b.type === "opaque" || h.type === "opaque") {
      return exprKey(b) === exprKey(h)
        ? undefined
        : here("it is too large to compare");
    }
    // Stryker disable next-line ConditionalExpression,LogicalOperator: every identifier is copied as a name, and no other expression carries a name's text (the whole condition is pinned by the tests of names)
    if (b.type === "name" && h.type === "name" && b.text === h.text) {
      // Stryker disable next-line StringLiteral: a name always carries its text
      return this.compareName(base, head, h.text ?? "", direction, depth);
    }
    if (h.type === "name" || b.type === "name") {
      // Stryker disable next-line ConditionalExpression: another expression has no text a definition is named by, so expanding it gives it back unchanged (expanding a name is pinned by the tests of names)
      const hExpanded = h.type === "name"
        ? this.#expand(this.#head, head)
        : head;
      // Stryker disable next-line ConditionalExpression: another expression has no text a definition is named by, so expanding it gives it back unchanged (expanding a name is pinned by the tests of names)
      const bExpanded = b.type === "name"
        ? this.#expand(this.#base, base)
        : base;
      if (hExpanded !== head || bExpanded !== base) {
        return this.#compare(bExpanded, hExpanded, direction, depth + 1);
      }
      return here(`"${textOf(h)}" is not "${textOf(b)}"`);
    }
    if (direction === "widening") {
      // A helper that only returns a strategy stands for that strategy:
      // judged by width, as the same strategy written inline would be.
      const bInline = inlineCall(this.#base, base);
      const hInline = inlineCall(this.#head, head);
      if (bInline !== undefined || hInline !== undefined) {
        return this.#compare(
          bInline ?? base,
          hInline ?? head,
          direction,
          depth + 1,
        );
      }
    }
    if (b.children === undefined || h.children === undefined) {
      return exprKey(b) === exprKey(h)
        ? undefined
        : here(`${textOf(h)} is not ${textOf(b)}`);
    }
    if (direction === "widening") {
      const widened = this.#widening(base, head, depth);
      if (widened !== "unknown") return widened;
    }
    if (b.type !== h.type || b.children.length !== h.children.length) {
      return here(`${textOf(h)} is not ${textOf(b)}`);
    }
    for (let i = 0; i < h.children.length; i++) {
      const diff = this.#compare(
        { expr: b.children[i] as PythonExpr, at: base.at },
        { expr: h.children[i] as PythonExpr, at: head.at },
        // Stryker disable StringLiteral: a direction is only ever asked whether it is `widening`; the other spelling only keys the memo apart, so a definition met both ways is compared again, to the result it gave before, unless the depth limit cuts one of the two
        direction === "widening" && b.type === "call"
          ? "widening"
          : direction === "widening" && isContainer(b.type)
          ? "widening"
          : "equal",
        // Stryker restore StringLiteral
        depth + 1,
      );
      if (diff !== undefined) return diff;
    }
    return undefined;
  }

  /** A name's assigned expression, when it has exactly one plain assignment. */
  #expand(side: NameSide, placed: Placed): Placed {
    // Stryker disable next-line StringLiteral: only names are expanded, and a name always carries its text
    const resolved = resolveName(side, placed.at, placed.expr.text ?? "");
    if (resolved?.definition.expr === undefined) return placed;
    return { expr: resolved.definition.expr, at: resolved.at };
  }

  /** Widening forms; `unknown` when none applies (fall back to structure). */
  #widening(
    base: Placed,
    head: Placed,
    depth: number,
  ): Difference | undefined | "unknown" {
    const b = base.expr;
    const h = head.expr;
    // `x.filter(f)` at base, `x` (or wider) at head.
    const bFiltered = methodCall(b, "filter");
    const hFiltered = methodCall(h, "filter");
    if (bFiltered !== undefined && hFiltered === undefined) {
      return this.#compare(
        { expr: bFiltered, at: base.at },
        head,
        "widening",
        depth + 1,
      );
    }
    // `base | other` at head: a union is at least as wide.
    // Stryker disable next-line OptionalChaining,ConditionalExpression: a binary operator always has its three children, and no other expression has the `|` token as its second child
    if (h.type === "binary_operator" && h.children?.[1]?.text === "|") {
      const left = h.children[0] as PythonExpr;
      if (
        this.#compare(
          base,
          { expr: left, at: head.at },
          "widening",
          depth + 1,
        ) === undefined
      ) {
        return undefined;
      }
    }
    if (b.type !== "call" || h.type !== "call") return "unknown";
    const bCallee = b.children?.[0] as PythonExpr;
    const hCallee = h.children?.[0] as PythonExpr;
    const calleeDiff = this.#compare(
      { expr: bCallee, at: base.at },
      { expr: hCallee, at: head.at },
      // Stryker disable next-line StringLiteral: a direction is only ever asked whether it is `widening`; the other spelling only keys the memo apart, so a definition met both ways is compared again, to the result it gave before, unless the depth limit cuts one of the two
      "equal",
      depth + 1,
    );
    if (calleeDiff !== undefined) return calleeDiff;
    const strategy = strategyName(hCallee);
    const bArgs = callArguments(b, strategy);
    const hArgs = callArguments(h, strategy);
    if (bArgs === undefined || hArgs === undefined) return "unknown";
    const here = (why: string): Difference => ({
      path: head.at.path,
      line: h.line,
      why,
    });
    if (strategy === "sampled_from" || strategy === "one_of") {
      return this.#superset(base, head, bArgs, hArgs, strategy, depth);
    }
    for (const [name, hValue] of hArgs) {
      const bValue = bArgs.get(name);
      if (bValue === undefined) {
        if (LOWER.has(name) || UPPER.has(name)) {
          return here(`it adds the bound ${name}=${textOf(hValue)}`);
        }
        return here(`it adds the argument ${name}=${textOf(hValue)}`);
      }
      if (LOWER.has(name) || UPPER.has(name)) {
        // A bound is judged by its value, followed through module-level
        // constants on each side: the same name may stand for another number.
        const bn = numberAt(this.#base, { expr: bValue, at: base.at });
        const hn = numberAt(this.#head, { expr: hValue, at: head.at });
        if (bn === undefined || hn === undefined) {
          const same = this.#compare(
            { expr: bValue, at: base.at },
            { expr: hValue, at: head.at },
            // Stryker disable next-line StringLiteral: a direction is only ever asked whether it is `widening`; the other spelling only keys the memo apart, so a definition met both ways is compared again, to the result it gave before, unless the depth limit cuts one of the two
            "equal",
            depth + 1,
          );
          if (same === undefined) continue;
          return here(
            `${name} changed from ${textOf(bValue)} to ${textOf(hValue)}`,
          );
        }
        if (LOWER.has(name) ? hn > bn : hn < bn) {
          return here(
            `${name} narrowed from ${describe(bValue, bn)} to ${
              describe(hValue, hn)
            }`,
          );
        }
        continue;
      }
      const diff = this.#compare(
        { expr: bValue, at: base.at },
        { expr: hValue, at: head.at },
        "widening",
        depth + 1,
      );
      if (diff !== undefined) return diff;
    }
    for (const name of bArgs.keys()) {
      if (hArgs.has(name)) continue;
      // Dropping a bound widens; dropping anything else is a change.
      if (!LOWER.has(name) && !UPPER.has(name)) {
        return here(`it drops the argument ${name}`);
      }
    }
    return undefined;
  }

  #superset(
    base: Placed,
    head: Placed,
    bArgs: Map<string, PythonExpr>,
    hArgs: Map<string, PythonExpr>,
    strategy: string,
    _depth: number,
  ): Difference | undefined {
    const here = (why: string): Difference => ({
      path: head.at.path,
      line: head.expr.line,
      why,
    });
    const elements = (
      args: Map<string, PythonExpr>,
      placed: Placed,
      side: NameSide,
    ): string[] | undefined => {
      if (strategy === "one_of") {
        // Stryker disable next-line MethodExpression,StringLiteral: one_of takes its strategies by position only; a keyword argument is a TypeError in Python before anything is drawn, so no running test has one
        return [...args.entries()].filter(([k]) => k.startsWith("#")).map((
          [, v],
        ) => exprKey(v));
      }
      let list = args.get("elements");
      if (list?.type === "name") {
        list = this.#expand(side, { expr: list, at: placed.at }).expr;
      }
      if (list === undefined || !isContainer(list.type)) return undefined;
      // Stryker disable next-line ArrayDeclaration: a container always has children, its brackets at least
      return (list.children ?? []).filter((c) =>
        // Stryker disable next-line Regex,ConditionalExpression,StringLiteral: only leaves have text, a leaf always carries it, and the only leaves that start or end with a bracket or a comma are those tokens themselves (the brackets and commas left out are pinned by the sampled_from tests)
        c.children !== undefined || !/^[,()[\]{}]$/.test(c.text ?? "")
      ).map(exprKey);
    };
    const was = elements(bArgs, base, this.#base);
    const is = elements(hArgs, head, this.#head);
    if (was === undefined || is === undefined) {
      return exprKey(base.expr) === exprKey(head.expr)
        ? undefined
        : here(`the ${strategy} choices changed`);
    }
    const missing = was.filter((key) => !is.includes(key));
    return missing.length === 0
      ? undefined
      : here(`${strategy} lost ${missing.length} of its choices`);
  }
}

function isContainer(type: string): boolean {
  return type === "list" || type === "tuple" || type === "set" ||
    type === "argument_list";
}

/** `x` for `x.<method>(...)`, else undefined. */
function methodCall(expr: PythonExpr, method: string): PythonExpr | undefined {
  if (expr.type !== "call") return undefined;
  // Stryker disable next-line OptionalChaining: a call always has its callee
  const callee = expr.children?.[0];
  // Stryker disable next-line OptionalChaining: a call always has its callee
  if (callee?.type === "attribute") {
    // Stryker disable next-line OptionalChaining: an attribute always has its children
    const attribute = callee.children?.[callee.children.length - 1];
    // Stryker disable next-line OptionalChaining: an attribute always has its children
    if (attribute?.text === method) return callee.children?.[0];
  }
  // `st.filter` is not a method call on a strategy.
  return undefined;
}

function strategyName(callee: PythonExpr): string {
  // Stryker disable next-line ConditionalExpression,StringLiteral: a name always carries its text, and a callee that is no name has no text that names a strategy: it is read as a strategy without positional parameters, as the empty name is (reading a name's text is pinned by the tests of strategies)
  const text = callee.type === "name" ? callee.text ?? "" : "";
  // Stryker disable next-line ConditionalExpression,MethodExpression: no name ends with a dot, and no strategy of hypothesis.strategies has a dot after that prefix, so its last name is what is left (always cutting the prefix is pinned by the tests of strategies from modules pawl does not know)
  if (text.startsWith(STRATEGIES)) return text.slice(STRATEGIES.length);
  return text.slice(text.lastIndexOf(".") + 1);
}

/** Arguments by name: positional ones by the strategy's parameter names, else `#0`, `#1`. */
function callArguments(
  call: PythonExpr,
  strategy: string,
): Map<string, PythonExpr> | undefined {
  // Stryker disable next-line OptionalChaining: a call always has its arguments as its second child
  const list = call.children?.[1];
  // Stryker disable next-line ConditionalExpression: a call always has its arguments as its second child (their type is pinned by the tests of calls that are compared as written)
  if (list === undefined || list.type !== "argument_list") return undefined;
  const names = POSITIONAL[strategy] ?? [];
  const out = new Map<string, PythonExpr>();
  let index = 0;
  // Stryker disable next-line ArrayDeclaration: an argument list always has children, its parentheses at least
  for (const arg of list.children ?? []) {
    // Stryker disable next-line Regex,ConditionalExpression,StringLiteral: only leaves have text, a leaf always carries it, and the only leaves that start or end with a parenthesis or a comma are those tokens themselves (the tokens left out are pinned by the tests of arguments)
    if (arg.children === undefined && /^[,()]$/.test(arg.text ?? "")) continue;
    if (arg.type === "keyword_argument") {
      // Stryker disable next-line OptionalChaining: a keyword argument always has its name and its value
      const name = arg.children?.[0]?.text;
      // Stryker disable next-line OptionalChaining: a keyword argument always has its name and its value
      const value = arg.children?.[2];
      // Stryker disable next-line ConditionalExpression,LogicalOperator: a keyword argument always has its name and its value
      if (name === undefined || value === undefined) return undefined;
      out.set(name, value);
      continue;
    }
    if (arg.type === "list_splat" || arg.type === "dictionary_splat") {
      return undefined;
    }
    out.set(names[index] ?? `#${index}`, arg);
    index++;
  }
  return out;
}

/**
 * The value of a numeric literal expression (`-5`, `10**6`, `2.5`), else
 * undefined; `resolve` gives the value of a name, where names may stand
 * for numbers.
 */
export function numberOf(
  expr: PythonExpr,
  resolve?: (name: string) => number | undefined,
): number | undefined {
  if (expr.type === "integer" || expr.type === "float") {
    const value = Number(expr.text);
    return Number.isNaN(value) ? undefined : value;
  }
  // Stryker disable next-line StringLiteral: a name always carries its text
  if (expr.type === "name") return resolve?.(expr.text ?? "");
  // Stryker disable next-line ArrayDeclaration: a unary or binary operator always has children, and nothing else is read as a number
  const kids = expr.children ?? [];
  // Stryker disable next-line ConditionalExpression,LogicalOperator: a unary operator always has two children, and no other expression has two children with `-` or `+` first
  if (expr.type === "unary_operator" && kids.length === 2) {
    const value = numberOf(kids[1] as PythonExpr, resolve);
    if (value === undefined) return undefined;
    // Stryker disable next-line OptionalChaining: a unary operator always has its operator
    const operator = kids[0]?.text;
    return operator === "-" ? -value : operator === "+" ? value : undefined;
  }
  // Stryker disable next-line ConditionalExpression,LogicalOperator: a binary operator always has three children, and no other expression has three with `**`, `*`, `+` or `-` in the middle
  if (expr.type === "binary_operator" && kids.length === 3) {
    const left = numberOf(kids[0] as PythonExpr, resolve);
    const right = numberOf(kids[2] as PythonExpr, resolve);
    if (left === undefined || right === undefined) return undefined;
    // Stryker disable next-line OptionalChaining: a binary operator always has its operator
    switch (kids[1]?.text) {
      case "**":
        return left ** right;
      case "*":
        return left * right;
      case "+":
        return left + right;
      case "-":
        return left - right;
    }
  }
  return undefined;
}

/** Source-like text of an expression, for messages. */
export function textOf(expr: PythonExpr): string {
  // Stryker disable next-line StringLiteral: a leaf always carries its text
  if (expr.children === undefined) return expr.text ?? "";
  const text = expr.children.map(textOf).join("");
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/** A bound's value, names followed to their one module-level assignment. */
function numberAt(
  side: NameSide,
  placed: Placed,
  depth = 0,
): number | undefined {
  if (depth > 8) return undefined;
  return numberOf(placed.expr, (name) => {
    const resolved = resolveName(side, placed.at, name);
    if (resolved?.definition.expr === undefined) return undefined;
    const expr = resolved.definition.expr;
    return numberAt(side, { expr, at: resolved.at }, depth + 1);
  });
}

/** `MAX_LEN (5)` for a bound written as a name, else its text. */
function describe(expr: PythonExpr, value: number): string {
  const text = textOf(expr);
  return text === String(value) ? text : `${text} (${value})`;
}

/**
 * A call of a helper that only returns an expression (see
 * `ReturnedExpr`), as that expression with the arguments in place of the
 * parameters; undefined when the call is not one. Arguments that name
 * something are substituted only within one module, where they mean the
 * same at the call and in the helper.
 */
function inlineCall(side: NameSide, placed: Placed): Placed | undefined {
  const call = placed.expr;
  // Stryker disable next-line ConditionalExpression: a shortcut: only a call has a name followed by an argument list, which `callArguments` asks for
  if (call.type !== "call") return undefined;
  // Stryker disable next-line OptionalChaining: a call always has its callee
  const callee = call.children?.[0];
  // Stryker disable next-line ConditionalExpression,OptionalChaining: a call always has its callee, and a callee that is no name has no text that a definition is named by
  if (callee?.type !== "name") return undefined;
  // Stryker disable next-line StringLiteral: a name always carries its text
  const resolved = resolveName(side, placed.at, callee.text ?? "");
  if (resolved?.definition.returns === undefined) return undefined;
  const returns = resolved.definition.returns;
  // Stryker disable next-line StringLiteral: the strategy's name only picks positional parameter names, and no strategy is named either way
  const args = callArguments(call, "");
  if (args === undefined || args.size !== returns.params.length) {
    return undefined;
  }
  const values = new Map<string, PythonExpr>();
  returns.params.forEach((param, i) => {
    const value = args.get(param) ?? args.get(`#${i}`);
    if (value !== undefined) values.set(param, value);
  });
  if (values.size !== returns.params.length) return undefined;
  const elsewhere = resolved.at.path !== placed.at.path;
  for (const value of values.values()) {
    if (elsewhere && hasName(value)) return undefined;
  }
  const expr = substitute(returns.expr, values);
  return expr === undefined ? undefined : { expr, at: resolved.at };
}

function hasName(expr: PythonExpr): boolean {
  return expr.type === "name" || (expr.children ?? []).some(hasName);
}

function namesIn(expr: PythonExpr): string[] {
  // Stryker disable next-line StringLiteral: a name always carries its text
  if (expr.type === "name") return [expr.text ?? ""];
  return (expr.children ?? []).flatMap(namesIn);
}

/** Binders whose names would capture a parameter. */
const BINDERS = new Set(["lambda_parameters", "for_in_clause"]);

/**
 * `expr` with each parameter name replaced by its value; undefined where
 * a parameter is used as `param.attr` or bound again inside.
 */
function substitute(
  expr: PythonExpr,
  values: ReadonlyMap<string, PythonExpr>,
): PythonExpr | undefined {
  // Stryker disable next-line ConditionalExpression,BlockStatement: a shortcut: with no values every node is copied as it is
  if (values.size === 0) return expr;
  if (expr.type === "name") {
    // Stryker disable next-line StringLiteral: a name always carries its text
    const text = expr.text ?? "";
    const value = values.get(text);
    if (value !== undefined) return value;
    const head = text.split(".")[0] as string;
    return values.has(head) ? undefined : expr;
  }
  if (expr.children === undefined) return expr;
  if (BINDERS.has(expr.type)) {
    // A lambda or comprehension may bind a parameter's name again.
    const targets = expr.type === "for_in_clause"
      ? expr.children.slice(1, 2)
      : expr.children;
    if (targets.some((t) => namesIn(t).some((n) => values.has(n)))) {
      return undefined;
    }
  }
  const children: PythonExpr[] = [];
  expr.children.forEach((child, i) => {
    // A keyword's name is not a use of the parameter it may spell.
    const keep = expr.type === "keyword_argument" && i === 0;
    children.push(keep ? child : substitute(child, values) ?? poison);
  });
  if (children.includes(poison)) return undefined;
  return { ...expr, children };
}

// Stryker disable next-line ObjectLiteral,StringLiteral: poison never leaves `substitute`, which only compares it by identity
const poison: PythonExpr = { type: "opaque", line: 0 };
