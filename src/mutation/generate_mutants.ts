/**
 * Mutants of one Python file, read from its tree-sitter parse: operator
 * flips and swaps, constants off by one or emptied, statements removed, an
 * early `return`, negated conditions and changed slices, inside function
 * bodies only. A change whose text equals the original, or that is
 * equivalent by construction (`x + 0` → `x - 0`, `a[0:n]` → `a[:n]`,
 * `p and p` → `p or p`), is never made. Pure: the parser is passed in.
 *
 * @module
 */
import { createHash } from "node:crypto";
import type { Node } from "web-tree-sitter";
import type { PythonParser } from "../python/load_python_parser.ts";
import {
  type Mutant,
  MUTATION_OPERATORS,
  type MutationOperator,
} from "./mutant.ts";

/** Options for {@linkcode generateMutants}. */
export interface GenerateMutantsOptions {
  /** Operators to apply (default: all). */
  operators?: readonly MutationOperator[];
  /** Which functions (by qualified name) to mutate (default: every one). */
  include?: (qualname: string) => boolean;
}

const COMPARISON: Readonly<Record<string, string>> = {
  "<": "<=",
  "<=": "<",
  ">": ">=",
  ">=": ">",
  "==": "!=",
  "!=": "==",
  "in": "not in",
  "not in": "in",
  "is": "is not",
  "is not": "is",
};

const ARITHMETIC: Readonly<Record<string, string>> = {
  "+": "-",
  "-": "+",
  "*": "/",
  "/": "*",
  "//": "/",
  "%": "//",
  "**": "*",
  "<<": ">>",
  ">>": "<<",
  "&": "|",
  "|": "&",
  "^": "&",
};

const AUGMENTED: Readonly<Record<string, string>> = {
  "+=": "-=",
  "-=": "+=",
  "*=": "/=",
  "/=": "*=",
  "//=": "/=",
  "%=": "//=",
};

/** Statements a `pass` may stand in for. */
const REMOVABLE = new Set([
  "expression_statement",
  "raise_statement",
  "assert_statement",
  "delete_statement",
]);

/** Nodes whose body is a scope of its own, mutated as its own function. */
const SCOPES = new Set(["function_definition", "class_definition"]);

interface Candidate {
  start: number;
  end: number;
  replacement: string;
  operator: MutationOperator;
}

/**
 * Every mutant of `text` (the file `file`), sorted by position, operator
 * and replacement.
 *
 * @example
 * ```ts ignore
 * const parser = await loadPythonParser();
 * const mutants = generateMutants(parser, "m.py", "def f(a):\n    return a < 1\n");
 * ```
 */
export function generateMutants(
  parser: PythonParser,
  file: string,
  text: string,
  options: GenerateMutantsOptions = {},
): Mutant[] {
  const operators = new Set(options.operators ?? MUTATION_OPERATORS);
  const include = options.include ?? (() => true);
  return parser.withTree(text, (tree) => {
    const out = new Map<string, Mutant>();
    for (const fn of functionsOf(tree.rootNode, [])) {
      if (!include(fn.qualname)) continue;
      const candidates: Candidate[] = [];
      collectFunction(fn.node, text, candidates);
      for (const c of candidates) {
        if (!operators.has(c.operator)) continue;
        // Stryker disable next-line ConditionalExpression: the one change that can equal its original, a returned None, is already skipped where it is made
        if (text.slice(c.start, c.end) === c.replacement) continue;
        const mutant = toMutant(file, fn.qualname, text, c);
        out.set(`${c.start}:${c.end}:${c.replacement}`, mutant);
      }
    }
    return [...out.values()].sort((a, b) =>
      a.start - b.start || a.end - b.end ||
      MUTATION_OPERATORS.indexOf(a.operator) -
        MUTATION_OPERATORS.indexOf(b.operator) ||
      (a.replacement < b.replacement
        ? -1
        // Stryker disable next-line EqualityOperator,ConditionalExpression: no two mutants share start, end and replacement (one per key of `out`), so equal replacements never meet here
        : a.replacement > b.replacement
        ? 1
        : 0)
    );
  });
}

/** A function definition and its qualified name. */
export interface FunctionNode {
  /** `Class.method`, `outer.inner`. */
  qualname: string;
  /** The `function_definition` node. */
  node: Node;
}

/** Every function definition under `node`, with qualified names. */
export function functionsOf(node: Node, prefix: string[]): FunctionNode[] {
  const out: FunctionNode[] = [];
  for (const child of node.namedChildren) {
    // Stryker disable next-line ConditionalExpression: a node's children are never null; the check only narrows the type
    if (child === null) continue;
    if (SCOPES.has(child.type)) {
      // Stryker disable next-line StringLiteral,OptionalChaining: the grammar gives every def and class a name; the fallback only narrows the type
      const name = child.childForFieldName("name")?.text ?? "?";
      const qual = [...prefix, name];
      if (child.type === "function_definition") {
        out.push({ qualname: qual.join("."), node: child });
      }
      const body = child.childForFieldName("body");
      // Stryker disable next-line ConditionalExpression: the grammar gives every def and class a body; the check only narrows the type
      if (body !== null) out.push(...functionsOf(body, qual));
    } else if (!isExpression(child)) {
      // Statements (decorated definitions, if/try at module level) may
      // hold definitions; expressions hold none worth mutating.
      out.push(...functionsOf(child, prefix));
    }
  }
  return out;
}

