/**
 * Progress for long steps: a live line on a terminal, quiet line-oriented
 * messages in CI logs. Always on stderr so stdout stays clean for `--json`.
 * While tests run, both show each run's counts from pawl's observer, the
 * time since the tests started and the test running now: the terminal's
 * line redrawn every second, the CI log a line every 20 s (a step that
 * prints nothing for that long says it is still going), so a CI system
 * that stops silent steps does not stop a long suite.
 *
 * @module
 */

import {
  type Progress,
  SILENT_PROGRESS,
  TESTS_STEP,
  type TestTally,
} from "../core/progress.ts";
import type { CliIo } from "./cli_io.ts";
import { formatDuration, formatTestProgress } from "./_format_test_progress.ts";
import { TestCounts } from "./_test_counts.ts";
import { useColor } from "./use_color.ts";

export { type Progress, SILENT_PROGRESS } from "../core/progress.ts";

/** Time for progress: what it reads and what wakes it. */
export interface ProgressClock {
  /** Milliseconds, any origin. */
  now(): number;
  /** Call `tick` every `ms` until the returned function is called. */
  every(ms: number, tick: () => void): () => void;
}

/** The process's clock; its timers never keep the process alive. */
export const REAL_PROGRESS_CLOCK: ProgressClock = {
  now: () => performance.now(),
  every(ms, tick) {
    const id = setInterval(tick, ms);
    Deno.unrefTimer(id);
    return () => clearInterval(id);
  },
};

/** How often a CI log gets a line while a step goes on, by default. */
export const LOG_INTERVAL_MS = 20_000;

/** How often the terminal's live line is redrawn while tests run. */
export const REDRAW_INTERVAL_MS = 1_000;

/**
 * For tests only: milliseconds between the CI log's progress lines
 * instead of {@linkcode LOG_INTERVAL_MS}, so an end-to-end test sees them
 * on a suite of a few seconds.
 */
export const INTERVAL_ENV = "PAWL_PROGRESS_INTERVAL_MS";

/** Options for {@linkcode createProgress}. */
export interface CreateProgressOptions {
  /** Whether stderr is an interactive terminal. */
  terminal: boolean;
  /** Where bytes go (stderr). */
  write: (text: string) => void;
  /** Whether the terminal's line may be dimmed (default true). */
  color?: boolean;
  /** The clock; without one nothing is printed between calls. */
  clock?: ProgressClock;
  /** Milliseconds between the CI log's lines (default {@linkcode LOG_INTERVAL_MS}). */
  intervalMs?: number;
  /** Milliseconds between redraws on a terminal (default {@linkcode REDRAW_INTERVAL_MS}). */
  redrawMs?: number;
  /** The terminal's width (the live line stays shorter); default 101. */
  columns?: number | undefined;
}

/** The progress a command prints: silent with `--quiet`, else on stderr, timed. */
export function cliProgress(io: CliIo, options: { quiet: boolean }): Progress {
  if (options.quiet) return SILENT_PROGRESS;
  const interval = Number(io.env[INTERVAL_ENV] || NaN);
  return createProgress({
    terminal: io.terminal,
    write: io.err,
    color: useColor(io),
    clock: REAL_PROGRESS_CLOCK,
    ...(Number.isFinite(interval) && interval > 0
      ? { intervalMs: interval }
      : {}),
    columns: io.columns,
  });
}

/**
 * Make a progress reporter. On a terminal the current step and its latest
 * detail share one line that is rewritten in place, and while tests run
 * that line is their counts; elsewhere each step is one plain line,
 * details are not printed, and every `intervalMs` a line says what is
 * still going (the tests' counts while they run).
 */
