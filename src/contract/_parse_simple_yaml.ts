/**
 * A fast reader for the plain YAML contracts are usually written in, used
 * before the full `yaml` parser: block maps and lists, plain keys, plain and
 * simply quoted one-line scalars, whole-line comments. It gives the value and
 * the lines {@linkcode parseYamlDocument} would give, or `undefined` the
 * moment the text holds anything else (flow collections other than `[]` and
 * `{}`, tags, anchors, block scalars, escapes, trailing comments, tabs, CR,
 * multi-line scalars, duplicate keys, numbers that are not canonical
 * integers...), and then the full parser decides, errors included. It never
 * throws and never judges: it only skips work on the texts it is sure of.
 *
 * @module
 */
/** A path of keys and list indexes into a YAML document. */
export type YamlPath = readonly (string | number)[];

/** A node with the 1-based line its content starts on. */
type SimpleNode =
  | { kind: "map"; line: number; entries: Map<string, Entry> }
  | { kind: "seq"; line: number; items: SimpleNode[] }
  | { kind: "scalar"; line: number; value: unknown };

interface Entry {
  /** Line of the key. */
  line: number;
  node: SimpleNode;
}

/** What {@linkcode parseSimpleYaml} read. */
export interface SimpleYaml {
  /** The document as plain data, as the `yaml` package's `toJS` gives it. */
  value: unknown;
  /** Line of the key or item at `path`, as `parseYamlDocument` finds it. */
  lineOf(path: YamlPath): number | undefined;
}

/** A key the full parser reads as the same string. */
// Stryker disable next-line Regex: a second space after the colon stays in the rest, which no scalar reading takes (a plain scalar starts with no space, a quoted one with its quote)
const KEY = /^([A-Za-z_][A-Za-z0-9_]*):(?: +|$)/;

/** Plain keys the YAML 1.2 core schema reads as null or a boolean. */
// Stryker disable next-line Regex: without an anchor the test refuses more keys, and a refused key only goes to the full parser
const SPECIAL_KEY = /^(?:[Nn]ull|NULL|[Tt]rue|TRUE|[Ff]alse|FALSE)$/;

/** A plain scalar: no indicator first, no comment, no `: ` inside. */
const PLAIN =
  /^[A-Za-z0-9_./](?:[A-Za-z0-9_./:+\-,;()=@ ]*[A-Za-z0-9_./+\-()=@])?$/;

/** One-line quoted scalars without escapes or quotes inside. */
// Stryker disable next-line Regex: a quoted scalar of more than one character then reaches the plain reading, which refuses a quote first
const DOUBLE_QUOTED = /^"([^"\\]*)"$/;
const SINGLE_QUOTED = /^'([^']*)'$/;

/** The YAML 1.2 core schema's plain scalars that are not strings. */
// Stryker disable Regex: these only refuse, so an anchor dropped refuses more texts, which go to the full parser; a sign class negated still matches the number without its sign, and the plain reading refuses a sign first; the empty text never comes here (an empty value is read as a block, an empty item is refused)
const CORE_NON_STRING = [
  /^(?:~|[Nn]ull|NULL)?$/,
  /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/,
  /^0o[0-7]+$/,
  /^[-+]?[0-9]+$/,
  /^0x[0-9a-fA-F]+$/,
  /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/,
  /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/,
  /^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/,
];
// Stryker restore Regex

/** Integers whose value every reader agrees on (15 digits stay exact). */
const CANONICAL_INT = /^(?:0|[1-9][0-9]{0,14})$/;

/** Marks a text outside the subset. */
class NotSimple {}
const NOT_SIMPLE = new NotSimple();

/**
 * The document in `text` when it is plain block YAML whose top level is a
 * map, or empty (only blank lines and comments: `null`), else `undefined`
 * (see the module doc).
 *
 * @example
 * ```ts
 * import { parseSimpleYaml } from "./_parse_simple_yaml.ts";
 * const doc = parseSimpleYaml("version: 1\nitems:\n  - a\n  - b\n");
 * if ((doc?.value as { items: string[] }).items[1] !== "b") throw new Error();
 * if (doc?.lineOf(["items", 1]) !== 4) throw new Error();
 * if (parseSimpleYaml("a: &x 1\n") !== undefined) throw new Error();
 * ```
 */
