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
import type { ObserverPlugin } from "../run/observer.ts";
import type { SandboxLimits } from "../sandbox/sandbox.ts";
import type { MutantResult } from "./judge_kill_sets.ts";
import type { Mutant } from "./mutant.ts";
import type { MutationCache } from "./mutation_cache.ts";
import type { MutantSide, MutantWorker } from "./run_mutants.ts";

/** Options of an engine. */
export interface MutantEngineOptions {
  /** The selected mutants, in run order. */
  mutants: readonly Mutant[];
  /** The head text of each mutated file. */
  texts: ReadonlyMap<string, string>;
  /** The base's oracle tree and every base property with a node id. */
  base: MutantSide;
  /** The head's tree and properties (keys the base has), or null when its test side is the base's. */
  head: MutantSide | null;
  /** The sandboxes (the first runs the cold baselines). */
  workers: readonly MutantWorker[];
  /** The test command with the fixed seed. */
  command: readonly string[];
  /** Environment with the fixed seed. */
  env: Readonly<Record<string, string>>;
  /** Limits of a run of the suite. */
  limits: Partial<SandboxLimits>;
  /** pawl's observer plugin, loaded into every run. */
  observer?: ObserverPlugin | undefined;
  /** The runner's cache. */
  cache?: MutationCache | undefined;
  /** The clock reading (see `clock`) after which no mutant starts. */
  deadline: number;
  /** A monotonic clock in milliseconds. */
  clock: () => number;
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
