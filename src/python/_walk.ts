import type { Node } from "web-tree-sitter";
import { MirrorNode } from "./_mirror_tree.ts";

/**
 * Visit `root` and its descendants in document order, each with its parent
 * (`null` for `root`); cheaper than `node.parent`, which tree-sitter finds
 * by searching down from the root. `visit` also gets the node's type and
 * its parent's (`undefined` for `root`), read once per node: every
 * `node.type` is a call into the parser's memory. `visit` returns `false`
 * to skip a node's descendants. An explicit stack, because long operator
 * chains nest deeper than a recursive walk should go.
 *
 * Only named nodes are visited unless `anonymous` is set: punctuation,
 * keywords and operators are leaves that no caller looks for, and skipping
 * them halves the nodes fetched from the parser's memory. (A missing token
 * that tree-sitter inserted to recover from a syntax error may be
 * anonymous; a walk looking for those needs `anonymous`.)
 */
export function walk(
  root: Node,
  visit: (
    node: Node,
    parent: Node | null,
    type: string,
    parentType: string | undefined,
  ) => boolean | void,
  { anonymous = false }: { anonymous?: boolean } = {},
): void {
  if (root instanceof MirrorNode) {
    walkMirror(root, visit as unknown as MirrorVisit, anonymous);
    return;
  }
  const nodes: Node[] = [root];
  const parents: (Node | null)[] = [null];
  const parentTypes: (string | undefined)[] = [undefined];
  while (nodes.length > 0) {
    const node = nodes.pop() as Node;
    const parent = parents.pop() as Node | null;
    const parentType = parentTypes.pop();
    const type = node.type;
    if (visit(node, parent, type, parentType) === false) continue;
    const children = anonymous ? node.children : node.namedChildren;
    for (let i = children.length - 1; i >= 0; i--) {
      const child = children[i];
      if (child !== null && child !== undefined) {
        nodes.push(child);
        parents.push(node);
        parentTypes.push(type);
      }
    }
  }
}

type MirrorVisit = (
  node: MirrorNode,
  parent: MirrorNode | null,
  type: string,
  parentType: string | undefined,
) => boolean | void;

/** {@linkcode walk} over the plain-object copy: each node knows its parent. */
function walkMirror(
  root: MirrorNode,
  visit: MirrorVisit,
  anonymous: boolean,
): void {
  const nodes: MirrorNode[] = [root];
  while (nodes.length > 0) {
    const node = nodes.pop() as MirrorNode;
    const parent = node === root ? null : node.parent;
    const type = node.type;
    if (visit(node, parent, type, parent?.type) === false) continue;
    const children = anonymous ? node.children : node.namedChildren;
    for (let i = children.length - 1; i >= 0; i--) {
      nodes.push(children[i] as MirrorNode);
    }
  }
}
