/**
 * The changed code no test runs, as a pure function over what the full
 * suite's run traced: the lines the pull request added or changed in the
 * code under test that the suite never executed, and the mutants on
 * changed lines that survive every base property. A special case only
 * production takes (`if customer_id == "C-1": return right`, the rest
 * wrong) leaves the path production takes unexecuted, and so named here.
 *
 * Both are advisory unless the base's `[coverage] changed_lines` is
 * `"blocking"`. Lines are unknown, never unexecuted, when code under test
 * switched pawl's line probes off (it replaced the source loader that puts
 * them in), when a changed file was loaded by another loader, or when the
 * run never reported them: that is a note, and never blocks by itself.
 *
 * @module
 */
import { plural } from "../core/plural.ts";
import { type Finding, finding } from "../core/finding.ts";
import type { ChangedCodeReport } from "../core/verdict.ts";
import type { MutantResult } from "../mutation/judge_kill_sets.ts";
import { describeMutant, type Mutant } from "../mutation/mutant.ts";
import type { ObservedLines } from "../run/observation.ts";
import type { CoverageSettings } from "../settings/coverage_settings.ts";
import type { ChangedLines } from "./read_changed_lines.ts";

/** Line ranges and mutants named in one finding; the rest are counted. */
export const SHOWN = 20;

/** What {@linkcode judgeChangedLines} reads. */
export interface JudgeChangedLinesInput {
  /** The changed lines of the code under test (`readChangedLines`). */
  changed: ChangedLines;
  /** What the suite's run traced; undefined when it reported nothing. */
  observed: ObservedLines | undefined;
  /** The mutant runs, when the oracle-strength rule ran. */
  mutants?: {
    results: readonly MutantResult[];
    notCovered?: readonly Mutant[] | undefined;
  };
  /** The base's `[coverage]`. */
  settings: CoverageSettings;
}

/** The findings and the verdict's counts. */
export interface ChangedLinesJudgement {
  /** Findings, advisory unless the base makes them blocking. */
  findings: Finding[];
  /** Counts for the verdict; undefined when nothing changed in the code under test. */
  report: ChangedCodeReport | undefined;
}

/**
 * Judge the changed code the suite did not run.
 *
 * @example
 * ```ts
 * import { judgeChangedLines } from "./judge_changed_lines.ts";
 * const j = judgeChangedLines({
 *   changed: new Map([["pkg/a.py", [3, 4]]]),
 *   observed: {
 *     files: new Map([["pkg/a.py", { executable: [3, 4], executed: [3] }]]),
 *     removed: false,
 *   },
 *   settings: { changed_lines: "advisory" },
 * });
 * if (j.findings[0]?.rule !== "tests.changed_code_unexecuted") throw new Error();
 * ```
 */
export function judgeChangedLines(
  input: JudgeChangedLinesInput,
): ChangedLinesJudgement {
  const { changed, observed } = input;
  if (changed.size === 0) return { findings: [], report: undefined };
  const blocking = input.settings.changed_lines === "blocking";
  const changedCount = [...changed.values()].reduce((n, l) => n + l.length, 0);
  const survivors = survivorsOnChangedLines(input);
  const findings: Finding[] = [];
  if (survivors.length > 0) findings.push(survivorFinding(survivors, blocking));
  if (observed === undefined || observed.removed) {
    findings.unshift(untraced(changedCount, observed?.removed === true));
    return {
      findings,
      report: {
        changed: changedCount,
        traced: observed === undefined ? "absent" : "removed",
        survivors: survivors.length,
      },
    };
  }
  const unexecuted: [string, number[]][] = [];
  const unprobed: string[] = [];
  let executable = 0;
  let unknown = 0;
  for (const [path, lines] of [...observed.files].sort(byKey)) {
    if (!changed.has(path)) continue;
    if (lines.unprobed === true) {
      unprobed.push(path);
      unknown += lines.executable.length;
      continue;
    }
    executable += lines.executable.length;
    const ran = new Set(lines.executed);
    const missed = lines.executable.filter((l) => !ran.has(l));
    if (missed.length > 0) unexecuted.push([path, missed]);
  }
  const missed = unexecuted.reduce((n, [, l]) => n + l.length, 0);
  if (missed > 0) {
    findings.unshift(unexecutedFinding(unexecuted, {
      missed,
      executable,
      blocking,
    }));
  }
  if (unprobed.length > 0) findings.push(unprobedNote(unprobed, unknown));
  return {
    findings,
    report: {
      changed: changedCount,
      traced: "yes",
      executable,
      unexecuted: missed,
      ...(unknown > 0 ? { unknown } : {}),
      survivors: survivors.length,
    },
  };
}