export function createProgress(options: CreateProgressOptions): Progress {
  const { clock } = options;
  const now = () => clock?.now() ?? 0;
  const counts = new TestCounts(now);
  let step = { label: "", sinceMs: 0 };
  let testsSinceMs: number | undefined;
  let stop: (() => void) | undefined;
  const testsLine = () =>
    formatTestProgress(counts.snapshot(), {
      nowMs: now(),
      sinceMs: testsSinceMs ?? counts.firstStartMs ?? now(),
      compact: options.terminal,
    });
  const view = options.terminal
    ? terminalView(options, { testsLine, counts })
    : logView(options);
  const tick = () => {
    try {
      if (counts.active) view.tests(testsLine());
      else if (step.label !== "") {
        // The step is not repeated: whoever reads the log for a step's
        // line finds it once.
        view.still(
          `still working (the last step began ${
            formatDuration(now() - step.sinceMs)
          } ago)`,
        );
      }
    } catch {
      // progress never stops the work it reports on
    }
  };
  const ticking = () => {
    if (clock === undefined || stop !== undefined) return;
    const ms = options.terminal
      ? options.redrawMs ?? REDRAW_INTERVAL_MS
      : options.intervalMs ?? LOG_INTERVAL_MS;
    stop = clock.every(ms, tick);
  };
  return {
    step(label) {
      step = { label, sinceMs: now() };
      if (label.startsWith(TESTS_STEP)) testsSinceMs = now();
      view.step(label);
      ticking();
    },
    detail(text) {
      view.detail(text);
    },
    note(text) {
      view.note(text);
    },
    end() {
      stop?.();
      stop = undefined;
      step = { label: "", sinceMs: 0 };
      view.end();
    },
    tests(label): TestTally {
      const tally = counts.start(label);
      ticking();
      return tally;
    },
  };
}

/** How one kind of stderr shows progress. */
interface View {
  step(label: string): void;
  detail(text: string): void;
  note(text: string): void;
  /** The tests' counts, while they run. */
  tests(line: string): void;
  /** A step is still going. */
  still(text: string): void;
  end(): void;
}

/** A CI log: plain lines, no escapes, no carriage returns. */
function logView(options: CreateProgressOptions): View {
  const line = (text: string) =>
    options.write(`pawl: ${text.replace(/[\r\n]+/g, " ")}\n`);
  return {
    step: line,
    detail() {},
    note: line,
    tests: line,
    still: line,
    end() {},
  };
}

/** A terminal: one live line, redrawn in place. */
function terminalView(
  options: CreateProgressOptions,
  tests: { testsLine: () => string; counts: TestCounts },
): View {
  const width = Math.max(20, (options.columns ?? 101) - 1);
  const dim = options.color !== false;
  let current = "";
  let live = false;
  const clear = () => {
    if (live) options.write("\r\x1b[2K");
    live = false;
  };
  const draw = (text: string) => {
    clear();
    const line = `… ${text}`.replace(/[\r\n]+/g, " ").slice(0, width);
    options.write(dim ? `\x1b[2m${line}\x1b[0m` : line);
    live = true;
  };
  return {
    step(label) {
      current = label;
      draw(label);
    },
    detail(text) {
      // While tests run, their counts say more than their output's last line.
      if (tests.counts.active) draw(tests.testsLine());
      else draw(`${current}: ${text}`);
    },
    note(text) {
      clear();
      options.write(`${text}\n`);
    },
    tests: draw,
    still() {},
    end: clear,
  };
}

/** A {@linkcode Progress} that keeps what it is told until released. */
export interface HeldProgress extends Progress {
  /** Pass everything kept, and from now on everything, to the target. */
  release(): void;
  /** Drop everything kept and everything after. */
  discard(): void;
}

/**
 * Hold the progress of work started before it is known whether its
 * output belongs on stderr (a clone started while the command line is
 * still being checked): released, it is replayed in order; discarded, it
 * never shows.
 */
export function holdProgress(target: Progress): HeldProgress {
  let state: "held" | "released" | "discarded" = "held";
  const kept: (() => void)[] = [];
  const pass = (call: () => void) => {
    if (state === "released") call();
    else if (state === "held") kept.push(call);
  };
  return {
    step: (label) => pass(() => target.step(label)),
    detail: (text) => pass(() => target.detail(text)),
    note: (text) => pass(() => target.note(text)),
    end: () => pass(() => target.end()),
    // Counts are live or nothing: a run started while held is not counted.
    ...(target.tests === undefined ? {} : {
      tests: (label: string) =>
        state === "released" ? target.tests?.(label) : undefined,
    }),
    release() {
      if (state !== "held") return;
      state = "released";
      for (const call of kept.splice(0)) call();
    },
    discard() {
      state = "discarded";
      kept.length = 0;
    },
  };
}
