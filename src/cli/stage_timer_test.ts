import assert from "node:assert/strict";
import type { Progress, TestTally } from "../core/progress.ts";
import { TESTS_STEP } from "../core/progress.ts";
import { stageTimer } from "./stage_timer.ts";

Deno.test("the stage timer passes every part of the progress port through, the tests' tally included", () => {
  const seen: string[] = [];
  const tally: TestTally = {
    collected: () => seen.push("collected"),
    reported: () => seen.push("reported"),
    end: () => seen.push("tally end"),
  };
  const inner: Progress = {
    step: (label) => seen.push(`step ${label}`),
    detail: (text) => seen.push(`detail ${text}`),
    note: (text) => seen.push(`note ${text}`),
    end: () => seen.push("end"),
    tests: (label) => {
      seen.push(`tests ${label}`);
      return tally;
    },
  };
  const timer = stageTimer(inner, () => 0);
  timer.progress.step(TESTS_STEP);
  timer.progress.detail("d");
  timer.progress.note("n");
  assert.equal(timer.progress.tests?.("suite"), tally);
  timer.progress.end();
  assert.deepEqual(seen, [
    `step ${TESTS_STEP}`,
    "detail d",
    "note n",
    "tests suite",
    "end",
  ]);
});

Deno.test("the stage timer times the static stage up to the step that starts the tests, and the tests from there", () => {
  let now = 0;
  const timer = stageTimer({
    step() {},
    detail() {},
    note() {},
    end() {},
  }, () => now);
  now = 500;
  timer.progress.step(`${TESTS_STEP} (sandbox: bwrap)`);
  now = 2500;
  assert.deepEqual(timer.timings(), {
    total: 2.5,
    stages: { static: 0.5, tests: 2 },
  });
});
