/**
 * The mutation-testing-elements JSON report (schema version 2, as the
 * npm package `mutation-testing-report-schema` publishes it; Stryker's
 * dashboards and `<mutation-test-report-app>` read it). It shows the
 * base's oracle on the head's code, the authority the kill-set rule
 * judges by: a mutant is `Killed` (`killedBy` names the base properties),
 * `Timeout`, `Survived`, `NoCoverage` when no base test executes it (it
 * never ran), or `Ignored` when the time budget cut it; a
 * mutant the head's property lets survive says so in `statusReason`.
 *
 * @module
 */
import {
  killedKeys,
  type KillProperty,
  type MutantResult,
} from "./judge_kill_sets.ts";
import type { Mutant } from "./mutant.ts";
import { layoutName } from "../core/layout_name.ts";

/** What a judgement's mutant runs leave for the report. */
export interface MutationRun {
  /** The properties, with the file each test lives in and, where known, the pytest node id of the base's test (else the head's). */
  properties: readonly (KillProperty & {
    file: string;
    baseNodeId?: string | undefined;
    headNodeId?: string | undefined;
  })[];
  /** Results of the mutants that ran. */
  results: readonly MutantResult[];
  /** Selected mutants the budget left unrun. */
  unrun: readonly Mutant[];
  /** Selected mutants no base test executes (never run). */
  notCovered?: readonly Mutant[];
  /** The head text of each mutated file. */
  texts: ReadonlyMap<string, string>;
  /** Seeds and limits, for the report's `config`. */
  config: Readonly<Record<string, unknown>>;
}

/** The run of a judgement in which `[mutation]` was off or nothing ran: a report with no mutants. */
export const NO_MUTATION_RUN: MutationRun = {
  properties: [],
  results: [],
  unrun: [],
  texts: new Map(),
  config: { enabled: false },
};

/** Options for {@linkcode renderMutationReport}. */
export interface RenderMutationReportOptions {
  /** pawl's version, for `framework`. */
  version: string;
}

/**
 * The report as JSON text.
 *
 * @example
 * ```ts
 * import { renderMutationReport } from "./render_mutation_report.ts";
 * const json = JSON.parse(renderMutationReport({
 *   properties: [], results: [], unrun: [], texts: new Map(), config: {},
 * }, { version: "0" }));
 * if (json.schemaVersion !== "2") throw new Error("unexpected");
 * ```
 */
export function renderMutationReport(
  run: MutationRun,
  options: RenderMutationReportOptions,
): string {
  const files: Record<
    string,
    { language: string; source: string; mutants: unknown[] }
  > = {};
  const file = (path: string) => {
    files[path] ??= {
      language: "python",
      source: run.texts.get(path) ?? "",
      mutants: [],
    };
    return files[path];
  };
  for (const path of [...run.texts.keys()].sort()) file(path);
  for (const r of run.results) {
    const outcomes = Object.entries(r.base);
    const killedBy = killedKeys(r.base).sort();
    const status = killedBy.length > 0
      ? "Killed"
      : outcomes.some(([, o]) => o === "timeout")
      ? "Timeout"
      : outcomes.some(([, o]) => o === "unknown")
      ? "Ignored"
      : "Survived";
    // Killed at the base, survived at the head (none without a head run).
    const weakened = outcomes.flatMap(([k, o]) =>
      o === "killed" && r.head?.[k] === "survived" ? [k] : []
    ).sort();
    file(r.mutant.file).mutants.push({
      ...mutantFields(r.mutant),
      status,
      ...(killedBy.length > 0 ? { killedBy } : {}),
      coveredBy: outcomes.map(([k]) => k).sort(),
      ...(status === "Ignored"
        ? {
          statusReason:
            "The run left no report pawl's observer could confirm: counted neither killed nor survived",
        }
        : {}),
      ...(weakened.length > 0
        ? {
          statusReason: `The head's property ${
            weakened.join(", ")
          } lets this mutant survive (property.oracle_weakened)`,
        }
        : {}),
    });
  }
  for (const m of run.unrun) {
    file(m.file).mutants.push({
      ...mutantFields(m),
      status: "Ignored",
      statusReason: "Not run: the [mutation] time budget ran out",
    });
  }
  for (const m of run.notCovered ?? []) {
    file(m.file).mutants.push({
      ...mutantFields(m),
      status: "NoCoverage",
      statusReason:
        "Not run: no base test executes its line on the unmutated code",
    });
  }
  for (const f of Object.values(files)) {
    (f.mutants as { location: { start: { line: number; column: number } } }[])
      .sort((a, b) =>
        a.location.start.line - b.location.start.line ||
        a.location.start.column - b.location.start.column
      );
  }
  const testFiles: Record<string, { tests: { id: string; name: string }[] }> =
    {};
  for (const p of run.properties) {
    // The test's name is what pytest calls it, so it can be run on its
    // own; the id says which property it is.
    (testFiles[p.file] ??= { tests: [] }).tests.push({
      id: p.key,
      name: p.baseNodeId ?? p.headNodeId ??
        `${p.id} (layout ${layoutName(p.layout)})`,
    });
  }
  return JSON.stringify(
    {
      schemaVersion: "2",
      thresholds: { high: 80, low: 60 },
      files,
      testFiles,
      framework: { name: "pawl", version: options.version },
      config: run.config,
    },
    null,
    2,
  ) + "\n";
}

function mutantFields(m: Mutant) {
  return {
    id: m.id,
    mutatorName: m.operator,
    replacement: m.replacement,
    description: `${m.operator} in ${m.function}: ${
      JSON.stringify(m.original)
    } → ${JSON.stringify(m.replacement)}`,
    location: {
      start: { line: m.line, column: m.column },
      end: { line: m.endLine, column: m.endColumn },
    },
  };
}
