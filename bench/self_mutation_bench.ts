// deno-lint-ignore-file no-console
/**
 * `deno task bench self-mutation [PATHS]`: the full mutation run over pawl's
 * own decision code (`deno task mutate`, docs/development.md), which takes
 * hours on two cores and so is no part of `.ci/run`. It writes
 * docs/self-mutation-report.md and prints the run's time against a reference
 * measured in the same run: every unit test of the mutated files run once
 * without a mutant. The ratio is roughly how many test runs one file's mutants
 * cost. A benchmark, not a test: it exits 1 only when the run cannot be made.
 *
 * @module
 */
import { loadAverage } from "./_stats.ts";

const ROOT = decodeURIComponent(new URL("..", import.meta.url).pathname)
  .replace(/\/$/, "");
const REPORT = "docs/self-mutation-report.md";

async function timed(
  args: string[],
): Promise<{ seconds: number; success: boolean }> {
  const start = performance.now();
  const out = await new Deno.Command(Deno.execPath(), {
    args,
    cwd: ROOT,
    stdout: "inherit",
    stderr: "inherit",
  })
    .output();
  return {
    seconds: (performance.now() - start) / 1000,
    success: out.success || out.code === 1,
  };
}

/** Run the benchmark with `args` (paths for `deno task mutate`; every decision folder when none). */
export async function selfMutationBench(
  args: readonly string[],
): Promise<void> {
  console.log(`load before: ${loadAverage()}`);
  const reference = await timed([
    "test",
    "--no-check",
    "--allow-all",
    "--quiet",
    ...(args.length === 0 ? ["src/", "main_test.ts"] : args),
  ]);
  if (!reference.success) {
    throw new Error("the unit tests fail without a mutant");
  }
  const run = await timed([
    "run",
    "--allow-all",
    "tools/mutate/main.ts",
    "--min-score",
    "0",
    "--out",
    "out/mutation",
    ...args,
  ]);
  if (!run.success) throw new Error("the mutation run could not be made");
  // The mutants reason comments left out, each run on its own, then the report.
  const reasons = await timed([
    "run",
    "--allow-all",
    "tools/mutate/check_reasons.ts",
    "--out",
    "out/mutation/reasons.json",
    "out/mutation/mutation.json",
  ]);
  const report = await timed([
    "run",
    "--allow-all",
    "tools/mutate/write_report.ts",
    REPORT,
    "out/mutation/mutation.json",
    ...(reasons.success ? ["out/mutation/reasons.json"] : []),
  ]);
  if (!reasons.success || !report.success) {
    throw new Error("the report could not be written");
  }
  console.log(`load after: ${loadAverage()}`);
  console.log(
    `self-mutation: ${run.seconds.toFixed(0)} s, and ${
      reasons.seconds.toFixed(0)
    } s for the mutants left out with a reason; the unit tests once: ${
      reference.seconds.toFixed(1)
    } s; ratio ${
      (run.seconds / reference.seconds).toFixed(1)
    }; report in ${REPORT}`,
  );
}
