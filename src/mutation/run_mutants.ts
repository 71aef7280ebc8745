/**
 * Running mutants: each one applied to a fresh copy of a tree (the base's
 * oracle tree, then, when a base property killed it and the head's test
 * side differs, the head's tree) and the properties run in the sandbox on
 * it, as many at once as there are sandboxes (each with its own leased
 * uid). Results come from the cache when the same mutant already ran
 * where nothing the run can read differed (`mutation_cache.ts`). Mutants
 * the time budget leaves unrun are counted, never guessed.
 *
 * @module
 */
import type { Sandbox, SandboxLimits } from "../sandbox/sandbox.ts";
import { runPytest } from "../run/run_pytest.ts";
import type { ObserverPlugin } from "../run/observer.ts";
import { crossCheckReport } from "../run/cross_check_report.ts";
import { type Finding, finding } from "../core/finding.ts";
import type { TestCaseResult } from "../run/parse_junit.ts";
import type { Observation } from "../run/observation.ts";
import { casesForNodeId } from "../run/test_id.ts";
import {
  killedKeys,
  type KillOutcome,
  type MutantResult,
  type SideOutcomes,
} from "./judge_kill_sets.ts";
import { applyMutant, type Mutant } from "./mutant.ts";
import {
  type CacheScope,
  mutantCacheKey,
  type MutationCache,
} from "./mutation_cache.ts";

/** One side the mutants run on. */
export interface MutantSide {
  /** A tree to copy for each run; root-owned, never handed to the sandbox itself. */
  template: string;
  /** The properties run: key (shared by both sides) and pytest node id. */
  properties: readonly { key: string; nodeId: string }[];
  /** What of the tree a run can read, for the cache key. */
  cacheScope: CacheScope;
}

/** One sandbox and the directories it runs in. */
export interface MutantWorker {
  /** The sandbox (its own uid). */
  sandbox: Sandbox;
  /** A directory the sandbox may write, for reports and HOME. */
  reportDir: string;
  /** A fresh, unused path for a run's copy of the tree. */
  workPath: () => string;
}

/** Options for {@linkcode runMutants}. */
export interface RunMutantsOptions {
  /** Mutants, in run order. */
  mutants: readonly Mutant[];
  /** The head text of each mutated file. */
  texts: ReadonlyMap<string, string>;
  /** The base's oracle. */
  base: MutantSide;
  /** The head's properties, or null when the head's test side is the base's. */
  head: MutantSide | null;
  /** What `base` is, in cache keys and messages, when it is not the base's oracle: "head" for the head's own runs, one process each. */
  label?: "base" | "head" | undefined;
  /** One per parallel run. */
  workers: readonly MutantWorker[];
  /** The test command (with the fixed seed) and its environment. */
  command: readonly string[];
  /** Environment over the sandbox's minimal one. */
  env: Readonly<Record<string, string>>;
  /** Limits of each run. */
  limits: Partial<SandboxLimits>;
  /**
   * pawl's observer plugin, loaded into every run like the suite's: a run
   * whose report disagrees with it (or that it never reported from) counts
   * for no property, and says so.
   */
  observer?: ObserverPlugin | undefined;
  /** The runner's cache, if any. */
  cache?: MutationCache | undefined;
  /** The clock reading (see `clock`) after which no mutant starts; those left are cut. */
  deadline: number;
  /** A clock in milliseconds that only moves forward (the gate's counts CPU time). */
  clock: () => number;
}

/** What the runs found. */
export interface RunMutantsResult {
  /** Results of the mutants that ran, in run order. */
  results: MutantResult[];
  /** Mutants the budget left unrun, in run order. */
  unrun: Mutant[];
}

