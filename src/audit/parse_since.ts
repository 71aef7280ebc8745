/**
 * Reading `--since`: the earliest `created_at` an audit selects.
 *
 * @module
 */
import { parseRfc3339 } from "../core/parse_rfc3339.ts";
import type { Instant } from "../core/parse_now.ts";
import { AuditOptionError } from "./audit_option_error.ts";

/**
 * Parse `--since`: an RFC 3339 timestamp, or a calendar date
 * (`2026-11-01`), read as midnight UTC.
 *
 * @example
 * ```ts
 * import { parseSince } from "./parse_since.ts";
 * if (parseSince("2026-11-01").text !== "2026-11-01T00:00:00Z") throw new Error("unexpected");
 * ```
 */
export function parseSince(text: string): Instant {
  const full = /^\d{4}-\d{2}-\d{2}$/.test(text) ? `${text}T00:00:00Z` : text;
  const epochMs = parseRfc3339(full);
  if (epochMs === undefined) {
    throw new AuditOptionError(
      `Cannot read --since "${text}": expected a date such as "2026-11-01" or an RFC 3339 timestamp such as "2026-11-01T00:00:00Z"`,
    );
  }
  return { text: full, epochMs };
}
