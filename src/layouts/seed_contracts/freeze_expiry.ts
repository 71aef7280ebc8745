/**
 * When a seed freeze stops holding. `flake_freeze.yml` writes `expires` as a
 * date (`2026-09-15`, as in the seed) or as an RFC 3339 date-time.
 *
 * @module
 */
import { parseRfc3339 } from "../../core/parse_rfc3339.ts";

// Stryker disable next-line Regex: text the pattern matches only without its `^` has a prefix before the date, which no RFC 3339 date-time has either, so both read as unreadable
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DAY_MS = 86_400_000;

/**
 * The first instant (epoch milliseconds) at which a freeze with this
 * `expires` is expired, or `undefined` when `expires` is neither a calendar
 * date `YYYY-MM-DD` nor an RFC 3339 date-time.
 *
 * A date means the freeze holds through that whole UTC day, matching the
 * seed validator's `exp < today` with `today` the UTC date of `--now`: it
 * expires at the start of the next UTC day. A date-time expires at that
 * instant (an expiry equal to `--now` is expired, as in seed 000).
 *
 * @example
 * ```ts
 * import { freezeExpiresAt } from "./freeze_expiry.ts";
 * if (freezeExpiresAt("2026-09-15") !== Date.parse("2026-09-16T00:00:00Z")) throw new Error();
 * if (freezeExpiresAt("2026-09-15T12:00:00+02:00") !== Date.parse("2026-09-15T10:00:00Z")) throw new Error();
 * if (freezeExpiresAt("2026-02-30") !== undefined) throw new Error();
 * ```
 */
export function freezeExpiresAt(expires: string): number | undefined {
  if (DATE.test(expires)) {
    const start = parseRfc3339(`${expires}T00:00:00Z`);
    return start === undefined ? undefined : start + DAY_MS;
  }
  return parseRfc3339(expires);
}

/**
 * Whether a freeze is expired at `now` (epoch milliseconds). An expiry that
 * cannot be read counts as expired, so it can never pass as "later".
 *
 * @example
 * ```ts
 * import { isFreezeExpired } from "./freeze_expiry.ts";
 * const now = Date.parse("2026-09-15T23:59:59Z");
 * if (isFreezeExpired("2026-09-15", now)) throw new Error("holds through the day");
 * if (!isFreezeExpired("2026-09-14", now)) throw new Error("expired yesterday");
 * ```
 */
export function isFreezeExpired(expires: string, now: number): boolean {
  if (!Number.isFinite(now)) {
    throw new RangeError(
      `Cannot judge a freeze expiry: "now" is not an instant`,
    );
  }
  const at = freezeExpiresAt(expires);
  return at === undefined || now >= at;
}
