// deno-lint-ignore-file no-console
// deno run --allow-all tools/mutate/write_report.ts REPORT.md RUN.json...
//
// Writes the survivor report from the mutation-testing-elements JSON of one
// or more `deno task mutate` runs (their --out). A file's mutants come from
// the last run that has that file, so runs of single files after a full run
// bring the report up to date.

import { DECISION_FOLDERS } from "./main.ts";
import type { MutantOutcome } from "./summarize.ts";
import { writeSurvivorReport } from "./survivor_report.ts";

interface ElementsReport {
  files: Record<string, { mutants: Omit<MutantOutcome, "fileName">[] }>;
}

/** The mutants of several runs' JSON, the last run's mutants for a file that several have. */
export function mergeRuns(runs: readonly ElementsReport[]): MutantOutcome[] {
  const byFile = new Map<string, MutantOutcome[]>();
  for (const run of runs) {
    for (const [file, { mutants }] of Object.entries(run.files)) {
      byFile.set(file, mutants.map((m) => ({ ...m, fileName: file })));
    }
  }
  return [...byFile.keys()].sort().flatMap((file) => byFile.get(file)!);
}

if (import.meta.main) {
  const [out, ...inputs] = Deno.args;
  if (out === undefined || inputs.length === 0) {
    console.error(
      "usage: deno run --allow-all tools/mutate/write_report.ts REPORT.md RUN.json...",
    );
    Deno.exit(2);
  }
  const runs = await Promise.all(
    inputs.map(async (path) =>
      JSON.parse(await Deno.readTextFile(path)) as ElementsReport
    ),
  );
  await writeSurvivorReport(out, mergeRuns(runs), "", DECISION_FOLDERS);
}
