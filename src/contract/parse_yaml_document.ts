/**
 * A strict, generic YAML reader for policy files: size-capped before
 * parsing, no anchors or aliases, no duplicate keys, no unresolved tags, and
 * every key and item keeps its source line.
 *
 * @module
 */
import { refuseOversize } from "./refuse_oversize.ts";
import type { LineCounter, Node as YamlNode, YAMLError } from "yaml";
import { ContractSyntaxError } from "./contract_syntax_error.ts";
import { parseSimpleYaml, type YamlPath } from "./_parse_simple_yaml.ts";

/** The full `yaml` parser, once {@linkcode loadYamlParser} has loaded it. */
let full: typeof import("yaml") | undefined;
/** `node:process`, loaded with it (see {@linkcode withEnvSnapshot}). */
let nodeProcess: { env: NodeJS.ProcessEnv } | undefined;

/**
 * Load the full `yaml` parser, which {@linkcode parseYamlDocument} needs
 * for any text the fast reader does not read (and for `simple: false`).
 * Most contracts never need it, so nothing loads it up front: a program
 * calls this (or reads inside {@linkcode withYamlParser}) before it parses.
 */
export async function loadYamlParser(): Promise<void> {
  // Stryker disable next-line ConditionalExpression: a second import gives the same modules, from the cache
  if (full !== undefined) return;
  const [yaml, process] = await Promise.all([
    import("yaml"),
    import("node:process"),
  ]);
  nodeProcess = process.default;
  full = yaml;
}

/** The full parser; only called once a parse has found it loaded. */
function loaded(): typeof import("yaml") {
  if (full === undefined) throw new YamlParserNotLoadedError();
  return full;
}

/**
 * Thrown by {@linkcode parseYamlDocument} when a text needs the full
 * parser and it is not loaded yet. Not a `ContractSyntaxError`: it says
 * nothing about the text, so no reader turns it into a finding.
 */
export class YamlParserNotLoadedError extends Error {
  constructor() {
    super(
      "the full YAML parser is not loaded (load it with loadYamlParser first)",
    );
    this.name = "YamlParserNotLoadedError";
  }
}

/**
 * `read()`, run again once the full YAML parser is loaded when it needed
 * the parser (see {@linkcode YamlParserNotLoadedError}). For synchronous
 * readers of YAML called from async code: the parser loads only when a
 * text needs it. `read` must be pure, as every contract reader is; what it
 * read before it stopped is read again.
 *
 * @example
 * ```ts
 * import { parseYamlDocument, withYamlParser } from "./parse_yaml_document.ts";
 * // Flow style is beyond the fast reader: this loads the full parser.
 * const doc = await withYamlParser(() => parseYamlDocument("a: [1, 2]\n", "x.yaml"));
 * if ((doc.value as { a: number[] }).a[1] !== 2) throw new Error();
 * ```
 */
export async function withYamlParser<T>(read: () => T): Promise<T> {
  try {
    return read();
  } catch (error) {
    if (!(error instanceof YamlParserNotLoadedError)) throw error;
  }
  await loadYamlParser();
  return read();
}

/** Default input cap of {@linkcode parseYamlDocument}: 1 MiB. */
export const DEFAULT_MAX_YAML_BYTES = 1024 * 1024;

export type { YamlPath };

/** A parsed YAML document: its plain value and the lines of its keys. */
export interface YamlDocument {
  /** The document as plain JSON-like data (`null` for an empty document). */
  readonly value: unknown;
  /**
   * The 1-based line of the key at `path` (for a map entry) or of the item
   * at `path` (for a list index); the document start for `[]`; `undefined`
   * when the path does not exist.
   */
  lineOf(path: YamlPath): number | undefined;
}

/** Options for {@linkcode parseYamlDocument}. */
export interface ParseYamlDocumentOptions {
  /** Refuse input larger than this many UTF-8 bytes (default 1 MiB). */
  maxBytes?: number | undefined;
  /**
   * Read plain block YAML with the fast reader first (default `true`);
   * `false` always uses the full parser. Both give the same document.
   */
  simple?: boolean;
}

/**
 * Parse one YAML document strictly.
 *
 * Refuses, with a {@linkcode ContractSyntaxError} naming `path`: input over
 * `maxBytes` (checked before parsing), syntax errors and warnings, more than
 * one document, duplicate keys, non-scalar keys, and any anchor or alias (a
 * policy file has no use for them and they are how "billion laughs" inputs
 * and hidden sharing work), and any character YAML 1.2 does not allow in a
 * stream (outside `c-printable`: NUL and the other C0 controls but tab, LF
 * and CR, DEL, C1 controls but NEL, lone surrogates, U+FFFE/U+FFFF) or a
 * byte order mark after the first character, anywhere: in a comment, a
 * quoted value or a key. git shows a file holding NUL as binary, so a
 * reviewer would never see such a contract change. The YAML 1.2 core schema is used, so
 * `2026-09-22T00:00:00Z` stays a string.
 *
 * A text the fast reader does not read needs the full parser: without
 * {@linkcode loadYamlParser} first this throws
 * {@linkcode YamlParserNotLoadedError} (see {@linkcode withYamlParser}).
 *
 * @example
 * ```ts
 * import { parseYamlDocument } from "./parse_yaml_document.ts";
 * const doc = parseYamlDocument("version: 1\nitems:\n  - a\n  - b\n", "x.yaml");
 * const value = doc.value as { items: string[] };
 * if (value.items[1] !== "b" || doc.lineOf(["items", 1]) !== 4) throw new Error();
 * ```
 */
