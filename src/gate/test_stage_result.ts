/**
 * What the test stage adds to the verdict.
 *
 * @module
 */
import type { Finding } from "../core/finding.ts";
import type { IsolationRecord, TestsReport } from "../core/verdict.ts";
import type { MutationRun } from "../mutation/render_mutation_report.ts";
import type { LedgerRow } from "../seeds/ledger_row.ts";

/** What the test stage adds to the verdict. */
export interface TestStageResult {
  /** Test findings. */
  findings: Finding[];
  /** Report for the verdict. */
  report: TestsReport;
  /** Sandbox used. */
  isolation: IsolationRecord;
  /** One seed-ledger row per property run and replay. */
  ledger: LedgerRow[];
  /** Every mutant's outcome, when `[mutation]` ran. */
  mutationRun?: MutationRun;
  /**
   * When `[mutation]` ran: the properties whose head test kills every
   * mutant their base test kills, with how many (the evidence that
   * settles a rewritten assertion).
   */
  keptKills?: ReadonlyMap<string, number>;
  /**
   * When the calls the tests make into the code under test were replayed
   * where no test watches and none differed: per file, the line spans of
   * the functions those calls ran (a static probe finding there is
   * explained, not blocking).
   */
  exercised?: ReadonlyMap<string, readonly (readonly [number, number])[]>;
}
