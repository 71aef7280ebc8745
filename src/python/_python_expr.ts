import type { Node } from "web-tree-sitter";
import type { PythonExpr } from "./python_module.ts";
import type { ImportAliases } from "./_import_aliases.ts";
import { unwrapParentheses } from "./_unwrap_parentheses.ts";

/** `a`, `a.b.c`: an identifier or attribute chain without calls or subscripts. */
const DOTTED = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/;

/** Nodes serialised per expression; a larger one becomes `opaque`. */
const MAX_NODES = 4000;

/**
 * A parse-tree-free copy of an expression, so rules can compare decorators
 * and module-level definitions after the tree is freed. Identifiers and
 * attribute chains carry the dotted name the imports make of them;
 * comments, line continuations and redundant parentheses are dropped.
 */
export function pythonExpr(node: Node, aliases: ImportAliases): PythonExpr {
  const budget = { left: MAX_NODES };
  const out = copy(node, aliases, budget);
  if (budget.left < 0) {
    return {
      type: "opaque",
      line: node.startPosition.row + 1,
      text: node.text,
    };
  }
  return out;
}

function copy(
  raw: Node,
  aliases: ImportAliases,
  budget: { left: number },
): PythonExpr {
  const node = unwrapParentheses(raw);
  budget.left--;
  const type = node.type;
  const line = node.startPosition.row + 1;
  if (type === "identifier" || type === "attribute") {
    // A dotted chain read from its text: one call instead of one per link.
    const text = node.text.replace(/\s+/g, "");
    if (DOTTED.test(text)) {
      return { type: "name", line, text: aliases.canonicalText(text) };
    }
    const name = aliases.canonical(node, type);
    if (name !== undefined) return { type: "name", line, text: name };
  }
  if (
    node.childCount === 0 || type === "string" || type === "integer" ||
    type === "float"
  ) {
    return { type, line, text: normalisedLeaf(node, type) };
  }
  const children: PythonExpr[] = [];
  for (const child of node.children) {
    if (child === null || child.isExtra) continue;
    if (budget.left < 0) break;
    children.push(copy(child, aliases, budget));
  }
  return { type, line, children };
}

function normalisedLeaf(node: Node, type: string): string {
  const text = node.text;
  if (type === "integer" || type === "float") return text.replaceAll("_", "");
  if (type === "string") {
    // One spelling for 'a' and "a"; prefixes and triple quotes stay.
    return text.replace(/^([a-zA-Z]*)'''|'''$/g, '$1"""').replace(
      /^([a-zA-Z]*)'|'$/g,
      '$1"',
    );
  }
  return text;
}

/**
 * A key equal for two expressions exactly when they have the same
 * structure (names compared by what the imports make of them).
 */
export function exprKey(expr: PythonExpr): string {
  if (expr.children === undefined) {
    return `${expr.type}:${JSON.stringify(expr.text ?? "")}`;
  }
  return `${expr.type}(${expr.children.map(exprKey).join(",")})`;
}
