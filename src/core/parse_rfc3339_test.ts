import assert from "node:assert/strict";
import { parseRfc3339 } from "./parse_rfc3339.ts";

Deno.test("parseRfc3339() reads valid date-times as instants", async (t) => {
  const cases: [string, string][] = [
    ["2026-09-22T00:00:00Z", "2026-09-22T00:00:00.000Z"],
    ["2026-09-22t00:00:00z", "2026-09-22T00:00:00.000Z"],
    ["2026-09-22T02:00:00+02:00", "2026-09-22T00:00:00.000Z"],
    ["2026-09-21T19:30:00-04:30", "2026-09-22T00:00:00.000Z"],
    ["2026-09-22T00:00:00.5Z", "2026-09-22T00:00:00.500Z"],
    ["2026-09-22T00:00:00.123456789Z", "2026-09-22T00:00:00.123Z"],
    ["2024-02-29T12:00:00Z", "2024-02-29T12:00:00.000Z"],
    ["2016-12-31T23:59:60Z", "2017-01-01T00:00:00.000Z"],
  ];
  for (const [text, iso] of cases) {
    await t.step(text, () => {
      assert.equal(parseRfc3339(text), Date.parse(iso));
    });
  }
});

Deno.test("parseRfc3339() reads years before 100 without the 1900 shift", () => {
  assert.equal(
    parseRfc3339("0050-01-01T00:00:00Z"),
    Date.parse("0050-01-01T00:00:00.000Z"),
  );
});

Deno.test("parseRfc3339() refuses anything that is not an RFC 3339 date-time", async (t) => {
  for (
    const text of [
      "",
      "tomorrow",
      "2026-09-22",
      "2026-09-22T00:00:00",
      "2026-09-22 00:00:00Z",
      "2026-9-22T00:00:00Z",
      "2026-13-01T00:00:00Z",
      "2026-00-01T00:00:00Z",
      "2023-02-29T00:00:00Z",
      "2026-04-31T00:00:00Z",
      "2026-09-22T24:00:00Z",
      "2026-09-22T00:60:00Z",
      "2026-09-22T00:00:61Z",
      "2026-09-22T00:00:00+24:00",
      "2026-09-22T00:00:00+0200",
      "2026-09-22T00:00:00.Z",
      "+002026-09-22T00:00:00Z",
      " 2026-09-22T00:00:00Z",
      "2026-09-22T00:00:00Z\n",
    ]
  ) {
    await t.step(JSON.stringify(text), () => {
      assert.equal(parseRfc3339(text), undefined);
    });
  }
});
