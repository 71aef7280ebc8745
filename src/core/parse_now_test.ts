import { equal, throws } from "node:assert/strict";
import { ClockError, parseNow } from "./parse_now.ts";

Deno.test("parseNow() reads RFC 3339 instants with any offset", async (t) => {
  const cases: [string, number][] = [
    ["2026-11-30T12:00:00Z", Date.UTC(2026, 10, 30, 12)],
    ["2026-11-30T13:00:00+01:00", Date.UTC(2026, 10, 30, 12)],
    ["2026-11-30t12:00:00.250z", Date.UTC(2026, 10, 30, 12, 0, 0, 250)],
  ];
  for (const [text, epochMs] of cases) {
    await t.step(text, () => {
      const now = parseNow(text);
      equal(now.epochMs, epochMs);
      equal(now.text, text);
    });
  }
});

Deno.test("parseNow() refuses anything that is not a full instant", async (t) => {
  const cases: (string | undefined)[] = [
    undefined,
    "",
    "yesterday",
    "2026-11-30",
    "2026-11-30T12:00:00",
    "2026-13-01T00:00:00Z",
    "2026-02-30T00:00:00Z",
    "2026-11-30 12:00:00Z",
    "1796040000",
  ];
  for (const text of cases) {
    await t.step(String(text), () => {
      throws(
        () => parseNow(text),
        (e: unknown) => e instanceof ClockError && e.message.includes("--now"),
      );
    });
  }
});

Deno.test("parseNow() says which part of a malformed --now is wrong", () => {
  throws(
    () => parseNow("2026-13-30T12:00:00Z"),
    {
      name: "ClockError",
      message:
        'Cannot read --now "2026-13-30T12:00:00Z": the month 13 is out of range (01-12); expected one such as "2026-11-30T12:00:00Z"',
    },
  );
});
