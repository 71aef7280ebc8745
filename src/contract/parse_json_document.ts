/**
 * A strict JSON reader for policy files: size-capped before parsing,
 * duplicate keys refused (`JSON.parse` silently keeps the last one, which
 * would let a second entry hide the first from a reviewer), and every key
 * and item keeps its source line.
 *
 * @module
 */
import { refuseOversize } from "./refuse_oversize.ts";
import { ContractSyntaxError } from "./contract_syntax_error.ts";
import { formatKeyPath } from "./format_key_path.ts";
import type { YamlPath } from "./parse_yaml_document.ts";

/** Default input cap of {@linkcode parseJsonDocument}: 1 MiB. */
export const DEFAULT_MAX_JSON_BYTES = 1024 * 1024;

/** Deepest nesting {@linkcode parseJsonDocument} accepts. */
export const MAX_JSON_DEPTH = 256;

/** A parsed JSON document: its value and the lines of its keys. */
export interface JsonDocument {
  /** The document's value, as `JSON.parse` would return it. */
  readonly value: unknown;
  /**
   * The 1-based line of the key at `path` (for an object member) or of the
   * item at `path` (for an array index); the document start for `[]`;
   * `undefined` when the path does not exist.
   */
  lineOf(path: YamlPath): number | undefined;
}

/** Options for {@linkcode parseJsonDocument}. */
export interface ParseJsonDocumentOptions {
  /** Refuse input larger than this many UTF-8 bytes (default 1 MiB). */
  maxBytes?: number;
}

/**
 * Parse one JSON document (RFC 8259) strictly. Refuses, with a
 * {@linkcode ContractSyntaxError} naming `path` and the line and column:
 * input over `maxBytes`, syntax errors, duplicate keys in one object, and
 * nesting deeper than {@linkcode MAX_JSON_DEPTH}.
 *
 * @example
 * ```ts
 * import { parseJsonDocument } from "./parse_json_document.ts";
 * const doc = parseJsonDocument('{\n  "files": {\n    "a": "1"\n  }\n}\n', "x.lock");
 * if ((doc.value as { files: { a: string } }).files.a !== "1") throw new Error();
 * if (doc.lineOf(["files", "a"]) !== 3) throw new Error();
 * ```
 */
export function parseJsonDocument(
  text: string,
  path: string,
  options: ParseJsonDocumentOptions = {},
): JsonDocument {
  refuseOversize(text, path, options.maxBytes ?? DEFAULT_MAX_JSON_BYTES);
  const reader = new JsonReader(text, path);
  const value = reader.document();
  const offsets = reader.offsets;
  const lines = lineStarts(text);
  return {
    value,
    lineOf(keyPath: YamlPath): number | undefined {
      const offset = offsets.get(pathKey(keyPath));
      return offset === undefined ? undefined : lineAt(lines, offset).line;
    },
  };
}

const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;

class JsonReader {
  /** Offsets of every key and item, keyed by {@linkcode pathKey}. */
  readonly offsets = new Map<string, number>();
  #text: string;
  #path: string;
  #at = 0;
  #lines: number[] | undefined;

  constructor(text: string, path: string) {
    this.#text = text;
    this.#path = path;
  }

  document(): unknown {
    this.#space();
    this.offsets.set(pathKey([]), this.#at);
    const value = this.#value([]);
    this.#space();
    if (this.#at < this.#text.length) {
      throw this.#error("unexpected text after the JSON value");
    }
    return value;
  }

  #value(path: (string | number)[]): unknown {
    if (path.length > MAX_JSON_DEPTH) {
      throw this.#error(`nesting is deeper than ${MAX_JSON_DEPTH} levels`);
    }
    const c = this.#text[this.#at];
    switch (c) {
      case "{":
        return this.#object(path);
      case "[":
        return this.#array(path);
      case '"':
        return this.#string();
      case "t":
        return this.#literal("true", true);
      case "f":
        return this.#literal("false", false);
      case "n":
        return this.#literal("null", null);
      default: {
        NUMBER.lastIndex = this.#at;
        const match = NUMBER.exec(this.#text);
        if (match === null) {
          throw this.#error(
            c === undefined
              ? "unexpected end of input, expected a value"
              : `unexpected ${JSON.stringify(c)}, expected a value`,
          );
        }
        this.#at += match[0].length;
        return Number(match[0]);
      }
    }
  }

