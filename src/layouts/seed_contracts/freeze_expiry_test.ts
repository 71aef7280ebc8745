import assert from "node:assert/strict";
import { freezeExpiresAt, isFreezeExpired } from "./freeze_expiry.ts";

Deno.test("isFreezeExpired() holds a date-only freeze through its UTC day", async (t) => {
  const cases: [string, string, string, boolean][] = [
    [
      "the seed's review a week before",
      "2026-09-15",
      "2026-09-08T00:00:00Z",
      false,
    ],
    [
      "the first instant of the day",
      "2026-09-15",
      "2026-09-15T00:00:00Z",
      false,
    ],
    [
      "the last millisecond of the day",
      "2026-09-15",
      "2026-09-15T23:59:59.999Z",
      false,
    ],
    ["the next UTC day", "2026-09-15", "2026-09-16T00:00:00Z", true],
    ["a week later", "2026-09-15", "2026-09-22T12:00:00Z", true],
    ["a leap day", "2028-02-29", "2028-02-29T12:00:00Z", false],
  ];
  for (const [name, expires, now, expired] of cases) {
    await t.step(`${name}: ${expired ? "expired" : "holds"}`, () => {
      assert.equal(isFreezeExpired(expires, Date.parse(now)), expired);
    });
  }
});

Deno.test("isFreezeExpired() expires a date-time freeze at its instant", async (t) => {
  const cases: [string, string, boolean][] = [
    ["2026-09-15T12:00:00Z", "2026-09-15T11:59:59.999Z", false],
    ["2026-09-15T12:00:00Z", "2026-09-15T12:00:00Z", true],
    ["2026-09-15T12:00:00+02:00", "2026-09-15T10:00:00Z", true],
    ["2026-09-15T12:00:00+02:00", "2026-09-15T09:59:00Z", false],
  ];
  for (const [expires, now, expired] of cases) {
    await t.step(
      `${expires} at ${now}: ${expired ? "expired" : "holds"}`,
      () => {
        assert.equal(isFreezeExpired(expires, Date.parse(now)), expired);
      },
    );
  }
});

Deno.test("isFreezeExpired() treats an unreadable expiry as expired", () => {
  assert.equal(freezeExpiresAt("next week"), undefined);
  assert.equal(freezeExpiresAt("2026-13-01"), undefined);
  assert.equal(isFreezeExpired("next week", 0), true);
});

Deno.test("isFreezeExpired() refuses a clock that is not an instant", () => {
  assert.throws(
    () => isFreezeExpired("2026-09-15", Number.NaN),
    (e) => e instanceof RangeError && /"now" is not an instant/.test(e.message),
  );
});
