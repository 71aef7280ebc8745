/**
 * The monotonic base → head diff of `contracts.yml`: the head may add
 * public contracts and raise budgets, never take anything away.
 *
 * @module
 */
import { type Finding, finding } from "../../core/finding.ts";
import { isPrivateFunction } from "./is_private_function.ts";
import type { SeedContracts } from "./read_contracts.ts";

/** Options for {@linkcode diffContracts}. */
export interface DiffContractsOptions {
  /** Repository-relative path of the contracts file, for findings. */
  path: string;
}

/**
 * Every way `head` is weaker than `base`, plus contracts the pull request
 * added on private functions:
 *
 * | change | rule |
 * |---|---|
 * | contract id gone (a rename is a removal) | `property.removed` |
 * | same id, other `function` or `test` | `property.retargeted` |
 * | `min_trials` lowered | `property.min_trials_lowered` |
 * | new id whose `function` has a segment starting with `_` | `property.private_contract` |
 *
 * A private contract already at base was put there by a human and is
 * left alone ("if a helper needs coverage, a human adds it after merge").
 * Findings point at the head file's lines; a removed contract points at the
 * `contracts` key.
 *
 * @example
 * ```ts
 * import { diffContracts } from "./diff_contracts.ts";
 * import { NO_CONTRACT_LINES, type SeedContracts } from "./read_contracts.ts";
 * const empty: SeedContracts = { version: 1, contracts: [], lines: NO_CONTRACT_LINES };
 * const head: SeedContracts = {
 *   ...empty,
 *   contracts: [{ id: "c", function: "billing.ledger._apply", test: "tests/test_l.py::test_a", minTrials: 1 }],
 * };
 * const findings = diffContracts(empty, head, { path: "contracts.yml" });
 * if (findings[0]?.rule !== "property.private_contract") throw new Error();
 * ```
 */
export function diffContracts(
  base: SeedContracts,
  head: SeedContracts,
  options: DiffContractsOptions,
): Finding[] {
  const { path } = options;
  const lines = head.lines;
  const at = (id: string, key: string) => ({
    path,
    line: lines.entry(id, key) ?? lines.entry(id),
  });
  const findings: Finding[] = [];
  const headById = new Map(head.contracts.map((c) => [c.id, c]));
  const baseIds = new Set(base.contracts.map((c) => c.id));
  for (const old of base.contracts) {
    const name = JSON.stringify(old.id);
    const now = headById.get(old.id);
    if (now === undefined) {
      findings.push(finding(
        "property.removed",
        `Contract ${name} was removed or renamed away: restore it (a rename is a removal plus an addition)`,
        { path, line: lines.key("contracts") ?? lines.key("version") },
      ));
      continue;
    }
    if (now.function !== old.function) {
      findings.push(finding(
        "property.retargeted",
        `Contract ${name} now covers function ${
          JSON.stringify(now.function)
        } instead of ${JSON.stringify(old.function)}: restore the function`,
        at(old.id, "function"),
      ));
    }
    if (now.test !== old.test) {
      findings.push(finding(
        "property.retargeted",
        `Contract ${name} now runs test ${
          JSON.stringify(now.test)
        } instead of ${JSON.stringify(old.test)}: restore the test`,
        at(old.id, "test"),
      ));
    }
    if (now.minTrials < old.minTrials) {
      findings.push(finding(
        "property.min_trials_lowered",
        `Contract ${name} min_trials was lowered from ${old.minTrials} to ${now.minTrials}: restore the budget`,
        at(old.id, "min_trials"),
      ));
    }
  }
  for (const now of head.contracts) {
    if (baseIds.has(now.id) || !isPrivateFunction(now.function)) continue;
    findings.push(finding(
      "property.private_contract",
      `Contract ${JSON.stringify(now.id)} covers the private function ${
        JSON.stringify(now.function)
      }: contracts belong on public functions; a human adds helper coverage after merge`,
      at(now.id, "function"),
    ));
  }
  return findings;
}
