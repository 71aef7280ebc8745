/**
 * One string syntax that YAML (1.1 and 1.2), TOML and JSON all read the
 * same way, and that keeps a comment on one line.
 *
 * @module
 */

/**
 * Characters JSON leaves bare but YAML or TOML forbid in a string or a
 * comment: DEL, the C1 controls, line and paragraph separators, the byte
 * order mark and the non-characters U+FFFE and U+FFFF.
 */
const UNPRINTABLE = /[\u007f-\u009f\u2028\u2029\ufeff\ufffe\uffff]/g;

/**
 * `text` as a double-quoted string. A YAML reader can never take it for a
 * number, a boolean or `null` (a digest made only of digits, `yes`,
 * `null` stay strings), TOML basic strings and JSON read the same
 * characters, and it never spans lines.
 *
 * @example
 * ```ts
 * import { quoteString } from "./_quote.ts";
 * if (quoteString("0123") !== '"0123"') throw new Error();
 * if (quoteString("a\nb") !== '"a\\nb"') throw new Error();
 * ```
 */
export function quoteString(text: string): string {
  return JSON.stringify(text.toWellFormed()).replace(
    UNPRINTABLE,
    (c) => `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}`,
  );
}
