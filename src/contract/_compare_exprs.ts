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
  #seen = new Set<string>();

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
    if (this.#seen.has(memo)) return undefined;
    this.#seen.add(memo);
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
        { expr: { type: "name", line: hd.line, text: ref }, at: b.at },
        { expr: { type: "name", line: hd.line, text: ref }, at: h.at },
        ref,
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
    if (b.type === "name" && h.type === "name" && b.text === h.text) {
      return this.compareName(base, head, h.text ?? "", direction, depth);
    }
    if (h.type === "name" || b.type === "name") {
      const hExpanded = h.type === "name"
        ? this.#expand(this.#head, head)
        : head;
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
        direction === "widening" && b.type === "call"
          ? "widening"
          : direction === "widening" && isContainer(b.type)
          ? "widening"
          : "equal",
        depth + 1,
      );
      if (diff !== undefined) return diff;
    }
    return undefined;
  }

  /** A name's assigned expression, when it has exactly one plain assignment. */
  #expand(side: NameSide, placed: Placed): Placed {
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
        return [...args.entries()].filter(([k]) => k.startsWith("#")).map((
          [, v],
        ) => exprKey(v));
      }
      let list = args.get("elements");
      if (list?.type === "name") {
        list = this.#expand(side, { expr: list, at: placed.at }).expr;
      }
      if (list === undefined || !isContainer(list.type)) return undefined;
      return (list.children ?? []).filter((c) =>
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
  const callee = expr.children?.[0];
  if (callee?.type === "attribute") {
    const attribute = callee.children?.[callee.children.length - 1];
    if (attribute?.text === method) return callee.children?.[0];
  }
  // `st.filter` is not a method call on a strategy.
  return undefined;
}

function strategyName(callee: PythonExpr): string {
  const text = callee.type === "name" ? callee.text ?? "" : "";
  if (text.startsWith(STRATEGIES)) return text.slice(STRATEGIES.length);
  return text.slice(text.lastIndexOf(".") + 1);
}

/** Arguments by name: positional ones by the strategy's parameter names, else `#0`, `#1`. */
function callArguments(
  call: PythonExpr,
  strategy: string,
): Map<string, PythonExpr> | undefined {
  const list = call.children?.[1];
  if (list === undefined || list.type !== "argument_list") return undefined;
  const names = POSITIONAL[strategy] ?? [];
  const out = new Map<string, PythonExpr>();
  let index = 0;
  for (const arg of list.children ?? []) {
    if (arg.children === undefined && /^[,()]$/.test(arg.text ?? "")) continue;
    if (arg.type === "keyword_argument") {
      const name = arg.children?.[0]?.text;
      const value = arg.children?.[2];
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
  if (expr.type === "name") return resolve?.(expr.text ?? "");
  const kids = (expr.children ?? []).filter((c) =>
    !(c.children === undefined && /^[()]$/.test(c.text ?? ""))
  );
  if (expr.type === "unary_operator" && kids.length === 2) {
    const value = numberOf(kids[1] as PythonExpr, resolve);
    if (value === undefined) return undefined;
    return kids[0]?.text === "-"
      ? -value
      : kids[0]?.text === "+"
      ? value
      : undefined;
  }
  if (expr.type === "binary_operator" && kids.length === 3) {
    const left = numberOf(kids[0] as PythonExpr, resolve);
    const right = numberOf(kids[2] as PythonExpr, resolve);
    if (left === undefined || right === undefined) return undefined;
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
    const expr = resolved?.definition.expr;
    if (resolved === undefined || expr === undefined) return undefined;
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
  if (call.type !== "call") return undefined;
  const callee = call.children?.[0];
  if (callee?.type !== "name") return undefined;
  const resolved = resolveName(side, placed.at, callee.text ?? "");
  const returns = resolved?.definition.returns;
  if (resolved === undefined || returns === undefined) return undefined;
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

const poison: PythonExpr = { type: "opaque", line: 0 };
