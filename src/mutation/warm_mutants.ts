/**
 * The warm engine: one driver per sandbox and side (`warm_session.ts`) on
 * one copy of the tree with every compiled-in mutant (`schemata.ts`). The
 * base's oracle goes first: each driver runs the unmutated baseline in its
 * own interpreter, recording which lines of the schemata each test runs
 * and the CPU time it takes, then forks a child per mutant that runs only
 * the tests that execute the mutant's lines, its CPU time limited from
 * theirs. A mutant no base test reaches is counted as not covered and
 * never runs. The head's properties then run, the same way, on the
 * mutants a base property killed, each with the properties that killed
 * it; a head kill counts only as a cold run confirms it
 * (`confirm_kills.ts`). What the drivers cannot run (a mutant not compiled
 * in, lines that ran only at import, a driver that went away or never
 * reported a baseline) runs cold (`cold_mutants.ts`), within the same
 * budget.
 *
 * @module
 */
import { plural } from "../core/plural.ts";
import type { Finding } from "../core/finding.ts";
import type { ObserverPlugin } from "../run/observer.ts";
import { coldBaseline, coldLimits, runColdMutants } from "./cold_mutants.ts";
import { confirmKills } from "./confirm_kills.ts";
import type { WarmDriver } from "./install_warm_driver.ts";
import type { Mutant } from "./mutant.ts";
import {
  baselineCacheKey,
  mutantCacheKey,
  notCoveredKey,
} from "./mutation_cache.ts";
import type {
  MutantEngineOptions,
  MutantEngineResult,
} from "./mutant_engine.ts";
import { type MutantSide, runMutants } from "./run_mutants.ts";
import type { Schemata } from "./schemata.ts";
import type { WarmOutcome } from "./warm_child.ts";
import { WarmJobQueue } from "./warm_queue.ts";
import { WarmResults } from "./warm_results.ts";
import {
  runWarmSession,
  type WarmBaseline,
  type WarmJob,
  type WarmSessionResult,
  type WarmSettings,
  type WarmSide,
} from "./warm_session.ts";

/** Options for {@linkcode runWarmMutants}. */
export interface WarmMutantsOptions extends MutantEngineOptions {
  /** pawl's observer plugin: the warm engine runs only with it. */
  observer: ObserverPlugin;
  /** The installed driver. */
  driver: WarmDriver;
  /** Each mutated file's schemata. */
  schemata: ReadonlyMap<string, Schemata>;
  /** What the runs are for, when not the kill sets of the test change: kept apart in the cache. */
  cacheTag?: string | undefined;
}

/** A child's CPU time: the baseline's non-test time plus twice its tests', and half a second. */
export const WARM_CPU = { factor: 2, margin: 0.5 } as const;

/** A child's wall-clock ceiling (a child blocked, not computing): three times its CPU limit and five seconds. */
export const WARM_WALL = { factor: 3, margin: 5 } as const;

/** Raised whenever what a cached warm outcome means, or what its key covers, changes. */
const CACHE_FORMAT = "warm-outcomes-2";

