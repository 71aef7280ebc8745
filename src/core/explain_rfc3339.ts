/**
 * Why a text is not an RFC 3339 date-time, in words a person can act on.
 *
 * @module
 */

const SHAPE =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;

const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

/**
 * Say what is wrong with `text` as an RFC 3339 `date-time`: the field out of
 * range (`the month 13 is out of range (01-12)`), the impossible day, or
 * the part that is missing. `undefined` when nothing is wrong.
 *
 * @example
 * ```ts
 * import { explainRfc3339 } from "./explain_rfc3339.ts";
 * const why = explainRfc3339("2026-13-30T12:00:00Z");
 * if (why !== "the month 13 is out of range (01-12)") throw new Error(why);
 * ```
 */
export function explainRfc3339(text: string): string | undefined {
  const m = SHAPE.exec(text);
  if (m === null) return explainShape(text);
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(
    Number,
  ) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  if (month < 1 || month > 12) {
    return `the month ${m[2]} is out of range (01-12)`;
  }
  const days = daysInMonth(year, month);
  if (day < 1 || day > days) {
    return day < 1
      ? `the day ${m[3]} is out of range (01-${days})`
      : `${MONTHS[month - 1]} ${year} has ${days} days, so the day ${
        m[3]
      } is out of range`;
  }
  if (hour > 23) return `the hour ${m[4]} is out of range (00-23)`;
  if (minute > 59) return `the minute ${m[5]} is out of range (00-59)`;
  if (second > 60) return `the second ${m[6]} is out of range (00-60)`;
  if (m[8] === undefined) {
    if (Number(m[10]) > 23) {
      return `the offset's hours ${m[10]} are out of range (00-23)`;
    }
    if (Number(m[11]) > 59) {
      return `the offset's minutes ${m[11]} are out of range (00-59)`;
    }
  }
  return undefined;
}

function explainShape(text: string): string {
  if (text.trim() !== text) return "it has blank space around it";
  const date = /^(\d{4})-(\d{2})-(\d{2})/.exec(text);
  if (date === null) return "it does not start with a date as YYYY-MM-DD";
  const rest = text.slice(date[0].length);
  if (rest === "") {
    return 'it has a date but no time and offset (add e.g. "T12:00:00Z")';
  }
  if (!/^[Tt ]/.test(rest)) {
    return 'the date must be followed by "T" and a time';
  }
  if (rest[0] === " ") {
    return 'the date and time must be separated by "T", not a space';
  }
  const time = /^[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?/.exec(rest);
  if (time === null) return "the time must be HH:MM:SS";
  const offset = rest.slice(time[0].length);
  if (offset === "") {
    return 'it has no offset: add "Z" for UTC or one such as "+02:00"';
  }
  return `the offset "${offset}" must be "Z" or one such as "+02:00"`;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) {
    const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
    return leap ? 29 : 28;
  }
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}
