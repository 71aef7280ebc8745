/**
 * Untrusted text (from a repository or a pull request) made safe for
 * Markdown that pawl posts: no HTML, no broken tables, no mentions.
 *
 * @module
 */

// deno-lint-ignore no-control-regex
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;

/** Options for {@linkcode markdownInline}. */
export interface MarkdownInlineOptions {
  /** What a line break becomes (default `<br>`; a space keeps one line). */
  newline?: string;
}

/**
 * Text as inline Markdown in a table cell or list item: HTML-significant
 * characters become entities (so no tag, comment or marker survives),
 * Markdown punctuation is backslash-escaped, `|` cannot end the cell, and
 * `@` cannot mention anyone.
 *
 * @example
 * ```ts
 * import { markdownInline } from "./markdown_text.ts";
 * if (markdownInline("a|b @x") !== "a\\|b @&#8203;x") throw new Error();
 * ```
 */
export function markdownInline(
  value: string,
  options: MarkdownInlineOptions = {},
): string {
  return value.replace(CONTROL, "\ufffd")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/[\\`*_[\]|~]/g, (c) => `\\${c}`)
    .replace(/@/g, "@&#8203;")
    .replace(/\r\n|\r|\n/g, options.newline ?? "<br>");
}

/** Replace control characters that have no place in a report. */
export function withoutControls(value: string): string {
  return value.replace(CONTROL, "\ufffd");
}

/**
 * A fenced code block of untrusted text, as lines: the fence is longer than
 * any run of backticks in `body` (so no line of it closes the block),
 * control characters are replaced and every HTML comment opener is broken
 * by a zero-width space, so the raw Markdown holds pawl's comment marker
 * only where pawl put it.
 *
 * @example
 * ```ts
 * import { fencedBlock } from "./markdown_text.ts";
 * const tick = "`";
 * const lines = fencedBlock(`a ${tick.repeat(4)} b`);
 * if (lines[0] !== `${tick.repeat(5)}text` || lines[2] !== tick.repeat(5)) throw new Error();
 * ```
 */
export function fencedBlock(body: string, info = "text"): string[] {
  const clean = withoutControls(body.replace(/\r\n|\r/g, "\n"))
    .replace(/<!--/g, "<\u200b!--");
  const longest = Math.max(
    2,
    ...Array.from(clean.matchAll(/`+/g), (m) => m[0].length),
  );
  const fence = "`".repeat(longest + 1);
  return [`${fence}${info}`, clean, fence];
}
