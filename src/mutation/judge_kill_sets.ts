/**
 * The kill-set rule, as a pure function over what the mutant runs found:
 * a mutant that a base property kills and the same head property lets
 * survive is `property.oracle_weakened` (one finding per property, with
 * the mutants as diffs at file:line); mutants no base property kills are
 * one non-blocking `property.mutants_survived` finding with their count.
 *
 * A timed-out run (or a Hypothesis deadline or flakiness error) counts as
 * killed in the counts and the report, as mutation tools count it: the
 * property did not pass with the code changed. But only a definite
 * failure at the base can make a weakening: a slow run is no proof that
 * the head's test got weaker, so a base timeout never blocks. At the head
 * a timeout is a kill, so it never blocks either.
 *
 * A run whose report pawl cannot trust (it disagrees with pawl's observer,
 * or there is none) is `unknown` for every property it ran: at the base
 * the mutant is counted as unknown, never killed or survived; at the head
 * it is never a kill, so a head whose tests rewrite their report cannot
 * hide a weakening: the observer's findings block (`harness.*`), and a
 * head run of a base kill that left no report is `tests.no_report`.
 *
 * @module
 */
import { plural } from "../core/plural.ts";
import { type Finding, finding } from "../core/finding.ts";
import type { MutationReport } from "../core/verdict.ts";
import { describeMutant, type Mutant, renderMutantDiff } from "./mutant.ts";
import { layoutName } from "../core/layout_name.ts";

/** How one property fared against one mutant. */
export type KillOutcome = "killed" | "survived" | "timeout" | "unknown";

/** One side's run of one mutant: each property's outcome, by property key. */
export type SideOutcomes = Readonly<Record<string, KillOutcome>>;

/** The keys of the properties one side's run killed, in the run's order. */
export function killedKeys(outcomes: SideOutcomes): string[] {
  return Object.keys(outcomes).filter((k) => outcomes[k] === "killed");
}

/** What the runs of one mutant found. */
export interface MutantResult {
  /** The mutant. */
  mutant: Mutant;
  /** The base's oracle (base test side, head code) against it. */
  base: SideOutcomes;
  /** The head's properties against it; null when not run (no base property killed it, or the head's test side is the base's). */
  head: SideOutcomes | null;
  /** Whether the base side came from the cache. */
  cached: boolean;
  /** Why a run's report could not be trusted (pawl's observer disagreed), when it could not. */
  findings?: readonly Finding[];
}

/** A registered property, as the rule names it. */
export interface KillProperty {
  /** Key shared by the base's and the head's runs (`layout/id`). */
  key: string;
  /** Contract id. */
  id: string;
  /** Layout. */
  layout: string;
}

/** Counts the selection and the runner decided before the rule. */
export type MutationCounts = Pick<
  MutationReport,
  | "reach"
  | "sampleSeed"
  | "runSeed"
  | "generated"
  | "selected"
  | "touched"
  | "cutByCap"
  | "cutByBudget"
  | "notCovered"
>;

/** Options for {@linkcode judgeKillSets}. */
export interface JudgeKillSetsOptions {
  /** The properties, in report order. */
  properties: readonly KillProperty[];
  /** Findings of the unmutated baseline runs (a report pawl's observer disagreed with). */
  baselineFindings?: readonly Finding[];
  /** The head text of each mutated file, for the diffs. */
  texts: ReadonlyMap<string, string>;
  /** Counts for the report. */
  counts: MutationCounts;
}

/** The rule's findings and the verdict's counts. */
export interface KillSetJudgement {
  /** Findings. */
  findings: Finding[];
  /** The verdict's `tests.mutation`. */
  report: MutationReport;
  /**
   * Properties whose head test kills every mutant their base test kills,
   * with how many that is (at least one): evidence that a rewrite of the
   * test checks no less. None when a run's report could not be trusted.
   */
  keptKills: Map<string, number>;
}

/** Mutants shown in one finding's message. */
const SHOWN = 3;

/**
 * Judge the mutant runs.
 *
 * @example
 * ```ts
 * import { judgeKillSets } from "./judge_kill_sets.ts";
 * const j = judgeKillSets([], {
 *   properties: [], texts: new Map(),
 *   counts: { reach: "import analysis", sampleSeed: 1, runSeed: 2, generated: 0,
 *     selected: 0, touched: 0, cutByCap: 0, cutByBudget: 0 },
 * });
 * if (j.findings.length !== 0 || j.report.ran !== 0) throw new Error("unexpected");
 * ```
 */
