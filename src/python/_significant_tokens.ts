import { createHash } from "node:crypto";
import type { Node } from "web-tree-sitter";
import { realChildren } from "./_real_children.ts";
import { walk } from "./_walk.ts";
import { MirrorNode } from "./_mirror_tree.ts";

/** The tokens of a file that change what it does: no comments, no docstrings. */
export class SignificantTokens {
  /** Token texts, in order. */
  readonly texts: string[] = [];
  /** 1-based line of each token. */
  readonly lines: number[] = [];
  #starts: number[] = [];

  /** Read the tokens of a parsed file (one cursor walk: far fewer calls than a node walk). */
  constructor(root: Node) {
    if (root instanceof MirrorNode) {
      this.#readCopy(root);
      return;
    }
    const cursor = root.walk();
    try {
      for (;;) {
        const type = cursor.nodeType;
        let leaf = false;
        if (type === "comment" || type === "line_continuation") {
          // skipped
        } else if (
          type === "expression_statement" && isDocstring(cursor.currentNode)
        ) {
          // skipped
        } else if (type === "string") {
          leaf = true;
        } else if (cursor.gotoFirstChild()) {
          continue;
        } else {
          leaf = cursor.startIndex < cursor.endIndex;
        }
        if (leaf) {
          this.texts.push(cursor.nodeText);
          this.lines.push(cursor.startPosition.row + 1);
          this.#starts.push(cursor.startIndex);
        }
        while (!cursor.gotoNextSibling()) {
          if (!cursor.gotoParent()) return;
        }
      }
    } finally {
      cursor.delete();
    }
  }

  /** The same tokens from the plain-object copy, without a cursor. */
  #readCopy(root: MirrorNode): void {
    const nodes: MirrorNode[] = [root];
    while (nodes.length > 0) {
      const node = nodes.pop() as MirrorNode;
      const type = node.type;
      if (type === "comment" || type === "line_continuation") continue;
      if (
        type === "expression_statement" &&
        isDocstring(node as unknown as Node)
      ) continue;
      const children = node.children;
      if (type !== "string" && children.length > 0) {
        for (let i = children.length - 1; i >= 0; i--) {
          nodes.push(children[i] as MirrorNode);
        }
        continue;
      }
      if (type === "string" || node.startIndex < node.endIndex) {
        this.texts.push(node.text);
        this.lines.push(node.startPosition.row + 1);
        this.#starts.push(node.startIndex);
      }
    }
  }

  /** A digest of the tokens inside `node`: equal when only comments, docstrings or layout differ. */
  keyOf(node: Node): string {
    const from = lowerBound(this.#starts, node.startIndex);
    const to = lowerBound(this.#starts, node.endIndex);
    return createHash("sha1").update(this.texts.slice(from, to).join("\u0001"))
      .digest("base64");
  }
}

/** A statement that is only a string literal (not an f-string): a docstring or a no-op. */
export function isDocstring(statement: Node): boolean {
  const children = realChildren(statement);
  if (children.length !== 1) return false;
  const only = children[0] as Node;
  if (only.type !== "string" && only.type !== "concatenated_string") {
    return false;
  }
  let interpolated = false;
  walk(only, (_node, _parent, type) => {
    if (type === "interpolation") interpolated = true;
    return !interpolated;
  });
  return !interpolated;
}

function lowerBound(sorted: readonly number[], value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((sorted[mid] as number) < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
