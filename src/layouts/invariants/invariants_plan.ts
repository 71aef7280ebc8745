/**
 * What seed 003 asks of the test stage: run the registered properties and
 * the non-frozen tests ("Do not let the agent add 400 tautologies and call
 * that coverage").
 *
 * @module
 */
import { isAgentName } from "../../contract/identity_key.ts";
import { effectiveFreezes } from "./effective_freezes.ts";
import type { InvariantsContract } from "./invariants_contract.ts";

/** A registered property the test stage must see pass. */
export interface InvariantsPlannedProperty {
  /** Registry id. */
  id: string;
  /** Dotted module. */
  module: string;
  /** Module-level test function. */
  name: string;
}

/** The test stage's part of seed 003. */
export interface InvariantsPlan {
  /** Every registered property: the base's (at their base targets), then the head's additions. */
  properties: InvariantsPlannedProperty[];
  /** pytest node ids of the freezes that still hold: excluded from the gate. */
  deselect: string[];
}

/** Options for {@linkcode invariantsPlan}. */
export interface InvariantsPlanOptions {
  /** The orchestrator's clock, epoch milliseconds. */
  now: number;
}

/**
 * The properties to run and the tests to deselect. A freeze is deselected
 * only while it holds: it is on the base list (a freeze the pull request
 * adds or moves takes effect once a human has merged it), the head kept
 * it, it names a test, its owner is not the agent, and it has not expired
 * at `now` (the earlier expiry of base and head). An expired freeze is not
 * deselected: the test returns to the gate.
 *
 * @example
 * ```ts
 * import { invariantsPlan } from "./invariants_plan.ts";
 * const file = "tests/test_billing.py";
 * const list = {
 *   policy: { maxFrozen: 3, failOnExpired: true },
 *   freezes: [{ index: 0, id: "dst", test: { nodeId: `${file}::test_dst`, file, qualname: "test_dst" },
 *     bodySha256: "1".repeat(64), expiresOn: "1970-01-02", owner: "human", reason: "tzdata", missing: [] }],
 *   lineOf: () => undefined,
 * };
 * const contract = {
 *   registry: { base: undefined, head: null },
 *   lock: { base: undefined, head: null },
 *   freezes: { base: list, head: list },
 * };
 * if (invariantsPlan(contract, { now: 0 }).deselect[0] !== `${file}::test_dst`) throw new Error();
 * if (invariantsPlan(contract, { now: 2 * 86_400_000 }).deselect.length !== 0) throw new Error();
 * ```
 */
export function invariantsPlan(
  contract: InvariantsContract,
  options: InvariantsPlanOptions,
): InvariantsPlan {
  const { base, head } = contract.registry;
  const properties: InvariantsPlannedProperty[] = [];
  const seen = new Set<string>();
  for (const p of [...(base?.properties ?? []), ...(head?.properties ?? [])]) {
    if (seen.has(p.id)) continue;
    seen.add(p.id);
    properties.push({ id: p.id, module: p.module, name: p.function });
  }
  const deselect = new Set<string>();
  for (const freeze of effectiveFreezes(contract.freezes)) {
    const record = freeze.base;
    if (record === undefined || record.test === undefined) continue;
    const owners = [record.owner, freeze.entry.owner];
    if (owners.some(isAgentName)) continue;
    if (freeze.expiresAt === undefined || options.now >= freeze.expiresAt) {
      continue;
    }
    deselect.add(record.test.nodeId);
  }
  return { properties, deselect: [...deselect] };
}
