import assert from "node:assert/strict";
import { expiresOnEnd } from "./expires_on.ts";

Deno.test("expiresOnEnd() reads dates as whole UTC days and date-times as instants", async (t) => {
  const cases: [string, string | undefined][] = [
    ["2026-09-26", "2026-09-27T00:00:00.000Z"],
    ["2024-02-29", "2024-03-01T00:00:00.000Z"],
    ["2026-09-26T00:00:00Z", "2026-09-26T00:00:00.000Z"],
    ["2026-09-26T02:00:00+02:00", "2026-09-26T00:00:00.000Z"],
    ["2026-02-29", undefined],
    ["2026-9-26", undefined],
    ["26-09-2026", undefined],
    ["2026-09-26T00:00:00", undefined],
    ["tomorrow", undefined],
    ["", undefined],
  ];
  for (const [text, iso] of cases) {
    await t.step(JSON.stringify(text), () => {
      const end = expiresOnEnd(text);
      assert.equal(
        end === undefined ? undefined : new Date(end).toISOString(),
        iso,
      );
    });
  }
});
