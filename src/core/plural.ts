/**
 * A count and its noun, in the singular for one: "1 file", "2 files",
 * "1 property", "3 properties". Every count pawl prints beside a noun goes
 * through here.
 *
 * @module
 */

/**
 * `count` and `one` for a count of one, else `count` and `many` (by
 * default `one` with an "s").
 *
 * @example
 * ```ts
 * import { plural } from "./plural.ts";
 * if (plural(1, "file") !== "1 file") throw new Error();
 * if (plural(0, "file") !== "0 files") throw new Error();
 * if (plural(3, "property", "properties") !== "3 properties") throw new Error();
 * ```
 */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}