export function parseYamlDocument(
  text: string,
  path: string,
  options: ParseYamlDocumentOptions = {},
): YamlDocument {
  refuseOversize(text, path, options.maxBytes ?? DEFAULT_MAX_YAML_BYTES);
  refuseForbiddenCharacters(text, path);
  // Most contracts are plain block YAML, which the fast reader reads in a
  // fraction of the time; anything else, errors included, goes on below.
  // Stryker disable next-line ConditionalExpression,BooleanLiteral: the fast reader gives what the full parser gives, as its tests pin, so the option changes only the time
  const simple = options.simple === false ? undefined : parseSimpleYaml(text);
  if (simple !== undefined) return simple;
  const { LineCounter, parseDocument } = loaded();
  const lineCounter = new LineCounter();
  let doc;
  // Stryker disable BlockStatement,StringLiteral,ObjectLiteral: the parser collects what it finds wrong, deep nesting included, and throws only on a failure of its own, which no text is known to cause, so the catch only names such a failure
  try {
    doc = withEnvSnapshot(() =>
      parseDocument(text, {
        lineCounter,
        prettyErrors: false,
        uniqueKeys: true,
        version: "1.2",
        // Stryker disable next-line StringLiteral: the `yaml` package reads no schema name as the default of version 1.2, which is core
        schema: "core",
        merge: false,
        strict: true,
      })
    );
  } catch (cause) {
    throw new ContractSyntaxError(
      path,
      "invalid YAML: the document could not be parsed",
      { cause },
    );
  }
  // Stryker restore BlockStatement,StringLiteral,ObjectLiteral
  const problem = doc.errors[0] ?? doc.warnings[0];
  if (problem !== undefined) {
    throw yamlError(path, text, lineCounter, problem);
  }
  refuseSharing(doc.contents, path, lineCounter);
  let value: unknown;
  // Stryker disable BlockStatement,StringLiteral,ObjectLiteral: aliases are refused above, so none is left to count, and converting a parsed document then has no failure any text is known to cause
  try {
    value = doc.toJS({ maxAliasCount: 0 });
  } catch (cause) {
    throw new ContractSyntaxError(
      path,
      "invalid YAML: the document could not be converted",
      { cause },
    );
  }
  // Stryker restore BlockStatement,StringLiteral,ObjectLiteral
  const contents = doc.contents;
  return {
    value,
    lineOf(keyPath: YamlPath): number | undefined {
      const offset = offsetOf(contents, keyPath);
      return offset === undefined
        ? undefined
        : lineCounter.linePos(offset).line;
    },
  };
}

/**
 * Everything outside YAML 1.2's `c-printable` (x09, x0A, x0D, x20-x7E, x85,
 * xA0-xD7FF, xE000-xFFFD, x10000-x10FFFF), plus U+FEFF, which is allowed
 * only as the first character. With the `u` flag a lone surrogate is one
 * code point in D800-DFFF and so is matched too.
 */
const NOT_PRINTABLE =
  /[^\t\n\r\x20-\x7E\x85\xA0-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]|\uFEFF/gu;

/** Throw for the first character YAML forbids, naming its line and column. */
function refuseForbiddenCharacters(text: string, path: string): void {
  NOT_PRINTABLE.lastIndex = 0;
  let match = NOT_PRINTABLE.exec(text);
  if (match !== null && match.index === 0 && match[0] === "\uFEFF") {
    match = NOT_PRINTABLE.exec(text);
  }
  if (match === null) return;
  const before = text.slice(0, match.index);
  const line = before.split("\n").length;
  const column = [...before.slice(before.lastIndexOf("\n") + 1)].length + 1;
  const code = match[0].codePointAt(0)!;
  const name = code === 0
    ? " (NUL)"
    : code === 0xfeff
    ? " (a byte order mark after the start)"
    : code >= 0xd800 && code <= 0xdfff
    ? " (a lone surrogate)"
    : "";
  throw new ContractSyntaxError(
    path,
    `invalid YAML: character U+${
      code.toString(16).toUpperCase().padStart(4, "0")
    }${name} is not allowed, column ${column}`,
    { line, column, lineAfter: "is not allowed" },
  );
}

/**
 * Run `fn` with `process.env` replaced by a plain copy of itself. The
 * `yaml` parser reads `process.env.LOG_TOKENS` once per token, and under
 * Deno each read is a call into the runtime: a fifth of the parse time of
 * a large contract. `fn` is synchronous, so nothing else observes the swap.
 */
function withEnvSnapshot<T>(fn: () => T): T {
  const process = nodeProcess as { env: NodeJS.ProcessEnv };
  const live = process.env;
  // Stryker disable next-line ObjectLiteral: the parser reads nothing from the environment but a debug switch for its tokens
  process.env = { ...live };
  try {
    return fn();
  } finally {
    process.env = live;
  }
}

