/**
 * The oracle-strength rule end to end, over ports: find the code the
 * registered properties import, mutate the functions the pull request
 * touched and a seeded sample of the rest, run the base's oracle and the
 * head's properties against each mutant, and judge the kill sets.
 *
 * @module
 */
import { type Finding, finding } from "../core/finding.ts";
import type { MutationReport } from "../core/verdict.ts";
import type { PythonParser } from "../python/load_python_parser.ts";
import type { SandboxLimits } from "../sandbox/sandbox.ts";
import type { ObserverPlugin } from "../run/observer.ts";
import type { MutationSettings } from "../settings/mutation_settings.ts";
import { generateMutants } from "./generate_mutants.ts";
import {
  judgeKillSets,
  type KillProperty,
  type MutantResult,
} from "./judge_kill_sets.ts";
import type { Mutant, MutationOperator } from "./mutant.ts";
import type { MutationCache } from "./mutation_cache.ts";
import { reachableFiles } from "./reachable_files.ts";
import { oracleCacheScope, wholeTreeScope } from "./cache_scope.ts";
import {
  type MutantSide,
  type MutantWorker,
  runMutants,
  runUnmutated,
} from "./run_mutants.ts";
import { selectMutants } from "./select_mutants.ts";
import type { MutationRun } from "./render_mutation_report.ts";
import { touchedFunctions } from "./touched_functions.ts";

/** One commit's files, as the rule reads them. */
export interface TreeView {
  /** Whether the tree has the file. */
  has(path: string): boolean;
  /** The file's text, or undefined when it cannot be read. */
  read(path: string): Promise<string | undefined>;
}

/** A registered property on both sides. */
export interface StrengthProperty extends KillProperty {
  /** Its module file, where the import analysis starts. */
  file: string;
  /** pytest node id of the base's test, when the base has it (and it runs in the oracle tree). */
  baseNodeId?: string | undefined;
  /** pytest node id of the head's test, when the head has it. */
  headNodeId?: string | undefined;
}

/** A side's tree to copy, and what is in it (for the cache key). */
export interface SideTree {
  /** A tree to copy for each run; root-owned, never handed to the sandbox itself. */
  template: string;
  /** The tree's files: path to content id (kind and object id), bytecode left out. */
  files: ReadonlyMap<string, string>;
}

/** Options for {@linkcode oracleStrength}. */
export interface OracleStrengthOptions {
  /** `[mutation]` of the base. */
  settings: MutationSettings;
  /** The Python parser. */
  parser: PythonParser;
  /** The registered properties. */
  properties: readonly StrengthProperty[];
  /** The base commit's files (for what the pull request touched). */
  baseTree: TreeView;
  /** The head commit's files (the code that is mutated). */
  headTree: TreeView;
  /** Whether a path is on the test side (the oracle takes it from the base; it is never mutated). */
  isTestSide: (path: string) => boolean;
  /** Directories absolute imports resolve from, besides each file's own (default the root and `src`). */
  importRoots?: readonly string[] | undefined;
  /** The oracle tree (head code, base tests). */
  oracle: SideTree;
  /** The head tree, or null when its test side is the base's. */
  head: SideTree | null;
  /** The sandboxes to run in (the first also runs the unmutated baseline). */
  workers: readonly MutantWorker[];
  /** Test command with the fixed seed. */
  command: readonly string[];
  /** Environment with the fixed seed. */
  env: Readonly<Record<string, string>>;
  /** Limits of a run of the suite; each mutant run's time limit is derived from the baseline and capped by these. */
  limits: Partial<SandboxLimits>;
  /** The seed the sample is drawn from (the run's fresh seed). */
  sampleSeed: number;
  /** The seed in `command` and `env`. */
  runSeed: number;
  /** The runner's cache. */
  cache?: MutationCache | undefined;
  /** pawl's observer plugin, loaded into every mutant run (see `runMutants`). */
  observer?: ObserverPlugin | undefined;
  /** Monotonic milliseconds. */
  clock: () => number;
  /** Progress lines. */
  progress?: (line: string) => void;
}

