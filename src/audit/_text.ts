/**
 * Text helpers the report renderers share.
 *
 * @module
 */

/** Control characters (tab, newline and carriage return aside), replaced before rendering. */
// deno-lint-ignore no-control-regex
export const CONTROL_CHARS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;

/** `text` cut to `max` characters (code points), the last one an ellipsis. */
export function truncate(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join("")}…`;
}
