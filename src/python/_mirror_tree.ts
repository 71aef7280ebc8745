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
import type { Node, Tree, TreeCursor } from "web-tree-sitter";
import type { CursorCalls } from "./load_python_parser.ts";

/** Types tree-sitter-python may place anywhere as extras. */
const EXTRA_TYPES = new Set(["comment", "line_continuation"]);

/** The children of a node that has none: one frozen list for all. */
const NO_CHILDREN: MirrorNode[] = Object.freeze([]) as unknown as MirrorNode[];

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

/** The text a copy was parsed from, and where its lines start. */
interface Source {
  text: string;
  lines: LineStarts;
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
  #children: MirrorNode[] = NO_CHILDREN;
  /** Field name of this node in its parent, or null. */
  readonly field: string | null;
  readonly #source: Source;
  #namedChildren: MirrorNode[] = NO_CHILDREN;

  // Positional, not an object of fields: one allocation per node fewer.
  constructor(
    id: number,
    type: string,
    isNamed: boolean,
    isExtra: boolean,
    startIndex: number,
    endIndex: number,
    field: string | null,
    parent: MirrorNode | null,
    source: Source,
  ) {
    this.id = id;
    this.type = type;
    this.isNamed = isNamed;
    this.isExtra = isExtra;
    this.startIndex = startIndex;
    this.endIndex = endIndex;
    this.field = field;
    this.parent = parent;
    this.#source = source;
  }

  get text(): string {
    return this.#source.text.slice(this.startIndex, this.endIndex);
  }

  get startPosition(): { row: number; column: number } {
    return this.#source.lines.point(this.startIndex);
  }

