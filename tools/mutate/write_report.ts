// deno-lint-ignore-file no-console
// deno run --allow-all tools/mutate/write_report.ts REPORT.md [RUN.json...]
//
// Writes the survivor report from the mutation-testing-elements JSON of one
// or more `deno task mutate` runs (their --out). A file's mutants come from
// the last run that has that file as it is now (the JSON keeps each file's
// source), so runs of single files after a full run bring the report up to
// date, and a run of code that has changed since is left out and named.
//
// Beside the report (REPORT.json for REPORT.md) lies its ledger: per file,
// a hash of the source that was run, how many mutants were detected, and
// every other mutant in full. The ledger is read as the oldest run and
// written again with the report, so a run of one file brings a checked-in
// report up to date without the runs of every other file at hand.

import { createHash } from "node:crypto";
import { DECISION_FOLDERS, decisionFiles, projectGraph, ROOT } from "./main.ts";
import {
  DETECTED,
  type MutantOutcome,
  UNDECIDED,
  UNDETECTED,
} from "./summarize.ts";
import { survivorReport } from "./survivor_report.ts";

/** The part of a run's mutation-testing-elements JSON the report reads. */
export interface ElementsReport {
  /** "reason-check" for the JSON of tools/mutate/check_reasons.ts. */
  kind?: string;
  files: Record<
    string,
    { source?: string; mutants: Omit<MutantOutcome, "fileName">[] }
  >;
}

/** A mutant as the ledger keeps it: what the report can say of it. */
export type LedgerMutant = Omit<MutantOutcome, "fileName">;

/** The ledger kept beside a report (see the head of this file). */
export interface Ledger {
  readonly kind: "ledger";
  readonly files: Record<string, {
    /** The SHA-256 of the source that was run, in hex. */
    readonly sha256: string;
    /** How many of its mutants a test detected. */
    readonly detected: number;
    /** Every mutant no test detected, or left out with a reason. */
    readonly mutants: readonly LedgerMutant[];
  }>;
}

/** The SHA-256 of a source text, in hex, as the ledger keeps it. */
export function sourceHash(source: string): string {
  return createHash("sha256").update(source).digest("hex");
}

/** The ledger beside a report: REPORT.json for REPORT.md. */
export function ledgerPath(report: string): string {
  return `${report.replace(/\.md$/, "")}.json`;
}

/** The ledger of merged runs: the detected mutants as a count, the rest in full. */
export function ledgerOf(
  merged: MergedRuns,
  sources: ReadonlyMap<string, string>,
): Ledger {
  const byFile = Map.groupBy(merged.results, (r) => r.fileName);
  const files: Record<string, Ledger["files"][string]> = {};
  for (const file of merged.files) {
    const source = sources.get(file);
    if (source === undefined) continue;
    const mine = byFile.get(file) ?? [];
    files[file] = {
      sha256: sourceHash(source),
      detected: mine.filter((r) => DETECTED.has(r.status)).length,
      mutants: mine.filter((r) => !DETECTED.has(r.status)).map((r) => ({
        mutatorName: r.mutatorName,
        ...(r.replacement === undefined ? {} : { replacement: r.replacement }),
        status: r.status,
        ...(r.statusReason === undefined ? {} : {
          statusReason: r.statusReason,
        }),
        ...(r.checked === true ? { checked: true } : {}),
        location: r.location,
      })),
    };
  }
  return { kind: "ledger", files };
}