/** Run the mutants; see the module doc. */
export async function runWarmMutants(
  options: WarmMutantsOptions,
): Promise<MutantEngineResult> {
  const compiled = options.mutants.filter((m) => {
    const s = options.schemata.get(m.file);
    return s !== undefined && !s.excluded.has(m.id) && s.coverLines.has(m.id);
  });
  if (compiled.length === 0) return await runColdMutants(options);
  const texts = new Map(
    [...new Set(compiled.map((m) => m.file))].map((
      f,
    ) => [f, options.schemata.get(f)!.text]),
  );
  const settings = warmSettings(options);
  options.progress?.(
    `mutation: running ${compiled.length} of ${
      plural(options.mutants.length, "mutant")
    } in ${
      plural(options.workers.length, "warm interpreter")
    }, the rest one process each`,
  );
  const base = await runSide(
    options,
    settings,
    {
      label: "base",
      template: options.base.template,
      schemata: texts,
      properties: options.base.properties,
    },
    compiled.map((m) => ({
      mutant: m,
      cover: [{
        file: m.file,
        lines: options.schemata.get(m.file)!.coverLines.get(m.id)!,
      }],
    })),
    options.base,
  );
  const basePassing = base.passing;
  if (basePassing === null) return await runColdMutants(options);
  const findings = dedupe([
    ...base.baselines.flatMap((b) => b.findings),
    ...basePassing.findings,
    ...base.findings,
  ]);
  const none = { results: [], unrun: [], notCovered: [] };
  if (basePassing.keys.size === 0) {
    return { ...none, baselineFindings: findings };
  }
  const acc = new WarmResults(options.mutants);
  acc.cut(base.cut.map((j) => j.mutant));
  const killed = acc.base(base.outcomes, basePassing.keys, compiled);
  const head = await headPhase(
    options,
    settings,
    texts,
    basePassing.keys,
    killed,
  );
  acc.head(head);
  findings.push(...(head?.findings ?? []));
  if (options.head !== null) {
    const claims = acc.headClaims();
    const cold = await confirmKills(
      options,
      {
        ...options.head,
        properties: options.head.properties.filter((p) =>
          basePassing.keys.has(p.key)
        ),
      },
      claims,
      "head",
    );
    acc.confirmed(claims, cold.outcomes);
    findings.push(...cold.findings);
  }
  const leftovers = acc.leftovers();
  if (leftovers.length > 0) {
    findings.push(
      ...await coldLeftovers(options, acc, leftovers, {
        basePassing: basePassing.keys,
        headPassing: head?.passing ?? null,
        // No baseline ran when both sides came from the cache.
        slowestMs: Math.max(
          0,
          ...[...base.baselines, ...(head?.baselines ?? [])].map((b) => b.ms),
        ),
      }),
    );
  }
  return { ...acc.result(), baselineFindings: dedupe(findings) };
}

/**
 * The properties that pass on the unmutated code: those that passed in
 * every warm baseline, confirmed by a cold baseline when one did not
 * there. Null when no driver reported a baseline, or the cold baseline
 * passes a property the warm ones did not (the warm runs cannot be told
 * apart from the forking itself): then the side runs cold.
 */
async function confirmedPassing(
  options: WarmMutantsOptions,
  ran: { baselines: readonly WarmBaseline[] },
  side: MutantSide,
): Promise<{ keys: Set<string>; findings: Finding[] } | null> {
  if (ran.baselines.length === 0) return null;
  const warm = passingIn(ran.baselines);
  if (side.properties.every((p) => warm.has(p.key))) {
    return { keys: warm, findings: [] };
  }
  const label = side === options.base ? "base" : "head";
  const cold = await coldBaseline(
    options.workers[0]!,
    {
      command: options.command,
      env: options.env,
      limits: options.limits,
      texts: options.texts,
      observer: options.observer,
    },
    side,
    options.clock,
    label,
  );
  const keys = new Set(cold.side.properties.map((p) => p.key));
  if ([...keys].some((k) => !warm.has(k))) {
    options.progress?.(
      `mutation: a property of the ${label} passes on its own but not in the warm interpreter: its mutants run one process each`,
    );
    return null;
  }
  return { keys, findings: cold.findings };
}

