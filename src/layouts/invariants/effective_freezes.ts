/**
 * The freezes pawl enforces on a pull request: the head list (or the base
 * list when the head has none usable), each entry held to its base record.
 *
 * @module
 */
import { expiresOnEnd } from "./expires_on.ts";
import type { ContractSides } from "./invariants_contract.ts";
import type {
  FreezeEntry,
  FreezeList,
  FrozenTest,
} from "./read_freeze_list.ts";

/** One freeze as enforced. */
export interface EffectiveFreeze {
  /** The entry as the judged list (head, else base) writes it. */
  entry: FreezeEntry;
  /** The same id in the base list; `undefined` for a freeze the head adds. */
  base: FreezeEntry | undefined;
  /** A name for messages: the id, or `#n` for an entry without one. */
  name: string;
  /** The frozen test: the base record's, else the entry's. */
  test: FrozenTest | undefined;
  /** The body hash to match: the base record's, else the entry's. */
  bodySha256: string | undefined;
  /** The earlier expiry of base and head, as written. */
  expiresOn: string | undefined;
  /** When the freeze has expired (epoch ms), from `expiresOn`. */
  expiresAt: number | undefined;
}

/**
 * The enforced freezes: the entries of the head list (the base list when
 * `sides.head` is `null`), each matched by id with its base record, whose
 * test, body hash and earlier expiry win. A freeze the head removed is not
 * enforced (its test returns to the gate); a freeze the head adds is
 * enforced as written, and is never deselected (see `invariantsPlan`).
 *
 * @example
 * ```ts
 * import { effectiveFreezes } from "./effective_freezes.ts";
 * const entry = (expiresOn: string) => ({
 *   index: 0, id: "f", test: undefined, bodySha256: undefined, expiresOn,
 *   owner: "human", reason: "r", missing: [],
 * });
 * const list = (expiresOn: string) => ({
 *   policy: { maxFrozen: 1, failOnExpired: true }, freezes: [entry(expiresOn)], lineOf: () => undefined,
 * });
 * const [f] = effectiveFreezes({ base: list("2026-01-01"), head: list("2027-01-01") });
 * if (f?.expiresOn !== "2026-01-01") throw new Error();
 * ```
 */
export function effectiveFreezes(
  sides: ContractSides<FreezeList>,
): EffectiveFreeze[] {
  const { base, head } = sides;
  const current = head ?? base;
  if (current === undefined) return [];
  const baseById = new Map<string, FreezeEntry>();
  // Stryker disable next-line ArrayDeclaration: with no base list, a stand-in entry has no id and is never indexed
  for (const entry of base?.freezes ?? []) {
    // Stryker disable next-line ConditionalExpression: an entry without an id is looked up by no one (the lookup below needs an id), so keeping it under the key undefined changes nothing
    if (entry.id !== undefined) baseById.set(entry.id, entry);
  }
  return current.freezes.map((entry) => {
    // Stryker disable next-line ConditionalExpression: the index holds no entry without an id, so looking up an id-less entry finds nothing either way
    const known = entry.id === undefined ? undefined : baseById.get(entry.id);
    const record = head === null ? entry : known;
    const [expiresOn, expiresAt] = earlier(record?.expiresOn, entry.expiresOn);
    return {
      entry,
      base: record,
      name: entry.id ?? `#${entry.index + 1}`,
      test: record?.test ?? entry.test,
      bodySha256: record?.bodySha256 ?? entry.bodySha256,
      expiresOn,
      expiresAt,
    };
  });
}

function earlier(
  a: string | undefined,
  b: string | undefined,
): [string | undefined, number | undefined] {
  // Stryker disable next-line ConditionalExpression: expiresOnEnd() reads no date in a missing expiry either, and gives undefined
  const atA = a === undefined ? undefined : expiresOnEnd(a);
  // Stryker disable next-line ConditionalExpression: expiresOnEnd() reads no date in a missing expiry either, and gives undefined
  const atB = b === undefined ? undefined : expiresOnEnd(b);
  if (atA === undefined) return [b, atB];
  if (atB === undefined || atA <= atB) return [a, atA];
  return [b, atB];
}
