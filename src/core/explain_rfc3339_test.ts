import { equal } from "node:assert/strict";
import { explainRfc3339 } from "./explain_rfc3339.ts";
import { parseRfc3339 } from "./parse_rfc3339.ts";

Deno.test("explainRfc3339() names the field that is wrong", async (t) => {
  const cases: [string, string][] = [
    ["2026-13-30T12:00:00Z", "the month 13 is out of range (01-12)"],
    ["2026-00-30T12:00:00Z", "the month 00 is out of range (01-12)"],
    [
      "2026-02-30T12:00:00Z",
      "February 2026 has 28 days, so the day 30 is out of range",
    ],
    ["2026-11-00T12:00:00Z", "the day 00 is out of range (01-30)"],
    ["2026-11-30T24:00:00Z", "the hour 24 is out of range (00-23)"],
    ["2026-11-30T12:60:00Z", "the minute 60 is out of range (00-59)"],
    ["2026-11-30T12:00:61Z", "the second 61 is out of range (00-60)"],
    [
      "2026-11-30T12:00:00+24:00",
      "the offset's hours 24 are out of range (00-23)",
    ],
    [
      "2026-11-30",
      'it has a date but no time and offset (add e.g. "T12:00:00Z")',
    ],
    [
      "2026-11-30T12:00:00",
      'it has no offset: add "Z" for UTC or one such as "+02:00"',
    ],
    [
      "2026-11-30 12:00:00Z",
      'the date and time must be separated by "T", not a space',
    ],
    ["2026-11-30T12:00Z", "the time must be HH:MM:SS"],
    [
      "2026-11-30T12:00:00 UTC",
      'the offset " UTC" must be "Z" or one such as "+02:00"',
    ],
    ["yesterday", "it does not start with a date as YYYY-MM-DD"],
  ];
  for (const [text, why] of cases) {
    await t.step(text, () => {
      equal(parseRfc3339(text), undefined);
      equal(explainRfc3339(text), why);
    });
  }
});

Deno.test("explainRfc3339() finds nothing wrong with what parseRfc3339() reads", () => {
  for (
    const text of [
      "2026-11-30T12:00:00Z",
      "2028-02-29T23:59:60.5+14:00",
      "2026-11-30t12:00:00-05:30",
    ]
  ) {
    equal(parseRfc3339(text) !== undefined, true);
    equal(explainRfc3339(text), undefined);
  }
});
