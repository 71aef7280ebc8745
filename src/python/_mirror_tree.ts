/**
 * A copy of a tree-sitter parse tree in plain JavaScript objects, read in
 * one cursor walk. The analysis asks each node for its type, children and
 * fields many times over; on the parser's own nodes every one of those
 * questions is a call into WebAssembly, on the copy it is a property read.
 * The copy answers the subset of the `Node` interface the analysis uses,
 * with the same values; it is made only for trees without syntax errors,
 * so no node in it is an error or missing.
 *
 * @module
 */
import type { Node, Tree } from "web-tree-sitter";

/** Types tree-sitter-python may place anywhere as extras. */
const EXTRA_TYPES = new Set(["comment", "line_continuation"]);

/** Where lines start, for positions computed from indexes. */
class LineStarts {
  #starts: number[] = [0];

  constructor(text: string) {
    for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) {
      this.#starts.push(i + 1);
    }
  }

  /** tree-sitter's point for a UTF-16 index: rows end at `\n` only. */
  point(index: number): { row: number; column: number } {
    const starts = this.#starts;
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if ((starts[mid] as number) <= index) lo = mid;
      else hi = mid - 1;
    }
    return { row: lo, column: index - (starts[lo] as number) };
  }
}

/** One node of the copy; see the module doc. */
export class MirrorNode {
  readonly id: number;
  readonly type: string;
  readonly isNamed: boolean;
  readonly isExtra: boolean;
  readonly startIndex: number;
  readonly endIndex: number;
  readonly parent: MirrorNode | null;
  readonly children: MirrorNode[] = [];
  /** Field name of this node in its parent, or null. */
  readonly field: string | null;
  readonly #text: string;
  readonly #lines: LineStarts;
  #namedChildren: MirrorNode[] | undefined;

  constructor(
    fields: {
      id: number;
      type: string;
      isNamed: boolean;
      isExtra: boolean;
      startIndex: number;
      endIndex: number;
      field: string | null;
    },
    parent: MirrorNode | null,
    text: string,
    lines: LineStarts,
  ) {
    this.id = fields.id;
    this.type = fields.type;
    this.isNamed = fields.isNamed;
    this.isExtra = fields.isExtra;
    this.startIndex = fields.startIndex;
    this.endIndex = fields.endIndex;
    this.field = fields.field;
    this.parent = parent;
    this.#text = text;
    this.#lines = lines;
  }

  get text(): string {
    return this.#text.slice(this.startIndex, this.endIndex);
  }

  get startPosition(): { row: number; column: number } {
    return this.#lines.point(this.startIndex);
  }

  get endPosition(): { row: number; column: number } {
    return this.#lines.point(this.endIndex);
  }

  /** Always false: the copy is made only of trees without errors. */
  get hasError(): boolean {
    return false;
  }

  /** Always false, as {@linkcode MirrorNode.hasError}. */
  get isError(): boolean {
    return false;
  }

  /** Always false, as {@linkcode MirrorNode.hasError}. */
  get isMissing(): boolean {
    return false;
  }

  get childCount(): number {
    return this.children.length;
  }

  get namedChildren(): MirrorNode[] {
    // Shared by every caller, so frozen: a caller that sorted or spliced it
    // would otherwise change what the next one sees.
    this.#namedChildren ??= Object.freeze(
      this.children.filter((c) => c.isNamed),
    ) as MirrorNode[];
    return this.#namedChildren;
  }

  get firstNamedChild(): MirrorNode | null {
    return this.namedChildren[0] ?? null;
  }

  child(index: number): MirrorNode | null {
    return this.children[index] ?? null;
  }

  childForFieldName(name: string): MirrorNode | null {
    for (const child of this.children) {
      if (child.field === name) return child;
    }
    return null;
  }

  childrenForFieldName(name: string): MirrorNode[] {
    return this.children.filter((child) => child.field === name);
  }

  equals(other: MirrorNode): boolean {
    return other.id === this.id;
  }

  walk(): MirrorCursor {
    return new MirrorCursor(this);
  }
}

/** The part of tree-sitter's `TreeCursor` the analysis uses, over the copy. */
export class MirrorCursor {
  #node: MirrorNode;
  #root: MirrorNode;
  /** Index of each node on the path from the root in its parent's children. */
  #indexes: number[] = [];

  constructor(root: MirrorNode) {
    this.#node = root;
    this.#root = root;
  }

  get currentNode(): MirrorNode {
    return this.#node;
  }
  get nodeType(): string {
    return this.#node.type;
  }
  get nodeText(): string {
    return this.#node.text;
  }
  get startIndex(): number {
    return this.#node.startIndex;
  }
  get endIndex(): number {
    return this.#node.endIndex;
  }
  get startPosition(): { row: number; column: number } {
    return this.#node.startPosition;
  }

  gotoFirstChild(): boolean {
    const first = this.#node.children[0];
    if (first === undefined) return false;
    this.#node = first;
    this.#indexes.push(0);
    return true;
  }

  gotoNextSibling(): boolean {
    const parent = this.#node.parent;
    if (this.#node === this.#root || parent === null) return false;
    const index = (this.#indexes[this.#indexes.length - 1] as number) + 1;
    const next = parent.children[index];
    if (next === undefined) return false;
    this.#node = next;
    this.#indexes[this.#indexes.length - 1] = index;
    return true;
  }

  gotoParent(): boolean {
    const parent = this.#node.parent;
    if (this.#node === this.#root || parent === null) return false;
    this.#node = parent;
    this.#indexes.pop();
    return true;
  }

  delete(): void {}
}

/**
 * The copy of `tree` (parsed from `text`), or `undefined` when the tree
 * holds a syntax error: the analysis then reads the parser's own nodes.
 */
export function mirrorTree(tree: Tree, text: string): Node | undefined {
  if (tree.rootNode.hasError) return undefined;
  const { types, fields } = tree.language;
  const named = new Map<number, boolean>();
  const isNamed = (typeId: number) => {
    let value = named.get(typeId);
    if (value === undefined) {
      value = tree.language.nodeTypeIsNamed(typeId);
      named.set(typeId, value);
    }
    return value;
  };
  const lines = new LineStarts(text);
  const cursor = tree.walk();
  let id = 0;
  try {
    const make = (parent: MirrorNode | null): MirrorNode => {
      const typeId = cursor.nodeTypeId;
      const type = types[typeId] || "ERROR";
      const node = new MirrorNode(
        {
          id: id++,
          type,
          isNamed: isNamed(typeId),
          // Only the extras' own types can be extras; ask the parser for those.
          isExtra: EXTRA_TYPES.has(type) && cursor.currentNode.isExtra,
          startIndex: cursor.startIndex,
          endIndex: cursor.endIndex,
          field: fields[cursor.currentFieldId] ?? null,
        },
        parent,
        text,
        lines,
      );
      parent?.children.push(node);
      return node;
    };
    const root = make(null);
    let current = root;
    // Depth-first with an explicit path: deep operator chains nest further
    // than a recursive walk should go.
    for (;;) {
      if (cursor.gotoFirstChild()) {
        current = make(current);
        continue;
      }
      for (;;) {
        // Its children are complete: freeze them, as namedChildren.
        Object.freeze(current.children);
        if (current === root) return root as unknown as Node;
        if (cursor.gotoNextSibling()) {
          current = make(current.parent);
          break;
        }
        cursor.gotoParent();
        current = current.parent as MirrorNode;
      }
    }
  } finally {
    cursor.delete();
  }
}
