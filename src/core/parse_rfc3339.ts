/**
 * Strict RFC 3339 date-time parsing, so that instants are compared as
 * instants and a malformed expiry can never pass as "later than now".
 *
 * @module
 */

const RFC3339 =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;

/**
 * Parse an RFC 3339 `date-time` (e.g. `2026-09-22T00:00:00Z`,
 * `2026-09-22T02:00:00.5+02:00`) to epoch milliseconds; `undefined` for
 * anything else, including dates without a time or offset, impossible
 * calendar dates and out-of-range fields. A leap second (`:60`) is read as
 * the first instant of the next minute.
 *
 * @example
 * ```ts
 * import { parseRfc3339 } from "./parse_rfc3339.ts";
 * if (parseRfc3339("1970-01-01T00:00:01Z") !== 1000) throw new Error();
 * if (parseRfc3339("2026-02-30T00:00:00Z") !== undefined) throw new Error();
 * ```
 */
export function parseRfc3339(text: string): number | undefined {
  const m = RFC3339.exec(text);
  if (m === null) return undefined;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  const hour = Number(m[4]);
  const minute = Number(m[5]);
  const second = Number(m[6]);
  if (month < 1 || month > 12) return undefined;
  if (day < 1 || day > daysInMonth(year, month)) return undefined;
  if (hour > 23 || minute > 59 || second > 60) return undefined;
  let offsetMinutes = 0;
  if (m[8] === undefined) {
    const offsetHours = Number(m[10]);
    const offsetMins = Number(m[11]);
    if (offsetHours > 23 || offsetMins > 59) return undefined;
    offsetMinutes = (offsetHours * 60 + offsetMins) * (m[9] === "-" ? -1 : 1);
  }
  // Sub-millisecond digits are truncated: instants compare in milliseconds.
  const millis = m[7] === undefined
    ? 0
    : Number(`${m[7].slice(1)}00`.slice(0, 3));
  // setUTCFullYear, unlike Date.UTC, does not map years 0-99 to 1900-1999.
  const instant = new Date(0);
  instant.setUTCFullYear(year, month - 1, day);
  instant.setUTCHours(hour, minute, second, millis);
  return instant.getTime() - offsetMinutes * 60_000;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) {
    const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
    return leap ? 29 : 28;
  }
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}
