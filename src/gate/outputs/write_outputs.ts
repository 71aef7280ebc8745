/**
 * Every file a judgement is written to: the verdict, its signed envelope,
 * the seed ledger, SARIF, JUnit, GitLab Code Quality, Markdown and the
 * Actions step summary.
 *
 * @module
 */
import type { Judgement } from "../judge_options.ts";
import { type JunitTimings, renderJunit } from "../../report/render_junit.ts";
import { renderCodeQuality } from "../../report/render_codequality.ts";
import { renderMarkdown } from "../../report/render_markdown.ts";
import { renderSarif } from "../../report/render_sarif.ts";
import { formatLedger } from "../../seeds/ledger_row.ts";
import { signTestResult } from "../../sign/sign_test_result.ts";
import { signVerdict } from "../../sign/sign_verdict.ts";
import type { SigningKey } from "../../sign/signing_key.ts";
import { appendOutputFile, writeOutputFile } from "./write_output_file.ts";
import {
  NO_MUTATION_RUN,
  renderMutationReport,
} from "../../mutation/render_mutation_report.ts";

/** Where each output goes; an output without a path is not written. */
export interface OutputPaths {
  /** The verdict JSON. */
  out?: string | undefined;
  /** The signed DSSE envelope (needs a key). */
  outSigned?: string | undefined;
  /** The in-toto test-result statement in its own signed envelope (needs a key). */
  outTestResult?: string | undefined;
  /** One seed-ledger JSON line per property run, appended. */
  ledger?: string | undefined;
  /** SARIF 2.1.0. */
  sarif?: string | undefined;
  /** JUnit XML. */
  junit?: string | undefined;
  /** A GitLab Code Quality report. */
  codequality?: string | undefined;
  /** The Markdown report. */
  markdown?: string | undefined;
  /** A file the Markdown report is appended to (`GITHUB_STEP_SUMMARY`). */
  stepSummary?: string | undefined;
  /** The mutation-testing-elements JSON report of `[mutation]`'s mutants. */
  mutationReport?: string | undefined;
}

/** Options for {@linkcode writeOutputs}. */
export interface WriteOutputsOptions {
  /** The key that signs the envelope and is named in the Markdown report. */
  signing?: SigningKey | undefined;
  /** How long the judgement's parts took, for the JUnit report's times. */
  timings?: JunitTimings | undefined;
}

/** The verdict as pawl writes and prints it. */
export function verdictJson(judgement: Judgement): string {
  return JSON.stringify(judgement.verdict, null, 2) + "\n";
}

/** Write every output `paths` asks for; files are replaced atomically. */
export async function writeOutputs(
  judgement: Judgement,
  paths: OutputPaths,
  options: WriteOutputsOptions = {},
): Promise<void> {
  const { verdict, ledger } = judgement;
  const { signing } = options;
  if (paths.ledger !== undefined && ledger.length > 0) {
    await appendOutputFile(paths.ledger, formatLedger(ledger));
  }
  if (paths.out !== undefined) {
    await writeOutputFile(paths.out, verdictJson(judgement));
  }
  if (signing !== undefined && paths.outSigned !== undefined) {
    const envelope = await signVerdict(verdict, signing);
    await writeOutputFile(
      paths.outSigned,
      JSON.stringify(envelope, null, 2) + "\n",
    );
  }
  if (signing !== undefined && paths.outTestResult !== undefined) {
    const envelope = await signTestResult(verdict, signing);
    await writeOutputFile(
      paths.outTestResult,
      JSON.stringify(envelope, null, 2) + "\n",
    );
  }
  if (paths.sarif !== undefined) {
    await writeOutputFile(paths.sarif, renderSarif(verdict));
  }
  if (paths.junit !== undefined) {
    await writeOutputFile(
      paths.junit,
      renderJunit(
        verdict,
        options.timings === undefined ? {} : { timings: options.timings },
      ),
    );
  }
  if (paths.codequality !== undefined) {
    await writeOutputFile(paths.codequality, renderCodeQuality(verdict));
  }
  if (paths.mutationReport !== undefined) {
    await writeOutputFile(
      paths.mutationReport,
      renderMutationReport(judgement.mutation ?? NO_MUTATION_RUN, {
        version: verdict.pawl.version,
      }),
    );
  }
  const summary = paths.stepSummary === "" ? undefined : paths.stepSummary;
  if (paths.markdown !== undefined || summary !== undefined) {
    const markdown = renderMarkdown(
      verdict,
      signing === undefined ? {} : { keyid: signing.keyid },
    );
    if (paths.markdown !== undefined) {
      await writeOutputFile(paths.markdown, markdown);
    }
    if (summary !== undefined) {
      await Deno.writeTextFile(summary, markdown, { append: true });
    }
  }
}