/** The session settings every driver of this judgement runs with. */
export function warmSettings(options: WarmMutantsOptions): WarmSettings {
  const sides = { base: options.base, head: options.head };
  const { cache } = options;
  const keyed = (side: WarmSide) => ({
    side: side.label,
    command: options.command,
    env: options.env,
    observer: options.observer,
    engine: {
      format: CACHE_FORMAT,
      settings: [
        options.driver.sha256,
        [WARM_CPU, WARM_WALL],
        side.properties.map((p) => [p.key, p.nodeId]),
        ...(options.cacheTag === undefined ? [] : [options.cacheTag]),
      ],
    },
  });
  return {
    command: options.command,
    env: options.env,
    // The driver's own limits: the suite's, with the budget's time on top
    // of its timeout (the budget, not the sandbox, stops taking mutants).
    limits: {
      ...options.limits,
      timeoutMs: (options.limits.timeoutMs ?? 600_000) +
        Math.max(0, Math.ceil(options.deadline - options.clock())),
    },
    observer: options.observer,
    driver: options.driver,
    cpu: WARM_CPU,
    wall: WARM_WALL,
    cache: cache === undefined ? undefined : {
      cache,
      // Keyed as a cold run is (`mutation_cache.ts`): the base side by
      // what of its tree the run can read, shared by every pull request
      // on the base; the head side by its whole tree. The scope is taken
      // over every property the interpreter collects: it imports all of
      // their modules before it forks, whatever a child then runs.
      key: async (side, mutant, properties) => {
        const on = sides[side.label];
        return on === null ? undefined : mutantCacheKey({
          ...keyed(side),
          scope: await on.cacheScope(mutant, side.properties),
          mutant,
          properties,
        });
      },
      // The baseline's scope covers every mutated file's.
      baselineKey: async (side) => {
        const on = sides[side.label];
        if (on === null) return undefined;
        const files = [...side.schemata.keys()].sort();
        const scopes: string[] = [];
        for (const file of files) {
          const mutant = options.mutants.find((m) => m.file === file);
          if (mutant === undefined) return undefined;
          scopes.push(await on.cacheScope(mutant, side.properties));
        }
        return baselineCacheKey({
          ...keyed(side),
          scope: JSON.stringify(scopes),
          files,
          properties: side.properties,
        });
      },
    },
    clock: options.clock,
    progress: options.progress,
  };
}

/** What one side's phase gave: the runs, and the properties passing on the unmutated code. */
export interface SideRun {
  /** Jobs the budget cut. */
  cut: readonly WarmJob[];
  /** Each job's outcome, by mutant id. */
  outcomes: Map<string, WarmOutcome>;
  /** The sessions' baselines (none when the side came from the cache). */
  baselines: WarmBaseline[];
  /** What pawl's observer caught in runs that count for nothing. */
  findings: Finding[];
  /** See {@linkcode confirmedPassing}. */
  passing: { keys: Set<string>; findings: Finding[] } | null;
}

/**
 * One side's phase: from the runner's cache when its baseline and every
 * job are there (then no driver starts), else run, its baseline then kept
 * when nothing in it needs saying.
 */
export async function runSide(
  options: WarmMutantsOptions,
  settings: WarmSettings,
  side: WarmSide,
  jobs: readonly WarmJob[],
  confirm: MutantSide,
): Promise<SideRun> {
  const key = await settings.cache?.baselineKey(side);
  const cached = await fromCache(settings.cache, key, side, jobs);
  if (cached !== undefined) {
    options.progress?.(
      `mutation: the ${side.label}'s baseline and its ${
        plural(jobs.length, "run")
      } from the runner's cache`,
    );
    return { cut: [], baselines: [], findings: [], ...cached };
  }
  const ran = await phase(options, settings, side, jobs);
  const passing = await confirmedPassing(options, ran, confirm);
  const clean = passing !== null && passing.findings.length === 0 &&
    ran.baselines.every((b) => b.findings.length === 0);
  if (key !== undefined && clean) {
    await options.cache?.put(
      key,
      Object.fromEntries(
        side.properties.map((p) => [
          p.key,
          passing.keys.has(p.key) ? "survived" : "killed",
        ]),
      ),
    );
  }
  return { ...ran, cut: ran.queue.cut, passing };
}

/**
 * A side's outcomes from the cache alone: its baseline's (under `key`) passing
 * properties and, for every job, its outcomes or that no base test
 * reaches it; undefined when anything is missing, or no property passes
 * (then the side runs, and says so, as without a cache).
 */
