// End-to-end tests by source prefix, for `deno task mutate --e2e`.
//
// These tests run pawl as a program (deno run main.ts), so the import graph
// cannot connect them to the files they exercise. Each entry names the tests
// that drive the decisions of its folder through the command line. They run
// only on mutants the unit tests leave alive, one file after another, and stop
// at the first failure.

export const E2E_TESTS: readonly {
  readonly prefix: string;
  readonly tests: readonly string[];
}[] = [
  {
    prefix: "src/run/",
    tests: ["tests/decision_table_test.ts", "tests/hostile_test.ts"],
  },
  {
    prefix: "src/harness/",
    tests: ["tests/hostile_test.ts", "tests/code_detects_tests_test.ts"],
  },
  {
    prefix: "src/contract/",
    tests: ["tests/decision_table_test.ts", "tests/layouts_test.ts"],
  },
  { prefix: "src/mutation/", tests: ["tests/mutation_test.ts"] },
  {
    prefix: "src/layouts/",
    tests: ["tests/layouts_test.ts", "tests/oracle_blinded_test.ts"],
  },
  {
    prefix: "src/sandbox/",
    tests: ["tests/hostile_test.ts", "tests/signing_test.ts"],
  },
  { prefix: "src/serve/", tests: ["tests/serve_test.ts"] },
  {
    prefix: "src/sign/",
    tests: ["tests/signing_test.ts", "tests/test_result_attestation_test.ts"],
  },
];