function isExpression(node: Node): boolean {
  // Stryker disable next-line ConditionalExpression,LogicalOperator,StringLiteral: an expression holds no definition; skipping it only saves the walk
  return node.type === "expression_statement" || node.type === "call";
}

function collectFunction(fn: Node, text: string, out: Candidate[]): void {
  const body = fn.childForFieldName("body");
  // Stryker disable next-line ConditionalExpression: the grammar gives every def a body; the check only narrows the type
  if (body === null) return;
  const statements = body.namedChildren.filter((n): n is Node =>
    // Stryker disable next-line ConditionalExpression,LogicalOperator: a node's children are never null; the check only narrows the type
    n !== null && !n.isExtra
  );
  const first = statements.find((s) => !isDocstring(s));
  if (first !== undefined && !isTrivialReturn(first)) {
    const indent = text.slice(
      text.lastIndexOf("\n", first.startIndex - 1) + 1,
      first.startIndex,
    );
    if (/^[ \t]*$/.test(indent)) {
      out.push({
        start: first.startIndex,
        end: first.startIndex,
        replacement: `return None\n${indent}`,
        operator: "return",
      });
    }
  }
  walk(body, text, out);
}

function walk(node: Node, text: string, out: Candidate[]): void {
  collectNode(node, text, out);
  for (const child of node.namedChildren) {
    if (child === null || SCOPES.has(child.type)) continue;
    if (child.type === "decorated_definition") continue;
    walk(child, text, out);
  }
}

