/**
 * Harness rules: a pull request may not change what "passed" means. Changes
 * to conftest hooks, pytest configuration and plugin loading, modules that
 * shadow the test framework, and newly skipped tests are all findings.
 *
 * @module
 */
export * from "./check_harness.ts";
export * from "./check_skips.ts";
