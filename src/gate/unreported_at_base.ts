/**
 * A suite that left no usable report may leave none at the base either (a
 * conftest that fails to import): then it is not the pull request's.
 *
 * @module
 */
import type { Progress } from "../core/progress.ts";
import { BaseProblemError } from "../run/check_base_collection.ts";
import type { RunPytestOptions } from "../run/run_pytest.ts";
import { runSuite } from "../run/run_suite.ts";
import type { Sandbox } from "../sandbox/sandbox.ts";

/** Options for {@linkcode unreportedAtBase}. */
export interface UnreportedAtBaseOptions {
  /** The base commit. */
  base: string;
  /** A fresh export of the base tree, prepared for the sandbox. */
  baseWorkDir: () => Promise<string>;
  /** The run, as at the head. */
  run: Omit<RunPytestOptions, "workDir" | "select">;
  /** Progress sink. */
  progress: Progress;
}

/**
 * Run the suite on a fresh export of the base tree, the way it ran at the
 * head; throw `BaseProblemError` when it leaves no usable report there
 * either.
 */
export async function unreportedAtBase(
  sandbox: Sandbox,
  options: UnreportedAtBaseOptions,
): Promise<void> {
  options.progress.step(
    `running the tests at the base commit ${
      options.base.slice(0, 12)
    }: the run left no usable report`,
  );
  const atBase = await runSuite(sandbox, {
    ...options.run,
    workDir: await options.baseWorkDir(),
    freshWorkDir: options.baseWorkDir,
  });
  if (atBase.reported) return;
  throw new BaseProblemError(
    options.base,
    [],
    atBase.findings.map((f) => f.message).join("\n"),
    "run",
  );
}
