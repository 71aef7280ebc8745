/**
 * The JUnit report against pawl's observer stream. pytest writes the report
 * at the end of the session into a directory the tests can write, so code
 * that runs later (an `atexit` handler in the code under test, a forged
 * file) can rewrite it; the stream was read while the tests ran. Any
 * disagreement is tampering.
 *
 * @module
 */
import { plural } from "../core/plural.ts";
import { type Finding, finding } from "../core/finding.ts";
import type { Observation, ObservedOutcome } from "./observation.ts";
import type { TestCaseResult } from "./parse_junit.ts";
import { junitAddress } from "./test_id.ts";

/** Options for {@linkcode crossCheckReport}. */
export interface CrossCheckOptions {
  /** Which run this was, for messages (`the full suite`, `the base's oracle`). */
  run: string;
  /** Most disagreements listed one by one. */
  maxListed?: number;
}

/**
 * Findings for every way the report and the stream disagree: the plugin
 * never reported (`harness.observer_missing`), a test in one and not the
 * other, one test with two outcomes, or an outcome rewritten between the
 * report being made and logged (`harness.report_tampered`).
 *
 * @example
 * ```ts
 * import { parseObservation } from "./observation.ts";
 * import { crossCheckReport } from "./cross_check_report.ts";
 * const o = parseObservation([[
 *   '{"event":"hello","token":"t"}',
 *   '{"event":"configure"}',
 *   '{"event":"report","nodeid":"t.py::test_a","when":"call","outcome":"failed","xfail":false}',
 * ]], "t");
 * const f = crossCheckReport(o, [{ classname: "t", name: "test_a", outcome: "passed" }], { run: "the suite" });
 * if (f[0]?.rule !== "harness.report_tampered") throw new Error("unexpected");
 * ```
 */
export function crossCheckReport(
  observation: Observation,
  cases: readonly TestCaseResult[],
  options: CrossCheckOptions,
): Finding[] {
  const { run } = options;
  const max = options.maxListed ?? 20;
  if (!observation.hello || !observation.configured) {
    const why = observation.problems[0] ??
      (observation.hello
        ? "it was imported, then disabled before the session began"
        : "nothing connected to its stream");
    return [finding(
      "harness.observer_missing",
      `pawl's observer plugin did not report from ${run} although the run left a JUnit report with ${
        plural(cases.length, "case")
      }: ${why}; the plugin was disabled (e.g. "-p no:…" in addopts), shadowed or cut off, so the report cannot be trusted`,
    )];
  }
  const problems: string[] = [...observation.problems];
  for (const r of observation.rewritten) {
    problems.push(
      `the ${r.when} report of "${r.nodeId}" was made "${r.made}" and logged "${r.logged}" (a hook rewrote the outcome)`,
    );
  }
  const byAddress = new Map<string, TestCaseResult[]>();
  for (const c of cases) {
    if (c.classname === "") continue; // collection errors, checked below
    const key = `${c.classname}\0${c.name}`;
    byAddress.set(key, [...(byAddress.get(key) ?? []), c]);
  }
  const seen = new Set<string>();
  for (const [nodeId, outcome] of [...observation.outcomes].sort(byKey)) {
    const address = junitAddress(nodeId);
    const key = `${address.classname}\0${address.name}`;
    seen.add(key);
    const reported = byAddress.get(key) ?? [];
    if (reported.length === 0) {
      problems.push(
        `"${nodeId}" ran (${outcome}) but is missing from the report`,
      );
      continue;
    }
    const outcomes = new Set(reported.map((c) => c.outcome));
    const phases = observation.phases.get(nodeId) ?? new Set();
    const failedThenErrored = outcomes.size === 2 && outcomes.has("failed") &&
      outcomes.has("error") && phases.has("failed") && phases.has("error");
    if (failedThenErrored) continue;
    if (outcomes.size > 1) {
      problems.push(
        `the report gives "${nodeId}" ${outcomes.size} different outcomes (${
          [...outcomes].sort().join(", ")
        })`,
      );
    } else if (!outcomes.has(junitOutcome(outcome))) {
      problems.push(
        `the report says "${nodeId}" ${
          [...outcomes][0]
        }, but it ${outcome} while the tests ran`,
      );
    }
  }
  for (const [key, reported] of [...byAddress].sort(byKey)) {
    if (seen.has(key)) continue;
    const c = reported[0] as TestCaseResult;
    problems.push(
      `the report lists "${c.classname}" "${c.name}" (${c.outcome}), which never ran`,
    );
  }
  const collectErrors = cases.filter((c) => c.classname === "").length;
  if (observation.collectErrors.length > collectErrors) {
    problems.push(
      `${
        plural(observation.collectErrors.length, "file")
      } failed to collect while the tests ran, the report shows ${collectErrors}`,
    );
  }
  if (problems.length === 0) return [];
  const listed = problems.slice(0, max).join("; ");
  const more = problems.length > max
    ? `; and ${problems.length - max} more`
    : "";
  return [finding(
    "harness.report_tampered",
    `The JUnit report of ${run} does not match what pawl's observer saw while the tests ran: ${listed}${more}`,
  )];
}

function junitOutcome(outcome: ObservedOutcome): TestCaseResult["outcome"] {
  return outcome;
}

function byKey<T>(a: [string, T], b: [string, T]): number {
  // Stryker disable next-line ConditionalExpression,EqualityOperator: the keys sorted are a map's, never equal, so what equal keys would give is never asked
  return a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0;
}
