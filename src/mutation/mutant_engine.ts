/**
 * What an engine that runs the selected mutants is given and gives back:
 * the cold one (`cold_mutants.ts`, a fresh copy of the tree and a fresh
 * pytest per mutant and side) and the warm one (`warm_mutants.ts`, one
 * interpreter per sandbox and side forking a child per mutant, the cold
 * one behind it for what it cannot run). Both run the unmutated baselines
 * themselves: only properties that pass there take part.
 *
 * @module
 */
import type { Finding } from "../core/finding.ts";
import type { MutantResult } from "./judge_kill_sets.ts";
import type { Mutant } from "./mutant.ts";
import type { RunMutantsOptions } from "./run_mutants.ts";

/**
 * Options of an engine: those of a cold run of the mutants (the base's
 * oracle tree and every base property with a node id; the head's tree and
 * properties, keys the base has, or null when its test side is the
 * base's; the sandboxes, the first of which runs the cold baselines), and
 * progress lines.
 */
export interface MutantEngineOptions extends RunMutantsOptions {
  /** Progress lines. */
  progress?: ((line: string) => void) | undefined;
}

/** What an engine found. */
export interface MutantEngineResult {
  /** Results of the mutants that ran, in run order. */
  results: MutantResult[];
  /** Mutants the budget left unrun, in run order. */
  unrun: Mutant[];
  /** Mutants no base test executes: never run. */
  notCovered: Mutant[];
  /** Findings of the unmutated baselines (a report pawl's observer disagreed with). */
  baselineFindings: Finding[];
}
