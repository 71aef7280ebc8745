/**
 * The oracle-strength rule's counts in one sentence, for the terminal
 * report and the Markdown comment.
 *
 * @module
 */
import { plural } from "../core/plural.ts";
import type { BlindingReport, MutationReport } from "../core/verdict.ts";

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
  const blinding = m.blinding === undefined
    ? ""
    : `; across the code change: ${blindingSummary(m.blinding)}`;
  if (m.notRun !== undefined) return `no mutant ran: ${m.notRun}${blinding}`;
  return `${m.ran} of ${
    plural(m.generated, "mutant")
  } ran (${m.touched} in touched functions, found by ${m.reach}): ${m.killed} killed, ${m.survived} survived, ${m.timedOut} timed out${
    (m.unknown ?? 0) > 0
      ? `, ${m.unknown} unknown (no report pawl could trust)`
      : ""
  }; ${m.weakened} weaken a property; cut: ${m.cutByCap} by max_mutants, ${m.cutByBudget} by the budget${
    m.notCovered === undefined
      ? ""
      : `; ${m.notCovered} not run because no test covers them`
  }${blinding}`;
}

/**
 * The check across the code change in one clause: `12 mutants of unchanged
 * code ran on the base's code: 10 killed there, 1 blinded on the head's
 * code, 0 not run by it there`.
 *
 * @example
 * ```ts
 * import { blindingSummary } from "./mutation_summary.ts";
 * const s = blindingSummary({
 *   generated: 9, selected: 9, cutByCap: 0, cutByBudget: 0, lost: 0,
 *   ran: 9, killed: 7, notExecuted: 1, blinded: 2,
 * });
 * if (!s.includes("2 blinded")) throw new Error(s);
 * ```
 */
export function blindingSummary(b: BlindingReport): string {
  if (b.notRun !== undefined) return `no mutant ran: ${b.notRun}`;
  const cut = b.cutByBudget + b.lost;
  return `${b.ran} of ${
    plural(b.generated, "mutant")
  } of unchanged code ran on the base's code: ${b.killed} killed there, ${b.blinded} blinded on the head's code, ${b.notExecuted} not run by it there${
    cut > 0 ? `; ${b.cutByBudget} cut by the budget, ${b.lost} lost` : ""
  }`;
}
