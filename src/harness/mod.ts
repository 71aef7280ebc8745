/**
 * Harness rules: a pull request may not change what "passed" means. Changes
 * to conftest hooks, `__init__.py` files on the way to a test, start-up
 * files, committed bytecode, pytest configuration and plugin loading, new
 * modules that shadow the standard library or packages the project does not
 * own, code under test that looks for the harness, the gate's own settings
 * and CI, and newly skipped tests are all findings.
 *
 * @module
 */
export * from "./check_harness.ts";
export * from "./check_code_probes.ts";
export * from "./check_gate_config.ts";
export * from "./check_skips.ts";
export * from "./harness_paths.ts";
export * from "./judge_harness.ts";