export function parseSimpleYaml(text: string): SimpleYaml | undefined {
  if (/[\t\r\uFEFF]/.test(text)) return undefined;
  // Stryker disable BlockStatement: the reader throws nothing but NOT_SIMPLE, so the catch only lets a bug of its own show
  try {
    const reader = new LineReader(text);
    const first = reader.peek();
    // Nothing but blank lines and comments: an empty document, as in a
    // freeze list with nothing frozen. The full parser reads it as null.
    if (first === undefined) {
      return {
        value: null,
        lineOf: (path) => path.length === 0 ? 1 : undefined,
      };
    }
    // The root map refuses a first key deeper than column 0, and returns
    // only at the end of the text: no line sits left of column 0.
    const root = reader.map(0);
    return {
      value: root.value,
      lineOf: (path) => lineOf(root.node, path),
    };
  } catch (error) {
    // Stryker disable next-line ConditionalExpression: the reader throws nothing but NOT_SIMPLE; this only lets a bug of its own show
    if (error === NOT_SIMPLE) return undefined;
    throw error;
  }
  // Stryker restore BlockStatement
}

function lineOf(root: SimpleNode, path: YamlPath): number | undefined {
  let current: SimpleNode = root;
  let line = root.line;
  for (const segment of path) {
    if (current.kind === "map") {
      const entry: Entry | undefined = current.entries.get(String(segment));
      if (entry === undefined) return undefined;
      line = entry.line;
      current = entry.node;
    } else if (current.kind === "seq" && typeof segment === "number") {
      const item: SimpleNode | undefined = current.items[segment];
      if (item === undefined) return undefined;
      line = item.line;
      current = item;
    } else {
      return undefined;
    }
  }
  return line;
}

/** A content line: its indentation, the rest, and its 1-based number. */
interface Line {
  indent: number;
  content: string;
  number: number;
}

interface Read {
  node: SimpleNode;
  value: unknown;
}

class LineReader {
  #lines: string[];
  #next = 0;
  #peeked: Line | undefined;

  constructor(text: string) {
    this.#lines = text.split("\n");
  }

  /** The next line with content (blank and comment lines skipped). */
  peek(): Line | undefined {
    if (this.#peeked !== undefined) return this.#peeked;
    while (this.#next < this.#lines.length) {
      const raw = this.#lines[this.#next++] as string;
      // Only spaces indent YAML: a line led by any other blank (a no-break
      // space, a form feed) is content, which no reading here takes.
      const content = raw.replace(/^ +/, "");
      if (content === "" || content.startsWith("#")) continue;
      const indent = raw.length - content.length;
      this.#peeked = { indent, content, number: this.#next };
      return this.#peeked;
    }
    return undefined;
  }

  #take(): Line {
    const line = this.peek();
    // Stryker disable next-line ConditionalExpression: every caller has peeked a line first
    if (line === undefined) throw NOT_SIMPLE;
    this.#peeked = undefined;
    return line;
  }

  /**
   * A block map whose keys sit at column `indent`; `first` is the rest of a
   * `- ` line holding its first key.
   */
  map(indent: number, first?: Line): Read {
    const entries = new Map<string, Entry>();
    const value: Record<string, unknown> = {};
    let line: number | undefined;
    for (let current = first;; current = undefined) {
      if (current === undefined) {
        const next = this.peek();
        if (next === undefined || next.indent < indent) break;
        if (next.indent > indent) throw NOT_SIMPLE;
        current = this.#take();
      }
      const match = KEY.exec(current.content);
      if (match === null) throw NOT_SIMPLE;
      const key = match[1] as string;
      if (SPECIAL_KEY.test(key) || key === "__proto__" || entries.has(key)) {
        throw NOT_SIMPLE;
      }
      line ??= current.number;
      const rest = current.content.slice(match[0].length);
      const read = rest === ""
        ? this.#nested(indent, current.number)
        : scalar(rest, current.number);
      entries.set(key, { line: current.number, node: read.node });
      value[key] = read.value;
    }
    // Stryker disable next-line ConditionalExpression: every map starts at a key line: the root's first line, a deeper line that is no item, or an item's first key
    if (line === undefined) throw NOT_SIMPLE;
    return { node: { kind: "map", line, entries }, value };
  }

