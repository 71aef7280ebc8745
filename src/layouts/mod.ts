/**
 * The contract layouts pawl knows, one folder each: seed 000's
 * `tests/agent_contract.yaml` in `agent_contract/`, seed 003's
 * `invariants.toml`, `fixtures.lock` and `freeze.yml` in `invariants/`, and
 * seed 002's `contracts.yaml` and `flake_freeze.yaml` in `seed_contracts/`.
 * Each folder holds the layout's readers, rules, test plan and its
 * {@linkcode Dialect}; the orchestrator sees a layout only through that
 * interface and the {@linkcode DIALECTS} registry, so a new layout is a new
 * folder and one line here.
 *
 * @module
 */
import { agentContractDialect } from "./agent_contract/agent_contract_dialect.ts";
import type { Dialect } from "./dialect.ts";
import { invariantsDialect } from "./invariants/invariants_dialect.ts";
import { seedContractsDialect } from "./seed_contracts/seed_contracts_dialect.ts";

export type * from "./dialect.ts";
export * from "./base_problems.ts";
export * from "./parsed_texts.ts";

/** Every layout pawl knows, in report order. */
export const DIALECTS: readonly Dialect[] = [
  agentContractDialect,
  invariantsDialect,
  seedContractsDialect,
];