  #object(path: (string | number)[]): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    this.#at++; // {
    this.#space();
    if (this.#text[this.#at] === "}") {
      this.#at++;
      return out;
    }
    for (;;) {
      if (this.#text[this.#at] !== '"') {
        throw this.#error(this.#unexpected("a string key"));
      }
      const keyAt = this.#at;
      const key = this.#string();
      const keyPath = [...path, key];
      if (Object.hasOwn(out, key)) {
        this.#at = keyAt;
        throw this.#error(
          `duplicate key ${JSON.stringify(formatKeyPath(keyPath))}`,
          // Stryker disable next-line ObjectLiteral: options without `syntax` read as false too
          { syntax: false },
        );
      }
      this.offsets.set(pathKey(keyPath), keyAt);
      this.#space();
      if (this.#text[this.#at] !== ":") {
        throw this.#error(this.#unexpected('":"'));
      }
      this.#at++;
      this.#space();
      // defineProperty, not assignment: a "__proto__" key is data.
      Object.defineProperty(out, key, {
        value: this.#value(keyPath),
        enumerable: true,
        writable: true,
        configurable: true,
      });
      this.#space();
      const c = this.#text[this.#at];
      if (c === "}") {
        this.#at++;
        return out;
      }
      if (c !== ",") throw this.#error(this.#unexpected('"," or "}"'));
      this.#at++;
      this.#space();
    }
  }

  #array(path: (string | number)[]): unknown[] {
    const out: unknown[] = [];
    this.#at++; // [
    this.#space();
    if (this.#text[this.#at] === "]") {
      this.#at++;
      return out;
    }
    for (;;) {
      const itemPath = [...path, out.length];
      this.offsets.set(pathKey(itemPath), this.#at);
      out.push(this.#value(itemPath));
      this.#space();
      const c = this.#text[this.#at];
      if (c === "]") {
        this.#at++;
        return out;
      }
      if (c !== ",") throw this.#error(this.#unexpected('"," or "]"'));
      this.#at++;
      this.#space();
    }
  }

  #string(): string {
    const start = this.#at;
    this.#at++; // opening quote
    for (;;) {
      const c = this.#text.charCodeAt(this.#at);
      if (Number.isNaN(c)) {
        this.#at = start;
        throw this.#error("unterminated string");
      }
      if (c === 0x22) break; // "
      if (c < 0x20) throw this.#error("control character in a string");
      if (c === 0x5c) { // backslash
        const next = this.#text[this.#at + 1];
        // Stryker disable next-line ConditionalExpression: the escape letters do not hold the text "undefined"
        if (next !== undefined && '"\\/bfnrt'.includes(next)) {
          this.#at += 2;
          continue;
        }
        if (
          next === "u" &&
          // Stryker disable next-line Regex: the slice holds at most four characters, so four hex digits are all of it
          /^[0-9A-Fa-f]{4}$/.test(this.#text.slice(this.#at + 2, this.#at + 6))
        ) {
          this.#at += 6;
          continue;
        }
        throw this.#error("invalid escape in a string");
      }
      this.#at++;
    }
    this.#at++; // closing quote
    // The token is valid JSON now; let the engine decode its escapes.
    return JSON.parse(this.#text.slice(start, this.#at)) as string;
  }

  #literal(word: string, value: boolean | null): boolean | null {
    if (!this.#text.startsWith(word, this.#at)) {
      throw this.#error(this.#unexpected("a value"));
    }
    this.#at += word.length;
    return value;
  }

  #space(): void {
    // Stryker disable next-line EqualityOperator: past the end there is no character, and no blank
    while (this.#at < this.#text.length) {
      const c = this.#text[this.#at];
      if (c !== " " && c !== "\t" && c !== "\n" && c !== "\r") return;
      this.#at++;
    }
  }

  #unexpected(what: string): string {
    const c = this.#text[this.#at];
    return c === undefined
      ? `unexpected end of input, expected ${what}`
      : `unexpected ${JSON.stringify(c)}, expected ${what}`;
  }

  #error(detail: string, options = { syntax: true }): ContractSyntaxError {
    this.#lines ??= lineStarts(this.#text);
    const { line, column } = lineAt(this.#lines, this.#at);
    return new ContractSyntaxError(
      this.#path,
      options.syntax ? `invalid JSON: ${detail}` : detail,
      { line, column },
    );
  }
}

function pathKey(path: YamlPath): string {
  return JSON.stringify(path);
}

/** Offsets where lines start; `\n`, `\r\n` and a lone `\r` end a line. */
function lineStarts(text: string): number[] {
  const starts = [0];
  // Stryker disable next-line EqualityOperator: past the end there is no character, and no line end
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x0a) starts.push(i + 1);
    else if (c === 0x0d && text.charCodeAt(i + 1) !== 0x0a) starts.push(i + 1);
  }
  return starts;
}

function lineAt(
  starts: readonly number[],
  offset: number,
): { line: number; column: number } {
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if ((starts[mid] ?? 0) <= offset) low = mid;
    else high = mid - 1;
  }
  return { line: low + 1, column: offset - (starts[low] ?? 0) + 1 };
}
