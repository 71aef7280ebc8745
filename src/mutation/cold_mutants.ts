/**
 * The cold engine: the unmutated baselines, then every mutant on a fresh
 * copy of the tree with a fresh pytest per side (`run_mutants.ts`), each
 * run's time limit derived from the slowest baseline.
 *
 * @module
 */
import { plural } from "../core/plural.ts";
import type { Finding } from "../core/finding.ts";
import type { SandboxLimits } from "../sandbox/sandbox.ts";
import type { SideOutcomes } from "./judge_kill_sets.ts";
import type {
  MutantEngineOptions,
  MutantEngineResult,
} from "./mutant_engine.ts";
import {
  type MutantSide,
  type MutantWorker,
  runMutants,
  type RunSettings,
  runUnmutated,
} from "./run_mutants.ts";

/** Run the baselines and the mutants; see the module doc. */
export async function runColdMutants(
  options: MutantEngineOptions,
): Promise<MutantEngineResult> {
  const none = {
    results: [],
    unrun: [],
    notCovered: [],
    baselineFindings: [],
  };
  const worker = options.workers[0];
  if (worker === undefined) return none;
  const run: RunSettings = {
    command: options.command,
    env: options.env,
    limits: options.limits,
    texts: options.texts,
    observer: options.observer,
  };
  const base = await coldBaseline(worker, run, options.base, options.clock);
  const baselineFindings = [...base.findings];
  let head: MutantSide | null = null;
  let slowest = base.ms;
  if (options.head !== null) {
    const side = {
      ...options.head,
      properties: options.head.properties.filter((p) =>
        base.side.properties.some((b) => b.key === p.key)
      ),
    };
    const headBaseline = await coldBaseline(
      worker,
      run,
      side,
      options.clock,
      // Stryker disable next-line StringLiteral: any label but "base" is worded as the head's, and keys the runs apart from the base's all the same
      "head",
    );
    baselineFindings.push(...headBaseline.findings);
    head = headBaseline.side;
    slowest = Math.max(slowest, headBaseline.ms);
  }
  // No base property passes on the unmutated code (the oracle's own
  // finding says why): there is nothing a mutant could be killed by.
  if (base.side.properties.length === 0) {
    return { ...none, baselineFindings };
  }
  options.progress?.(
    `mutation: running ${plural(options.mutants.length, "mutant")} in ${
      plural(options.workers.length, "sandbox", "sandboxes")
    }`,
  );
  const ran = await runMutants({
    ...run,
    mutants: options.mutants,
    base: base.side,
    head,
    workers: options.workers,
    limits: coldLimits(options.limits, slowest),
    cache: options.cache,
    deadline: options.deadline,
    clock: options.clock,
  });
  return { ...ran, notCovered: [], baselineFindings };
}

/**
 * One side's cold run on the unmutated code: the side with only the
 * properties that passed, the run's findings and its milliseconds.
 */
export async function coldBaseline(
  worker: MutantWorker,
  run: RunSettings,
  side: MutantSide,
  clock: () => number,
  label: "base" | "head" = "base",
): Promise<{ side: MutantSide; findings: Finding[]; ms: number }> {
  const baseline = await runUnmutated(worker, run, side, clock, label);
  return {
    side: {
      ...side,
      properties: side.properties.filter((p) =>
        passes(baseline.outcomes, p.key)
      ),
    },
    findings: baseline.findings,
    ms: baseline.ms,
  };
}

/** Whether a property passed on the unmutated code. */
export function passes(outcomes: SideOutcomes, key: string): boolean {
  return outcomes[key] === "survived";
}

/**
 * A cold mutant run's limits: a mutant that loops forever must not eat
 * the budget, so each run gets three times the slowest baseline plus ten
 * seconds, within the suite's own limit.
 */
export function coldLimits(
  limits: Partial<SandboxLimits>,
  slowestMs: number,
): Partial<SandboxLimits> {
  const suiteLimit = limits.timeoutMs ?? 600_000;
  return {
    ...limits,
    timeoutMs: Math.min(suiteLimit, Math.ceil(3 * slowestMs + 10_000)),
  };
}
