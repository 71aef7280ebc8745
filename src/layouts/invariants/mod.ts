/**
 * Seed 003's layout: three human-owned files at the repository root are
 * the merge token. `invariants.toml` registers property functions by the
 * SHA-256 of their source ({@linkcode readPropertyRegistry},
 * {@linkcode checkPropertyRegistry}); `fixtures.lock` pins fixture bytes
 * ({@linkcode readFixtureLock}, {@linkcode checkFixtureLock}); `freeze.yml`
 * is a budgeted, dated list of frozen flaky tests pinned to their bodies
 * ({@linkcode readFreezeList}, {@linkcode checkFreezeList}). All of them
 * together: {@linkcode checkInvariants}, with the files the shell must read
 * first ({@linkcode invariantsReads}) and what the test stage must run
 * ({@linkcode invariantsPlan}).
 *
 * @module
 */
export * from "./check_fixture_lock.ts";
export * from "./check_freeze_list.ts";
export * from "./check_invariants.ts";
export * from "./check_property_registry.ts";
export * from "./effective_freezes.ts";
export * from "./expires_on.ts";
export * from "./invariants_contract.ts";
export * from "./invariants_plan.ts";
export * from "./invariants_reads.ts";
export * from "./match_body_hash.ts";
export * from "./read_fixture_lock.ts";
export * from "./read_freeze_list.ts";
export * from "./read_property_registry.ts";
export * from "./registered_function.ts";
export * from "./source_sha256.ts";
