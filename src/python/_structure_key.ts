import type { Node } from "web-tree-sitter";
import { unwrapParentheses } from "./_unwrap_parentheses.ts";

/**
 * A key that is equal for two expressions exactly when they have the same
 * syntax tree, ignoring whitespace, comments, line continuations, redundant
 * parentheses and the choice between `'` and `"` quotes.
 */
export function structureKey(expression: Node): string {
  const node = unwrapParentheses(expression);
  // String content keeps its plain text in hidden tokens, so read it whole.
  if (node.childCount === 0 || node.type === "string_content") {
    const text = node.type === "string_start" || node.type === "string_end"
      ? node.text.replaceAll("'", '"')
      : node.text;
    return `${node.type}:${JSON.stringify(text)}`;
  }
  const parts: string[] = [];
  for (const child of node.children) {
    if (child !== null && !child.isExtra) parts.push(structureKey(child));
  }
  return `${node.type}(${parts.join(",")})`;
}
