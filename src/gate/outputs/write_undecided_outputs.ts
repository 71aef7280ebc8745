/**
 * The outputs of a run that could not decide (exit 2).
 *
 * @module
 */
import {
  renderUndecided,
  type UndecidedLocation,
} from "../../report/render_undecided.ts";
import type { OutputPaths } from "./write_outputs.ts";
import { writeOutputFile } from "./write_output_file.ts";

/**
 * The verdict JSON of a run that could not decide, as `--out` writes it
 * and `--json` prints it: the decision "undecided" and the reason.
 *
 * @example
 * ```ts
 * import { undecidedVerdictJson } from "./write_undecided_outputs.ts";
 * const doc = JSON.parse(undecidedVerdictJson("no clock"));
 * if (doc.decision !== "undecided" || doc.error !== "no clock") throw new Error();
 * ```
 */
export function undecidedVerdictJson(reason: string): string {
  return JSON.stringify({ decision: "undecided", error: reason }, null, 2) +
    "\n";
}

/**
 * A stale accept must never survive a run that could not decide: the
 * verdict file says "undecided", and so does every report file asked for,
 * so a stale "accept" comment or SARIF upload cannot outlive this run.
 * `at` is the file the reason names, where SARIF shows the result.
 * Never throws; a file that cannot be written is left as it is.
 */
export async function writeUndecidedOutputs(
  reason: string,
  paths: Pick<
    OutputPaths,
    "out" | "sarif" | "junit" | "codequality" | "markdown"
  >,
  at: UndecidedLocation = {},
): Promise<void> {
  if (paths.out !== undefined) {
    await writeOutputFile(
      paths.out,
      undecidedVerdictJson(reason),
    ).catch(() => {});
  }
  const undecided = renderUndecided(reason, at);
  for (const kind of ["sarif", "junit", "codequality", "markdown"] as const) {
    const path = paths[kind];
    if (path !== undefined) {
      await writeOutputFile(path, undecided[kind]).catch(() => {});
    }
  }
}
