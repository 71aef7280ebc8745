// deno-lint-ignore-file no-console
// deno task mutate [--since REF] [--e2e] [--min-score N] [PATHS...]
//
// Mutation-tests pawl's own decision code with StrykerJS: every mutant of a
// file is run against the unit tests that load that file (./select_tests.ts)
// and, with --e2e, the named end-to-end tests of its folder. With --since REF
// only the files changed since REF, and the files whose chosen tests changed,
// are mutated: the incremental mode CI uses. The full report is written to
// out/mutation/mutation.json (mutation-testing-elements); a summary goes to
// stdout. Exit 0 when the detected share of the mutants that count is at least
// --min-score (90 by default), 1 below it, 2 when the run cannot be made.

import { parseArgs } from "node:util";
import { plural } from "../../src/core/plural.ts";
import { Stryker } from "@stryker-mutator/core";
import type { PartialStrykerOptions } from "@stryker-mutator/api/core";
import type { RunnerPlan } from "./deno_test_runner.ts";
import { E2E_TESTS } from "./e2e_tests.ts";
import { overreachingReasons } from "./reason_reach.ts";
import {
  e2eTestsFor,
  graphFromDenoInfo,
  importers,
  isUnitTest,
  loadedBy,
  unitTestsFor,
} from "./select_tests.ts";
import {
  describeMutant,
  type MutantOutcome,
  relative,
  score,
  tallyByFile,
  tallyLine,
  total,
  UNDECIDED,
  UNDETECTED,
} from "./summarize.ts";
import { writeReport } from "./write_report.ts";

/** The folders whose decisions pawl's tests must pin. */
export const DECISION_FOLDERS = [
  "src/run/",
  "src/harness/",
  "src/contract/",
  "src/mutation/",
  "src/layouts/",
  "src/sandbox/",
  "src/serve/",
  "src/sign/",
] as const;

export const ROOT = decodeURIComponent(
  new URL("../../", import.meta.url).pathname,
)
  .replace(/\/$/, "");
const UNIT_TESTS_PER_FILE = 6;

class UsageError extends Error {}

function fail(message: string, code: number): never {
  console.error(`mutate: ${message}`);
  Deno.exit(code);
}

/** Whether a path is code the run mutates: TypeScript that is neither a test nor test data. */
export function isMutable(path: string): boolean {
  return path.endsWith(".ts") && !path.endsWith("_test.ts") &&
    !path.endsWith("/_testing.ts") &&
    !path.includes("/testdata/");
}

/** The mutable files of the decision folders, of `files`, that the program loads. */
export function decisionFiles(
  files: readonly string[],
  program: ReadonlySet<string>,
): string[] {
  return files.filter((f) =>
    isMutable(f) && program.has(f) &&
    DECISION_FOLDERS.some((d) => f.startsWith(d))
  );
}

/** The project's files and its module graph, seen from every unit test. */
export async function projectGraph(): Promise<
  { files: string[]; graph: Map<string, string[]>; program: Set<string> }
> {
  const files = await trackedFiles();
  const graph = await moduleGraph(files.filter(isUnitTest));
  return { files, graph, program: loadedBy(graph, "main.ts") };
}

/** The files a change touched: changed themselves, or one of their chosen tests changed. */
export function touched(
  targets: readonly string[],
  plan: Readonly<
    Record<
      string,
      { readonly unit: readonly string[]; readonly e2e: readonly string[] }
    >
  >,
  changed: ReadonlySet<string>,
): string[] {
  return targets.filter((f) =>
    changed.has(f) || (plan[f]?.unit ?? []).some((t) => changed.has(t))
  );
}

/**
 * Runs `command` in the root and gives its output; a failure is a usage
 * error saying `what` failed, with the command's own words (`tail` chars).
 */
