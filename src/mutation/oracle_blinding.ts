/**
 * Kill sets across the code change: the base's tests of every registered
 * property run against mutants of the code the pull request did not
 * change, once on the base's code and once on the head's. A pull request
 * that leaves every test untouched can still blind them from the code
 * side (an `__eq__` that compares part of a value, a field left out of
 * the comparison, a raise that discards the failing examples); the
 * mutants the tests kill on the base's code and not on the head's, which
 * runs them, show it (`judge_blinding.ts`).
 *
 * Both sides run warm (`warm_mutants.ts`), each in its own tree with its
 * own schemata: the base's commit as it is, and the base's tests on the
 * head's code (the base's oracle tree). A mutant keeps its id on both
 * sides, placed where its unchanged function sits in each text
 * (`unchanged_mutants.ts`). The head side runs each mutant the base's
 * tests killed with the tests that execute its lines on the head's code,
 * so code the head no longer runs is never held against it; a kill there
 * counts only as a cold run confirms it (`confirm_kills.ts`). What the
 * warm engine cannot run is not judged here, and counted.
 *
 * @module
 */
import { plural } from "../core/plural.ts";
import type { Finding } from "../core/finding.ts";
import type { BlindingReport } from "../core/verdict.ts";
import type { PythonParser } from "../python/load_python_parser.ts";
import type { ObserverPlugin } from "../run/observer.ts";
import { wholeTreeScope } from "./cache_scope.ts";
import {
  claimsOf,
  confirmKills,
  type KillClaim,
  settle,
} from "./confirm_kills.ts";
import type { WarmDriver } from "./install_warm_driver.ts";
import {
  type BlindingResult,
  judgeBlinding,
  type JudgeBlindingOptions,
} from "./judge_blinding.ts";
import {
  killedKeys,
  type KillProperty,
  type SideOutcomes,
} from "./judge_kill_sets.ts";
import type { Mutant, MutationOperator } from "./mutant.ts";
import {
  type OracleStrengthOptions,
  oracleViewOf,
  type SideTree,
  viewOf,
} from "./oracle_strength.ts";
import { reachableFiles } from "./reachable_files.ts";
import type { MutantSide } from "./run_mutants.ts";
import { buildSchemata, type Schemata } from "./schemata.ts";
import { selectMutants } from "./select_mutants.ts";
import {
  namedByChange,
  type UnchangedMutants,
  unchangedMutants,
} from "./unchanged_mutants.ts";
import type { WarmOutcome } from "./warm_child.ts";
import {
  runSide,
  type WarmMutantsOptions,
  warmSettings,
} from "./warm_mutants.ts";

/** A registered property whose test the base has. */
export interface BlindingProperty extends KillProperty {
  /** Its module file, where the import analysis starts. */
  file: string;
  /** pytest node id of the base's test. */
  nodeId: string;
}

/** Options for {@linkcode oracleBlinding}: those of the kill-set rule it shares, and its own trees and properties. */
export interface OracleBlindingOptions extends
  Pick<
    OracleStrengthOptions,
    | "settings"
    | "parser"
    | "baseTree"
    | "headTree"
    | "isTestSide"
    | "importRoots"
    | "workers"
    | "command"
    | "env"
    | "limits"
    | "sampleSeed"
    | "cache"
    | "clock"
    | "progress"
  > {
  /** The registered properties the base has. */
  properties: readonly BlindingProperty[];
  /** The base's commit as it is. */
  base: SideTree;
  /** The base's oracle tree (the base's tests on the head's code). */
  oracle: SideTree;
  /** pawl's observer plugin. */
  observer: ObserverPlugin;
  /** pawl's warm driver. */
  driver: WarmDriver;
}

/** The rule's findings and counts. */
export interface OracleBlindingResult {
  /** Findings. */
  findings: Finding[];
  /** The verdict's `tests.mutation.blinding`. */
  report: BlindingReport;
}

/** Why no mutant ran when the properties reach no changed code. */
export const NO_CHANGED_CODE =
  "the pull request changes no code the registered properties' modules import";

