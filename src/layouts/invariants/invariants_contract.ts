/**
 * Seed 003's contract as pawl holds it: each of the three files at base and
 * at head.
 *
 * @module
 */
import type { FixtureLock } from "./read_fixture_lock.ts";
import type { FreezeList } from "./read_freeze_list.ts";
import type { PropertyRegistry } from "./read_property_registry.ts";

/**
 * One file of the layout on both sides of a pull request. The base is the
 * authority; the head may only add.
 */
export interface ContractSides<T> {
  /** The base copy; `undefined` when the base commit has no such file (no constraint of that kind). */
  base: T | undefined;
  /**
   * The head copy; `null` when there is none to judge: the head removed,
   * symlinked or broke the file (already a `config.*` finding, and the
   * base copy is enforced as it is), or neither side has it.
   */
  head: T | null;
}

/** The three files of seed 003, each on both sides. */
export interface InvariantsContract {
  /** `invariants.toml`. */
  registry: ContractSides<PropertyRegistry>;
  /** `fixtures.lock`. */
  lock: ContractSides<FixtureLock>;
  /** `freeze.yml`. */
  freezes: ContractSides<FreezeList>;
}
