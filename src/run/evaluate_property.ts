/**
 * Whether a registered property passed in a test run.
 *
 * @module
 */
import type { TestCaseResult } from "./parse_junit.ts";
import { casesFor, type TestRef } from "./test_id.ts";

/**
 * What became of a registered property. Only `passed` counts: a property
 * that was not collected, was deselected, skipped, xfailed, errored or
 * failed gave no evidence.
 */
export type PropertyOutcome =
  | "passed"
  | "not_collected"
  | "skipped"
  | "xfailed"
  | "failed"
  | "error";

/** Worst first: the outcome reported when the cases of one property disagree. */
const SEVERITY: readonly PropertyOutcome[] = [
  "failed",
  "error",
  "xfailed",
  "skipped",
  "passed",
];

/**
 * Judge a registered property from a run's cases: `passed` only when at
 * least one case matched and every matching case (each parametrization)
 * passed; otherwise the worst outcome among them, or `not_collected` when
 * none matched.
 *
 * @example
 * ```ts
 * import { evaluateProperty } from "./evaluate_property.ts";
 * const outcome = evaluateProperty(
 *   [{ classname: "tests.test_a", name: "test_x[1]", outcome: "skipped" }],
 *   { module: "tests.test_a", name: "test_x" },
 * );
 * if (outcome !== "skipped") throw new Error("unexpected");
 * ```
 */
export function evaluateProperty(
  results: readonly TestCaseResult[],
  property: TestRef,
): PropertyOutcome {
  const cases = casesFor(results, property);
  const seen = new Set<PropertyOutcome>(cases.map((c) => c.outcome));
  // With no case, nothing is found: the property was not collected.
  return SEVERITY.find((outcome) => seen.has(outcome)) ?? "not_collected";
}