/** Run the check; see the module doc. */
export async function oracleBlinding(
  options: OracleBlindingOptions,
): Promise<OracleBlindingResult> {
  const found = await mutantsOfReach(options);
  const { mutants, changedFiles } = found.unchanged;
  // The code the changed code names in the files it changed first, then
  // the rest of those files and what the changed code names elsewhere:
  // the likeliest paths from the change to what the tests compare.
  const named = (m: Mutant) => namedByChange(found.unchanged, m);
  const selection = selectMutants(byFunctionInTurn(mutants), {
    touched: (m) => changedFiles.has(m.file) && named(m),
    near: (m) => changedFiles.has(m.file) || named(m),
    seed: options.sampleSeed,
    max: options.settings.max_mutants,
  });
  const counts = {
    generated: mutants.length,
    selected: selection.selected.length,
    cutByCap: selection.capped,
    cutByBudget: 0,
    lost: 0,
  };
  const judge: JudgeBlindingOptions = {
    properties: options.properties,
    texts: found.texts,
    changed: found.unchanged.changed,
    counts,
  };
  const none = (why: string) => ({
    findings: [],
    report: { ...judgeBlinding([], judge).report, notRun: why },
  });
  // Stryker disable next-line ConditionalExpression: a changed function lies in a changed file, so with no changed file there is none and the second test alone never decides
  if (changedFiles.size === 0 && found.unchanged.changed.length === 0) {
    return none(NO_CHANGED_CODE);
  }
  if (selection.selected.length === 0) {
    return none("no mutant of unchanged code lies in the code they import");
  }
  options.progress?.(
    `mutation: the base's tests on the base's code and on the head's, against ${selection.selected.length} of ${
      plural(mutants.length, "mutant")
    } of code the pull request did not change`,
  );
  const ran = await runBothSides(options, found, selection.selected);
  if (typeof ran === "string") return none(ran);
  const judged = judgeBlinding(ran.results, {
    ...judge,
    counts: { ...counts, cutByBudget: ran.cut, lost: ran.lost },
  });
  return judged;
}

/**
 * The mutants taken a function at a time in turn (each function's first,
 * then each one's second, ...), files and functions in their order: the
 * mutants the change names run first in this order, so a cap reaches
 * every function it names rather than the first few whole.
 */
function byFunctionInTurn(mutants: readonly Mutant[]): Mutant[] {
  const groups = new Map<string, Mutant[]>();
  for (const m of mutants) {
    const key = `${m.file}\n${m.function}`;
    groups.set(key, [...(groups.get(key) ?? []), m]);
  }
  const out: Mutant[] = [];
  for (let i = 0; out.length < mutants.length; i++) {
    for (const group of groups.values()) {
      const m = group[i];
      if (m !== undefined) out.push(m);
    }
  }
  return out;
}

/** The code the properties reach at both commits, its texts, and the mutants of what did not change. */
async function mutantsOfReach(options: OracleBlindingOptions): Promise<{
  texts: Map<string, string>;
  baseTexts: Map<string, string>;
  unchanged: UnchangedMutants;
}> {
  const { parser } = options;
  // Stryker disable next-line MethodExpression: reachableFiles returns the files it reaches sorted, whatever the order of the entries
  const entries = [...new Set(options.properties.map((p) => p.file))].sort();
  const reached = new Set([
    ...await reachableFiles(parser, entries, {
      ...viewOf(options.baseTree),
      roots: options.importRoots,
    }),
    ...await reachableFiles(parser, entries, {
      ...viewOf(oracleViewOf(options)),
      roots: options.importRoots,
    }),
  ]);
  const code = [...reached].filter((p) =>
    // Stryker disable next-line ConditionalExpression: every file the import analysis reaches is a Python module or package file
    p.endsWith(".py") &&
    !options.isTestSide(p) &&
    // Stryker disable next-line ConditionalExpression,LogicalOperator: a file one tree lacks reads as undefined there, and the loop below skips it
    options.headTree.has(p) && options.baseTree.has(p)
  ).sort();
  const texts = new Map<string, string>();
  const baseTexts = new Map<string, string>();
  const files = [];
  for (const file of code) {
    const head = await options.headTree.read(file);
    const base = await options.baseTree.read(file);
    if (head === undefined || base === undefined) continue;
    texts.set(file, head);
    baseTexts.set(file, base);
    files.push({ file, base, head });
  }
  const unchanged = unchangedMutants(parser, files, {
    operators: options.settings.operators as readonly MutationOperator[],
  });
  return { texts, baseTexts, unchanged };
}

