import { createHash } from "node:crypto";
import type { Node } from "web-tree-sitter";
import { realChildren } from "./_real_children.ts";
import { walk } from "./_walk.ts";

/** The tokens of a file that change what it does: no comments, no docstrings. */
export class SignificantTokens {
  /** Token texts, in order. */
  readonly texts: string[] = [];
  /** 1-based line of each token. */
  readonly lines: number[] = [];
  #starts: number[] = [];

  /** Read the tokens of a parsed file. */
  constructor(root: Node) {
    walk(root, (node, _parent, type) => {
      if (type === "comment") return false;
      if (type === "expression_statement" && isDocstring(node)) return false;
      if (type === "string" || node.childCount === 0) {
        if (node.isExtra && type !== "string") return false;
        if (node.startIndex === node.endIndex) return false;
        this.texts.push(node.text);
        this.lines.push(node.startPosition.row + 1);
        this.#starts.push(node.startIndex);
        return false;
      }
    }, { anonymous: true });
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
