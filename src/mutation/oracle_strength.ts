/**
 * The oracle-strength rule end to end, over ports: find the code the
 * registered properties import, mutate the functions the pull request
 * touched and a seeded sample of the rest, run the base's oracle and the
 * head's properties against each mutant (warm, in one interpreter per
 * sandbox forking a child per mutant, where the test command and pawl's
 * observer allow; else cold, a fresh pytest per mutant), and judge the
 * kill sets.
 *
 * @module
 */
import { plural } from "../core/plural.ts";
import { type Finding, finding } from "../core/finding.ts";
import type { MutationReport } from "../core/verdict.ts";
import type { PythonParser } from "../python/load_python_parser.ts";
import type { SandboxLimits } from "../sandbox/sandbox.ts";
import type { ObserverPlugin } from "../run/observer.ts";
import type { MutationSettings } from "../settings/mutation_settings.ts";
import { generateMutants } from "./generate_mutants.ts";
import { judgeKillSets, type KillProperty } from "./judge_kill_sets.ts";
import type { Mutant, MutationOperator } from "./mutant.ts";
import type { MutationCache } from "./mutation_cache.ts";
import { reachableFiles } from "./reachable_files.ts";
import { oracleCacheScope, wholeTreeScope } from "./cache_scope.ts";
import type { MutantWorker } from "./run_mutants.ts";
import { runColdMutants } from "./cold_mutants.ts";
import type { WarmDriver } from "./install_warm_driver.ts";
import type {
  MutantEngineOptions,
  MutantEngineResult,
} from "./mutant_engine.ts";
import { buildSchemata, type Schemata } from "./schemata.ts";
import { runWarmMutants } from "./warm_mutants.ts";
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
  /**
   * pawl's warm driver: with it, the observer and a `<python> -m pytest`
   * command, mutants run warm (`warm_mutants.ts`); else each one cold.
   */
  driver?: WarmDriver | undefined;
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

/** Why no mutant runs when the head's test side is the base's. */
export const SAME_TEST_SIDE =
  "the head's test side is the base's, so each property's head test is its base test and no kill set can change";

/** Why no mutant runs when a rule that reads only sources already rejects. */
export const DECIDED =
  "a rule that reads only the sources already rejects the pull request, and no kill set can change that";

/**
 * The rule's result when no mutant can change a kill set (`why`): no
 * finding, and counts that say so.
 *
 * @example
 * ```ts
 * import { notRun, SAME_TEST_SIDE } from "./oracle_strength.ts";
 * const r = notRun(SAME_TEST_SIDE, { sampleSeed: 1, runSeed: 2, config: {} });
 * if (r.findings.length !== 0 || r.report.ran !== 0) throw new Error();
 * ```
 */
export function notRun(
  why: string,
  seeds: {
    sampleSeed: number;
    runSeed: number;
    config: Readonly<Record<string, unknown>>;
  },
): OracleStrengthResult {
  const judged = judgeKillSets([], {
    // Stryker disable next-line ArrayDeclaration: with no mutant run, no property has a kill to keep or lose, so the list yields nothing either way
    properties: [],
    texts: new Map(),
    counts: {
      reach: "import analysis",
      sampleSeed: seeds.sampleSeed,
      runSeed: seeds.runSeed,
      generated: 0,
      selected: 0,
      touched: 0,
      cutByCap: 0,
      cutByBudget: 0,
    },
  });
  return {
    ...judged,
    report: { ...judged.report, notRun: why },
    run: {
      properties: [],
      results: [],
      unrun: [],
      texts: new Map(),
      config: { ...seeds.config, notRun: why },
    },
  };
}

