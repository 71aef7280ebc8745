import { equal } from "node:assert/strict";
import { formatTestProgress } from "./_format_test_progress.ts";
import type { RunCounts } from "./_test_counts.ts";

const run = (over: Partial<RunCounts>): RunCounts => ({
  label: "suite",
  selected: null,
  passed: 0,
  failed: 0,
  skipped: 0,
  ended: false,
  startedMs: 0,
  ...over,
});

Deno.test("formatTestProgress() says how far each run got, whatever it knows of its selection", async (t) => {
  const cases: {
    name: string;
    runs: RunCounts[];
    log: string;
    live: string;
  }[] = [
    {
      name: "nothing collected yet",
      runs: [run({})],
      log: "tests 5 s; suite collecting",
      live: "tests 5 s; 0 passed, 0 failed; suite collecting",
    },
    {
      name: "a known selection",
      runs: [run({ selected: 10, passed: 7, failed: 1 })],
      log: "tests 5 s; suite 8/10: 7 passed, 1 failed, 0 skipped",
      live: "tests 5 s; 7 passed, 1 failed; suite 8/10",
    },
    {
      name:
        "tests reported beyond the selection (xdist's workers collected them)",
      runs: [run({ selected: 0, passed: 3, skipped: 1 })],
      log: "tests 5 s; suite 4: 3 passed, 0 failed, 1 skipped",
      live: "tests 5 s; 3 passed, 0 failed, 1 skipped; suite 4",
    },
    {
      name: "a run that ended and one of another label",
      runs: [
        run({ selected: 2, passed: 2, ended: true }),
        run({ label: "properties", selected: 1 }),
      ],
      log:
        "tests 5 s; suite done: 2 passed, 0 failed, 0 skipped; properties 0/1: 0 passed, 0 failed, 0 skipped",
      live: "tests 5 s; 2 passed, 0 failed; suite 2/2, properties 0/1",
    },
  ];
  for (const c of cases) {
    await t.step(c.name, () => {
      const clock = { nowMs: 5_000, sinceMs: 0 };
      equal(formatTestProgress(c.runs, clock), c.log);
      equal(formatTestProgress(c.runs, { ...clock, compact: true }), c.live);
    });
  }
});