/** Each side's schemata of the selected mutants: the head's at head places, the base's at base places. */
function bothSchemata(
  parser: PythonParser,
  found: {
    texts: ReadonlyMap<string, string>;
    baseTexts: ReadonlyMap<string, string>;
    unchanged: UnchangedMutants;
  },
  selected: readonly Mutant[],
): { head: Map<string, Schemata>; base: Map<string, Schemata> } {
  const head = new Map<string, Schemata>();
  const base = new Map<string, Schemata>();
  for (const file of new Set(selected.map((m) => m.file))) {
    // Stryker disable next-line MethodExpression,ConditionalExpression: buildSchemata leaves out a mutant of another file itself (an id names its file), so the filter changes only which ids it lists as left out, and compiledBoth looks each id up in its own file's schemata
    const inFile = selected.filter((m) => m.file === file);
    head.set(file, buildSchemata(parser, file, found.texts.get(file)!, inFile));
    base.set(
      file,
      buildSchemata(
        parser,
        file,
        found.baseTexts.get(file)!,
        inFile.map((m) => found.unchanged.atBase.get(m.id)!),
      ),
    );
  }
  return { head, base };
}

/** Whether both sides compiled the mutant in and know the lines that cover it. */
function compiledBoth(
  schemata: { head: Map<string, Schemata>; base: Map<string, Schemata> },
  m: Mutant,
): boolean {
  return [schemata.head, schemata.base].every((side) => {
    const s = side.get(m.file);
    // Stryker disable next-line ConditionalExpression: bothSchemata builds both sides' schemata of every selected file, and a mutant is in coverLines exactly when it is not excluded, so each test alone decides as the three do
    return s !== undefined && !s.excluded.has(m.id) && s.coverLines.has(m.id);
  });
}

/**
 * The base side on every selected mutant both sides compiled, then the
 * head side on those a base property killed; a string says why nothing
 * can be judged.
 */
async function runBothSides(
  options: OracleBlindingOptions,
  found: {
    texts: ReadonlyMap<string, string>;
    baseTexts: ReadonlyMap<string, string>;
    unchanged: UnchangedMutants;
  },
  selected: readonly Mutant[],
): Promise<{ results: BlindingResult[]; cut: number; lost: number } | string> {
  const schemata = bothSchemata(options.parser, found, selected);
  const compiled = selected.filter((m) => compiledBoth(schemata, m));
  if (compiled.length === 0) {
    return "no selected mutant could be compiled in on both sides";
  }
  const properties = options.properties.map((p) => ({
    key: p.key,
    nodeId: p.nodeId,
  }));
  const baseSide: MutantSide = {
    template: options.base.template,
    properties,
    cacheScope: wholeTreeScope(options.base.files),
  };
  const headSide: MutantSide = {
    template: options.oracle.template,
    properties,
    cacheScope: wholeTreeScope(options.oracle.files),
  };
  const engine: WarmMutantsOptions = {
    mutants: compiled,
    texts: found.texts,
    base: baseSide,
    head: headSide,
    workers: options.workers,
    command: options.command,
    env: options.env,
    limits: options.limits,
    observer: options.observer,
    driver: options.driver,
    cache: options.cache,
    schemata: schemata.head,
    cacheTag: "blinding",
    deadline: options.clock() + options.settings.budget_seconds * 1000,
    clock: options.clock,
    progress: options.progress,
  };
  const settings = warmSettings(engine);
  const cover = (side: Map<string, Schemata>, m: Mutant) => [{
    file: m.file,
    lines: side.get(m.file)!.coverLines.get(m.id)!,
  }];
  const textsOf = (side: Map<string, Schemata>) =>
    new Map([...side].map(([f, s]) => [f, s.text]));
  const base = await runSide(
    engine,
    settings,
    {
      label: "base",
      template: baseSide.template,
      schemata: textsOf(schemata.base),
      properties,
    },
    compiled.map((m) => ({
      mutant: found.unchanged.atBase.get(m.id)!,
      cover: cover(schemata.base, m),
    })),
    baseSide,
  );
  if (base.passing === null) {
    return "the base's tests could not be run warm on the base's code";
  }
  const passing = base.passing.keys;
  const killedAtBase = compiled.filter((m) => {
    const o = base.outcomes.get(m.id);
    return o?.kind === "ran" &&
      killedKeys(o.outcomes).some((k) => passing.has(k));
  });
  // Only the base's tests that pass on the base's code run on the head's,
  // and only they are confirmed there: one failing at the base that the
  // head's code lets pass says nothing about the warm interpreter.
  const passingAtBase = properties.filter((p) => passing.has(p.key));
  if (killedAtBase.length > 0) {
    options.progress?.(
      `mutation: ${
        plural(killedAtBase.length, "mutant")
      } the base's tests kill on the base's code, now on the head's`,
    );
  }
  const head = killedAtBase.length === 0 ? null : await runSide(
    engine,
    settings,
    {
      label: "head",
      template: headSide.template,
      schemata: textsOf(schemata.head),
      properties: passingAtBase,
    },
    killedAtBase.map((m) => ({ mutant: m, cover: cover(schemata.head, m) })),
    { ...headSide, properties: passingAtBase },
  );
  const collected = collect(compiled, base, head, passing);
  const stillLost = await coldHead(
    engine,
    collected.claims,
    collected.results,
  );
  return {
    results: collected.results,
    cut: collected.cut,
    lost: collected.lost + stillLost,
  };
}