/** Run the oracle-strength rule. */
export async function oracleStrength(
  options: OracleStrengthOptions,
): Promise<OracleStrengthResult> {
  const { settings } = options;
  const { texts, mutants, touched } = await mutantsOfReach(options);
  const isTouched = (m: Mutant) => touched.has(`${m.file}\n${m.function}`);
  const selection = selectMutants(mutants, {
    touched: isTouched,
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
  const config = {
    operators: settings.operators,
    "max_mutants": settings.max_mutants,
    "budget_seconds": settings.budget_seconds,
    sampleSeed: options.sampleSeed,
    runSeed: options.runSeed,
    reach: counts.reach,
  };
  const finish = (ran: MutantEngineResult) => {
    const judged = judgeKillSets(ran.results, {
      properties: options.properties,
      baselineFindings: ran.baselineFindings,
      texts,
      counts: {
        ...counts,
        cutByBudget: ran.unrun.length,
        notCovered: ran.notCovered.length,
      },
    });
    const cut = budgetCut(ran.unrun, {
      selected: selection.selected.length,
      budgetSeconds: settings.budget_seconds,
      touched: isTouched,
    });
    return {
      ...judged,
      findings: [...judged.findings, ...cut],
      run: {
        properties: options.properties,
        results: ran.results,
        unrun: ran.unrun,
        notCovered: ran.notCovered,
        texts,
        config,
      },
    };
  };
  if (
    selection.selected.length === 0 || options.workers.length === 0 ||
    options.properties.every((p) => p.baseNodeId === undefined)
  ) {
    return finish({
      results: [],
      unrun: [],
      notCovered: [],
      baselineFindings: [],
    });
  }
  options.progress?.(
    `mutation: ${selection.selected.length} of ${
      plural(mutants.length, "mutant")
    } (${selection.touched} in touched functions), baseline runs`,
  );
  const ran = await runEngine(options, selection.selected, texts);
  // How many outcomes the cache gave is progress, never the verdict's:
  // a cold cache and a warm one give the same verdict.
  options.progress?.(
    `mutation: ${plural(ran.results.length, "mutant")} judged, ${
      ran.results.filter((r) => r.cached).length
    } of them from the runner's cache; ${ran.unrun.length} cut by the budget`,
  );
  return finish(ran);
}

/**
 * Run the selected mutants warm where the driver, pawl's observer and a
 * `<python> -m pytest` command allow it, else cold; the budget starts now.
 */
async function runEngine(
  options: OracleStrengthOptions,
  selected: readonly Mutant[],
  texts: ReadonlyMap<string, string>,
): Promise<MutantEngineResult> {
  const engine: MutantEngineOptions = {
    mutants: selected,
    texts,
    base: {
      template: options.oracle.template,
      properties: options.properties.flatMap((p) =>
        p.baseNodeId === undefined ? [] : [{ key: p.key, nodeId: p.baseNodeId }]
      ),
      // Per base: what of the oracle tree a run can read (`cache_scope.ts`).
      cacheScope: oracleCacheScope({
        parser: options.parser,
        files: options.oracle.files,
        isTestSide: options.isTestSide,
        read: oracleViewOf(options).read,
        roots: options.importRoots,
      }),
    },
    head: options.head === null ? null : {
      template: options.head.template,
      properties: options.properties.flatMap((p) =>
        p.headNodeId === undefined ||
          // Stryker disable next-line ConditionalExpression: both engines run at the head only the properties whose base test passed on the unmutated code, so one with no base test never runs there either way
          p.baseNodeId === undefined
          // Stryker disable next-line ArrayDeclaration: both engines run at the head only the properties whose base test passed on the unmutated code, so an entry without such a property's key never runs there either way
          ? []
          : [{ key: p.key, nodeId: p.headNodeId }]
      ),
      cacheScope: wholeTreeScope(options.head.files),
    },
    workers: options.workers,
    command: options.command,
    env: options.env,
    limits: options.limits,
    observer: options.observer,
    cache: options.cache,
    deadline: options.clock() + options.settings.budget_seconds * 1000,
    clock: options.clock,
    progress: options.progress,
  };
  const { driver, observer } = options;
  return driver !== undefined && observer !== undefined &&
      runsPytestModule(options.command)
    ? await runWarmMutants({
      ...engine,
      observer,
      driver,
      schemata: schemataOf(options.parser, selected, texts),
    })
    : await runColdMutants(engine);
}

/**
 * The code the registered properties reach (imports from their modules,
 * as the oracle tree, base test side, and the head have them), its head
 * texts, every mutant of it, and the functions the pull request touched
 * (`file\nqualname`).
 */
async function mutantsOfReach(options: OracleStrengthOptions) {
  const { parser, settings } = options;
  const oracleView = oracleViewOf(options);
  // Stryker disable next-line MethodExpression: reachableFiles returns the files it reaches sorted, whatever the order of the entries
  const entries = [...new Set(options.properties.map((p) => p.file))].sort();
  const reached = new Set([
    ...await reachableFiles(parser, entries, {
      ...viewOf(oracleView),
      roots: options.importRoots,
    }),
    ...await reachableFiles(parser, entries, {
      ...viewOf(options.headTree),
      roots: options.importRoots,
    }),
  ]);
  const code = [...reached].filter((p) =>
    // Stryker disable next-line ConditionalExpression,StringLiteral: every file the import analysis reaches is a Python module or package file
    p.endsWith(".py") &&
    !options.isTestSide(p) &&
    // Stryker disable next-line ConditionalExpression: a code-side file either view reaches is the head's own, and one the head lacks reads as undefined and is skipped below
    options.headTree.has(p)
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
  return { texts, mutants, touched };
}

/** Whether the test command is `<python> -m pytest ...`, the form the warm driver stands in for. */
export function runsPytestModule(command: readonly string[]): boolean {
  return command[0] !== "" && command[1] === "-m" && command[2] === "pytest";
}

/** Each mutated file's schemata, with the mutants selected in it. */
function schemataOf(
  parser: PythonParser,
  mutants: readonly Mutant[],
  texts: ReadonlyMap<string, string>,
): Map<string, Schemata> {
  const out = new Map<string, Schemata>();
  for (const file of new Set(mutants.map((m) => m.file))) {
    // Every mutant was made from a text the rule read into `texts`.
    const text = texts.get(file)!;
    out.set(
      file,
      // Stryker disable next-line MethodExpression,ConditionalExpression: buildSchemata leaves out a mutant of another file itself (an id names its file), so the filter changes only which ids it lists as left out, and those are looked up in their own file's schemata
      buildSchemata(parser, file, text, mutants.filter((m) => m.file === file)),
    );
  }
  return out;
}

/** The oracle tree as the rule reads it: the base's test side, the head's code side. */
export function oracleViewOf(
  options: Pick<OracleStrengthOptions, "baseTree" | "headTree" | "isTestSide">,
): TreeView {
  return {
    has: (p) =>
      options.isTestSide(p) ? options.baseTree.has(p) : options.headTree.has(p),
    read: (p) =>
      options.isTestSide(p)
        ? options.baseTree.read(p)
        : options.headTree.read(p),
  };
}

/** A tree view as plain functions, to spread into options. */
export function viewOf(view: TreeView): TreeView {
  return { has: (p) => view.has(p), read: (p) => view.read(p) };
}

/**
 * The note that the time budget cut mutants, when it did: they were not
 * run, so the verdict cannot have seen a weakening only they show. The
 * budget cuts what a slow suite could not run in time, so this never passes silently.
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
    `The [mutation] time budget (budget_seconds = ${options.budgetSeconds}) ran out before ${unrun.length} of the ${
      plural(options.selected, "selected mutant")
    } ran (${touched} of them in functions the pull request touched): they were not run and count as neither killed nor survived, so a weakening only they would show is not seen in this verdict; a re-run with the runner's cache gets further, and the base's pawl.toml can raise budget_seconds`,
    { path: first.file, line: first.line },
  )];
}
