/**
 * JUnit XML for CI systems that show test reports.
 *
 * @module
 */
import type { Verdict } from "../core/verdict.ts";

/** Render a verdict as JUnit XML: one testcase per rule family, failures per finding. */
export function renderJunit(_verdict: Verdict): string {
  throw new Error("renderJunit is not implemented");
}