  get endPosition(): { row: number; column: number } {
    return this.#source.lines.point(this.endIndex);
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

  /** Frozen, as {@linkcode MirrorNode.namedChildren}. */
  get children(): MirrorNode[] {
    return this.#children;
  }

  get childCount(): number {
    return this.#children.length;
  }

  /**
   * Shared by every caller, so frozen (by {@linkcode MirrorNode.seal}): a
   * caller that sorted or spliced it would otherwise change what the next
   * one sees. Collected as the copy is made, not filtered on each ask.
   */
  get namedChildren(): MirrorNode[] {
    return this.#namedChildren;
  }

  /** Append `child` (made with this node as its parent) while copying. */
  adopt(child: MirrorNode): void {
    if (this.#children === NO_CHILDREN) this.#children = [child];
    else this.#children.push(child);
    if (!child.isNamed) return;
    if (this.#namedChildren === NO_CHILDREN) this.#namedChildren = [child];
    else this.#namedChildren.push(child);
  }

  /** Its children are complete: freeze both lists (a leaf's are frozen). */
  seal(): void {
    if (this.#children === NO_CHILDREN) return;
    Object.freeze(this.#children);
    Object.freeze(this.#namedChildren);
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
 * With `calls` the walk calls the binding's cursor functions directly
 * ({@linkcode CursorCalls}); the copy is the same either way.
 */
export function mirrorTree(
  tree: Tree,
  text: string,
  calls?: CursorCalls,
): Node | undefined {
  if (tree.rootNode.hasError) return undefined;
  const { types, fields } = tree.language;
  const named: boolean[] = [];
  const isNamed = (typeId: number) =>
    named[typeId] ??= tree.language.nodeTypeIsNamed(typeId);
  const source: Source = { text, lines: new LineStarts(text) };
  const cursor = tree.walk();
  const walker: Walker = calls === undefined
    ? new BindingCursor(cursor)
    : new DirectCursor(calls, tree, cursor);
  let id = 0;
  try {
    const make = (parent: MirrorNode | null): MirrorNode => {
      const typeId = walker.nodeTypeId;
      const type = types[typeId] || "ERROR";
      const node = new MirrorNode(
        id++,
        type,
        isNamed(typeId),
        // Only the extras' own types can be extras; ask the parser for those.
        EXTRA_TYPES.has(type) && walker.currentIsExtra(),
        walker.startIndex,
        walker.endIndex,
        fields[walker.currentFieldId] ?? null,
        parent,
        source,
      );
      parent?.adopt(node);
      return node;
    };
    const root = make(null);
    let current = root;
    // Depth-first with an explicit path: deep operator chains nest further
    // than a recursive walk should go.
    for (;;) {
      if (walker.gotoFirstChild()) {
        current = make(current);
        continue;
      }
      for (;;) {
        current.seal();
        if (current === root) return root as unknown as Node;
        if (walker.gotoNextSibling()) {
          current = make(current.parent);
          break;
        }
        walker.gotoParent();
        current = current.parent as MirrorNode;
      }
    }
  } finally {
    walker.finish();
    cursor.delete();
  }
}

/** What {@linkcode mirrorTree} asks of a cursor. */
interface Walker {
  readonly nodeTypeId: number;
  readonly startIndex: number;
  readonly endIndex: number;
  readonly currentFieldId: number;
  currentIsExtra(): boolean;
  gotoFirstChild(): boolean;
  gotoNextSibling(): boolean;
  gotoParent(): boolean;
  finish(): void;
}

/** The binding's own cursor, each call copying its state in and out. */
class BindingCursor implements Walker {
  #cursor: TreeCursor;

  constructor(cursor: TreeCursor) {
    this.#cursor = cursor;
  }

  get nodeTypeId(): number {
    return this.#cursor.nodeTypeId;
  }
  get startIndex(): number {
    return this.#cursor.startIndex;
  }
  get endIndex(): number {
    return this.#cursor.endIndex;
  }
  get currentFieldId(): number {
    return this.#cursor.currentFieldId;
  }
  currentIsExtra(): boolean {
    return this.#cursor.currentNode.isExtra;
  }
  gotoFirstChild(): boolean {
    return this.#cursor.gotoFirstChild();
  }
  gotoNextSibling(): boolean {
    return this.#cursor.gotoNextSibling();
  }
  gotoParent(): boolean {
    return this.#cursor.gotoParent();
  }
  finish(): void {}
}

/**
 * A tree-sitter cursor whose state stays in the binding's transfer buffer
 * between calls (see {@linkcode CursorCalls}); `cursor` is the binding's
 * own cursor object for the same walk, given the state back at the end so
 * that deleting it frees what the walk allocated.
 */
class DirectCursor implements Walker {
  #calls: CursorCalls;
  #tree: number;
  #cursor: TreeCursor;

  constructor(calls: CursorCalls, tree: Tree, cursor: TreeCursor) {
    this.#calls = calls;
    this.#tree = internal(tree)[0] as number;
    this.#cursor = cursor;
    this.#store(internal(cursor));
  }

  get nodeTypeId(): number {
    return this.#calls.typeId(this.#tree);
  }
  get startIndex(): number {
    return this.#calls.startIndex(this.#tree);
  }
  get endIndex(): number {
    return this.#calls.endIndex(this.#tree);
  }
  get currentFieldId(): number {
    return this.#calls.fieldId(this.#tree);
  }

  /** Asked through the binding's cursor, which overwrites the buffer. */
  currentIsExtra(): boolean {
    const state = this.#load();
    Object.assign(internal(this.#cursor), state);
    const extra = this.#cursor.currentNode.isExtra;
    this.#store(state);
    return extra;
  }

  gotoFirstChild(): boolean {
    return this.#calls.gotoFirstChild(this.#tree) === 1;
  }
  gotoNextSibling(): boolean {
    return this.#calls.gotoNextSibling(this.#tree) === 1;
  }
  gotoParent(): boolean {
    return this.#calls.gotoParent(this.#tree) === 1;
  }

  finish(): void {
    Object.assign(internal(this.#cursor), this.#load());
  }

  #load(): number[] {
    const heap = this.#calls.heap();
    const at = this.#calls.transfer;
    return [
      heap[at] as number,
      heap[at + 1] as number,
      heap[at + 2] as number,
      heap[at + 3] as number,
    ];
  }

  #store(state: Readonly<Record<number, number>>): void {
    const heap = this.#calls.heap();
    const at = this.#calls.transfer;
    for (let i = 0; i < 4; i++) heap[at + i] = state[i] as number;
  }
}

/** The binding's handles on a tree (`[0]`) or a cursor (`[0]`..`[3]`). */
function internal(object: Tree | TreeCursor): Record<number, number> {
  return object as unknown as Record<number, number>;
}
