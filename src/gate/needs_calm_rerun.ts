/**
 * pawl's own scheduling never makes a reject: the properties' own runs that
 * went beside the suite, in spare sandboxes at background priority, are
 * repeated alone at normal priority when anything in them, or a property's
 * timing in the suite, did not pass. Only what the calm run shows counts.
 *
 * @module
 */
import { failureReason, isTimingFailure } from "../run/failure_reason.ts";
import type { TestCaseResult } from "../run/parse_junit.ts";
import type { PytestRun } from "../run/run_pytest.ts";
import type { PropertyRunsResult } from "../run/judge_property_runs.ts";
import { casesForNodeId } from "../run/test_id.ts";

/** What the decision looks at. */
export interface CalmRerunEvidence {
  /** The properties' runs made beside the suite. */
  beside: PropertyRunsResult;
  /** Node ids of the registered properties. */
  nodeIds: readonly string[];
  /** The suite's cases. */
  suite: readonly TestCaseResult[];
  /** The suite's failure texts by node id. */
  suiteTexts?: ReadonlyMap<string, string> | undefined;
}

/**
 * Whether the runs made beside the suite must be made again alone at
 * normal priority before they count: one of them stopped, left no report
 * or did not pass a property, or a property failed the suite on a health
 * check or deadline while they ran.
 *
 * @example
 * ```ts
 * import { needsCalmRerun } from "./needs_calm_rerun.ts";
 * const passed = { classname: "t", name: "test_p", outcome: "passed" as const };
 * const run = (cases: typeof passed[]) => ({
 *   result: { code: 0, signal: null, timedOut: false, outputExceeded: false,
 *     outputHead: "", outputTail: "", outputBytes: 0 },
 *   cases,
 * });
 * const beside = { head: run([passed]), oracle: null, findings: [],
 *   expectLedger: false, seedBaseline: null, oracleFailures: [] };
 * if (needsCalmRerun({ beside, nodeIds: ["t.py::test_p"], suite: [passed] })) {
 *   throw new Error("a clean run was repeated");
 * }
 * ```
 */
export function needsCalmRerun(evidence: CalmRerunEvidence): boolean {
  const { beside, nodeIds } = evidence;
  const runs = [
    beside.head,
    ...(beside.oracle === null ? [] : [beside.oracle]),
  ];
  if (runs.some((run) => !told(run))) return true;
  if (beside.findings.some((f) => f.blocking)) return true;
  const notPassed = (cases: readonly TestCaseResult[], id: string) => {
    const found = casesForNodeId(cases, id);
    return found.length === 0 || found.some((c) => c.outcome !== "passed");
  };
  if (nodeIds.some((id) => notPassed(beside.head.cases ?? [], id))) return true;
  return nodeIds.some((id) =>
    casesForNodeId(evidence.suite, id).some((c) =>
      (c.outcome === "failed" || c.outcome === "error") &&
      isTimingFailure(
        failureReason(evidence.suiteTexts?.get(id) ?? c.message ?? ""),
      )
    )
  );
}

/** Whether a run ended by itself and left a report. */
function told(run: PytestRun): boolean {
  return !run.result.timedOut && !run.result.outputExceeded &&
    run.cases !== null;
}