async function run(
  command: string,
  args: readonly string[],
  what: string,
  options: { env?: Record<string, string>; tail?: number } = {},
): Promise<string> {
  const out = await new Deno.Command(command, {
    args: [...args],
    cwd: ROOT,
    ...(options.env === undefined ? {} : { env: options.env }),
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decoder = new TextDecoder();
  if (!out.success) {
    const text = options.tail === undefined
      ? decoder.decode(out.stderr).trim()
      : (decoder.decode(out.stdout) + decoder.decode(out.stderr)).slice(
        -options.tail,
      );
    throw new UsageError(
      options.tail === undefined ? `${what}: ${text}` : `${what}:\n${text}`,
    );
  }
  return decoder.decode(out.stdout);
}

function git(args: string[]): Promise<string> {
  return run("git", args, `git ${args.join(" ")}`);
}

const sources = new Map<string, string | undefined>();

/** The source of a mutant's file as it is in the project, if it can be read; each file read once. */
function sourceOf(result: { fileName: string }): string | undefined {
  const file = relative(result.fileName, ROOT);
  if (!sources.has(file)) {
    try {
      sources.set(file, Deno.readTextFileSync(`${ROOT}/${file}`));
    } catch {
      sources.set(file, undefined);
    }
  }
  return sources.get(file);
}

/** The project's files, tracked or new, relative to the root. */
export async function trackedFiles(): Promise<string[]> {
  return (await git(["ls-files", "--cached", "--others", "--exclude-standard"]))
    .split("\n").filter((l) => l !== "");
}

async function moduleGraph(
  tests: readonly string[],
): Promise<Map<string, string[]>> {
  const dir = await Deno.makeTempDir({ prefix: "pawl-mutate-graph-" });
  try {
    const entry = `${dir}/all_tests.ts`;
    await Deno.writeTextFile(
      entry,
      tests.map((t) => `import ${JSON.stringify(`file://${ROOT}/${t}`)};\n`)
        .join(""),
    );
    const info = await run(
      "deno",
      ["info", "--json", `--config=${ROOT}/deno.json`, entry],
      "deno info failed",
    );
    return graphFromDenoInfo(JSON.parse(info), ROOT);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

async function runTestsOnce(files: readonly string[]): Promise<void> {
  if (files.length === 0) return;
  console.log(
    `mutate: running the ${files.length} chosen test files once without a mutant`,
  );
  await run(
    "deno",
    ["test", "--no-check", "--allow-all", "--quiet", "--parallel", ...files],
    "the chosen tests fail without a mutant, so no mutant can be judged",
    { env: { NO_COLOR: "1" }, tail: 3000 },
  );
}

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    args: Deno.args,
    allowPositionals: true,
    options: {
      since: { type: "string" },
      e2e: { type: "boolean", default: false },
      "min-score": { type: "string", default: "90" },
      concurrency: { type: "string" },
      report: { type: "string" },
      out: { type: "string" },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if (values.help) {
    console.log(
      "usage: deno task mutate [--since REF] [--e2e] [--min-score N] [--concurrency N] [--report FILE] [--out DIR] [PATHS...]\n" +
        `PATHS are files or folders; the default is ${
          DECISION_FOLDERS.join(" ")
        }`,
    );
    return 0;
  }
  const minScore = Number(values["min-score"]);
  if (!Number.isFinite(minScore) || minScore < 0 || minScore > 100) {
    throw new UsageError(
      `--min-score must be a number from 0 to 100, not ${values["min-score"]}`,
    );
  }
  const concurrency = values.concurrency === undefined
    ? navigator.hardwareConcurrency
    : Number(values.concurrency);
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new UsageError(
      `--concurrency must be a whole number of at least 1, not ${values.concurrency}`,
    );
  }

  const { files, graph, program } = await projectGraph();
  const wanted = positionals.length === 0
    ? [...DECISION_FOLDERS]
    : positionals.map((p) => relative(p, ROOT));
  for (const path of wanted) {
    if (
      !files.some((f) =>
        f === path || f.startsWith(path.endsWith("/") ? path : `${path}/`)
      )
    ) {
      throw new UsageError(`${path}: no file of the repository is there`);
    }
  }
  const chosen = files.filter((f) =>
    isMutable(f) &&
    wanted.some((p) => f === p || f.startsWith(p.endsWith("/") ? p : `${p}/`))
  );
  // Code only tests load (a scripted sandbox, a fake) is the tests' own aid:
  // named on its own it is said so, otherwise it is counted.
  const aids = chosen.filter((f) => !program.has(f));
  for (const file of aids.filter((f) => wanted.includes(f))) {
    console.log(`mutate: main.ts does not load ${file}; not mutated`);
  }
  const unnamed = aids.filter((f) => !wanted.includes(f)).length;
  if (unnamed > 0) {
    console.log(
      `mutate: ${plural(unnamed, "file")} main.ts does not load left out`,
    );
  }
  let targets = chosen.filter((f) => program.has(f));

  const byImporter = importers(graph);
  const plan: Record<string, { unit: string[]; e2e: string[] }> = {};
  for (const file of targets) {
    plan[file] = {
      unit: unitTestsFor(file, byImporter, UNIT_TESTS_PER_FILE),
      e2e: values.e2e ? e2eTestsFor(file, E2E_TESTS) : [],
    };
  }

  if (values.since !== undefined) {
    // Committed and uncommitted changes since REF, and files git does not track yet.
    const changed = new Set(
      [
        ...(await git([
          "diff",
          "--name-only",
          "--no-renames",
          values.since,
          "--",
        ])).split("\n"),
        ...(await git(["ls-files", "--others", "--exclude-standard"])).split(
          "\n",
        ),
      ].filter((l) => l !== ""),
    );
    targets = touched(targets, plan, changed);
    console.log(
      `mutate: ${
        plural(targets.length, "file")
      } changed since ${values.since}, or with a test that changed`,
    );
  }
  if (targets.length === 0) {
    console.log("mutate: nothing to mutate");
    return 0;
  }
  const untested = targets.filter((f) =>
    plan[f]!.unit.length + plan[f]!.e2e.length === 0
  );
  for (const file of untested) {
    console.log(
      `mutate: no test loads ${file}; its mutants count as undetected`,
    );
  }

  await runTestsOnce(
    [...new Set(targets.flatMap((f) => [...plan[f]!.unit, ...plan[f]!.e2e]))]
      .sort(),
  );

  const outDir = values.out ?? `${ROOT}/out/mutation`;
  await Deno.mkdir(outDir, { recursive: true });
  const tempDir = await Deno.makeTempDir({ prefix: "pawl-mutate-" });
  // A run stopped by hand takes its copy of the project with it.
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    Deno.addSignalListener(signal, () => {
      Deno.removeSync(tempDir, { recursive: true });
      Deno.exit(130);
    });
  }
  const runnerPlan: RunnerPlan = {
    root: ROOT,
    tests: Object.fromEntries(targets.map((f) => [f, plan[f]!])),
    unitTimeoutSeconds: 120,
    e2eTimeoutSeconds: 900,
  };
  // The code each mutant replaced is shown from the source the run mutates,
  // read now: a file edited while the run goes on would show other code.
  for (const file of targets) sourceOf({ fileName: file });
  const interactive = Deno.stdout.isTerminal() &&
    Deno.env.get("CI") === undefined;
  let results: MutantOutcome[];
  try {
    results = await new Stryker(
      {
        plugins: ["./deno_test_runner.ts", "./progress_lines.ts"].map((p) =>
          decodeURIComponent(new URL(p, import.meta.url).pathname)
        ),
        testRunner: "deno",
        coverageAnalysis: "off",
        mutate: targets,
        reporters: ["json", interactive ? "progress" : "pawl-progress-lines"],
        jsonReporter: { fileName: `${outDir}/mutation.json` },
        concurrency,
        tempDirName: tempDir,
        // The runner's own limits decide when a mutant's tests hang. Stryker's
        // limit is its timeoutMS plus the first run's time, which the runner
        // reports as 0; left at its default (5 s) it would count every slower
        // test run as a mutant the tests detect.
        timeoutMS:
          (runnerPlan.unitTimeoutSeconds + runnerPlan.e2eTimeoutSeconds + 60) *
          1000,
        cleanTempDir: true,
        ignorePatterns: [
          "/out",
          "/.scratch",
          "/tools/sarif-multitool/node_modules",
        ],
        logLevel: "warn",
        fileLogLevel: "off",
        warnings: {
          unknownOptions: false,
          preprocessorErrors: true,
          unserializableOptions: true,
          slow: true,
        },
        pawlMutate: runnerPlan,
      } as PartialStrykerOptions,
    ).runMutationTest();
  } finally {
    await Deno.remove(tempDir, { recursive: true }).catch(() => {});
  }
  await recordEmptyFiles(
    `${outDir}/mutation.json`,
    targets,
    (file) => sourceOf({ fileName: file }) ?? "",
  );

  const tallies = tallyByFile(results, ROOT);
  console.log("");
  for (const tally of tallies) console.log(tallyLine(tally));
  const all = total("all", tallies);
  console.log(tallyLine(all));
  const undetected = results.filter((r) => UNDETECTED.has(r.status));
  if (undetected.length > 0) {
    console.log(`\n${plural(undetected.length, "mutant")} no test detects:`);
    for (const result of undetected) {
      console.log(`  ${describeMutant(result, ROOT, sourceOf(result))}`);
    }
  }
  const undecided = results.filter((r) => r.status === UNDECIDED);
  if (undecided.length > 0) {
    console.log(
      `\n${
        plural(undecided.length, "mutant")
      } left undecided: their tests without a mutant ran past the time limit too (\`deno task mutate-reasons --undetected\` runs them again):`,
    );
    for (const result of undecided) {
      console.log(`  ${describeMutant(result, ROOT, sourceOf(result))}`);
    }
  }
  const overreach = [...new Set(results.map((r) => r.fileName))].flatMap((
    file,
  ) =>
    overreachingReasons(
      sourceOf({ fileName: file }) ?? "",
      results.filter((r) => r.fileName === file),
    )
  );
  if (overreach.length > 0) {
    console.log(
      `\n${
        plural(overreach.length, "mutant")
      } left out by a reason past its end: Stryker reads a restore comment only above a statement, not at the end of a block or after a return:`,
    );
    for (const { mutant, comment, restore } of overreach) {
      console.log(
        `  ${
          describeMutant(mutant, ROOT, sourceOf(mutant))
        } (reason at line ${comment}, ${
          restore === undefined ? "no restore" : `restore at line ${restore}`
        })`,
      );
    }
  }
  if (values.report !== undefined) {
    // Merged with the ledger beside the report, so a run of some files
    // brings the report of every file up to date.
    const stale = await writeReport(values.report, [`${outDir}/mutation.json`]);
    for (const file of stale) {
      console.log(
        `mutate: ${file} changed since its last run; left out of the report`,
      );
    }
    console.log(`mutate: wrote ${values.report}`);
  }
  const value = score(all);
  console.log(`mutate: report in ${relative(`${outDir}/mutation.json`, ROOT)}`);
  if (overreach.length > 0) {
    console.log(
      "mutate: a reason leaves out mutants it was not written for; end it with a restore comment above a statement",
    );
    return 1;
  }
  if (value !== null && value < minScore) {
    console.log(
      `mutate: ${
        value.toFixed(1)
      }% of the mutants detected, below --min-score ${minScore}`,
    );
    return 1;
  }
  return 0;
}

/**
 * Stryker's JSON leaves out a file it found nothing to mutate in (types and
 * re-exports only); it is put in with no mutants, so the report counts it as
 * run rather than never run. `source` gives a file's source as the run
 * read it.
 */
export async function recordEmptyFiles(
  path: string,
  targets: readonly string[],
  source: (file: string) => string,
): Promise<void> {
  const report = JSON.parse(await Deno.readTextFile(path)) as {
    files: Record<string, { language?: string; source: string; mutants: [] }>;
  };
  let added = false;
  for (const file of targets) {
    if (report.files[file] !== undefined) continue;
    report.files[file] = {
      language: "typescript",
      source: source(file),
      mutants: [],
    };
    added = true;
  }
  if (added) await Deno.writeTextFile(path, JSON.stringify(report));
}

if (import.meta.main) {
  try {
    Deno.exit(await main());
  } catch (error) {
    if (error instanceof UsageError) fail(error.message, 2);
    throw error;
  }
}
