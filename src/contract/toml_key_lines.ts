/**
 * Source lines of TOML keys. `smol-toml` returns plain values without
 * positions, so the lines come from a light scan of the text: table
 * headers (`[policy]`, `[[property]]`, counted per array) and `key = ...`
 * lines, skipping multi-line strings. Lines only point people at the right
 * place in a message; the values always come from the real parser. A
 * parse error's own sentence comes from {@linkcode tomlErrorSentence}.
 *
 * @module
 */
import type { LineOf } from "./schema_issue_error.ts";
import type { YamlPath } from "./parse_yaml_document.ts";

const BARE_OR_QUOTED = String.raw`(?:[A-Za-z0-9_-]+|"(?:[^"\\]|\\.)*"|'[^']*')`;
const DOTTED_KEY = String.raw`${BARE_OR_QUOTED}(?:\s*\.\s*${BARE_OR_QUOTED})*`;
const ARRAY_HEADER = new RegExp(String.raw`^\s*\[\[\s*(${DOTTED_KEY})\s*\]\]`);
const TABLE_HEADER = new RegExp(String.raw`^\s*\[\s*(${DOTTED_KEY})\s*\]`);
const KEY_LINE = new RegExp(String.raw`^\s*(${DOTTED_KEY})\s*=`);
const KEY_PART = new RegExp(BARE_OR_QUOTED, "g");

/**
 * A line lookup for `text`: `["policy", "min_properties"]`,
 * `["property", 2, "id"]` (the third `[[property]]` table), `["property"]`
 * (its first table) and so on; `undefined` for paths the scan did not see.
 */
export function tomlKeyLines(text: string): LineOf {
  const found = new Map<string, number>();
  const record = (path: YamlPath, line: number) => {
    const key = JSON.stringify(path);
    if (!found.has(key)) found.set(key, line);
  };
  const arrayCounts = new Map<string, number>();
  let table: (string | number)[] = [];
  let openString: string | undefined;
  const lines = text.split(/\r?\n/);
  lines.forEach((row, index) => {
    const line = index + 1;
    if (openString !== undefined) {
      if (holdsOddly(row, openString)) openString = undefined;
      return;
    }
    const arrayHeader = ARRAY_HEADER.exec(row);
    // `[[` is no table header: a key cannot start with `[`.
    const tableHeader = TABLE_HEADER.exec(row);
    if (arrayHeader !== null) {
      const name = keyParts(arrayHeader[1]!);
      const id = JSON.stringify(name);
      const n = arrayCounts.get(id) ?? 0;
      arrayCounts.set(id, n + 1);
      table = [...name, n];
      record(name, line);
      record(table, line);
      return;
    }
    if (tableHeader !== null) {
      table = keyParts(tableHeader[1]!);
      for (let n = 1; n <= table.length; n++) record(table.slice(0, n), line);
      return;
    }
    const keyLine = KEY_LINE.exec(row);
    if (keyLine === null) return;
    const key = keyParts(keyLine[1]!);
    for (let n = 1; n <= key.length; n++) {
      record([...table, ...key.slice(0, n)], line);
    }
    const value = row.slice(keyLine[0].length);
    for (const quote of ['"""', "'''"]) {
      if (holdsOddly(value, quote)) openString = quote;
    }
  });
  // The document itself starts at line 1, as in the YAML and JSON readers.
  record([], 1);
  return (path) => found.get(JSON.stringify(path));
}

function keyParts(dotted: string): string[] {
  return [...dotted.matchAll(KEY_PART)].map((match) => {
    const part = match[0];
    // Stryker disable next-line MethodExpression: a quoted part KEY_PART matched starts and ends with the same quote, and a bare one with neither
    if (part.startsWith('"')) {
      try {
        return JSON.parse(part) as string;
      } catch {
        return part.slice(1, -1);
      }
    }
    // Stryker disable next-line MethodExpression: a quoted part KEY_PART matched starts and ends with the same quote, and a bare one with neither
    if (part.startsWith("'")) return part.slice(1, -1);
    return part;
  });
}

/** Whether `needle` occurs in `text` an odd number of times. */
function holdsOddly(text: string, needle: string): boolean {
  return text.split(needle).length % 2 === 0;
}

/**
 * The sentence of a `smol-toml` parse error, without the code frame its
 * message goes on with or a closing full stop; the caller adds the line.
 */
export function tomlErrorSentence(message: string): string {
  return message.split("\n")[0]!.replace(/\.$/, "");
}
