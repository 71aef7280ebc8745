/**
 * What counts as "a contract delta" for seed 002's example-only rule
 * (review checklist 1: "Did the patch add or edit a public contract? If
 * not, it is unproven").
 *
 * @module
 */
import type {
  PythonFunction,
  PythonModule,
} from "../../python/python_module.ts";
import { contractTestRef } from "./contract_test_ref.ts";
import { isPrivateFunction } from "./is_private_function.ts";
import type { SeedContracts } from "./read_contracts.ts";

/** One way a pull request strengthened `contracts.yml` or a contract test. */
export type ContractStrengthening =
  /** A new public contract whose test exists at head and can fail. */
  | { kind: "added"; id: string }
  /** An existing contract's `min_trials` went up. */
  | { kind: "trials_raised"; id: string; from: number; to: number }
  /** An existing, unretargeted contract's test was added or its source changed, and it can fail. */
  | { kind: "test_changed"; id: string };

/** Options for {@linkcode strengthenedContracts}. */
export interface StrengthenedContractsOptions {
  /** Base analyses of the contract test files, keyed by path. */
  baseModules: ReadonlyMap<string, PythonModule>;
  /** Head analyses of the contract test files, keyed by path. */
  headModules: ReadonlyMap<string, PythonModule>;
}

/**
 * Every way the pull request added or strengthened a contract. Precisely,
 * one of:
 * - `added`: an id only the head has, on a public function (no segment
 *   starting with `_`), whose test is defined at head and is not vacuous;
 * - `trials_raised`: an id at base and head whose `min_trials` went up;
 * - `test_changed`: an id at base and head with the same `function` and
 *   `test`, whose test is defined at head, is not vacuous, and either was
 *   not defined at base or has different source (`def` to last statement,
 *   decorators excluded) than at base.
 *
 * A removed, retargeted or lowered contract never counts (those are
 * rejections of their own), nor does a private, missing or vacuous one.
 * Known looseness: any source edit of a contract test counts, a
 * comment-only edit included; the review of the contract delta itself
 * ("look for a predicate that can fail on an input the patch did not
 * hard-code") stays with a human.
 *
 * @example
 * ```ts
 * import { strengthenedContracts } from "./strengthened_contracts.ts";
 * import { NO_CONTRACT_LINES, type SeedContracts } from "./read_contracts.ts";
 * const c = { id: "c", function: "billing.ledger.apply", test: "tests/test_l.py::test_a", minTrials: 50 };
 * const base: SeedContracts = { version: 1, contracts: [c], lines: NO_CONTRACT_LINES };
 * const head: SeedContracts = { ...base, contracts: [{ ...c, minTrials: 200 }] };
 * const found = strengthenedContracts(base, head, { baseModules: new Map(), headModules: new Map() });
 * if (found[0]?.kind !== "trials_raised") throw new Error();
 * ```
 */
export function strengthenedContracts(
  base: SeedContracts,
  head: SeedContracts | null,
  options: StrengthenedContractsOptions,
): ContractStrengthening[] {
  if (head === null) return [];
  const { baseModules, headModules } = options;
  const baseById = new Map(base.contracts.map((c) => [c.id, c]));
  const out: ContractStrengthening[] = [];
  for (const now of head.contracts) {
    const old = baseById.get(now.id);
    const headFn = functionAt(headModules, now.test);
    const canFail = headFn !== undefined && headFn.vacuity === undefined;
    if (old === undefined) {
      if (canFail && !isPrivateFunction(now.function)) {
        out.push({ kind: "added", id: now.id });
      }
      continue;
    }
    if (now.minTrials > old.minTrials) {
      out.push({
        kind: "trials_raised",
        id: now.id,
        from: old.minTrials,
        to: now.minTrials,
      });
    }
    if (
      canFail && now.function === old.function && now.test === old.test &&
      functionAt(baseModules, old.test)?.source !== headFn.source
    ) {
      out.push({ kind: "test_changed", id: now.id });
    }
  }
  return out;
}

function functionAt(
  modules: ReadonlyMap<string, PythonModule>,
  nodeId: string,
): PythonFunction | undefined {
  const ref = contractTestRef(nodeId);
  return modules.get(ref.file)?.functions.get(ref.name);
}
