/**
 * The tests' counts in the words every report uses.
 *
 * @module
 */
import { plural } from "../core/plural.ts";
import type { TestSummary } from "../core/verdict.ts";

/**
 * `3 passed, 0 failed, 1 error, 0 skipped, 0 xfailed`.
 *
 * @example
 * ```ts
 * import { testCounts } from "./test_counts.ts";
 * const line = testCounts({ passed: 3, failed: 0, errors: 1, skipped: 0, xfailed: 0 });
 * if (line !== "3 passed, 0 failed, 1 error, 0 skipped, 0 xfailed") throw new Error(line);
 * ```
 */
export function testCounts(
  s: Pick<TestSummary, "passed" | "failed" | "errors" | "skipped" | "xfailed">,
): string {
  return `${s.passed} passed, ${s.failed} failed, ${
    plural(s.errors, "error")
  }, ${s.skipped} skipped, ${s.xfailed} xfailed`;
}