/** Run the mutants; see the module doc. */
export async function runMutants(
  options: RunMutantsOptions,
): Promise<RunMutantsResult> {
  const { deadline } = options;
  // Each mutant's result in its place; null while it has none.
  const results: (MutantResult | null)[] = options.mutants.map(() => null);
  let next = 0;
  const cut = new Set<number>();
  const work = async (worker: MutantWorker) => {
    while (next < options.mutants.length) {
      const i = next++;
      if (options.clock() >= deadline) {
        cut.add(i);
        continue;
      }
      const mutant = options.mutants[i] as Mutant;
      const base = await side(
        worker,
        options,
        options.base,
        mutant,
        options.label ?? "base",
      );
      // The head runs only the properties a base property of the same key
      // killed: the others cannot make a weakening.
      const killed = new Set(killedKeys(base.outcomes));
      const headProps = options.head?.properties.filter((p) =>
        killed.has(p.key)
      ) ?? [];
      const headRun = headProps.length === 0 ? null : await side(
        worker,
        options,
        { ...options.head!, properties: headProps },
        mutant,
        "head",
      );
      const findings = [
        ...base.findings,
        ...(headRun?.findings ?? []),
      ];
      results[i] = {
        mutant,
        base: base.outcomes,
        head: headRun?.outcomes ?? null,
        cached: base.cached,
        ...(findings.length === 0 ? {} : { findings }),
      };
    }
  };
  await Promise.all(options.workers.map(work));
  return {
    results: results.filter((r): r is MutantResult => r !== null),
    unrun: options.mutants.filter((_, i) => cut.has(i)),
  };
}

/** What {@linkcode runUnmutated} needs: how a run is made. */
export type RunSettings = Pick<
  RunMutantsOptions,
  "command" | "env" | "limits" | "texts" | "observer"
>;

/**
 * Run one side on the unmutated tree: which properties pass before any
 * change (only those can kill a mutant), and how long a run takes.
 */
export async function runUnmutated(
  worker: MutantWorker,
  options: RunSettings,
  on: MutantSide,
  clock: () => number,
  label: "base" | "head" = "base",
): Promise<{ outcomes: SideOutcomes; ms: number; findings: Finding[] }> {
  const start = clock();
  const { outcomes, findings } = await side(worker, options, on, null, label);
  return { outcomes, ms: clock() - start, findings };
}

