/**
 * What an audit run still has to do, from the records already on disk.
 *
 * @module
 */
import type { Progress } from "../core/progress.ts";
import { writeOutputFile } from "../gate/outputs/write_output_file.ts";
import type { AuditPullRequest } from "./audit_pull_request.ts";
import {
  type AuditRecord,
  auditRecordFileName,
  buildAuditRecord,
  isRecordCurrent,
} from "./audit_record.ts";
import {
  chooseClock,
  type ChosenClock,
  type ClockPlan,
} from "./choose_clock.ts";
import { AuditRecordError, readAuditRecord } from "./read_audit_record.ts";

/** One pull request to judge. */
export interface AuditJob {
  /** The pull request. */
  pr: AuditPullRequest;
  /** The clock it is judged at. */
  chosen: Extract<ChosenClock, { kind: "judge" }>;
  /** Where its record goes. */
  path: string;
}

/** What an audit run still has to do. */
export interface AuditJobs {
  /** Records already settled: kept from earlier runs or skipped now. */
  records: Map<number, AuditRecord>;
  /** Pull requests to judge. */
  jobs: AuditJob[];
  /** How many records were kept from earlier runs. */
  reused: number;
}

/** Options for {@linkcode planAuditJobs}. */
export interface PlanAuditJobsOptions {
  /** `OWNER/REPO`. */
  slug: string;
  /** The clock plan. */
  plan: ClockPlan;
  /** The output directory. */
  outDir: string;
  /** Judge again even where a current record exists. */
  force: boolean;
  /** Judge again the pull requests recorded as undecided. */
  retryUndecided: boolean;
  /** Progress sink. */
  progress: Progress;
}

/**
 * Keep every record that already answers the question (unless forced),
 * record the pull requests the clock skips, and list the rest to judge.
 */
export async function planAuditJobs(
  selected: readonly AuditPullRequest[],
  options: PlanAuditJobsOptions,
): Promise<AuditJobs> {
  const records = new Map<number, AuditRecord>();
  const jobs: AuditJob[] = [];
  let reused = 0;
  for (const pr of selected) {
    const chosen = chooseClock(pr, options.plan);
    const path = `${options.outDir}/${auditRecordFileName(pr.number)}`;
    const earlier = await readRecordFile(path, options.progress);
    if (
      !options.force && earlier !== undefined &&
      isRecordCurrent(earlier, options.slug, pr, chosen.clock, {
        retryUndecided: options.retryUndecided,
      })
    ) {
      records.set(pr.number, earlier);
      reused += 1;
    } else if (chosen.kind === "skip") {
      const record = buildAuditRecord(options.slug, pr, chosen.clock, {
        kind: "skipped",
        reason: chosen.reason,
      });
      await writeAuditRecord(path, record);
      records.set(pr.number, record);
    } else {
      jobs.push({ pr, chosen, path });
    }
  }
  return { records, jobs, reused };
}

/** Write one record file. */
export async function writeAuditRecord(
  path: string,
  record: AuditRecord,
): Promise<void> {
  await writeOutputFile(path, JSON.stringify(record, null, 2) + "\n");
}

/**
 * The record at `path`, or undefined when there is none or it is not a
 * complete record (then it is judged again).
 */
async function readRecordFile(
  path: string,
  progress: Progress,
): Promise<AuditRecord | undefined> {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  }
  try {
    return readAuditRecord(text, path);
  } catch (error) {
    if (!(error instanceof AuditRecordError)) throw error;
    progress.note(`judging again: ${error.message}`);
    return undefined;
  }
}
