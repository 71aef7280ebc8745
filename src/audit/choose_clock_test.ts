import assert from "node:assert/strict";
import { parseNow } from "../core/parse_now.ts";
import { chooseClock } from "./choose_clock.ts";

const MERGED = {
  number: 7,
  createdAt: "2026-11-01T09:00:00Z",
  mergedAt: "2026-11-30T11:30:00+01:00",
};

Deno.test("chooseClock() takes --now for every pull request and records nothing in the verdict", () => {
  const now = parseNow("2026-12-01T00:00:00Z");
  const chosen = chooseClock(MERGED, { source: "flag", now });
  assert.deepEqual(chosen, {
    kind: "judge",
    now,
    clock: { source: "flag", now: "2026-12-01T00:00:00Z" },
  });
});

Deno.test("chooseClock() takes merged_at or created_at as written and records the field", async (t) => {
  for (
    const [source, field, text] of [
      ["merged-at", "pull_request.merged_at", MERGED.mergedAt],
      ["created-at", "pull_request.created_at", MERGED.createdAt],
    ] as const
  ) {
    await t.step(source, () => {
      const chosen = chooseClock(MERGED, { source });
      assert.equal(chosen.kind, "judge");
      if (chosen.kind !== "judge") return;
      assert.deepEqual(chosen.now, parseNow(text));
      assert.deepEqual(chosen.clock, { source, field, now: text });
      assert.deepEqual(chosen.verdictClock, { source, field });
    });
  }
});

Deno.test("chooseClock() skips a pull request never merged under merged-at, with the reason", () => {
  const chosen = chooseClock({ ...MERGED, mergedAt: null }, {
    source: "merged-at",
  });
  assert.deepEqual(chosen, {
    kind: "skip",
    clock: { source: "merged-at", field: "pull_request.merged_at", now: null },
    reason:
      'Pull request #7 was never merged: it has no "merged_at" to judge it at',
  });
});
