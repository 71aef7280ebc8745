import type { Node } from "web-tree-sitter";
import { realChildren } from "./_real_children.ts";

/** `((x))` → `x`; anything else unchanged. */
export function unwrapParentheses(node: Node): Node {
  let current = node;
  while (current.type === "parenthesized_expression") {
    const inner = realChildren(current)[0];
    if (inner === undefined) break;
    current = inner;
  }
  return current;
}
