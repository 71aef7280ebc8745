import assert from "node:assert/strict";
import { AuditOptionError } from "./audit_option_error.ts";
import { parseSince } from "./parse_since.ts";

Deno.test("parseSince() reads a date as midnight UTC and a timestamp as given", () => {
  const day = parseSince("2026-11-01");
  assert.equal(day.text, "2026-11-01T00:00:00Z");
  const stamp = parseSince("2026-11-01T02:00:00+02:00");
  assert.equal(stamp.epochMs, day.epochMs);
  assert.equal(stamp.text, "2026-11-01T02:00:00+02:00");
});

Deno.test("parseSince() refuses impossible dates and other text", async (t) => {
  for (const text of ["2026-02-30", "yesterday", "2026-11-01T00:00:00", ""]) {
    await t.step(JSON.stringify(text), () => {
      assert.throws(
        () => parseSince(text),
        (error) =>
          error instanceof AuditOptionError &&
          error.message.startsWith(`Cannot read --since "${text}"`),
      );
    });
  }
});