/** A ledger's file as the mutants of a run: the detected ones stand in as bare Killed mutants. */
function fromLedger(
  file: string,
  entry: Ledger["files"][string],
): MutantOutcome[] {
  return [
    ...Array.from({ length: entry.detected }, () => ({
      fileName: file,
      mutatorName: "",
      status: "Killed",
      location: { start: { line: 0, column: 0 } },
    })),
    ...entry.mutants.map((m) => ({ ...m, fileName: file })),
  ];
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
 * reason left out: detected, or left alive and so `checked`; and of each
 * undetected one they ran again (--undetected): detected, or still not.
 */
export function mergeRuns(
  runs: readonly (ElementsReport | Ledger)[],
  current?: (file: string) => string | undefined,
): MergedRuns {
  const byFile = new Map<string, MutantOutcome[]>();
  const stale = new Set<string>();
  const isCurrent = (file: string, source: string | undefined) =>
    current === undefined || source === current(file);
  // A file no longer among the decision files (moved, removed) has nothing to report.
  const gone = (file: string) =>
    current !== undefined && current(file) === undefined;
  const hashes = new Map<string, string | undefined>();
  const currentHash = (file: string) => {
    if (!hashes.has(file)) {
      const source = current?.(file);
      hashes.set(file, source === undefined ? undefined : sourceHash(source));
    }
    return hashes.get(file);
  };
  for (const run of runs) {
    if (run.kind !== "ledger") continue;
    for (const [file, entry] of Object.entries(run.files)) {
      if (gone(file)) continue;
      if (current !== undefined && entry.sha256 !== currentHash(file)) {
        stale.add(file);
        continue;
      }
      byFile.set(file, fromLedger(file, entry));
    }
  }
  for (const run of runs) {
    if (run.kind === "ledger" || run.kind === "reason-check") continue;
    for (
      const [file, { source, mutants }] of Object.entries(
        (run as ElementsReport).files,
      )
    ) {
      if (gone(file)) continue;
      if (!isCurrent(file, source)) {
        stale.add(file);
        continue;
      }
      byFile.set(file, mutants.map((m) => ({ ...m, fileName: file })));
    }
  }
  for (const check of runs) {
    if (check.kind !== "reason-check") continue;
    for (
      const [file, { source, mutants }] of Object.entries(
        (check as ElementsReport).files,
      )
    ) {
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

/** A left-out or undetected mutant as a check of the same mutant found it; any other as it is. */
function checkedAs(
  result: MutantOutcome,
  checks: readonly Omit<MutantOutcome, "fileName">[],
): MutantOutcome {
  const undetected = UNDETECTED.has(result.status) ||
    result.status === UNDECIDED;
  if (result.status !== "Ignored" && !undetected) return result;
  const same = (a: MutantOutcome["location"], b: MutantOutcome["location"]) =>
    a.start.line === b.start.line && a.start.column === b.start.column &&
    a.end?.line === b.end?.line && a.end?.column === b.end?.column;
  const check = checks.find((c) =>
    c.mutatorName === result.mutatorName &&
    c.replacement === result.replacement && same(c.location, result.location)
  );
  if (check === undefined) return result;
  if (check.status === "Survived") {
    if (!undetected) return { ...result, checked: true };
    return result.status === UNDECIDED
      ? { ...result, status: "Survived" }
      : result;
  }
  return { ...result, status: check.status };
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

/** A run's JSON, a reason check's or a ledger, read from `path`. */
async function readRun(path: string): Promise<ElementsReport | Ledger> {
  const text = await Deno.readTextFile(path);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new Error(`${path}: not JSON: ${(error as Error).message}`);
  }
  const files = (value as { files?: unknown } | null)?.files;
  if (typeof files !== "object" || files === null || Array.isArray(files)) {
    throw new Error(
      `${path}: key "files": expected an object of files, as a mutation run, a reason check or a ledger writes`,
    );
  }
  return value as ElementsReport | Ledger;
}

/** The runs' JSON at `paths`, merged on the decision files as they are now. */
export async function currentRuns(
  paths: readonly string[],
): Promise<CurrentRuns> {
  const runs = await Promise.all(paths.map(readRun));
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

/**
 * Write the report at `report` and its ledger beside it from the ledger
 * already there (if any) and the runs at `inputs`, later ones winning.
 * Returns the files left out because they changed since their last run.
 */
export async function writeReport(
  report: string,
  inputs: readonly string[],
): Promise<string[]> {
  const ledger = ledgerPath(report);
  let hasLedger = true;
  try {
    await Deno.stat(ledger);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
    hasLedger = false;
  }
  const { merged, sources, all } = await currentRuns(
    hasLedger ? [ledger, ...inputs] : inputs,
  );
  await Deno.writeTextFile(
    report,
    survivorReport(merged.results, "", DECISION_FOLDERS, {
      files: { run: merged.files, all },
      source: (file) => sources.get(file),
    }),
  );
  await Deno.writeTextFile(
    ledger,
    `${JSON.stringify(ledgerOf(merged, sources), null, 2)}\n`,
  );
  // The repository's Markdown and JSON are kept as deno fmt writes them.
  await new Deno.Command(Deno.execPath(), {
    args: ["fmt", "--quiet", report, ledger],
    stdout: "null",
    stderr: "inherit",
  }).output();
  return merged.stale;
}

if (import.meta.main) {
  const [out, ...inputs] = Deno.args;
  if (out === undefined) {
    console.error(
      "usage: deno run --allow-all tools/mutate/write_report.ts REPORT.md [RUN.json...]",
    );
    Deno.exit(2);
  }
  try {
    for (const file of await writeReport(out, inputs)) {
      console.error(
        `write_report: ${file} changed since its last run; left out`,
      );
    }
  } catch (error) {
    console.error(`write_report: ${(error as Error).message}`);
    Deno.exit(2);
  }
}