async function fromCache(
  cache: WarmSettings["cache"],
  key: string | undefined,
  side: WarmSide,
  jobs: readonly WarmJob[],
): Promise<Pick<SideRun, "outcomes" | "passing"> | undefined> {
  const baseline = key === undefined ? undefined : await cache?.cache.get(key);
  if (cache === undefined || baseline === undefined) return undefined;
  const keys = new Set(
    Object.entries(baseline).flatMap(([k, o]) => o === "survived" ? [k] : []),
  );
  const all = side.properties.filter((p) => keys.has(p.key));
  if (all.length === 0) return undefined;
  const outcomes = new Map<string, WarmOutcome>();
  for (const job of jobs) {
    const props = job.run?.(keys) ?? all;
    if (props.length === 0) {
      outcomes.set(job.mutant.id, {
        kind: "ran",
        outcomes: {},
        findings: [],
        cached: false,
      });
      continue;
    }
    const key = await cache.key(side, job.mutant, props);
    if (key === undefined) return undefined;
    const hit = await cache.cache.get(key);
    if (hit !== undefined) {
      outcomes.set(job.mutant.id, {
        kind: "ran",
        outcomes: hit,
        findings: [],
        cached: true,
      });
    } else if (
      job.cover !== undefined &&
      await cache.cache.get(notCoveredKey(key)) !== undefined
    ) {
      outcomes.set(job.mutant.id, { kind: "notCovered" });
    } else return undefined;
  }
  return { outcomes, passing: { keys, findings: [] } };
}

/**
 * One side's sessions, one per worker, over a shared queue of `jobs`.
 * The outcomes of a session whose control failed are dropped (its
 * mutants run cold); the others' trusted outcomes go into the cache.
 */
async function phase(
  options: WarmMutantsOptions,
  settings: WarmSettings,
  side: WarmSide,
  jobs: readonly WarmJob[],
) {
  const queue = new WarmJobQueue(jobs, {
    deadline: options.deadline,
    clock: options.clock,
    sessions: options.workers.length,
  });
  const runs = await Promise.all(
    options.workers.map((w) => runWarmSession(w, side, settings, queue)),
  );
  const outcomes = new Map<string, WarmOutcome>();
  // A dropped session's runs count for nothing, but what pawl's observer
  // caught in them (a report that disagrees with it) still stands.
  const findings: Finding[] = [];
  for (const run of runs) {
    const why = distrust(run, side);
    if (why !== undefined) {
      for (const { outcome } of run.outcomes.values()) {
        if (outcome.kind === "ran") findings.push(...outcome.findings);
      }
      options.progress?.(
        `mutation: ${why}: ${
          plural(run.outcomes.size, "mutant")
        } run one process each`,
      );
      continue;
    }
    for (const [id, { outcome, key }] of run.outcomes) {
      outcomes.set(id, outcome);
      const trusted = outcome.kind === "ran" && !outcome.cached &&
        Object.values(outcome.outcomes).every((o) => o !== "unknown");
      if (key !== undefined && trusted) {
        await options.cache?.put(key, outcome.outcomes);
      }
      if (key !== undefined && outcome.kind === "notCovered") {
        await options.cache?.put(notCoveredKey(key), {});
      }
    }
  }
  const baselines = runs.flatMap((r) => r.baseline ?? []);
  return { queue, outcomes, baselines, findings };
}

/** Why a session's runs count for nothing, or undefined when they count. */
function distrust(run: WarmSessionResult, side: WarmSide): string | undefined {
  if (run.intruded) {
    return "the code under test connected to the warm interpreter's channel";
  }
  if (run.control === "failed") {
    return `the ${side.label}'s properties do not pass on the unmutated code in a forked run`;
  }
  const ran = [...run.outcomes.values()].some(({ outcome }) =>
    outcome.kind === "ran" && !outcome.cached &&
    Object.keys(outcome.outcomes).length > 0
  );
  if (run.control === "none" && ran) {
    return `no control run confirmed the ${side.label}'s forked runs`;
  }
  return undefined;
}