/** The rule's findings and report. */
export interface OracleStrengthResult {
  /** Findings. */
  findings: Finding[];
  /** The verdict's counts. */
  report: MutationReport;
  /** Properties whose head test kills every mutant their base test kills (see `KillSetJudgement`). */
  keptKills: ReadonlyMap<string, number>;
  /** Every mutant's outcome, for the mutation-testing report. */
  run: MutationRun;
}

/** Run the oracle-strength rule. */
export async function oracleStrength(
  options: OracleStrengthOptions,
): Promise<OracleStrengthResult> {
  const { parser, settings } = options;
  // Which code the properties reach: imports from their modules as the
  // oracle tree (base test side) and the head have them.
  const oracleView: TreeView = {
    has: (p) =>
      options.isTestSide(p) ? options.baseTree.has(p) : options.headTree.has(p),
    read: (p) =>
      options.isTestSide(p)
        ? options.baseTree.read(p)
        : options.headTree.read(p),
  };
  const entries = [...new Set(options.properties.map((p) => p.file))].sort();
  const roots = options.importRoots === undefined
    ? {}
    : { roots: options.importRoots };
  const reached = new Set([
    ...await reachableFiles(parser, entries, {
      ...viewOf(oracleView),
      ...roots,
    }),
    ...await reachableFiles(parser, entries, {
      ...viewOf(options.headTree),
      ...roots,
    }),
  ]);
  const code = [...reached].filter((p) =>
    p.endsWith(".py") && !options.isTestSide(p) && options.headTree.has(p)
  ).sort();

  const texts = new Map<string, string>();
  const mutants: Mutant[] = [];
  const touched = new Set<string>();
  for (const file of code) {
    const text = await options.headTree.read(file);
    if (text === undefined) continue;
    texts.set(file, text);
    const baseText = options.baseTree.has(file)
      ? await options.baseTree.read(file)
      : undefined;
    for (const fn of touchedFunctions(parser, baseText, text)) {
      touched.add(`${file}\n${fn}`);
    }
    mutants.push(...generateMutants(parser, file, text, {
      operators: settings.operators as readonly MutationOperator[],
    }));
  }
  const selection = selectMutants(mutants, {
    touched: (m) => touched.has(`${m.file}\n${m.function}`),
    seed: options.sampleSeed,
    max: settings.max_mutants,
  });
  const counts = {
    reach: "import analysis",
    sampleSeed: options.sampleSeed,
    runSeed: options.runSeed,
    generated: mutants.length,
    selected: selection.selected.length,
    touched: selection.touched,
    cutByCap: selection.capped,
    cutByBudget: 0,
  };
  const baseProps = options.properties.flatMap((p) =>
    p.baseNodeId === undefined ? [] : [{ key: p.key, nodeId: p.baseNodeId }]
  );
  const headProps = options.properties.flatMap((p) =>
    p.headNodeId === undefined ? [] : [{ key: p.key, nodeId: p.headNodeId }]
  );
  const config = {
    operators: settings.operators,
    "max_mutants": settings.max_mutants,
    "budget_seconds": settings.budget_seconds,
    sampleSeed: options.sampleSeed,
    runSeed: options.runSeed,
    reach: counts.reach,
  };
  const baselineFindings: Finding[] = [];
  const finish = (results: MutantResult[], unrun: readonly Mutant[]) => {
    const judged = judgeKillSets(results, {
      properties: options.properties,
      baselineFindings,
      texts,
      counts: { ...counts, cutByBudget: unrun.length },
    });
    const cut = budgetCut(unrun, {
      selected: selection.selected.length,
      budgetSeconds: settings.budget_seconds,
      touched: (m) => touched.has(`${m.file}\n${m.function}`),
    });
    return {
      ...judged,
      findings: [...judged.findings, ...cut],
      run: {
        properties: options.properties,
        results,
        unrun,
        texts,
        config,
      },
    };
  };
  const worker = options.workers[0];
  if (
    selection.selected.length === 0 || baseProps.length === 0 ||
    worker === undefined
  ) {
    return finish([], []);
  }

  // Only properties that pass on the unmutated code can kill a mutant.
  const started = options.clock();
  const run = {
    command: options.command,
    env: options.env,
    limits: options.limits,
    texts,
    observer: options.observer,
  };
  options.progress?.(
    `mutation: ${selection.selected.length} of ${mutants.length} mutants (${selection.touched} in touched functions), baseline runs`,
  );
  const baseSide: MutantSide = {
    template: options.oracle.template,
    properties: baseProps,
    cacheScope: oracleCacheScope({
      parser,
      files: options.oracle.files,
      isTestSide: options.isTestSide,
      read: oracleView.read,
      roots: options.importRoots,
    }),
  };
  const baseline = await runUnmutated(worker, run, baseSide, options.clock);
  baselineFindings.push(...baseline.findings);
  const passing = (outcomes: Readonly<Record<string, string>>) =>
  (p: {
    key: string;
  }) => outcomes[p.key] === "survived";
  baseSide.properties = baseProps.filter(passing(baseline.outcomes));
  let headSide: MutantSide | null = null;
  let slowest = baseline.ms;
  if (options.head !== null) {
    const props = headProps.filter((p) =>
      baseSide.properties.some((b) => b.key === p.key)
    );
    const side: MutantSide = {
      template: options.head.template,
      properties: props,
      cacheScope: wholeTreeScope(options.head.files),
    };
    const headBaseline = await runUnmutated(
      worker,
      run,
      side,
      options.clock,
      "head",
    );
    baselineFindings.push(...headBaseline.findings);
    side.properties = props.filter(passing(headBaseline.outcomes));
    headSide = side;
    slowest = Math.max(slowest, headBaseline.ms);
  }
  // No base property passes on the unmutated code (the oracle's own
  // finding says why): there is nothing a mutant could be killed by.
  if (baseSide.properties.length === 0) return finish([], []);
  // A mutant that loops forever must not eat the budget: each run gets
  // three times the slowest baseline plus ten seconds, within the suite's
  // own limit.
  const suiteLimit = options.limits.timeoutMs ?? 600_000;
  const timeoutMs = Math.min(suiteLimit, Math.ceil(3 * slowest + 10_000));
  const budgetMs = settings.budget_seconds * 1000 -
    (options.clock() - started);
  options.progress?.(
    `mutation: running ${selection.selected.length} mutants in ${options.workers.length} sandboxes`,
  );
  const ran = await runMutants({
    mutants: selection.selected,
    texts,
    base: baseSide,
    head: headSide,
    workers: options.workers,
    command: options.command,
    env: options.env,
    limits: { ...options.limits, timeoutMs },
    observer: options.observer,
    cache: options.cache,
    budgetMs,
    clock: options.clock,
  });
  options.progress?.(
    `mutation: ${ran.results.length} mutants judged, ${
      ran.results.filter((r) => r.cached).length
    } of them from the runner's cache; ${ran.unrun.length} cut by the budget`,
  );
  return finish(ran.results, ran.unrun);
}

/** A tree view as plain functions, to spread into options. */
function viewOf(view: TreeView): TreeView {
  return { has: (p) => view.has(p), read: (p) => view.read(p) };
}

/**
 * The note that the time budget cut mutants, when it did: they were not
 * run, so the verdict cannot have seen a weakening only they show. The
 * budget depends on the machine's load, so this never passes silently.
 */
function budgetCut(
  unrun: readonly Mutant[],
  options: {
    selected: number;
    budgetSeconds: number;
    touched: (m: Mutant) => boolean;
  },
): Finding[] {
  const first = unrun[0];
  if (first === undefined) return [];
  const touched = unrun.filter(options.touched).length;
  return [finding(
    "property.mutants_cut",
    `The [mutation] time budget (budget_seconds = ${options.budgetSeconds}) ran out before ${unrun.length} of the ${options.selected} selected mutants ran (${touched} of them in functions the pull request touched): they were not run and count as neither killed nor survived, so a weakening only they would show is not seen in this verdict; a re-run with the runner's cache gets further, and the base's pawl.toml can raise budget_seconds`,
    { path: first.file, line: first.line },
  )];
}