  /** What follows a `key:` line: a deeper block, a list at the same column, or null. */
  #nested(indent: number, keyLine: number): Read {
    const next = this.peek();
    if (next !== undefined && next.indent > indent) {
      if (!isItem(next.content)) return this.map(next.indent);
      // Stryker disable next-line BooleanLiteral: a line at a deeper list's column that is no item is deeper than the key's map too, which refuses it
      return this.#seq(next.indent, false);
    }
    // Stryker disable next-line ConditionalExpression: a list read at a column left of its key has no item there and is refused, which only hands the text to the full parser
    if (next !== undefined && next.indent === indent && isItem(next.content)) {
      return this.#seq(indent, true);
    }
    // The full parser places an empty value elsewhere; no path goes below it.
    // Stryker disable next-line ObjectLiteral,StringLiteral: a node of any kind but a map or a list has nothing below it, as a scalar has, and only its entry's line is read
    const node: SimpleNode = { kind: "scalar", line: keyLine, value: null };
    return { node, value: null };
  }

  /**
   * A block list whose dashes sit at column `indent`; `atKeyColumn` when
   * that is also its key's column, so the next key there ends it.
   */
  #seq(indent: number, atKeyColumn: boolean): Read {
    const items: SimpleNode[] = [];
    const value: unknown[] = [];
    while (true) {
      const next = this.peek();
      if (next === undefined || next.indent < indent) break;
      if (next.indent > indent) throw NOT_SIMPLE;
      if (!isItem(next.content)) {
        // Stryker disable next-line ConditionalExpression: a line at a deeper list's column that is no item is deeper than the map around the list too, which refuses it
        if (atKeyColumn) break;
        throw NOT_SIMPLE;
      }
      const current = this.#take();
      // A bare "-", "- - x" and the like are refused below, as no key and
      // no scalar.
      // Stryker disable next-line Regex: an item's text after its dash starts with a space, so the first run of spaces is the leading one
      const rest = current.content.slice(1).replace(/^ +/, "");
      const column = indent + (current.content.length - rest.length);
      const read = KEY.test(rest)
        ? this.map(column, { ...current, indent: column, content: rest })
        : scalar(rest, current.number);
      items.push(read.node);
      value.push(read.value);
    }
    // Stryker disable next-line OptionalChaining: a list is read only from a line that is an item
    const line = items[0]?.line;
    // Stryker disable next-line ConditionalExpression: a list is read only from a line that is an item
    if (line === undefined) throw NOT_SIMPLE;
    return { node: { kind: "seq", line, items }, value };
  }
}

function isItem(content: string): boolean {
  return content.startsWith("- ");
}

/** A one-line scalar value, or `[]` / `{}`. */
function scalar(text: string, line: number): Read {
  // An empty list or map has nothing below it either.
  const leaf = (value: unknown): Read => ({
    // Stryker disable next-line StringLiteral: a node of any kind but a map or a list has nothing below it, as a scalar has, and only its item's or entry's line is read
    node: { kind: "scalar", line, value },
    value,
  });
  if (text === "[]") return leaf([]);
  if (text === "{}") return leaf({});
  const quoted = DOUBLE_QUOTED.exec(text) ?? SINGLE_QUOTED.exec(text);
  if (quoted !== null) return leaf(quoted[1]);
  if (text === "null") return leaf(null);
  if (text === "true") return leaf(true);
  if (text === "false") return leaf(false);
  if (CANONICAL_INT.test(text)) return leaf(Number(text));
  if (
    !PLAIN.test(text) || text.includes(": ") ||
    CORE_NON_STRING.some((re) => re.test(text))
  ) throw NOT_SIMPLE;
  return leaf(text);
}