/**
 * The head's properties on the mutants a base property killed, each with
 * the properties that killed it and pass on the head's unmutated code;
 * null when the head's test side is the base's. `passing` is null when
 * the head needs a cold baseline of its own (no head run, or the warm
 * runs could not be trusted: then every job runs cold).
 */
async function headPhase(
  options: WarmMutantsOptions,
  settings: WarmSettings,
  texts: ReadonlyMap<string, string>,
  basePassing: ReadonlySet<string>,
  killed: ReadonlyMap<Mutant, ReadonlySet<string>>,
) {
  if (options.head === null) return null;
  const head: MutantSide = {
    ...options.head,
    properties: options.head.properties.filter((p) => basePassing.has(p.key)),
  };
  const jobs = [...killed].map(([mutant, keys]) => ({
    mutant,
    run: (passing: ReadonlySet<string>) =>
      head.properties.filter((p) => keys.has(p.key) && passing.has(p.key)),
  }));
  const idle = {
    jobs,
    outcomes: new Map<string, WarmOutcome>(),
    baselines: [] as WarmBaseline[],
    passing: null,
    findings: [] as Finding[],
  };
  if (jobs.length === 0) return idle;
  const ran = await runSide(
    options,
    settings,
    {
      label: "head",
      template: head.template,
      schemata: texts,
      properties: head.properties,
    },
    jobs,
    head,
  );
  const { passing } = ran;
  if (passing === null) {
    return { ...idle, baselines: ran.baselines, findings: ran.findings };
  }
  return {
    ...ran,
    jobs,
    passing: passing.keys,
    findings: [...ran.findings, ...passing.findings],
  };
}

/** The mutants the drivers could not run, run cold; the findings of a head baseline run for them. */
async function coldLeftovers(
  options: WarmMutantsOptions,
  acc: WarmResults,
  leftovers: readonly Mutant[],
  known: {
    basePassing: ReadonlySet<string>;
    headPassing: ReadonlySet<string> | null;
    slowestMs: number;
  },
): Promise<Finding[]> {
  const worker = options.workers[0]!;
  const run = {
    command: options.command,
    env: options.env,
    limits: options.limits,
    texts: options.texts,
    observer: options.observer,
  };
  const only = (side: MutantSide, keys: ReadonlySet<string>) => ({
    ...side,
    properties: side.properties.filter((p) => keys.has(p.key)),
  });
  const base = only(options.base, known.basePassing);
  let head: MutantSide | null = null;
  const findings: Finding[] = [];
  if (options.head !== null) {
    const side = only(options.head, known.basePassing);
    if (known.headPassing !== null) head = only(side, known.headPassing);
    else {
      const cold = await coldBaseline(worker, run, side, options.clock, "head");
      findings.push(...cold.findings);
      head = cold.side;
    }
  }
  const ran = await runMutants({
    ...run,
    mutants: leftovers,
    base,
    head,
    workers: options.workers,
    limits: coldLimits(options.limits, known.slowestMs),
    cache: options.cache,
    deadline: options.deadline,
    clock: options.clock,
  });
  acc.cold(ran.results, ran.unrun);
  return findings;
}

/** The properties that passed in every baseline. */
function passingIn(baselines: readonly WarmBaseline[]): Set<string> {
  const sets = baselines.map((b) =>
    new Set(
      Object.entries(b.outcomes).flatMap(([k, o]) =>
        o === "survived" ? [k] : []
      ),
    )
  );
  const [first, ...rest] = sets;
  return new Set(
    [...(first ?? [])].filter((k) => rest.every((s) => s.has(k))),
  );
}

/** Findings of several sessions' baselines, each message once. */
function dedupe(findings: readonly Finding[]): Finding[] {
  const seen = new Set<string>();
  return findings.filter((f) => {
    const key = `${f.rule}\n${f.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
