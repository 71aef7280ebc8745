/**
 * The rule that the code under test cannot blind the oracle, as a pure
 * function over what the runs found: a mutant of code the pull request
 * did not change that a base property's tests kill on the base's code,
 * and that the same tests run on the head's code, executing it, let
 * survive, is `property.oracle_blinded` (one finding per property, with
 * the mutants as diffs and the functions the pull request changed on the
 * way: a new `__eq__`, a raise that discards examples, a special case).
 *
 * On the head's side a property counts only where its tests execute the
 * mutant's lines (the warm engine picks the tests by the lines they run):
 * code the head no longer runs (a refactor that removed its only caller)
 * cannot be checked there, so it proves nothing either way. A timeout on
 * the head is a kill, as in the kill-set rule; a head run that left no
 * usable report is `tests.no_report`, since hostile code could otherwise
 * hide a survivor by breaking the report.
 *
 * @module
 */
import { type Finding, finding } from "../core/finding.ts";
import { plural } from "../core/plural.ts";
import type { BlindingReport } from "../core/verdict.ts";
import {
  byPlace,
  type KillProperty,
  shownDiffs,
  type SideOutcomes,
} from "./judge_kill_sets.ts";
import { describeMutant, type Mutant } from "./mutant.ts";
import type { ChangedFunction } from "./unchanged_mutants.ts";
import { layoutName } from "../core/layout_name.ts";

/** What the runs of one mutant found. */
export interface BlindingResult {
  /** The mutant, at its head place. */
  mutant: Mutant;
  /** The base's tests on the base's code (passing properties only). */
  base: SideOutcomes;
  /**
   * The base's tests on the head's code: only the properties whose tests
   * execute the mutant there; null when no base property killed it or the
   * run was lost.
   */
  head: SideOutcomes | null;
}

/** Counts the selection and the runner decided before the rule. */
export type BlindingCounts = Pick<
  BlindingReport,
  "generated" | "selected" | "cutByCap" | "cutByBudget" | "lost"
>;

/** Options for {@linkcode judgeBlinding}. */
export interface JudgeBlindingOptions {
  /** The properties, in report order. */
  properties: readonly KillProperty[];
  /** The head text of each mutated file, for the diffs. */
  texts: ReadonlyMap<string, string>;
  /** The functions the pull request changed in the code the properties reach. */
  changed: readonly ChangedFunction[];
  /** Counts for the report. */
  counts: BlindingCounts;
}

/** Changed functions named in one finding's message. */
const NAMED = 5;

/**
 * Judge the runs.
 *
 * @example
 * ```ts
 * import { judgeBlinding } from "./judge_blinding.ts";
 * const j = judgeBlinding([], {
 *   properties: [], texts: new Map(), changed: [],
 *   counts: { generated: 0, selected: 0, cutByCap: 0, cutByBudget: 0, lost: 0 },
 * });
 * if (j.findings.length !== 0 || j.report.ran !== 0) throw new Error();
 * ```
 */
export function judgeBlinding(
  results: readonly BlindingResult[],
  options: JudgeBlindingOptions,
): { findings: Finding[]; report: BlindingReport } {
  const blindedBy = new Map<string, Mutant[]>();
  const unknownBy = new Map<string, Mutant[]>();
  const blinded = new Set<string>();
  let killed = 0;
  let notExecuted = 0;
  for (const r of results) {
    const keys = options.properties.filter((p) => r.base[p.key] === "killed");
    if (keys.length === 0) continue;
    killed++;
    if (r.head === null) continue;
    let executed = false;
    for (const p of keys) {
      const head = r.head[p.key];
      if (head === undefined) continue;
      executed = true;
      if (head === "survived") {
        blindedBy.set(p.key, [...(blindedBy.get(p.key) ?? []), r.mutant]);
        blinded.add(r.mutant.id);
      } else if (head === "unknown") {
        unknownBy.set(p.key, [...(unknownBy.get(p.key) ?? []), r.mutant]);
      }
    }
    if (!executed) notExecuted++;
  }
  const findings: Finding[] = [];
  for (const p of options.properties) {
    const mutants = blindedBy.get(p.key)?.sort(byPlace);
    if (mutants !== undefined) findings.push(blindFinding(p, mutants, options));
    const lost = unknownBy.get(p.key)?.sort(byPlace);
    if (lost !== undefined && mutants === undefined) {
      const first = lost[0] as Mutant;
      findings.push(finding(
        "tests.no_report",
        `Property "${p.id}" (layout ${
          layoutName(p.layout)
        }): the base's tests, run on the head's code with ${
          plural(lost.length, "mutant")
        } of code the pull request did not change, left no usable report, so pawl cannot tell whether they still catch what they catch on the base's code (first: ${
          describeMutant(first)
        })`,
        { path: first.file, line: first.line },
      ));
    }
  }
  return {
    findings,
    report: {
      ...options.counts,
      ran: results.length,
      killed,
      notExecuted,
      blinded: blinded.size,
    },
  };
}

/** The finding for one property's blinded mutants. */
function blindFinding(
  p: KillProperty,
  mutants: readonly Mutant[],
  options: JudgeBlindingOptions,
): Finding {
  const first = mutants[0] as Mutant;
  const { diffs, more } = shownDiffs(mutants, options.texts);
  const files = new Set(mutants.map((m) => m.file));
  // The changed functions in the blinded mutants' own files first: the
  // likeliest to sit on their path.
  const changed = [
    ...options.changed.filter((c) => files.has(c.file)),
    ...options.changed.filter((c) => !files.has(c.file)),
  ];
  const named = changed.slice(0, NAMED).map((c) =>
    `${c.file}:${c.line} ${c.qualname}`
  );
  const path = named.length === 0
    ? ""
    : `; the pull request changed ${named.join(", ")}${
      changed.length > NAMED ? ` (and ${changed.length - NAMED} more)` : ""
    }`;
  return finding(
    "property.oracle_blinded",
    `Property "${p.id}" (layout ${
      layoutName(p.layout)
    }): the base's tests of it no longer catch ${
      plural(mutants.length, "bug")
    } in code the pull request did not change: with that code changed as below they fail on the base's code and pass on the head's code, which runs it${path}\n${
      diffs.join("\n")
    }${more}`,
    { path: first.file, line: first.line },
  );
}
