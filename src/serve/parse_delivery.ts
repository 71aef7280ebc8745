/**
 * Which deliveries become judgements: `pull_request` opened, synchronize,
 * reopened and ready_for_review; `check_run` and `check_suite`
 * rerequested. Everything else is acknowledged and ignored. Pure.
 *
 * @module
 */
import { parseNow } from "../core/parse_now.ts";
import type { JobSpec } from "./job.ts";

/** What a delivery comes to. */
export type Delivery =
  | {
    /** Something to judge. */
    kind: "jobs";
    /** One job per pull request the delivery names. */
    jobs: JobSpec[];
    /** A person asked to run again (a finished "could not decide" is retried). */
    rerequest: boolean;
  }
  | {
    /** Not an event pawl judges. */
    kind: "ignored";
    /** Why. */
    reason: string;
  }
  | {
    /** A handled event whose payload lacks what pawl needs. */
    kind: "invalid";
    /** What is missing. */
    reason: string;
  };

const PULL_ACTIONS = new Set([
  "opened",
  "synchronize",
  "reopened",
  "ready_for_review",
]);

const SHA = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;

/**
 * Read a delivery: `event` is `X-GitHub-Event`, `payload` the parsed body.
 *
 * @example
 * ```ts
 * import { parseDelivery } from "./parse_delivery.ts";
 * const d = parseDelivery("push", "d1", { ref: "refs/heads/main" });
 * if (d.kind !== "ignored") throw new Error("unexpected");
 * ```
 */
export function parseDelivery(
  event: string,
  deliveryId: string,
  payload: unknown,
): Delivery {
  const body = record(payload);
  if (body === undefined) {
    return { kind: "invalid", reason: "the payload is not a JSON object" };
  }
  const action = typeof body["action"] === "string" ? body["action"] : "";
  const what = `${event}${action === "" ? "" : `.${action}`}`;
  if (event === "pull_request") {
    if (!PULL_ACTIONS.has(action)) {
      return { kind: "ignored", reason: `${what} is not judged` };
    }
    const pr = record(body["pull_request"]);
    const base = record(pr?.["base"]);
    const head = record(pr?.["head"]);
    const job = jobOf(body, {
      what,
      deliveryId,
      number: pr?.["number"] ?? body["number"],
      baseSha: base?.["sha"],
      headSha: head?.["sha"],
      now: pr?.["updated_at"],
      clockField: "pull_request.updated_at",
    });
    if (typeof job === "string") return { kind: "invalid", reason: job };
    // Stryker disable next-line OptionalChaining: a payload without a pull request object has no base commit, so jobOf refused it above
    if (pr?.["state"] === "closed") {
      return { kind: "ignored", reason: `${what}: the pull request is closed` };
    }
    return { kind: "jobs", jobs: [job], rerequest: false };
  }
  if (event === "check_run" || event === "check_suite") {
    if (action !== "rerequested") {
      return { kind: "ignored", reason: `${what} is not judged` };
    }
    const subject = record(body[event]);
    const suite = event === "check_run"
      ? record(subject?.["check_suite"])
      : subject;
    const clockField = event === "check_run"
      ? "check_run.check_suite.updated_at"
      : "check_suite.updated_at";
    const pulls = Array.isArray(subject?.["pull_requests"])
      ? subject["pull_requests"] as unknown[]
      : [];
    if (pulls.length === 0) {
      return {
        kind: "ignored",
        reason: `${what} names no pull request of this repository`,
      };
    }
    const jobs: JobSpec[] = [];
    for (const item of pulls) {
      const pr = record(item);
      const job = jobOf(body, {
        what,
        deliveryId,
        number: pr?.["number"],
        baseSha: record(pr?.["base"])?.["sha"],
        headSha: record(pr?.["head"])?.["sha"] ??
          // Stryker disable next-line OptionalChaining: the pull requests were read from the subject, so it is an object here
          subject?.["head_sha"],
        now: suite?.["updated_at"],
        clockField,
      });
      if (typeof job === "string") return { kind: "invalid", reason: job };
      jobs.push(job);
    }
    return { kind: "jobs", jobs, rerequest: true };
  }
  return { kind: "ignored", reason: `${what} is not judged` };
}

function jobOf(
  body: Record<string, unknown>,
  fields: {
    what: string;
    deliveryId: string;
    number: unknown;
    baseSha: unknown;
    headSha: unknown;
    now: unknown;
    clockField: string;
  },
): JobSpec | string {
  const repository = record(body["repository"]);
  const fullName = repository?.["full_name"];
  if (typeof fullName !== "string" || !/^[^/\s]+\/[^/\s]+$/.test(fullName)) {
    return `${fields.what}: "repository.full_name" is missing`;
  }
  // Stryker disable next-line OptionalChaining: a payload without a repository object has no full name, refused above
  const cloneUrl = repository?.["clone_url"];
  if (typeof cloneUrl !== "string" || cloneUrl === "") {
    return `${fields.what}: "repository.clone_url" is missing`;
  }
  if (
    !Number.isSafeInteger(fields.number) ||
    // Stryker disable next-line ConditionalExpression: only narrows the type: what is not a number is not a safe integer either
    typeof fields.number !== "number" ||
    fields.number < 1
  ) {
    return `${fields.what}: the pull request number is missing`;
  }
  for (
    const [name, sha] of [["base", fields.baseSha], [
      "head",
      fields.headSha,
    ]] as const
  ) {
    if (typeof sha !== "string" || !SHA.test(sha)) {
      return `${fields.what}: the ${name} commit id is missing or malformed`;
    }
  }
  if (typeof fields.now !== "string" || fields.now === "") {
    return `${fields.what}: "${fields.clockField}" is missing: the judgement has no clock`;
  }
  try {
    parseNow(fields.now, `"${fields.clockField}" of the event payload`);
  } catch (error) {
    return `${fields.what}: ${
      error instanceof Error ? error.message : String(error)
    }`;
  }
  const installation = record(body["installation"])?.["id"];
  const [owner, repo] = fullName.split("/") as [string, string];
  return {
    owner,
    repo,
    number: fields.number,
    baseSha: fields.baseSha as string,
    headSha: fields.headSha as string,
    ...(typeof installation === "number"
      ? { installationId: installation }
      : {}),
    cloneUrl,
    now: fields.now,
    clockField: fields.clockField,
    event: fields.what,
    deliveryId: fields.deliveryId,
  };
}

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? value as Record<string, unknown>
    : undefined;
}
