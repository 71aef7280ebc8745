import assert from "node:assert/strict";
import fc from "fast-check";
import {
  backoffMs,
  DEFAULT_RETRY_SCHEDULE,
  formatDuration,
  jitter,
  mayRetry,
  waitedMs,
} from "./retry_schedule.ts";

Deno.test("backoffMs() doubles from the first wait and never exceeds the cap", async (t) => {
  const cases: [number, number][] = [
    [1, 5000],
    [2, 10_000],
    [6, 160_000],
    [7, 300_000],
    [500, 300_000],
  ];
  for (const [attempt, expected] of cases) {
    await t.step(`attempt ${attempt}`, () => {
      assert.equal(backoffMs(attempt, DEFAULT_RETRY_SCHEDULE), expected);
    });
  }
});

Deno.test("mayRetry() lets a job wait through a one-hour outage and stops at the two-hour deadline", () => {
  let attempts = 1;
  while (waitedMs(attempts, DEFAULT_RETRY_SCHEDULE) < 60 * 60_000) attempts++;
  assert.ok(mayRetry(attempts, DEFAULT_RETRY_SCHEDULE));
  let last = attempts;
  while (mayRetry(last + 1, DEFAULT_RETRY_SCHEDULE)) last++;
  assert.ok(waitedMs(last, DEFAULT_RETRY_SCHEDULE) <= 2 * 60 * 60_000);
  assert.ok(waitedMs(last + 1, DEFAULT_RETRY_SCHEDULE) > 2 * 60 * 60_000);
  // 28 waits of 5 s to 5 min fit in two hours; the 29th failed attempt is the last.
  assert.equal(last, 28);
});

Deno.test("jitter() spreads a wait between three and five quarters of it", async (t) => {
  for (const [random, expected] of [[0, 750], [0.5, 1000], [0.999, 1250]]) {
    await t.step(`random ${random}`, () => {
      assert.equal(jitter(1000, () => random!), expected);
    });
  }
});

Deno.test("formatDuration() reads as seconds, minutes or hours", async (t) => {
  const cases: [number, string][] = [
    [200, "0.2 s"],
    [45_000, "45 s"],
    [12 * 60_000, "12 min"],
    [2 * 60 * 60_000, "2 h"],
    [90 * 60_000, "1 h 30 min"],
  ];
  for (const [ms, text] of cases) {
    await t.step(text, () => assert.equal(formatDuration(ms), text));
  }
});

Deno.test("mayRetry() still allows the wait that ends exactly at the deadline, and no later one", async (t) => {
  // Waits of 1 s each: three fit a three-second deadline exactly.
  const schedule = { baseMs: 1000, capMs: 1000, deadlineMs: 3000 };
  const cases: [number, boolean][] = [[0, true], [1, true], [3, true], [
    4,
    false,
  ]];
  for (const [attempts, expected] of cases) {
    await t.step(`after ${attempts} failed attempts`, () => {
      assert.equal(waitedMs(attempts, schedule), attempts * 1000);
      assert.equal(mayRetry(attempts, schedule), expected);
    });
  }
});

Deno.test("the retry schedule only grows: a later attempt never waits less, nor may retry when an earlier could not", () => {
  const schedule = fc.record({
    baseMs: fc.integer({ min: 1, max: 100_000 }),
    capMs: fc.integer({ min: 1, max: 1_000_000 }),
    deadlineMs: fc.integer({ min: 0, max: 10_000_000 }),
  });
  fc.assert(
    fc.property(
      schedule,
      fc.integer({ min: 0, max: 60 }),
      fc.integer({ min: 0, max: 60 }),
      (s, a, b) => {
        const [early, late] = a <= b ? [a, b] : [b, a];
        assert.ok(backoffMs(early, s) <= backoffMs(late, s));
        assert.ok(backoffMs(late, s) <= s.capMs);
        assert.ok(waitedMs(early, s) <= waitedMs(late, s));
        if (mayRetry(late, s)) assert.ok(mayRetry(early, s));
      },
    ),
  );
});

Deno.test("formatDuration() switches unit at a whole minute and a whole hour", async (t) => {
  const cases: [number, string][] = [
    [59_949, "59.9 s"],
    [60_000, "1 min"],
    [59 * 60_000, "59 min"],
    [60 * 60_000, "1 h"],
    [61 * 60_000, "1 h 1 min"],
    [150 * 60_000, "2 h 30 min"],
  ];
  for (const [ms, text] of cases) {
    await t.step(text, () => assert.equal(formatDuration(ms), text));
  }
});
