/**
 * Seed 002's whole static gate for one pull request, as one pure function.
 *
 * @module
 */
import type { Finding } from "../../core/finding.ts";
import type { ChangedPath, Tree } from "../../git/git.ts";
import type { PythonModule } from "../../python/python_module.ts";
import { checkContractTests } from "./check_contract_tests.ts";
import { checkExampleOnly } from "./check_example_only.ts";
import { checkFlakeFreeze } from "./check_flake_freeze.ts";
import {
  checkFreezeFileTouched,
  type FreezeFileState,
} from "./check_freeze_file_touched.ts";
import { contractTestRef } from "./contract_test_ref.ts";
import { diffContracts } from "./diff_contracts.ts";
import { enforcedContracts } from "./enforced_contracts.ts";
import { exampleAssertionDeltas } from "./example_assertion_deltas.ts";
import { CONTRACTS_PATH, type SeedContracts } from "./read_contracts.ts";
import { FLAKE_FREEZE_PATH, type FlakeFreeze } from "./read_flake_freeze.ts";
import { strengthenedContracts } from "./strengthened_contracts.ts";

/** Everything {@linkcode checkSeedContracts} judges. */
export interface CheckSeedContractsInput {
  /** `contracts.yml` at base (an empty contract when the base has none). */
  base: SeedContracts;
  /**
   * `contracts.yml` at head; `null` when the head removed, symlinked or
   * broke a base file (the caller reports that), so the base is enforced.
   */
  head: SeedContracts | null;
  /** `flake_freeze.yml` at base, the copy the gate uses; `null` when absent. */
  freeze: FlakeFreeze | null;
  /** The freeze file's base and head states, to detect any touch. */
  freezeFile: {
    base: FreezeFileState | undefined;
    head: FreezeFileState | undefined;
  };
  /** The head commit's tree. */
  headTree: Tree;
  /** Paths that differ base → head. */
  changes: readonly ChangedPath[];
  /** Head analyses: contract tests and every changed `.py` file. */
  modules: ReadonlyMap<string, PythonModule>;
  /** Base analyses: contract tests and every changed `.py` file. */
  baseModules: ReadonlyMap<string, PythonModule>;
  /** The orchestrator's clock, epoch milliseconds. */
  now: number;
  /** Path of the contracts file (default `contracts.yml`). */
  contractsPath?: string;
  /** Path of the freeze file (default `flake_freeze.yml`). */
  freezePath?: string;
}

/**
 * Judge one pull request against seed 002's layout:
 * - {@linkcode diffContracts}: removed, retargeted and lowered contracts,
 *   and contracts added on private functions;
 * - {@linkcode checkContractTests} over the enforced (base ∪ head)
 *   contracts: missing, vacuous or shadowed contract tests;
 * - {@linkcode checkFreezeFileTouched}: any change to `flake_freeze.yml`;
 * - {@linkcode checkFlakeFreeze} on the base copy: skip, owner, witness,
 *   reason and expiry;
 * - {@linkcode checkExampleOnly}: more example assertions without a
 *   contract delta ({@linkcode strengthenedContracts}).
 * Identical findings are reported once.
 *
 * @example
 * ```ts
 * import { checkSeedContracts } from "./check_seed_contracts.ts";
 * import { NO_CONTRACT_LINES } from "./read_contracts.ts";
 * const empty = { version: 1 as const, contracts: [], lines: NO_CONTRACT_LINES };
 * const findings = checkSeedContracts({
 *   base: empty, head: empty, freeze: null,
 *   freezeFile: { base: undefined, head: { kind: "file" } },
 *   headTree: new Map(), changes: [{ status: "A", path: "flake_freeze.yml" }],
 *   modules: new Map(), baseModules: new Map(), now: 0,
 * });
 * if (findings.map((f) => f.rule).join() !== "freeze.file_touched") throw new Error();
 * ```
 */
export function checkSeedContracts(input: CheckSeedContractsInput): Finding[] {
  const contractsPath = input.contractsPath ?? CONTRACTS_PATH;
  const freezePath = input.freezePath ?? FLAKE_FREEZE_PATH;
  const { base, head } = input;
  const enforced = enforcedContracts(base, head);
  const findings = [
    ...(head === null
      ? []
      : diffContracts(base, head, { path: contractsPath })),
    ...checkContractTests(enforced, {
      headTree: input.headTree,
      modules: input.modules,
      path: contractsPath,
    }),
    ...checkFreezeFileTouched({
      path: freezePath,
      base: input.freezeFile.base,
      head: input.freezeFile.head,
      listed: input.changes.some((c) => c.path === freezePath),
    }),
    ...(input.freeze === null
      ? []
      : checkFlakeFreeze(input.freeze, { now: input.now, path: freezePath })),
    ...checkExampleOnly({
      deltas: exampleAssertionDeltas(
        input.changes,
        input.baseModules,
        input.modules,
      ),
      strengthenings: strengthenedContracts(base, head, {
        baseModules: input.baseModules,
        headModules: input.modules,
      }),
      contractsPath,
    }),
  ];
  const seen = new Set<string>();
  return findings.filter((f) => {
    const key = JSON.stringify([f.rule, f.message, f.path, f.line]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** The Python files the shell must analyse before {@linkcode checkSeedContracts}. */
export interface SeedContractsReads {
  /** Head contract test files that are regular files in the head tree. */
  headModules: string[];
  /** Contract test files that are regular files in the base tree. */
  baseModules: string[];
}

/**
 * The contract test files of the enforced and head contracts, as regular
 * files in each tree (the base side feeds the "test changed" comparison of
 * {@linkcode strengthenedContracts}). Changed `.py` files are analysed by
 * the shell anyway and are not listed.
 *
 * @example
 * ```ts
 * import { seedContractsReads } from "./check_seed_contracts.ts";
 * import { NO_CONTRACT_LINES } from "./read_contracts.ts";
 * const base = {
 *   version: 1 as const, lines: NO_CONTRACT_LINES,
 *   contracts: [{ id: "c", function: "billing.ledger.apply", test: "tests/test_l.py::test_a", minTrials: 1 }],
 * };
 * const path = "tests/test_l.py";
 * const tree = new Map([[path, { path, kind: "file" as const, oid: "1", size: 1 }]]);
 * if (seedContractsReads(base, null, tree, tree).headModules.join() !== path) throw new Error();
 * ```
 */
export function seedContractsReads(
  base: SeedContracts,
  head: SeedContracts | null,
  baseTree: Tree,
  headTree: Tree,
): SeedContractsReads {
  const files = new Set<string>();
  const all = [...enforcedContracts(base, head).contracts];
  all.push(...(head?.contracts ?? []));
  for (const contract of all) files.add(contractTestRef(contract.test).file);
  const regular = (tree: Tree) =>
    [...files].filter((path) => {
      const kind = tree.get(path)?.kind;
      return kind === "file" || kind === "executable";
    }).sort();
  return { headModules: regular(headTree), baseModules: regular(baseTree) };
}
