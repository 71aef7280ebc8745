import type { Node } from "web-tree-sitter";

/** Named children of `node` that are not comments or line continuations. */
export function realChildren(node: Node): Node[] {
  const out: Node[] = [];
  for (const child of node.namedChildren) {
    if (child !== null && !child.isExtra) out.push(child);
  }
  return out;
}
