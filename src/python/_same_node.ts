import type { Node } from "web-tree-sitter";

/** Whether `a` is the very node `b` (tree-sitter hands out fresh wrappers). */
export function sameNode(a: Node | null | undefined, b: Node): boolean {
  return a !== null && a !== undefined && a.equals(b);
}
