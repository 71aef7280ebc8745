/**
 * Seed 002's layout: `contracts.yml` (predicates on public functions, each
 * run by a test with a trial budget) and `flake_freeze.yml` (time-boxed,
 * human-owned freezes that pin a failing seed and never skip). Readers are
 * strict ({@linkcode readContracts}, {@linkcode readFlakeFreeze}); the
 * rules are pure functions that return findings: the monotonic diff
 * ({@linkcode diffContracts}), contract tests against parsed source
 * ({@linkcode checkContractTests}), the freeze validator
 * ({@linkcode checkFlakeFreeze}), "agent patches that touch this file fail"
 * ({@linkcode checkFreezeFileTouched}), and "example-only test diff is
 * unproven" ({@linkcode checkExampleOnly} over
 * {@linkcode exampleAssertionDeltas} and {@linkcode strengthenedContracts}),
 * all composed in {@linkcode checkSeedContracts}. {@linkcode frozenSeeds}
 * says which pinned seeds the test stage replays.
 *
 * @module
 */
export * from "./check_contract_tests.ts";
export * from "./check_example_only.ts";
export * from "./check_flake_freeze.ts";
export * from "./check_freeze_file_touched.ts";
export * from "./check_seed_contracts.ts";
export * from "./contract_test_ref.ts";
export * from "./contracts_schema.ts";
export * from "./diff_contracts.ts";
export * from "./enforced_contracts.ts";
export * from "./example_assertion_deltas.ts";
export * from "./flake_freeze_schema.ts";
export * from "./freeze_expiry.ts";
export * from "./frozen_seeds.ts";
export * from "./is_private_function.ts";
export * from "./is_test_file.ts";
export * from "./read_contracts.ts";
export * from "./read_flake_freeze.ts";
export * from "./strengthened_contracts.ts";