/**
 * Each mutant's outcomes on both sides, how many were cut or lost, and
 * the head side's claims a cold run must settle: the killing properties
 * of a mutant whose warm run on the head's code was lost, and those a
 * warm run says still kill it there.
 */
function collect(
  compiled: readonly Mutant[],
  base: {
    outcomes: ReadonlyMap<string, WarmOutcome>;
    cut: readonly { mutant: Mutant }[];
  },
  head: {
    outcomes: ReadonlyMap<string, WarmOutcome>;
    cut: readonly { mutant: Mutant }[];
    passing: { keys: ReadonlySet<string> } | null;
  } | null,
  passing: ReadonlySet<string>,
): {
  results: BlindingResult[];
  cut: number;
  lost: number;
  claims: KillClaim[];
} {
  const cutIds = new Set([
    ...base.cut.map((j) => j.mutant.id),
    ...(head?.cut ?? []).map((j) => j.mutant.id),
  ]);
  const headPassing = head?.passing?.keys ?? null;
  const results: BlindingResult[] = [];
  const claims: KillClaim[] = [];
  let lost = 0;
  for (const m of compiled) {
    if (cutIds.has(m.id)) continue;
    const b = base.outcomes.get(m.id);
    if (b === undefined || b.kind === "cold") {
      lost++;
      continue;
    }
    if (b.kind === "notCovered") continue;
    const baseOutcomes = only(b.outcomes, passing);
    const killers = killedKeys(baseOutcomes);
    if (killers.length === 0) {
      results.push({ mutant: m, base: baseOutcomes, head: null });
      continue;
    }
    const h = head?.outcomes.get(m.id);
    if (h === undefined || h.kind === "cold" || headPassing === null) {
      claims.push({ mutant: m, keys: new Set(killers) });
      results.push({ mutant: m, base: baseOutcomes, head: null });
      continue;
    }
    // Not covered on the head's code: no killing property's tests run it.
    const headOutcomes = h.kind === "notCovered"
      ? {}
      : only(h.outcomes, headPassing);
    claims.push(...claimsOf([{ mutant: m, killers, warm: headOutcomes }]));
    results.push({ mutant: m, base: baseOutcomes, head: headOutcomes });
  }
  return { results, cut: cutIds.size, lost, claims };
}

/**
 * The head side's claims, settled cold on the head's code: a fresh copy
 * with the mutant written in and a fresh pytest each (`confirm_kills.ts`).
 * A run lost warm (a driver that went away, a control that failed: code
 * that tells a forked run from a fresh one would otherwise escape this
 * way) is run there with every killing property, and a cold run knows no
 * coverage, so a survivor counts as run. A warm kill counts only as the
 * cold run confirms it. Returns how many mutants are left without a head
 * outcome that counts (the budget cut their cold run).
 */
async function coldHead(
  engine: WarmMutantsOptions,
  claims: readonly KillClaim[],
  results: BlindingResult[],
): Promise<number> {
  const byId = new Map(results.map((r, i) => [r.mutant.id, i]));
  const cold = await confirmKills(engine, engine.head!, claims, "base");
  let lost = 0;
  for (const claim of claims) {
    const i = byId.get(claim.mutant.id)!;
    const prior = results[i]!;
    const head = settle(
      prior.base,
      prior.head,
      claim,
      cold.outcomes.get(claim.mutant.id),
    );
    if (head === undefined) lost++;
    results[i] = { ...prior, head: head ?? null };
  }
  return lost;
}

/** Outcomes restricted to `keys`. */
function only(outcomes: SideOutcomes, keys: ReadonlySet<string>): SideOutcomes {
  return Object.fromEntries(
    Object.entries(outcomes).filter(([k]) => keys.has(k)),
  );
}
