// deno-lint-ignore-file no-console
// deno task mutate-reasons [--undetected] [--concurrency N] [--out FILE] [--only PATH]... RUN.json...
//
// Runs the mutants a reason comment leaves out. Stryker's
// `// Stryker disable next-line MUTATOR: reason` leaves out every mutant of
// that mutator on the line, so a reason written for one replacement (say
// `→ false`) also hides the others (`→ true`), which the tests may well
// detect. This takes each such mutant from the runs' JSON, applies it to a
// copy of the project and runs its chosen tests the way a mutation run
// does (nearest first, stopped at the first that fails). The JSON it writes
// goes to tools/mutate/write_report.ts with the runs: a mutant the tests
// detect counts as detected, and one they leave alive keeps its reason,
// marked as checked.
//
// With --undetected it also runs each mutant the runs left undetected or
// undecided (a machine too busy to time it), as after tests were added: one the tests now detect counts as detected. (A
// run of the file again, `deno task mutate`, is the check when tests were
// changed or taken away, since a mutant detected then may not be now.)

import { dirname } from "node:path";
import { parseArgs } from "node:util";
import {
  afterTimeout,
  denoTest,
  measureLimit,
  mutantStages,
} from "./deno_test_runner.ts";
import { plural } from "../../src/core/plural.ts";
import { ROOT, trackedFiles } from "./main.ts";
import { importers, unitTestsFor } from "./select_tests.ts";
import type { MutantOutcome } from "./summarize.ts";
import { describeMutant, UNDECIDED, UNDETECTED } from "./summarize.ts";
import { currentRuns } from "./write_report.ts";

/** What a check of one left-out mutant found. */
export interface CheckedMutant extends Omit<MutantOutcome, "fileName"> {
  /** Killed or Timeout when a chosen test detects it, Survived when none does. */
  readonly status: "Killed" | "Timeout" | "Survived";
  /** The test files that detected it. */
  readonly killedBy?: readonly string[];
}

/** The JSON this writes: per file, the source it checked and each left-out mutant's outcome. */
export interface ReasonChecks {
  readonly kind: "reason-check";
  readonly files: Record<
    string,
    { readonly source: string; readonly mutants: CheckedMutant[] }
  >;
}

/**
 * `source` with the span at `location` (1-based lines and columns, end
 * exclusive) replaced by `replacement`; undefined when the span is not in
 * the text.
 */
export function applyMutant(
  source: string,
  location: MutantOutcome["location"],
  replacement: string,
): string | undefined {
  const { start, end } = location;
  if (end === undefined) return undefined;
  const offset = (line: number, column: number) => {
    let at = 0;
    for (let n = 1; n < line; n++) {
      const next = source.indexOf("\n", at);
      if (next === -1) return undefined;
      at = next + 1;
    }
    const lineEnd = source.indexOf("\n", at);
    const length = (lineEnd === -1 ? source.length : lineEnd) - at;
    return column >= 1 && column - 1 <= length ? at + column - 1 : undefined;
  };
  const from = offset(start.line, start.column);
  const to = offset(end.line, end.column);
  if (from === undefined || to === undefined || to < from) return undefined;
  return source.slice(0, from) + replacement + source.slice(to);
}

/**
 * The mutants of `results` a reason comment left out and no check has run
 * yet, by file; with `undetected`, also those no test detected.
 */
export function leftOut(
  results: readonly MutantOutcome[],
  undetected = false,
): Map<string, MutantOutcome[]> {
  const out = new Map<string, MutantOutcome[]>();
  for (const result of results) {
    // One already checked on this source (a ledger keeps it so) is not run again.
    const unchecked = result.status === "Ignored" && result.checked !== true;
    const again = UNDETECTED.has(result.status) || result.status === UNDECIDED;
    if (!unchecked && !(undetected && again)) continue;
    out.set(result.fileName, [...(out.get(result.fileName) ?? []), result]);
  }
  return out;
}

/** A copy of the project's files in `dir`, sharing its node_modules. */
async function copyProject(dir: string): Promise<void> {
  for (const file of await trackedFiles()) {
    const target = `${dir}/${file}`;
    await Deno.mkdir(target.slice(0, target.lastIndexOf("/")), {
      recursive: true,
    });
    try {
      await Deno.copyFile(`${ROOT}/${file}`, target);
    } catch (error) {
      // A file deleted but not yet staged is not part of the project.
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    }
  }
  await Deno.symlink(`${ROOT}/node_modules`, `${dir}/node_modules`);
}

