/**
 * The orchestrator's timestamp is the gate's only clock.
 *
 * @module
 */
import { explainRfc3339 } from "./explain_rfc3339.ts";
import { parseRfc3339 } from "./parse_rfc3339.ts";

/** An instant given on the command line, kept as written and as epoch ms. */
export interface Instant {
  /** The RFC 3339 text exactly as given. */
  text: string;
  /** Milliseconds since the Unix epoch. */
  epochMs: number;
}

/** The `--now` value is missing or is not an RFC 3339 timestamp. */
export class ClockError extends RangeError {
  /** Build the error. */
  constructor(message: string) {
    super(message);
    this.name = "ClockError";
  }
}

/**
 * Parse an RFC 3339 timestamp with a date, a time and an explicit offset.
 * Impossible dates (`2026-02-30`) are refused, not rolled over.
 *
 * @example
 * ```ts
 * import { parseNow } from "./parse_now.ts";
 * const now = parseNow("2026-11-30T12:00:00Z");
 * if (now.epochMs !== 1796040000000) throw new Error("unexpected");
 * ```
 */
export function parseNow(text: string | undefined, what = "--now"): Instant {
  if (text === undefined || text === "") {
    throw new ClockError(
      `Cannot decide without a clock: ${what} is required (an RFC 3339 timestamp such as "2026-11-30T12:00:00Z")`,
    );
  }
  const epochMs = parseRfc3339(text);
  if (epochMs === undefined) {
    throw new ClockError(
      `Cannot read ${what} "${text}": ${
        explainRfc3339(text) ?? "it is not an RFC 3339 timestamp"
      }; expected one such as "2026-11-30T12:00:00Z"`,
    );
  }
  return { text, epochMs };
}
