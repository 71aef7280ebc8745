/**
 * The progress port: long steps announce themselves here. The CLI's
 * adapter (`cli/progress.ts`) prints them on stderr; a service may log or
 * drop them.
 *
 * @module
 */

/** Receives step announcements from a long job. */
export interface Progress {
  /** A new step started. */
  step(label: string): void;
  /** Detail inside the current step (shown live on a terminal, dropped in logs). */
  detail(text: string): void;
  /** A message that should always be shown. */
  note(text: string): void;
  /** The whole job ended; clear any live line. */
  end(): void;
  /**
   * A test run started: its tests are told to the returned tally as the
   * run's observer streams them. Reporting only: nothing a decision reads
   * comes back. Absent (or no tally) where nobody shows counts.
   */
  tests?(label: string): TestTally | undefined;
}

/** How one test ended, as progress counts it. */
export type TallyOutcome = "passed" | "failed" | "skipped";

/** One test run's tests as they are collected, run and end. */
export interface TestTally {
  /** The run selected these node ids, in the order it runs them. */
  collected(nodeIds: readonly string[]): void;
  /** A phase of a test ended so (a test may be told more than once: its worst outcome counts). */
  reported(nodeId: string, outcome: TallyOutcome): void;
  /** The run ended. */
  end(): void;
}

/**
 * How the step that starts a judgement's test runs begins: its label is
 * this, then the sandbox and seed. Work meant to overlap the tests (loading
 * code used only after the verdict) keys on it.
 */
export const TESTS_STEP = "running the tests";

/** A progress sink that discards everything (tests, `--quiet`). */
export const SILENT_PROGRESS: Progress = {
  step() {},
  detail() {},
  note() {},
  end() {},
};
