/**
 * Seed 000's `tests/agent_contract.yaml`: reading it strictly
 * ({@linkcode readAgentContract}), and judging a pull request with pure
 * functions that return findings: the monotonic base → head diff
 * ({@linkcode diffAgentContract}), registered properties against parsed test
 * modules ({@linkcode checkProperties}), fixtures against the head tree and
 * digests ({@linkcode checkFixtures}), the freeze ledger against the
 * orchestrator's clock ({@linkcode checkFreezes}), and all of them composed
 * over the base ∪ head contract ({@linkcode checkAgentContract}), together
 * with the list of files the shell must read first
 * ({@linkcode agentContractReads}).
 *
 * @module
 */
export * from "./agent_contract_schema.ts";
export * from "./check_agent_contract.ts";
export * from "./check_fixtures.ts";
export * from "./check_freezes.ts";
export * from "./check_properties.ts";
export * from "./diff_agent_contract.ts";
export * from "./enforced_agent_contract.ts";
export * from "./read_agent_contract.ts";