/**
 * Throw for the first alias in the document, or failing that for the first
 * anchor or non-scalar map key, in document order. Aliases go first, so a
 * document that uses one is refused for that reason rather than for the
 * anchor it refers to. One walk over the nodes, with an explicit stack.
 */
function refuseSharing(
  contents: unknown,
  path: string,
  lineCounter: LineCounter,
): void {
  const { isAlias, isMap, isPair, isScalar, isSeq } = loaded();
  let other: ContractSyntaxError | undefined;
  const stack: unknown[] = [contents];
  while (stack.length > 0) {
    const node = stack.pop();
    if (isAlias(node)) {
      throw nodeError(
        path,
        lineCounter,
        node,
        `aliases are not allowed (found "*${node.source}")`,
      );
    }
    if (isPair(node)) {
      // Stryker disable next-line ConditionalExpression: the parser gives an empty key as a scalar of null, never as null
      if (node.key !== null && !isScalar(node.key)) {
        other ??= nodeError(
          path,
          lineCounter,
          node.key as YamlNode,
          "map keys must be plain values",
        );
      }
      stack.push(node.value, node.key);
      continue;
    }
    if (!isScalar(node) && !isMap(node) && !isSeq(node)) continue;
    if (node.anchor) {
      other ??= nodeError(
        path,
        lineCounter,
        node,
        `anchors are not allowed (found "&${node.anchor}")`,
      );
    }
    if (isMap(node) || isSeq(node)) {
      // Stryker disable next-line ArithmeticOperator: a start past the end pushes only undefined slots, which the walk skips
      for (let i = node.items.length - 1; i >= 0; i--) {
        stack.push(node.items[i]);
      }
    }
  }
  if (other !== undefined) throw other;
}

function offsetOf(node: unknown, keyPath: YamlPath): number | undefined {
  const { isMap, isPair, isScalar, isSeq } = loaded();
  let current: unknown = node;
  let offset: number | undefined = rangeStart(current);
  for (const segment of keyPath) {
    if (isMap(current)) {
      const pair = current.items.find((item) => {
        // Stryker disable next-line ConditionalExpression,LogicalOperator: a parsed map holds only pairs, and a key that is no scalar was refused before any line is asked for
        return isPair(item) && isScalar(item.key) &&
          String(item.key.value) === String(segment);
      });
      if (pair === undefined) return undefined;
      offset = rangeStart(pair.key);
      current = pair.value;
    } else if (isSeq(current) && typeof segment === "number") {
      const item = current.items[segment];
      if (item === undefined) return undefined;
      offset = rangeStart(item);
      current = item;
    } else {
      return undefined;
    }
  }
  return offset ?? 0;
}

function rangeStart(node: unknown): number | undefined {
  // Stryker disable next-line ConditionalExpression: only nodes and null come here, never another primitive
  if (node === null || typeof node !== "object" || !("range" in node)) {
    return undefined;
  }
  const range = (node as { range?: readonly number[] | null }).range;
  // Stryker disable next-line OptionalChaining: a parsed node always has its range
  return range?.[0];
}

function yamlError(
  path: string,
  text: string,
  lineCounter: LineCounter,
  error: YAMLError,
): ContractSyntaxError {
  const start = error.pos[0];
  const { line, col } = lineCounter.linePos(start);
  let detail: string;
  if (error.code === "DUPLICATE_KEY") {
    detail = `duplicate key ${JSON.stringify(keyTextAt(text, start))}`;
  } else if (error.code === "MULTIPLE_DOCS") {
    detail = "more than one YAML document";
  } else {
    // Stryker disable next-line StringLiteral: none of the parser's messages that reach here ends with a period; this keeps one that would from reading as two sentences
    detail = `invalid YAML: ${lowerFirst(error.message.replace(/\.$/, ""))}`;
  }
  return new ContractSyntaxError(path, detail, {
    line,
    column: col,
    cause: error,
  });
}

function nodeError(
  path: string,
  lineCounter: LineCounter,
  node: YamlNode,
  detail: string,
): ContractSyntaxError {
  // Stryker disable next-line OptionalChaining: a parsed node always has its range
  const start = node.range?.[0];
  // Stryker disable next-line ConditionalExpression: a parsed node always has its range
  if (start === undefined) return new ContractSyntaxError(path, detail);
  const { line, col } = lineCounter.linePos(start);
  return new ContractSyntaxError(path, detail, { line, column: col });
}

function keyTextAt(text: string, start: number): string {
  // Stryker disable next-line StringLiteral: splitting gives at least one piece
  const rest = text.slice(start, start + 200).split(/\r?\n/, 1)[0] ?? "";
  // Stryker disable next-line MethodExpression: the key starts at `start`, and the pattern takes the blanks before its colon
  const key = rest.replace(/\s*:(\s.*)?$/, "").trim();
  // Stryker disable next-line Regex: a quoted key ends at its closing quote, and the pattern before took what follows it
  return key.replace(/^(["'])(.*)\1$/, "$2");
}

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}
