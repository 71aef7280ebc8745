/**
 * How long a judgement's parts took, for the JUnit report only: the
 * verdict never sees a duration, so the same inputs still give the same
 * verdict. The timer watches the progress port for the step that starts
 * the test runs.
 *
 * @module
 */
import { type Progress, TESTS_STEP } from "../core/progress.ts";
import type { JunitTimings } from "../report/render_junit.ts";

/** A progress port that also measures the judgement's stages. */
export interface StageTimer {
  /** Hand this to the judgement instead of the progress it wraps. */
  progress: Progress;
  /** The durations so far, in seconds, ending now. */
  timings(): JunitTimings;
}

/**
 * Wrap `progress`: the static stage runs from now to the step that starts
 * the test runs, the test stage from that step to the call of `timings()`.
 * A judgement that never runs tests has only a static stage.
 *
 * @example
 * ```ts
 * import { stageTimer } from "./stage_timer.ts";
 * import { SILENT_PROGRESS, TESTS_STEP } from "../core/progress.ts";
 * let now = 1000;
 * const timer = stageTimer(SILENT_PROGRESS, () => now);
 * now = 1250;
 * timer.progress.step(`${TESTS_STEP} in a sandbox`);
 * now = 4250;
 * const t = timer.timings();
 * if (t.stages?.static !== 0.25 || t.stages?.tests !== 3 || t.total !== 3.25) throw new Error();
 * ```
 */
export function stageTimer(
  progress: Progress,
  clock: () => number = () => performance.now(),
): StageTimer {
  const start = clock();
  let testsAt: number | undefined;
  const tests = progress.tests?.bind(progress);
  return {
    progress: {
      // Every other part of the port passes through untouched.
      ...(tests === undefined ? {} : { tests }),
      step(label) {
        if (testsAt === undefined && label.startsWith(TESTS_STEP)) {
          testsAt = clock();
        }
        progress.step(label);
      },
      detail: (text) => progress.detail(text),
      note: (text) => progress.note(text),
      end: () => progress.end(),
    },
    timings() {
      const end = clock();
      const staticEnd = testsAt ?? end;
      return {
        total: (end - start) / 1000,
        stages: {
          static: (staticEnd - start) / 1000,
          ...(testsAt === undefined ? {} : { tests: (end - testsAt) / 1000 }),
        },
      };
    },
  };
}
