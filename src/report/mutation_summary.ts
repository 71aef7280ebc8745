/**
 * The oracle-strength rule's counts in one sentence, for the terminal
 * report and the Markdown comment.
 *
 * @module
 */
import type { MutationReport } from "../core/verdict.ts";

/**
 * `15 of 15 mutants ran (0 in touched functions, found by import analysis): 13 killed, 2 survived, 0 timed out; 2 weaken a property; cut: 0 by max_mutants, 0 by the budget`,
 * then how many no test covers, when the verdict counted them.
 *
 * @example
 * ```ts
 * import { mutationSummary } from "./mutation_summary.ts";
 * const s = mutationSummary({
 *   reach: "import analysis", sampleSeed: 1, runSeed: 2, generated: 4, selected: 3,
 *   touched: 1, ran: 3, killed: 2, survived: 1, timedOut: 0,
 *   cutByCap: 1, cutByBudget: 0, weakened: 0,
 * });
 * if (!s.startsWith("3 of 4 mutants ran")) throw new Error(s);
 * ```
 */
export function mutationSummary(m: MutationReport): string {
  if (m.notRun !== undefined) return `no mutant ran: ${m.notRun}`;
  return `${m.ran} of ${m.generated} mutants ran (${m.touched} in touched functions, found by ${m.reach}): ${m.killed} killed, ${m.survived} survived, ${m.timedOut} timed out${
    (m.unknown ?? 0) > 0
      ? `, ${m.unknown} unknown (no report pawl could trust)`
      : ""
  }; ${m.weakened} weaken a property; cut: ${m.cutByCap} by max_mutants, ${m.cutByBudget} by the budget${
    m.notCovered === undefined
      ? ""
      : `; ${m.notCovered} not run because no test covers them`
  }`;
}
