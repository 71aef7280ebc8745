/**
 * Loading the Python grammar: the one place in `src/python/` that does I/O.
 *
 * @module
 */
import { Language, Parser, type Tree } from "web-tree-sitter";

/** Where the Python grammar lives (`nodeModulesDir: auto` puts it there). */
const GRAMMAR_URL = new URL(
  "../../node_modules/tree-sitter-python/tree-sitter-python.wasm",
  import.meta.url,
);

/**
 * A tree-sitter parser for Python source. Get the shared instance from
 * {@linkcode loadPythonParser}; analysis code only ever calls {@linkcode PythonParser.parse}.
 */
export class PythonParser {
  #parser: Parser;
  /** Direct cursor calls, when the binding offers them. */
  readonly cursorCalls: CursorCalls | undefined;

  /** Wrap a tree-sitter parser whose language is already set to Python. */
  constructor(parser: Parser, cursorCalls?: CursorCalls) {
    this.#parser = parser;
    this.cursorCalls = cursorCalls;
  }

  /**
   * Parse Python source into a tree the caller must `delete()`.
   *
   * Node indexes and columns are UTF-16 code unit offsets into `text`, so
   * `text.slice(node.startIndex, node.endIndex)` is the node's source. A lone
   * carriage return ends a line, as it does for Python; tree-sitter would
   * otherwise read it as blank space. The replacement keeps every offset.
   */
  parse(text: string): Tree {
    const tree = this.#parser.parse(this.normalized(text));
    if (tree === null) {
      throw new Error(
        "Cannot parse Python source: tree-sitter returned no tree",
      );
    }
    return tree;
  }

  /**
   * Parse Python source, hand the tree to `use`, and free it after, whether
   * `use` returned or threw: for a caller that keeps nothing of the tree.
   */
  withTree<T>(text: string, use: (tree: Tree) => T): T {
    const tree = this.parse(text);
    try {
      return use(tree);
    } finally {
      tree.delete();
    }
  }

  /**
   * The text {@linkcode PythonParser.parse} hands tree-sitter: a lone
   * carriage return made a newline, every offset kept.
   */
  normalized(text: string): string {
    return text.replace(/\r(?!\n)/g, "\n");
  }
}

/**
 * The tree-sitter binding's own cursor functions, called without the
 * binding's copy of the cursor state in and out of its transfer buffer
 * around every call (most of the time a cursor walk takes). Each function
 * reads the cursor from the transfer buffer, and the moves write it back,
 * so a walk that keeps the state there needs no copying at all; see
 * `_mirror_tree.ts`. Undefined when the binding lacks any of them.
 */
export interface CursorCalls {
  /** The binding's current 32-bit view of its memory (replaced when it grows). */
  heap(): Int32Array;
  /** Index in {@linkcode CursorCalls.heap} of the transfer buffer's first word. */
  transfer: number;
  typeId(tree: number): number;
  startIndex(tree: number): number;
  endIndex(tree: number): number;
  fieldId(tree: number): number;
  gotoFirstChild(tree: number): number;
  gotoNextSibling(tree: number): number;
  gotoParent(tree: number): number;
}

/** What the binding's module object holds after `Parser.init(binding)`. */
type Binding = Record<string, unknown>;

function cursorCallsOf(binding: Binding): CursorCalls | undefined {
  const call = (name: string) => {
    const fn = binding[`_ts_tree_cursor_${name}_wasm`];
    return typeof fn === "function"
      ? fn as (tree: number) => number
      : undefined;
  };
  const init = binding["_ts_init"];
  const typeId = call("current_node_type_id");
  const startIndex = call("start_index");
  const endIndex = call("end_index");
  const fieldId = call("current_field_id");
  const gotoFirstChild = call("goto_first_child");
  const gotoNextSibling = call("goto_next_sibling");
  const gotoParent = call("goto_parent");
  if (
    typeof init !== "function" || !(binding["HEAP32"] instanceof Int32Array) ||
    typeId === undefined || startIndex === undefined ||
    endIndex === undefined || fieldId === undefined ||
    gotoFirstChild === undefined || gotoNextSibling === undefined ||
    gotoParent === undefined
  ) return undefined;
  // `ts_init` only writes the version numbers the binding read at init.
  const address = (init as () => number)();
  return {
    heap: () => binding["HEAP32"] as Int32Array,
    transfer: address >> 2,
    typeId,
    startIndex,
    endIndex,
    fieldId,
    gotoFirstChild,
    gotoNextSibling,
    gotoParent,
  };
}

let cached: Promise<PythonParser> | undefined;

async function load(): Promise<PythonParser> {
  // The binding's module object: Emscripten fills the given one in.
  const binding: Binding = {};
  await Parser.init(binding as Parameters<typeof Parser.init>[0]);
  const language = await Language.load(await Deno.readFile(GRAMMAR_URL));
  const parser = new Parser();
  parser.setLanguage(language);
  return new PythonParser(parser, cursorCallsOf(binding));
}

/**
 * Initialise tree-sitter and the Python grammar once per process and return
 * the shared parser. Needs read access to `node_modules/`.
 */
export function loadPythonParser(): Promise<PythonParser> {
  if (cached === undefined) {
    cached = load();
    // A failed load (missing wasm, no permission) must not poison later calls.
    cached.catch(() => {
      cached = undefined;
    });
  }
  return cached;
}
