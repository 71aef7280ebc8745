/**
 * Running the base's test command on the head tree and reading what
 * happened: `runPytest` runs pytest once in a `Sandbox` with a minimal
 * environment and reads its JUnit report only when it is a bounded regular
 * file inside the report directory; `parseJunit` turns that hostile XML
 * (DOCTYPE refused, no entity expansion) into per-test results; `casesFor`,
 * `nodeId` and `junitAddress` translate between contract names, JUnit
 * addresses and pytest node ids; `evaluateProperty` says whether a
 * registered property passed (anything but a collected, all-passing test is
 * not a pass); and `runSuite` is the whole tests stage for one pull request:
 * a full run, budgeted reruns of frozen failing tests in fresh trees, and
 * deterministic findings. A missing interpreter or pytest raises
 * `TestRunnerMissingError`, which means "could not decide".
 *
 * @module
 */
export * from "./parse_junit.ts";
export * from "./test_id.ts";
export * from "./evaluate_property.ts";
export * from "./run_pytest.ts";
export * from "./run_suite.ts";
export * from "./observation.ts";
export * from "./observer.ts";
export * from "./cross_check_report.ts";
export * from "./judge_examples.ts";
export * from "./judge_seed_use.ts";
export * from "./read_ledger_rows.ts";
export * from "./remove_bytecode.ts";
export * from "./compose_oracle_tree.ts";
export * from "./export_oracle_tree.ts";
