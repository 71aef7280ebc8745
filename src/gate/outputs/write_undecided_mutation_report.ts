/**
 * The `--mutation-report` file of a run that could not decide (exit 2).
 *
 * @module
 */
import {
  NO_MUTATION_RUN,
  renderMutationReport,
} from "../../mutation/render_mutation_report.ts";
import { VERSION } from "../../version.ts";
import { writeOutputFile } from "./write_output_file.ts";

/**
 * Replace the report with one that holds no mutants and says why, so no
 * earlier run's report survives a run that could not decide. Never throws.
 */
export async function writeUndecidedMutationReport(
  path: string | undefined,
  reason: string,
): Promise<void> {
  if (path === undefined) return;
  const report = renderMutationReport({
    ...NO_MUTATION_RUN,
    config: { decision: "undecided", error: reason },
  }, { version: VERSION });
  await writeOutputFile(path, report).catch(() => {});
}
