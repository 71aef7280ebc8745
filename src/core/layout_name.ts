/**
 * What the three contract layouts are called. The verdict, rule ids and the
 * code key each layout by the number of the seed document that defined it
 * (`000`, `003`, `002`); people see and type the name of what it keeps, and
 * the numbers stay accepted as aliases.
 *
 * @module
 */

/** A contract layout as the verdict records it. */
export type LayoutNumber = "000" | "003" | "002";

/** Every layout's name, the default (`agent-contract`) first. */
export const LAYOUT_NAMES: Readonly<Record<LayoutNumber, string>> = {
  "000": "agent-contract",
  "003": "invariants",
  "002": "seed-contracts",
};

/**
 * The name people see for the layout `id` (`"000"` → `"agent-contract"`);
 * an id that is not a layout's comes back as it is.
 *
 * @example
 * ```ts
 * import { layoutName } from "./layout_name.ts";
 * if (layoutName("003") !== "invariants" || layoutName("x") !== "x") throw new Error();
 * ```
 */
export function layoutName(id: string): string {
  return Object.hasOwn(LAYOUT_NAMES, id)
    ? LAYOUT_NAMES[id as LayoutNumber]
    : id;
}

/**
 * The layout `text` names, by name or by number (`"seed-contracts"` and
 * `"002"` alike), or `undefined` when it names none.
 *
 * @example
 * ```ts
 * import { layoutNumberOf } from "./layout_name.ts";
 * if (layoutNumberOf("agent-contract") !== "000" || layoutNumberOf("000") !== "000") throw new Error();
 * if (layoutNumberOf("001") !== undefined) throw new Error();
 * ```
 */
export function layoutNumberOf(text: string): LayoutNumber | undefined {
  for (const [id, name] of Object.entries(LAYOUT_NAMES)) {
    if (text === id || text === name) return id as LayoutNumber;
  }
  return undefined;
}