/** Check every left-out mutant of `file` in the copy at `dir`. */
async function checkFile(
  dir: string,
  file: string,
  source: string,
  mutants: readonly MutantOutcome[],
  tests: readonly string[],
  limit: (files: readonly string[]) => Promise<number>,
  remeasure: (files: readonly string[]) => Promise<number | undefined>,
): Promise<CheckedMutant[]> {
  const checked: CheckedMutant[] = [];
  const stages = mutantStages({ unit: tests, e2e: [] }, {
    unitTimeoutSeconds: 120,
    e2eTimeoutSeconds: 900,
  });
  try {
    for (const mutant of mutants) {
      const { fileName: _, ...rest } = mutant;
      const mutated = applyMutant(
        source,
        mutant.location,
        mutant.replacement ?? "",
      );
      if (mutated === undefined) {
        throw new Error(
          `${describeMutant(mutant, "")}: its place is not in the file`,
        );
      }
      await Deno.writeTextFile(`${dir}/${file}`, mutated);
      let outcome: CheckedMutant | undefined = { ...rest, status: "Survived" };
      for (const [files] of stages) {
        const seconds = await limit(files);
        let run = await denoTest(files, "", seconds, dir);
        // As the runner does (deno_test_runner.ts): timed again without the
        // mutant, a machine that got busier gets it one more run.
        const next = run.timedOut
          ? afterTimeout(seconds, await remeasure(files))
          : "timeout";
        if (typeof next === "number") {
          run = await denoTest(files, "", next, dir);
        }
        if (next === "undecided") {
          outcome = undefined;
          break;
        }
        if (run.timedOut) {
          outcome = { ...rest, status: "Timeout", killedBy: files };
          break;
        }
        if (!run.passed) {
          outcome = { ...rest, status: "Killed", killedBy: files };
          break;
        }
      }
      if (outcome === undefined) {
        console.log(
          `mutate-reasons: ${
            describeMutant(mutant, "", source)
          }: undecided, its tests without it no longer pass within their limit`,
        );
        continue;
      }
      console.log(
        `mutate-reasons: ${describeMutant(mutant, "", source)}: ${
          outcome.status === "Survived"
            ? "left alive"
            : `detected by ${outcome.killedBy?.join(" ")}`
        }`,
      );
      checked.push(outcome);
    }
  } finally {
    await Deno.writeTextFile(`${dir}/${file}`, source);
  }
  return checked;
}

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    args: Deno.args,
    allowPositionals: true,
    options: {
      concurrency: { type: "string", default: "1" },
      out: { type: "string", default: `${ROOT}/out/mutation/reasons.json` },
      only: { type: "string", multiple: true, default: [] },
      undetected: { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  const inputs = positionals;
  const only = values.only ?? [];
  const concurrency = Number(values.concurrency);
  if (values.help || inputs.length === 0 || !(concurrency >= 1)) {
    console.log(
      "usage: deno task mutate-reasons [--undetected] [--concurrency N] [--out FILE] [--only PATH]... RUN.json...",
    );
    return values.help ? 0 : 2;
  }
  const { merged, sources, graph } = await currentRuns(inputs);
  const wanted = [...leftOut(merged.results, values.undetected)].filter((
    [file],
  ) => only.length === 0 || only.some((p) => file === p || file.startsWith(p)));
  const total = wanted.reduce((n, [, m]) => n + m.length, 0);
  const what = values.undetected
    ? "left out with a reason or undetected"
    : "left out with a reason";
  console.log(
    `mutate-reasons: ${plural(total, "mutant")} ${what} in ${
      plural(wanted.length, "file")
    }`,
  );
  const byImporter = importers(graph);
  const limits = new Map<string, Promise<number>>();
  /** The tests' limit timed now without a mutant, or the tail of their failure. */
  const measure = (tests: readonly string[]) => measureLimit(tests, 120, ROOT);
  const limit = (tests: readonly string[]) => {
    const key = tests.join(" ");
    if (!limits.has(key)) {
      limits.set(
        key,
        measure(tests).then((seconds) => {
          if (typeof seconds === "number") return seconds;
          throw new Error(
            `${key} fails without a mutant, so no mutant can be checked:\n${seconds}`,
          );
        }),
      );
    }
    return limits.get(key)!;
  };
  const remeasure = async (tests: readonly string[]) => {
    const seconds = await measure(tests);
    if (typeof seconds !== "number") return undefined;
    limits.set(tests.join(" "), Promise.resolve(seconds));
    return seconds;
  };
  const out: ReasonChecks = { kind: "reason-check", files: {} };
  // Written before any check, so the file is there when nothing is left out.
  await Deno.mkdir(dirname(values.out!), { recursive: true });
  await Deno.writeTextFile(values.out!, JSON.stringify(out, null, 1));
  const queue = [...wanted];
  const worker = async () => {
    const dir = await Deno.makeTempDir({ prefix: "pawl-mutate-reasons-" });
    try {
      await copyProject(dir);
      for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
        const [file, mutants] = next;
        const source = sources.get(file)!;
        const tests = unitTestsFor(file, byImporter, 6);
        out.files[file] = {
          source,
          mutants: await checkFile(
            dir,
            file,
            source,
            mutants,
            tests,
            limit,
            remeasure,
          ),
        };
        // Written after every file, so a run cut short keeps what it found.
        await Deno.writeTextFile(values.out!, JSON.stringify(out, null, 1));
      }
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  };
  await Promise.all(
    Array.from({ length: Math.min(concurrency, queue.length) }, worker),
  );
  const checked = Object.values(out.files).flatMap((f) => f.mutants);
  const detected = checked.filter((m) => m.status !== "Survived").length;
  console.log(
    `mutate-reasons: ${detected} of ${
      plural(checked.length, "mutant")
    } ${what} are detected by the tests; ${
      checked.length - detected
    } left alive; written to ${values.out}`,
  );
  return 0;
}

if (import.meta.main) Deno.exit(await main());
