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

  /** Wrap a tree-sitter parser whose language is already set to Python. */
  constructor(parser: Parser) {
    this.#parser = parser;
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
   * The text {@linkcode PythonParser.parse} hands tree-sitter: a lone
   * carriage return made a newline, every offset kept.
   */
  normalized(text: string): string {
    return text.replace(/\r(?!\n)/g, "\n");
  }
}

let cached: Promise<PythonParser> | undefined;

async function load(): Promise<PythonParser> {
  await Parser.init();
  const language = await Language.load(await Deno.readFile(GRAMMAR_URL));
  const parser = new Parser();
  parser.setLanguage(language);
  return new PythonParser(parser);
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
