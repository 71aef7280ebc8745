/**
 * One judgement the server owes: a pull request at a base and a head
 * commit, as a webhook delivery described it.
 *
 * @module
 */
import type { Outcome } from "../github/publish_verdict.ts";

/** What a delivery asks to be judged. */
export interface JobSpec {
  /** Base repository owner. */
  owner: string;
  /** Base repository name. */
  repo: string;
  /** Pull request number. */
  number: number;
  /** Base commit (full id). */
  baseSha: string;
  /** Head commit (full id). */
  headSha: string;
  /** The App installation the delivery came from (absent: no App auth). */
  installationId?: number;
  /** The base repository's clone URL from the payload. */
  cloneUrl: string;
  /** The delivery's own timestamp (RFC 3339): the judgement's clock. */
  now: string;
  /** The payload field `now` was read from, recorded in the verdict. */
  clockField: string;
  /** `event.action` of the delivery, for logs. */
  event: string;
  /** `X-GitHub-Delivery` of the delivery that queued it. */
  deliveryId: string;
}

/** Where a job is in its life. */
export type JobState =
  | "queued"
  | "running"
  | "judged"
  | "published"
  | "superseded";

/** Every {@linkcode JobState}, in life order. */
export const JOB_STATES: readonly JobState[] = [
  "queued",
  "running",
  "judged",
  "published",
  "superseded",
];

/** A job as the queue holds it. */
export interface JobRecord {
  /** Its identity: {@linkcode jobId} of the spec. */
  id: string;
  /** What to judge. */
  spec: JobSpec;
  /** Where it is. */
  state: JobState;
  /** Judgement attempts started so far. */
  attempts: number;
  /** The outcome, once judged. */
  outcome?: Outcome;
  /** The last error that sent it back to the queue. */
  lastError?: string;
  /** When it was queued (or queued again), epoch ms of the server's clock. */
  queuedAt?: number;
}

/**
 * A job's identity: (repository, pull request, base, head). Two deliveries
 * with the same identity are one judgement.
 *
 * @example
 * ```ts
 * import { jobId } from "./job.ts";
 * const id = jobId({ owner: "Octo", repo: "W", number: 7, baseSha: "a", headSha: "b" });
 * if (id !== "octo/w#7@a..b") throw new Error(id);
 * ```
 */
export function jobId(
  spec: Pick<JobSpec, "owner" | "repo" | "number" | "baseSha" | "headSha">,
): string {
  return `${pullKey(spec)}@${spec.baseSha}..${spec.headSha}`;
}

/** The pull request a job is about, `owner/repo#n` in lower case. */
export function pullKey(
  spec: Pick<JobSpec, "owner" | "repo" | "number">,
): string {
  return `${spec.owner}/${spec.repo}#${spec.number}`.toLowerCase();
}