async function side(
  worker: MutantWorker,
  options: RunSettings & { cache?: MutationCache | undefined },
  on: MutantSide,
  mutant: Mutant | null,
  label: "base" | "head",
): Promise<{ outcomes: SideOutcomes; cached: boolean; findings: Finding[] }> {
  // A mutant's run is cached under its key; the unmutated one never is.
  let mutated: { key: string; file: string; text: string } | undefined;
  if (mutant !== null) {
    const text = options.texts.get(mutant.file);
    if (text === undefined) {
      throw new Error(`Cannot mutate "${mutant.file}": its text was not read`);
    }
    const key = await runCacheKey(options, on, mutant, label);
    const hit = await cachedRun(options, on, key);
    if (hit !== undefined) return { outcomes: hit, cached: true, findings: [] };
    mutated = { key, file: mutant.file, text: applyMutant(text, mutant) };
  }
  const dir = worker.workPath();
  await copyTree(on.template, dir);
  try {
    if (mutated !== undefined) {
      await Deno.writeTextFile(`${dir}/${mutated.file}`, mutated.text);
    }
    await worker.sandbox.prepareDir(dir);
    const run = await runPytest(worker.sandbox, {
      workDir: dir,
      reportDir: worker.reportDir,
      command: options.command,
      select: [...new Set(on.properties.map((p) => p.nodeId))].sort(),
      env: options.env,
      limits: options.limits,
      // Stryker disable next-line ConditionalExpression: runPytest reads an observer of undefined as none
      ...(options.observer === undefined ? {} : { observer: options.observer }),
    });
    const { outcomes, findings } = runOutcomes(
      { ...run, timedOut: run.result.timedOut },
      on.properties,
      {
        what: describeRun(label, mutant),
        observed: options.observer !== undefined,
      },
    );
    const trusted = !Object.values(outcomes).includes("unknown");
    if (mutated !== undefined && trusted) {
      await options.cache?.put(mutated.key, outcomes);
    }
    return { outcomes, cached: false, findings };
  } finally {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}

/** How a finding names a run: `the base's oracle on mutant m… (file:line)`. */
export function describeRun(
  label: "base" | "head",
  mutant: Mutant | null,
): string {
  return `${
    label === "base" ? "the base's oracle" : "the head's properties"
  } on ${
    mutant === null
      ? "the unmutated code"
      : `mutant ${mutant.id} (${mutant.file}:${mutant.line})`
  }`;
}

/** One run as {@linkcode runOutcomes} reads it. */
export interface MutantRunReport {
  /** Whether a limit stopped the run. */
  timedOut: boolean;
  /** Its JUnit report's cases, or null when there is no usable report. */
  cases: readonly TestCaseResult[] | null;
  /** What pawl's observer streamed, when it connected. */
  observation?: Observation | undefined;
}

/**
 * Each property's outcome from one run, and why its report cannot be
 * trusted when pawl's observer (`observed`) disagrees with it or never
 * reported: then, or without a report at all, the run says nothing about
 * any property (`unknown`): never a kill, which could hide a weakening at
 * the head, nor a survival.
 */
export function runOutcomes(
  run: MutantRunReport,
  properties: readonly { key: string; nodeId: string }[],
  options: { what: string; observed: boolean },
): { outcomes: SideOutcomes; findings: Finding[] } {
  const { what } = options;
  const findings = !options.observed || run.cases === null || run.timedOut
    ? []
    : run.observation === undefined
    ? [finding(
      "harness.observer_missing",
      `pawl's observer plugin did not report from ${what} although the run left a report, so the report cannot be trusted`,
    )]
    : crossCheckReport(run.observation, run.cases, { run: what, maxListed: 3 });
  const outcomes = findings.length > 0
    ? unknownFor(properties)
    : classify(run.timedOut, run.cases, properties, {
      missingReport: options.observed ? "unknown" : "killed",
    });
  return { outcomes, findings };
}

/**
 * Each property's outcome from one run: a failure or error kills; a
 * property missing from the report (its module no longer imports) or
 * (without pawl's observer; with it, `unknown`) a
 * run without a usable report kills too, since the property did not
 * pass; a timeout is its own outcome, and so is a Hypothesis deadline or
 * flakiness error (slow, not shown wrong); a pass, skip or xfail
 * survives.
 */
export function classify(
  timedOut: boolean,
  cases: readonly TestCaseResult[] | null,
  properties: readonly { key: string; nodeId: string }[],
  options: { missingReport?: "killed" | "unknown" } = {},
): SideOutcomes {
  const out: Record<string, KillOutcome> = {};
  for (const p of properties) {
    if (timedOut) out[p.key] = "timeout";
    else if (cases === null) out[p.key] = options.missingReport ?? "killed";
    else {
      const mine = casesForNodeId(cases, p.nodeId);
      const failed = mine.filter((c) =>
        c.outcome === "failed" || c.outcome === "error"
      );
      out[p.key] = mine.length === 0
        ? "killed"
        : failed.length === 0
        ? "survived"
        : failed.every((c) => SLOW.test(String(c.message)))
        ? "timeout"
        : "killed";
    }
  }
  return out;
}

/** Hypothesis's way of saying a run was slow or unsteady, not wrong. */
const SLOW =
  /DeadlineExceeded|hypothesis\.errors\.Flaky|FlakyFailure|FlakyStrategyDefinition/;

/** Every property `unknown`: a run pawl cannot read. */
export function unknownFor(
  properties: readonly { key: string }[],
): SideOutcomes {
  return Object.fromEntries(properties.map((p) => [p.key, "unknown"]));
}

function sameKeys(hit: SideOutcomes, on: MutantSide): boolean {
  return on.properties.every((p) => hit[p.key] !== undefined);
}

/** The cache key of one run of `mutant` on `on`, one process each. */
export async function runCacheKey(
  options: Pick<RunSettings, "command" | "env" | "observer">,
  on: MutantSide,
  mutant: Mutant,
  label: "base" | "head",
): Promise<string> {
  return mutantCacheKey({
    side: label,
    scope: await on.cacheScope(mutant, on.properties),
    mutant,
    command: options.command,
    env: options.env,
    properties: on.properties,
    observer: options.observer,
  });
}

/** The outcomes of an earlier run under `key`, when the cache has one of every property `on` runs. */
export async function cachedRun(
  options: { cache?: MutationCache | undefined },
  on: MutantSide,
  key: string,
): Promise<SideOutcomes | undefined> {
  const hit = await options.cache?.get(key);
  return hit !== undefined && sameKeys(hit, on) ? hit : undefined;
}

/**
 * Copy the tree at `from` to the new path `to` (reflinked where the file
 * system can). `cp` runs from `/`: the judgement's own working directory
 * may be gone (a container's, removed under it), and a child started in a
 * missing directory fails before it copies anything.
 */
export async function copyTree(from: string, to: string): Promise<void> {
  const out = await new Deno.Command("cp", {
    args: ["-a", "--reflink=auto", "--", from, to],
    cwd: "/",
    stdout: "null",
    stderr: "piped",
  }).output();
  if (!out.success) {
    throw new Error(
      `Cannot copy the tree for a mutant run: ${
        new TextDecoder().decode(out.stderr).trim()
      }`,
    );
  }
}
