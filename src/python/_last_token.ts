import type { Node } from "web-tree-sitter";

/**
 * The last token of a node that Python's parser would count: comments and
 * line continuations are not tokens, and tree-sitter's blocks keep the
 * comments that follow their last statement (even ones indented less).
 *
 * CPython ends a compound statement at its last such token, so a function's
 * extent runs to the `;` in `def f(): x = 1;` although the assignment
 * itself stops before it.
 */
export function lastToken(node: Node): Node {
  let current = node;
  for (;;) {
    let next: Node | undefined;
    for (let i = current.childCount - 1; i >= 0; i--) {
      const child = current.child(i);
      if (
        child !== null && !child.isExtra && child.endIndex > child.startIndex
      ) {
        next = child;
        break;
      }
    }
    if (next === undefined) return current;
    current = next;
  }
}
