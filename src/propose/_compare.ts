/**
 * Locale-free ordering, so a proposal is byte-identical on every machine.
 *
 * @module
 */

/** Compare strings by UTF-16 code units (never by locale). */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
