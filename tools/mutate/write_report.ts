// deno-lint-ignore-file no-console
// deno run --allow-all tools/mutate/write_report.ts REPORT.md RUN.json...
//
// Writes the survivor report from the mutation-testing-elements JSON of one
// or more `deno task mutate` runs (their --out). A file's mutants come from
// the last run that has that file as it is now (the JSON keeps each file's
// source), so runs of single files after a full run bring the report up to
// date, and a run of code that has changed since is left out and named.

import { DECISION_FOLDERS, decisionFiles, projectGraph, ROOT } from "./main.ts";
import type { MutantOutcome } from "./summarize.ts";
import { writeSurvivorReport } from "./survivor_report.ts";

/** The part of a run's mutation-testing-elements JSON the report reads. */
export interface ElementsReport {
  /** "reason-check" for the JSON of tools/mutate/check_reasons.ts. */
  kind?: string;
  files: Record<
    string,
    { source?: string; mutants: Omit<MutantOutcome, "fileName">[] }
  >;
}

/** What several runs say of the files as they are now. */
export interface MergedRuns {
  /** The mutants of each file's last run on its current source, by file. */
  results: MutantOutcome[];
  /** The files some run covered as they are now, sorted. */
  files: string[];
  /** The files every run of which saw another source than the current one, sorted. */
  stale: string[];
}

/**
 * The mutants of several runs' JSON: for each file, the last run whose
 * source is `current(file)`. Without `current`, the last run of each file.
 * The checks of tools/mutate/check_reasons.ts among them (`kind`
 * "reason-check") on the same source then say what became of each mutant a
 * reason left out: detected, or left alive and so `checked`.
 */
export function mergeRuns(
  runs: readonly ElementsReport[],
  current?: (file: string) => string | undefined,
): MergedRuns {
  const byFile = new Map<string, MutantOutcome[]>();
  const stale = new Set<string>();
  const isCurrent = (file: string, source: string | undefined) =>
    current === undefined || source === current(file);
  for (const run of runs.filter((r) => r.kind !== "reason-check")) {
    for (const [file, { source, mutants }] of Object.entries(run.files)) {
      if (!isCurrent(file, source)) {
        stale.add(file);
        continue;
      }
      byFile.set(file, mutants.map((m) => ({ ...m, fileName: file })));
    }
  }
  for (const check of runs.filter((r) => r.kind === "reason-check")) {
    for (const [file, { source, mutants }] of Object.entries(check.files)) {
      const results = byFile.get(file);
      if (results === undefined || !isCurrent(file, source)) continue;
      byFile.set(file, results.map((r) => checkedAs(r, mutants)));
    }
  }
  const files = [...byFile.keys()].sort();
  return {
    results: files.flatMap((file) => byFile.get(file)!),
    files,
    stale: [...stale].filter((f) => !byFile.has(f)).sort(),
  };
}

/** A left-out mutant as a check of the same mutant found it; any other as it is. */
function checkedAs(
  result: MutantOutcome,
  checks: readonly Omit<MutantOutcome, "fileName">[],
): MutantOutcome {
  if (result.status !== "Ignored") return result;
  const same = (a: MutantOutcome["location"], b: MutantOutcome["location"]) =>
    a.start.line === b.start.line && a.start.column === b.start.column &&
    a.end?.line === b.end?.line && a.end?.column === b.end?.column;
  const check = checks.find((c) =>
    c.mutatorName === result.mutatorName &&
    c.replacement === result.replacement && same(c.location, result.location)
  );
  if (check === undefined) return result;
  return check.status === "Survived"
    ? { ...result, checked: true }
    : { ...result, status: check.status };
}

/** What {@linkcode currentRuns} gives. */
export interface CurrentRuns {
  /** The runs merged on each file's current source. */
  merged: MergedRuns;
  /** The decision files' current sources, by file. */
  sources: Map<string, string>;
  /** Every decision file main.ts loads. */
  all: string[];
  /** The project's module graph, seen from every unit test. */
  graph: Map<string, string[]>;
}

/** The runs' JSON at `paths`, merged on the decision files as they are now. */
export async function currentRuns(
  paths: readonly string[],
): Promise<CurrentRuns> {
  const runs = await Promise.all(
    paths.map(async (path) =>
      JSON.parse(await Deno.readTextFile(path)) as ElementsReport
    ),
  );
  const { files, graph, program } = await projectGraph();
  const all = decisionFiles(files, program);
  const sources = new Map<string, string>();
  for (const file of all) {
    try {
      sources.set(file, await Deno.readTextFile(`${ROOT}/${file}`));
    } catch {
      // deleted, not yet staged
    }
  }
  return {
    merged: mergeRuns(runs, (file) => sources.get(file)),
    sources,
    all,
    graph,
  };
}

if (import.meta.main) {
  const [out, ...inputs] = Deno.args;
  if (out === undefined || inputs.length === 0) {
    console.error(
      "usage: deno run --allow-all tools/mutate/write_report.ts REPORT.md RUN.json...",
    );
    Deno.exit(2);
  }
  const { merged, sources, all } = await currentRuns(inputs);
  for (const file of merged.stale) {
    console.error(`write_report: ${file} changed since its last run; left out`);
  }
  await writeSurvivorReport(out, merged.results, "", DECISION_FOLDERS, {
    files: { run: merged.files, all },
    source: (file) => sources.get(file),
  });
}
