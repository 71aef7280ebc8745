/**
 * Why a test did not pass, read from what pytest reported: a Hypothesis
 * health check (by name), a deadline, or an exception (its type, its
 * message and the last lines of its traceback). Two failures are "the same"
 * when their reasons have the same key, which is how a failure at the head
 * is compared with the same test's failure at the base.
 *
 * @module
 */

/** Why one test did not pass. */
export type FailureReason =
  | {
    /** A Hypothesis health check failed. */
    kind: "health_check";
    /** The health check's name (`too_slow`), or "unknown" when the text does not name it. */
    name: string;
    /** The last lines of the report. */
    tail: string;
  }
  | {
    /** A Hypothesis deadline was exceeded, or the timings were unreliable. */
    kind: "deadline";
    /** The last lines of the report. */
    tail: string;
  }
  | {
    /** An exception ended the test. */
    kind: "exception";
    /** The exception's type (`AssertionError`), or "" when the text does not say. */
    type: string;
    /** The last lines of the report. */
    tail: string;
  };

/** Lines of a report quoted as its tail. */
export const TAIL_LINES = 6;
/** Characters of a report quoted as its tail. */
const TAIL_CHARS = 600;

/**
 * The reason `text` (a failure's message and traceback, as pytest reported
 * it) gives.
 *
 * @example
 * ```ts
 * import { failureReason } from "./failure_reason.ts";
 * const r = failureReason(
 *   "hypothesis.errors.FailedHealthCheck: Data generation is extremely slow. add HealthCheck.too_slow to the suppress_health_check settings",
 * );
 * if (r.kind !== "health_check" || r.name !== "too_slow") throw new Error();
 * ```
 */
export function failureReason(text: string): FailureReason {
  const tail = tailOf(text);
  if (/\bFailedHealthCheck\b/.test(text)) {
    const name = /\bHealthCheck\.([A-Za-z_]+)/.exec(text)?.[1] ?? "unknown";
    return { kind: "health_check", name, tail };
  }
  if (
    /\bDeadlineExceeded\b/.test(text) ||
    /Unreliable test timings/.test(text)
  ) {
    return { kind: "deadline", tail };
  }
  return { kind: "exception", type: exceptionType(text), tail };
}

/** Whether a reason depends on how fast the machine ran the test. */
export function isTimingFailure(reason: FailureReason): boolean {
  return reason.kind === "deadline" ||
    // Stryker disable next-line ConditionalExpression: only a health check has a name, so the name alone tells it
    (reason.kind === "health_check" && reason.name === "too_slow");
}

/**
 * What must match for two failures to be "the same": the health check's
 * name, the deadline, or the exception's type.
 *
 * @example
 * ```ts
 * import { failureKey, failureReason } from "./failure_reason.ts";
 * const a = failureReason("assert 1 == 2\n\ntests/t.py:3: AssertionError");
 * const b = failureReason("assert 5 == 2\n\ntests/t.py:9: AssertionError");
 * if (failureKey(a) !== failureKey(b)) throw new Error();
 * ```
 */
export function failureKey(reason: FailureReason): string {
  switch (reason.kind) {
    case "health_check":
      return `health check ${reason.name}`;
    case "deadline":
      return "deadline";
    default:
      return `exception ${reason.type}`;
  }
}

/**
 * `clause` ("it failed") with the reason: the health check's name, or the
 * exception and the tail of its traceback.
 *
 * @example
 * ```ts
 * import { describeFailure, failureReason } from "./failure_reason.ts";
 * const text = describeFailure("it failed", failureReason("E   assert 2 == 3\n\ntests/t.py:3: AssertionError"));
 * if (!text.startsWith("it failed with AssertionError:\n")) throw new Error(text);
 * ```
 */
export function describeFailure(clause: string, reason: FailureReason): string {
  const tail = reason.tail === "" ? "" : `:\n${reason.tail}`;
  switch (reason.kind) {
    case "health_check":
      return `${clause}: Hypothesis' health check "${reason.name}" failed${tail}`;
    case "deadline":
      return `${clause}: an example exceeded Hypothesis' deadline${tail}`;
    default:
      return `${clause}${
        reason.type === "" ? "" : ` with ${reason.type}`
      }${tail}`;
  }
}

/**
 * The exception type a pytest report names: its last `path:line: Type`
 * line, else the last `E   Type: …` line, else a leading `Type: …`.
 */
function exceptionType(text: string): string {
  const lines = text.split("\n").map((l) => l.trimEnd()).filter((l) =>
    l !== ""
  );
  for (const line of [...lines].reverse()) {
    const located = /^\S+:\d+: ([A-Za-z_][\w.]*)$/.exec(line);
    if (located !== null) return lastName(located[1] as string);
  }
  for (const line of [...lines].reverse()) {
    const raised =
      /^E\s+([A-Za-z_][\w.]*(?:Error|Exception|Exit|Warning|Failed|Interrupt|Check|Exceeded|Flaky|Unsatisfiable))\b/
        .exec(line);
    if (raised !== null) return lastName(raised[1] as string);
  }
  const leading = /^([A-Za-z_][\w.]*(?:Error|Exception|Failed|Flaky)):/.exec(
    // Stryker disable next-line StringLiteral: a text with no line names no exception, and any fallback without one reads the same
    lines[0] ?? "",
  );
  if (leading !== null) return lastName(leading[1] as string);
  // Stryker disable next-line StringLiteral: a text with no line has no leading assert, and any fallback without one reads the same
  return /^assert\b/.test(lines[0] ?? "") ? "AssertionError" : "";
}

function lastName(dotted: string): string {
  return dotted.split(".").at(-1) ?? dotted;
}

function tailOf(text: string): string {
  const lines = text.split("\n").map((l) => l.trimEnd()).filter((l) =>
    // Stryker disable next-line Regex: a trimmed line ends in a non-blank, so `_?` after `(_ )+` can only match as `_` (the two anchors are pinned)
    l !== "" && !/^(_ )+_?$/.test(l.trim())
  );
  const tail = lines.slice(-TAIL_LINES).join("\n");
  return tail.length <= TAIL_CHARS ? tail : `…${tail.slice(-TAIL_CHARS)}`;
}