export function judgeKillSets(
  results: readonly MutantResult[],
  options: JudgeKillSetsOptions,
): KillSetJudgement {
  let killed = 0;
  let timedOut = 0;
  let unknown = 0;
  const untrusted: Finding[] = [...(options.baselineFindings ?? [])];
  const headUnknown = new Map<string, Mutant[]>();
  const survivors: Mutant[] = [];
  const weakenedBy = new Map<string, Mutant[]>();
  const weakenedMutants = new Set<string>();
  for (const r of results) {
    const outcomes = Object.values(r.base);
    if (outcomes.includes("killed")) killed++;
    else if (outcomes.includes("timeout")) timedOut++;
    else if (outcomes.includes("unknown")) unknown++;
    else survivors.push(r.mutant);
    untrusted.push(...(r.findings ?? []));
    if (r.head === null) continue;
    for (const p of options.properties) {
      if (r.base[p.key] !== "killed") continue;
      if (r.head[p.key] === "unknown") {
        headUnknown.set(p.key, [...(headUnknown.get(p.key) ?? []), r.mutant]);
        continue;
      }
      if (r.head[p.key] !== "survived") continue;
      const list = weakenedBy.get(p.key) ?? [];
      list.push(r.mutant);
      weakenedBy.set(p.key, list);
      weakenedMutants.add(r.mutant.id);
    }
  }
  const findings: Finding[] = [];
  const keptKills = untrusted.length > 0
    ? new Map<string, number>()
    : killsKept(results, options.properties);
  for (const p of options.properties) {
    const mutants = weakenedBy.get(p.key)?.sort(byPlace);
    if (mutants === undefined) continue;
    const first = mutants[0] as Mutant;
    const { diffs, more } = shownDiffs(mutants, options.texts);
    findings.push(finding(
      "property.oracle_weakened",
      `Property "${p.id}" (layout ${layoutName(p.layout)}) no longer catches ${
        plural(mutants.length, "bug")
      } the base's test of it catches: with the code changed as below the base's test fails and the head's passes\n${
        diffs.join("\n")
      }${more}`,
      { path: first.file, line: first.line },
    ));
  }
  findings.push(...untrustedFindings(untrusted));
  for (const p of options.properties) {
    const mutants = headUnknown.get(p.key)?.sort(byPlace);
    if (mutants === undefined) continue;
    // Runs the observer flagged already block; a missing report does too.
    if (untrusted.length > 0) continue;
    const first = mutants[0] as Mutant;
    findings.push(finding(
      "tests.no_report",
      `Property "${p.id}" (layout ${layoutName(p.layout)}): the head's run on ${
        plural(mutants.length, "mutant")
      } the base's test kills left no usable report, so pawl cannot tell whether the head's test still catches ${
        mutants.length === 1 ? "it" : "them"
      } (first: ${describeMutant(first)})`,
      { path: first.file, line: first.line },
    ));
  }
  survivors.sort(byPlace);
  if (survivors.length > 0) {
    const first = survivors[0] as Mutant;
    const listed = survivors.slice(0, 5).map((m) => describeMutant(m));
    findings.push(finding(
      "property.mutants_survived",
      `${survivors.length} of ${plural(results.length, "mutant")} ${
        survivors.length === 1 ? "survives" : "survive"
      } every base property (gaps the base's oracle already had; not blocking): ${
        listed.join("; ")
      }${survivors.length > 5 ? "; …" : ""}`,
      { path: first.file, line: first.line },
    ));
  }
  return {
    findings,
    report: {
      ...options.counts,
      ran: results.length,
      killed,
      survived: survivors.length,
      timedOut,
      unknown,
      weakened: weakenedMutants.size,
    },
    keptKills,
  };
}

/**
 * Each property whose base test killed at least one mutant and whose head
 * test killed (or timed out on) every one of them, with their number.
 */
function killsKept(
  results: readonly MutantResult[],
  properties: readonly KillProperty[],
): Map<string, number> {
  const out = new Map<string, number>();
  for (const p of properties) {
    const killed = results.filter((r) => r.base[p.key] === "killed");
    const kept = killed.every((r) => {
      const head = r.head?.[p.key];
      return head === "killed" || head === "timeout";
    });
    if (killed.length > 0 && kept) out.set(p.key, killed.length);
  }
  return out;
}

/** One finding per rule, the first message with a count of the rest. */
function untrustedFindings(found: readonly Finding[]): Finding[] {
  const byRule = new Map<string, Finding[]>();
  for (const f of found) byRule.set(f.rule, [...(byRule.get(f.rule) ?? []), f]);
  return [...byRule.values()].map((list) => {
    const first = list[0] as Finding;
    return list.length === 1 ? first : {
      ...first,
      message: `${first.message} (and ${
        plural(list.length - 1, "more run")
      } like it)`,
    };
  });
}

/**
 * The first mutants of a finding as diffs at `file:line`, and a line
 * saying how many more there are ("" when none).
 */
export function shownDiffs(
  mutants: readonly Mutant[],
  texts: ReadonlyMap<string, string>,
): { diffs: string[]; more: string } {
  return {
    diffs: mutants.slice(0, SHOWN).map((m) =>
      renderMutantDiff(texts.get(m.file) ?? "", m)
    ),
    more: mutants.length > SHOWN
      ? `\n(and ${mutants.length - SHOWN} more)`
      : "",
  };
}

/** Mutants in file and place order. */
export function byPlace(a: Mutant, b: Mutant): number {
  return (a.file < b.file ? -1 : a.file > b.file ? 1 : 0) ||
    // Stryker disable next-line EqualityOperator: ids differ between the mutants of one list (one result per mutant), so `<` and `<=` agree
    a.start - b.start || a.end - b.end || (a.id < b.id ? -1 : 1);
}
