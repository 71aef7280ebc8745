/**
 * Whether a frozen seed still holds, decided from its replay run.
 *
 * @module
 */
import { type FailureDetail, type Finding, finding } from "../core/finding.ts";
import { failureDetail } from "../run/failure_detail.ts";
import type { ReplayRecord } from "../core/verdict.ts";
import type { DialectId, PlannedReplay } from "../layouts/dialect.ts";
import type { PytestRun } from "../run/run_pytest.ts";
import { casesForNodeId } from "../run/test_id.ts";
import { extractWitness, witnessSha256 } from "../seeds/extract_witness.ts";
import type { LedgerRow } from "../seeds/ledger_row.ts";

/** What the judgement records besides the outcome. */
export interface ReplayContext {
  /** The layout whose freeze it is. */
  layout: DialectId;
  /** `CONTRACT_TRIALS` of the replay. */
  trials: number;
  /** The clock as Unix seconds (the ledger's `ts`). */
  ts: number;
  /**
   * The command that reproduces the replay in a checkout: with it, a
   * failed replay's finding carries what the test showed.
   */
  reproduce?: string;
  /** The replay's failure texts by node id, as pawl's observer streamed them. */
  texts?: ReadonlyMap<string, string> | undefined;
}

/** One replay's judgement. */
export interface ReplayJudgement {
  /** For the verdict. */
  record: ReplayRecord;
  /** The ledger row. */
  row: LedgerRow;
  /** `seed.replay_failed` when the seed does not hold. */
  finding?: Finding;
}

/**
 * Judge one replay: it holds only when the frozen test was collected and
 * every case of it passed within the limits.
 *
 * @example
 * ```ts
 * import { judgeReplay } from "./judge_replay.ts";
 * const judged = judgeReplay({
 *   result: {
 *     code: 0, signal: null, timedOut: true, outputExceeded: false,
 *     outputHead: "", outputTail: "", outputBytes: 0,
 *   },
 *   cases: null,
 * }, { id: "f", test: "tests/test_a.py::test_a", seed: 5, witness: "w" }, {
 *   layout: "002", trials: 20, ts: 0,
 * });
 * if (judged.record.passed || judged.finding === undefined) throw new Error();
 * ```
 */
export function judgeReplay(
  run: PytestRun,
  replay: PlannedReplay,
  context: ReplayContext,
): ReplayJudgement {
  const result = replayResult(run, replay, context.texts);
  const record: ReplayRecord = {
    freeze: replay.id,
    test: replay.test,
    seed: replay.seed,
    passed: result.passed,
  };
  const row: LedgerRow = {
    seed: replay.seed,
    trials: context.trials,
    ok: result.passed,
    "witness_sha256": result.passed ? null : witnessSha256(result.witness),
    ts: context.ts,
    layout: context.layout,
    id: replay.id,
    kind: "replay",
  };
  if (result.passed) return { record, row };
  const file = replay.test.split("::")[0];
  return {
    record,
    row,
    finding: finding(
      "seed.replay_failed",
      `Test "${replay.test}" does not hold on frozen seed ${replay.seed} (freeze "${replay.id}", recorded witness ${replay.witness}): ${result.detail}`,
      {
        ...(file === undefined || file === "" ? {} : { path: file }),
        ...(context.reproduce === undefined ? {} : {
          failure: result.text === undefined
            ? { test: replay.test, reproduce: context.reproduce }
            : failureDetail(replay.test, result.text, context.reproduce),
        } satisfies { failure?: FailureDetail }),
      },
    ),
  };
}

function replayResult(
  run: PytestRun,
  replay: PlannedReplay,
  texts: ReadonlyMap<string, string> | undefined,
): { passed: boolean; detail: string; witness: string; text?: string } {
  if (run.result.timedOut) {
    return {
      passed: false,
      detail: "the replay hit its time limit",
      witness: "timeout",
    };
  }
  if (run.result.outputExceeded) {
    return {
      passed: false,
      detail: "the replay flooded its output cap",
      witness: "output",
    };
  }
  const cases = casesForNodeId(run.cases ?? [], replay.test);
  if (cases.length === 0) {
    return {
      passed: false,
      detail: "the test was not collected (missing, renamed or deselected)",
      witness: "not collected",
    };
  }
  const bad = cases.find((c) => c.outcome !== "passed");
  if (bad === undefined) return { passed: true, detail: "", witness: "" };
  const witness = extractWitness(bad.message ?? bad.outcome);
  const text = texts?.get(replay.test) ?? bad.message;
  return {
    passed: false,
    detail: `${bad.outcome === "passed" ? "failed" : bad.outcome}, witness ${
      JSON.stringify(witness)
    }`,
    witness,
    ...(text === undefined || text === "" ? {} : { text }),
  };
}
