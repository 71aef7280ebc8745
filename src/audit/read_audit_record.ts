/**
 * Reading a `pr-<N>.json` back: resuming an audit and building its report
 * trust only a complete record.
 *
 * @module
 */
import { z } from "zod";
import { AUDIT_RECORD_VERSION, type AuditRecord } from "./audit_record.ts";

/** A record file is not a complete audit record. */
export class AuditRecordError extends SyntaxError {
  /** The file, as named to the reader. */
  readonly path: string;

  /** Build the error. */
  constructor(path: string, reason: string) {
    super(`Cannot read audit record "${path}": ${reason}`);
    this.name = "AuditRecordError";
    this.path = path;
  }
}

const sha = z.string().regex(/^(?:[0-9a-f]{40}|[0-9a-f]{64})$/);

const pullRequest = z.strictObject({
  number: z.int().positive(),
  title: z.string(),
  state: z.string(),
  htmlUrl: z.string().optional(),
  createdAt: z.string(),
  mergedAt: z.string().nullable(),
  baseRef: z.string(),
  headRef: z.string(),
  base: sha,
  head: sha,
  fromFork: z.boolean(),
});

const clock = z.strictObject({
  source: z.enum(["flag", "merged-at", "created-at"]),
  field: z.string().optional(),
  now: z.string().nullable(),
});

// The verdict is pawl's own output, checked for the parts the report and
// a resumed audit rely on; the rest is kept as written.
const verdict = z.looseObject({
  decision: z.enum(["accept", "reject"]),
  now: z.string(),
  base: sha,
  head: sha,
  findings: z.array(z.looseObject({
    layer: z.string(),
    rule: z.string(),
    message: z.string(),
    blocking: z.boolean(),
  })),
});

const schema = z.strictObject({
  pawlAudit: z.literal(AUDIT_RECORD_VERSION),
  repo: z.string().regex(/^[^/\s]+\/[^/\s]+$/),
  pullRequest,
  clock,
  decision: z.enum(["accept", "reject", "undecided", "skipped"]),
  reason: z.string().optional(),
  verdict: verdict.optional(),
});

/**
 * Parse and validate one record. Throws {@linkcode AuditRecordError} for
 * anything but a complete record: not JSON, unknown or missing keys, an
 * accept or reject without its verdict (or with another verdict's
 * decision or commits), an undecided or skipped record without a reason.
 *
 * @example
 * ```ts
 * import { AuditRecordError, readAuditRecord } from "./read_audit_record.ts";
 * try {
 *   readAuditRecord('{"pawlAudit": 1, "decision": "acc', "pr-7.json");
 *   throw new Error("unexpected");
 * } catch (error) {
 *   if (!(error instanceof AuditRecordError)) throw error;
 * }
 * ```
 */
export function readAuditRecord(text: string, path: string): AuditRecord {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new AuditRecordError(
      path,
      `not JSON (${error instanceof Error ? error.message : String(error)})`,
    );
  }
  const result = schema.safeParse(value);
  if (!result.success) {
    const issue = result.error.issues[0];
    const where = issue === undefined || issue.path.length === 0
      ? ""
      : ` at "${issue.path.join(".")}"`;
    throw new AuditRecordError(
      path,
      `${issue?.message ?? "invalid data"}${where}`,
    );
  }
  const data = result.data;
  const decided = data.decision === "accept" || data.decision === "reject";
  if (decided) {
    if (data.verdict === undefined) {
      throw new AuditRecordError(
        path,
        `decision "${data.decision}" without its verdict`,
      );
    }
    if (
      data.verdict.decision !== data.decision ||
      data.verdict.base !== data.pullRequest.base ||
      data.verdict.head !== data.pullRequest.head ||
      data.verdict.now !== data.clock.now
    ) {
      throw new AuditRecordError(
        path,
        "the verdict's decision, commits or clock differ from the record's",
      );
    }
  } else if (data.reason === undefined || data.verdict !== undefined) {
    throw new AuditRecordError(
      path,
      `decision "${data.decision}" needs a reason and no verdict`,
    );
  }
  // Validated: the value as parsed, so its keys keep their written order.
  return value as AuditRecord;
}
