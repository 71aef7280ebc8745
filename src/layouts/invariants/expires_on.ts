/**
 * Seed 003's `expires_on`: a calendar date (`2026-09-26`), or, as pawl also
 * accepts, an RFC 3339 date-time.
 *
 * @module
 */
import { parseRfc3339 } from "../../core/parse_rfc3339.ts";

const DAY_MS = 86_400_000;
// Stryker disable next-line Regex: parseRfc3339 then refuses any text around the date
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The first instant (epoch milliseconds) at which a freeze with this
 * `expires_on` has expired; `undefined` when the text is neither a valid
 * date nor an RFC 3339 date-time.
 *
 * A date `D` lasts through the whole of `D` in UTC, so it expires at
 * `D+1T00:00:00Z`: the seed's checker fails a freeze when `expires_on` is
 * before today (`expires < today`), and "today" is the UTC date of pawl's
 * `--now`. A date-time expires at that instant (as seed 000's `expires`
 * does).
 *
 * @example
 * ```ts
 * import { expiresOnEnd } from "./expires_on.ts";
 * if (expiresOnEnd("1970-01-01") !== 86_400_000) throw new Error();
 * if (expiresOnEnd("1970-01-01T00:00:01Z") !== 1000) throw new Error();
 * if (expiresOnEnd("2026-02-30") !== undefined) throw new Error();
 * ```
 */
export function expiresOnEnd(text: string): number | undefined {
  if (DATE.test(text)) {
    const start = parseRfc3339(`${text}T00:00:00Z`);
    return start === undefined ? undefined : start + DAY_MS;
  }
  return parseRfc3339(text);
}