function collectNode(node: Node, text: string, out: Candidate[]): void {
  switch (node.type) {
    case "comparison_operator":
      for (const op of node.children) {
        // Stryker disable next-line ConditionalExpression,LogicalOperator: the named children are the operands, whose types are never an operator's, so COMPARISON skips them anyway
        if (op === null || op.isNamed) continue;
        const to = COMPARISON[op.type];
        if (to !== undefined) push(out, op, to, "comparison");
      }
      return;
    case "boolean_operator": {
      const left = node.childForFieldName("left");
      const right = node.childForFieldName("right");
      const op = node.childForFieldName("operator");
      // Stryker disable next-line ConditionalExpression,LogicalOperator: the grammar gives every such operator these fields; the check only narrows the type
      if (left === null || right === null || op === null) return;
      if (left.text === right.text) return;
      push(out, op, op.type === "and" ? "or" : "and", "boolean");
      return;
    }
    case "not_operator": {
      const arg = node.childForFieldName("argument");
      // Stryker disable next-line ConditionalExpression: the grammar gives every not its argument; the check only narrows the type
      if (arg !== null) push(out, node, arg.text, "boolean");
      return;
    }
    case "binary_operator": {
      const op = node.childForFieldName("operator");
      const right = node.childForFieldName("right");
      // Stryker disable next-line ConditionalExpression,LogicalOperator: the grammar gives every such operator these fields; the check only narrows the type
      if (op === null || right === null) return;
      const to = ARITHMETIC[op.type];
      if (to === undefined) return;
      if ((op.type === "+" || op.type === "-") && isZero(right)) return;
      if ((op.type === "*" || op.type === "/") && right.text === "1") return;
      push(out, op, to, "arithmetic");
      return;
    }
    case "augmented_assignment": {
      const op = node.childForFieldName("operator");
      const right = node.childForFieldName("right");
      // Stryker disable next-line ConditionalExpression,LogicalOperator: the grammar gives every such operator these fields; the check only narrows the type
      if (op === null || right === null) return;
      const to = AUGMENTED[op.type];
      if (to === undefined) return;
      if ((op.type === "+=" || op.type === "-=") && isZero(right)) return;
      if ((op.type === "*=" || op.type === "/=") && right.text === "1") return;
      push(out, op, to, "arithmetic");
      return;
    }
    case "integer": {
      if (!/^[0-9][0-9_]*$/.test(node.text)) return;
      const n = BigInt(node.text.replaceAll("_", ""));
      if (n > 0n) push(out, node, String(n - 1n), "constant");
      push(out, node, String(n + 1n), "constant");
      return;
    }
    case "true":
      push(out, node, "False", "constant");
      return;
    case "false":
      push(out, node, "True", "constant");
      return;
    case "string": {
      if (node.parent?.type === "concatenated_string") return;
      if (node.parent?.type === "expression_statement") return;
      const startToken = node.children.find((c) => c?.type === "string_start");
      // Stryker disable next-line Regex,StringLiteral,OptionalChaining: the b is found with or without the quotes after it, and every string has its start token
      const prefix = (startToken?.text ?? "").replace(/["']+$/, "");
      const bytes = /b/i.test(prefix) ? "b" : "";
      const empty = node.namedChildren.every((c) =>
        // Stryker disable next-line ConditionalExpression: a node's children are never null; the check only narrows the type
        c === null || c.type === "string_start" || c.type === "string_end"
      );
      push(out, node, empty ? `${bytes}"pawl"` : `${bytes}""`, "constant");
      return;
    }
    case "return_statement": {
      const value = node.namedChildren.find((c) => c !== null && !c.isExtra);
      if (value === undefined || value === null) return;
      // Stryker disable next-line ConditionalExpression,StringLiteral: a `None` replaced by `None` equals its original, which generateMutants() drops as it drops any such change
      if (value.text === "None") return;
      push(out, value, "None", "return");
      return;
    }
    case "if_statement":
    case "elif_clause":
    case "while_statement": {
      const condition = node.childForFieldName("condition");
      // Stryker disable next-line ConditionalExpression: the grammar gives every if, elif and while its condition; the check only narrows the type
      if (condition !== null) negate(out, condition);
      return;
    }
    case "conditional_expression": {
      // `body if condition else other`; a comment among them is no operand.
      const condition = node.namedChildren.filter((c) => !c?.isExtra)[1];
      // Stryker disable next-line ConditionalExpression,LogicalOperator: a conditional expression always has its three operands; the check only narrows the type
      if (condition !== undefined && condition !== null) {
        negate(out, condition);
      }
      return;
    }
    case "slice":
      sliceMutants(node, out);
      return;
    case "block":
      for (const s of node.namedChildren) {
        // Stryker disable next-line ConditionalExpression: a node's children are never null; the check only narrows the type
        if (s === null || !REMOVABLE.has(s.type)) continue;
        if (isDocstring(s) || isTrivialStatement(s)) continue;
        push(out, s, "pass", "statement");
      }
      return;
  }
  void text;
}

function negate(out: Candidate[], condition: Node): void {
  push(out, condition, `not (${condition.text})`, "negate");
}

/** Drop one bound or the step; dropping `0` as the start, `1` as the step or a `None` is the same slice. */
function sliceMutants(slice: Node, out: Candidate[]): void {
  let colons = 0;
  for (const child of slice.children) {
    // Stryker disable next-line ConditionalExpression: a node's children are never null; the check only narrows the type
    if (child === null) continue;
    if (!child.isNamed) {
      // Stryker disable next-line ConditionalExpression: a slice's only unnamed children are its colons
      if (child.type === ":") colons++;
      continue;
    }
    if (child.isExtra) continue;
    if (child.text === "None") continue;
    if (colons === 0 && isZero(child)) continue;
    if (colons === 2 && child.text === "1") continue;
    push(out, child, "", "slice");
  }
}

function isZero(node: Node): boolean {
  return /^0+$/.test(node.text.replaceAll("_", ""));
}

function isDocstring(statement: Node): boolean {
  if (statement.type !== "expression_statement") return false;
  const only = statement.namedChildren;
  return only.length === 1 &&
    (only[0]?.type === "string" || only[0]?.type === "concatenated_string");
}

function isTrivialStatement(statement: Node): boolean {
  // Stryker disable next-line MethodExpression: a statement's text never starts or ends with blanks
  const text = statement.text.trim();
  return text === "..." || text === "pass";
}

function isTrivialReturn(statement: Node): boolean {
  // Stryker disable next-line MethodExpression: a statement's text never starts or ends with blanks
  const text = statement.text.trim();
  return text === "return" || text === "return None" || text === "pass" ||
    text === "...";
}

function push(
  out: Candidate[],
  node: Node,
  replacement: string,
  operator: MutationOperator,
): void {
  out.push({
    start: node.startIndex,
    end: node.endIndex,
    replacement,
    operator,
  });
}

function toMutant(
  file: string,
  qualname: string,
  text: string,
  c: Candidate,
): Mutant {
  const start = position(text, c.start);
  const end = position(text, c.end);
  const replacement = apart(text, c);
  const id = "m" + createHash("sha256").update(
    JSON.stringify([file, c.start, c.end, replacement]),
  ).digest("hex").slice(0, 12);
  return {
    id,
    file,
    function: qualname,
    line: start.line,
    column: start.column,
    endLine: end.line,
    endColumn: end.column,
    start: c.start,
    end: c.end,
    original: text.slice(c.start, c.end),
    replacement,
    operator: c.operator,
  };
}

const WORD = /[\p{L}\p{N}_]/u;

/**
 * The replacement with a space where it would otherwise run into a word
 * beside it: `while(a)` negated is `while not ((a))`, never `whilenot ((a))`.
 */
function apart(text: string, c: Candidate): string {
  const r = c.replacement;
  const before = WORD.test(r.at(0) ?? "") && WORD.test(text[c.start - 1] ?? "");
  const after = WORD.test(r.at(-1) ?? "") && WORD.test(text[c.end] ?? "");
  return `${before ? " " : ""}${r}${after ? " " : ""}`;
}

function position(text: string, offset: number) {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf("\n"); i !== -1 && i < offset;) {
    line++;
    lineStart = i + 1;
    i = text.indexOf("\n", i + 1);
  }
  return { line, column: offset - lineStart + 1 };
}
