/**
 * The contracts pawl enforces on a pull request's head state: the base is
 * the authority and the head may only add.
 *
 * @module
 */
import {
  NO_CONTRACT_LINES,
  type SeedContract,
  type SeedContracts,
} from "./read_contracts.ts";

/**
 * Merge `base` and `head` by id: every base contract at its base `function`
 * and `test` (a retargeted contract is still checked and run at its base
 * target) with the larger `min_trials` of the two, then every contract only
 * the head has. `head` is `null` when the head file is missing or invalid:
 * the base is enforced as it is. Lines are the head file's; without a head
 * file there are none, since the base lines do not describe the head file.
 *
 * @example
 * ```ts
 * import { enforcedContracts } from "./enforced_contracts.ts";
 * import { NO_CONTRACT_LINES, type SeedContracts } from "./read_contracts.ts";
 * const c = { id: "c", function: "billing.ledger.apply", test: "tests/test_l.py::test_a", minTrials: 200 };
 * const base: SeedContracts = { version: 1, contracts: [c], lines: NO_CONTRACT_LINES };
 * const head: SeedContracts = { ...base, contracts: [{ ...c, minTrials: 10 }] };
 * if (enforcedContracts(base, head).contracts[0]?.minTrials !== 200) throw new Error();
 * ```
 */
export function enforcedContracts(
  base: SeedContracts,
  head: SeedContracts | null,
): SeedContracts {
  if (head === null) return { ...base, lines: NO_CONTRACT_LINES };
  const headById = new Map(head.contracts.map((c) => [c.id, c]));
  const baseIds = new Set(base.contracts.map((c) => c.id));
  const contracts: SeedContract[] = base.contracts.map((old) => ({
    ...old,
    minTrials: Math.max(old.minTrials, headById.get(old.id)?.minTrials ?? 0),
  }));
  for (const now of head.contracts) {
    if (!baseIds.has(now.id)) contracts.push({ ...now });
  }
  return { version: 1, contracts, lines: head.lines };
}