function unexecutedFinding(
  unexecuted: readonly [string, number[]][],
  counts: { missed: number; executable: number; blocking: boolean },
): Finding {
  const ranges = unexecuted.flatMap(([path, lines]) =>
    lineRanges(lines).map((r) => `${path}:${r}`)
  );
  const more = ranges.length > SHOWN
    ? ` and ${plural(ranges.length - SHOWN, "more range")}`
    : "";
  const [path, lines] = unexecuted[0] as [string, number[]];
  return finding(
    "tests.changed_code_unexecuted",
    `${counts.missed} of the ${
      plural(counts.executable, "executable line")
    } the pull request added or changed in the code under test ${
      counts.missed === 1 ? "is" : "are"
    } run by no test of the suite (${
      counts.blocking
        ? 'blocking: the base\'s pawl.toml sets [coverage] changed_lines = "blocking"'
        : "advisory"
    }): ${
      ranges.slice(0, SHOWN).join(", ")
    }${more}; no test checks what they do`,
    { path, line: lines[0] as number, blocking: counts.blocking },
  );
}

function survivorFinding(survivors: readonly Mutant[], blocking: boolean) {
  const first = survivors[0] as Mutant;
  const listed = survivors.slice(0, SHOWN).map((m) => describeMutant(m));
  return finding(
    "tests.changed_code_survivors",
    `${
      plural(survivors.length, "mutant")
    } on lines the pull request added or changed ${
      survivors.length === 1 ? "survives" : "survive"
    } every base property (${blocking ? "blocking" : "advisory"}): ${
      listed.join("; ")
    }${survivors.length > SHOWN ? "; …" : ""}`,
    { path: first.file, line: first.line, blocking },
  );
}

function untraced(changed: number, removed: boolean): Finding {
  return finding(
    "tests.changed_code_untraced",
    removed
      ? `pawl's line probes were switched off during the suite's run (code replaced the source loader that puts them in the changed files), so whether the tests run the ${
        plural(changed, "line")
      } the pull request added or changed in the code under test is unknown; this alone does not reject`
      : `The suite's run never reported which of the ${
        plural(changed, "line")
      } the pull request added or changed in the code under test it executed, so that is unknown; this alone does not reject`,
  );
}

function unprobedNote(paths: readonly string[], lines: number): Finding {
  return finding(
    "tests.changed_code_untraced",
    `A module was loaded from ${
      paths.map((p) => `"${p}"`).join(", ")
    } by a loader other than Python's source loader (pytest's assertion rewriting, say), without pawl's line probes, so whether the tests run its ${
      plural(lines, "changed line")
    } is unknown; this alone does not reject`,
    { path: paths[0] as string },
  );
}

/**
 * The mutants on a changed line (any line of their span) that no base
 * property killed, timed out on or could not judge, with those no base
 * test executes, sorted by place.
 */
function survivorsOnChangedLines(input: JudgeChangedLinesInput): Mutant[] {
  const { changed } = input;
  const onChanged = (m: Mutant) => {
    const lines = changed.get(m.file);
    return lines !== undefined &&
      lines.some((l) => l >= m.line && l <= m.endLine);
  };
  const survived = (input.mutants?.results ?? []).filter((r) =>
    Object.values(r.base).every((o) => o === "survived")
  ).map((r) => r.mutant);
  const seen = new Set<string>();
  return [...survived, ...input.mutants?.notCovered ?? []].filter((m) => {
    if (seen.has(m.id) || !onChanged(m)) return false;
    seen.add(m.id);
    return true;
  }).sort((a, b) =>
    a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line
  );
}

/** `3`, `5-7`: consecutive numbers as ranges. */
export function lineRanges(lines: readonly number[]): string[] {
  const out: string[] = [];
  let start: number | undefined;
  let last = 0;
  for (const line of [...lines, Infinity]) {
    if (start !== undefined && line === last + 1) {
      last = line;
      continue;
    }
    if (start !== undefined) {
      out.push(start === last ? `${start}` : `${start}-${last}`);
    }
    start = line;
    last = line;
  }
  return out;
}

function byKey<T>(a: [string, T], b: [string, T]): number {
  return a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0;
}
