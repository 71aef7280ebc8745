/**
 * Attribution by difference: a failure found at the head is the pull
 * request's only if the base, run the same way, does not fail the same way.
 * Given the head's failures and a run of the same tests on the base tree,
 * this tells which failures the base shares. Pure.
 *
 * @module
 */
import type { PropertyOutcome } from "../run/evaluate_property.ts";
import {
  describeFailure,
  failureKey,
  type FailureReason,
  failureReason,
} from "../run/failure_reason.ts";
import type { TestCaseResult } from "../run/parse_junit.ts";
import { casesForNodeId, locateCase } from "../run/test_id.ts";

/** A test that did not pass at the head. */
export interface HeadFailure {
  /** Its pytest node id, the same at base and head. */
  nodeId: string;
  /** How it ended at the head. */
  outcome: PropertyOutcome;
  /** Why it failed or errored at the head, when known. */
  reason?: FailureReason | undefined;
}

/** What the base's run of the same tests left. */
export interface BaseEvidence {
  /** Its cases, or null when it left no usable report. */
  cases: readonly TestCaseResult[] | null;
  /** pawl's observer's failure texts by node id. */
  texts?: ReadonlyMap<string, string> | undefined;
  /** Whether the run hit its time or output limit (then it shows nothing). */
  stopped?: boolean;
}

/**
 * The failures of `failures` that the base shares, each with what the base
 * said: the same outcome and, for a failure or an error, the same reason
 * (health check, deadline or exception type). A test listed more than
 * once (it failed in several runs) is shared only when every one of its
 * failures is. A base run that stopped or left no report shares nothing:
 * it shows nothing.
 *
 * @example
 * ```ts
 * import { sharedWithBase } from "./shared_with_base.ts";
 * const shared = sharedWithBase([{ nodeId: "t.py::test_a", outcome: "failed" }], {
 *   cases: [{ classname: "t", name: "test_a", outcome: "failed", message: "boom" }],
 * });
 * if (!shared.has("t.py::test_a")) throw new Error();
 * ```
 */
export function sharedWithBase(
  failures: readonly HeadFailure[],
  base: BaseEvidence,
): Map<string, string> {
  const shared = new Map<string, string>();
  if (base.cases === null || base.stopped === true) return shared;
  const differs = new Set<string>();
  for (const failure of failures) {
    const cases = casesForNodeId(base.cases, failure.nodeId);
    const detail = sameAtBase(failure, cases, base.texts);
    if (detail === undefined) differs.add(failure.nodeId);
    else if (!shared.has(failure.nodeId)) shared.set(failure.nodeId, detail);
  }
  // A test that failed at the head in two runs is the base's only if the
  // base shares both failures.
  for (const id of differs) shared.delete(id);
  return shared;
}

/** What the base said, when it failed the way the head did. */
function sameAtBase(
  failure: HeadFailure,
  cases: readonly TestCaseResult[],
  texts: ReadonlyMap<string, string> | undefined,
): string | undefined {
  if (failure.outcome === "not_collected") {
    return cases.length === 0 ? "it is not collected there either" : undefined;
  }
  const bad = cases.find((c) => c.outcome === failure.outcome);
  if (bad === undefined) return undefined;
  if (failure.outcome !== "failed" && failure.outcome !== "error") {
    return `it is ${failure.outcome} there too`;
  }
  const text = texts?.get(locateCase(bad).nodeId) ?? bad.message ?? "";
  const reason = failureReason(text);
  if (
    failure.reason !== undefined &&
    failureKey(failure.reason) !== failureKey(reason)
  ) return undefined;
  return describeFailure(
    failure.outcome === "error" ? "it errors there too" : "it fails there too",
    reason,
  );
}
