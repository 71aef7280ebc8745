import type { Node } from "web-tree-sitter";

/**
 * Visit `root` and its descendants in document order, each with its parent
 * (`null` for `root`); cheaper than `node.parent`, which tree-sitter finds
 * by searching down from the root. `visit` returns `false` to skip a node's
 * descendants. An explicit stack, because long operator chains nest deeper
 * than a recursive walk should go.
 */
export function walk(
  root: Node,
  visit: (node: Node, parent: Node | null) => boolean | void,
): void {
  const stack: [Node, Node | null][] = [[root, null]];
  for (let entry = stack.pop(); entry !== undefined; entry = stack.pop()) {
    const [node, parent] = entry;
    if (visit(node, parent) === false) continue;
    const children = node.children;
    for (let i = children.length - 1; i >= 0; i--) {
      const child = children[i];
      if (child !== null && child !== undefined) stack.push([child, node]);
    }
  }
}
