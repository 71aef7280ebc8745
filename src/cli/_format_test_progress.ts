/**
 * One line of progress while tests run: the time since they started, each
 * run's counts so far, and the test running now. Plain text, one line,
 * shared by the CI log and the terminal's live line.
 *
 * @module
 */
import type { RunCounts } from "./_test_counts.ts";

/** The longest node id shown; a longer one is cut in its middle. */
export const MAX_SHOWN_NODE_ID = 160;

/**
 * `tests 1 min 20 s; suite 118/300: 117 passed, 1 failed, 0 skipped;
 * properties 3/5: 3 passed, 0 failed, 0 skipped; running tests/test_x.py::test_y for 12 s`.
 * Runs with the same label (a suite's reruns) are summed; the test shown
 * is the one running in the run that started first among those still going.
 *
 * @example
 * ```ts
 * import { formatTestProgress } from "./_format_test_progress.ts";
 * const line = formatTestProgress([{
 *   label: "suite", selected: 3, passed: 1, failed: 0, skipped: 0,
 *   ended: false, startedMs: 0, running: { nodeId: "t.py::b", sinceMs: 5_000 },
 * }], { nowMs: 20_000, sinceMs: 0 });
 * if (line !== "tests 20 s; suite 1/3: 1 passed, 0 failed, 0 skipped; running t.py::b for 15 s") throw new Error(line);
 * ```
 */
export function formatTestProgress(
  runs: readonly RunCounts[],
  clock: { nowMs: number; sinceMs: number; compact?: boolean },
): string {
  const parts = [`tests ${formatDuration(clock.nowMs - clock.sinceMs)}`];
  if (clock.compact === true) parts.push(...compactRuns(grouped(runs)));
  else for (const group of grouped(runs)) parts.push(describeRun(group));
  const running = runs.find((r) => !r.ended && r.running !== undefined)
    ?.running;
  if (running !== undefined) {
    const ms = clock.nowMs - running.sinceMs;
    parts.push(
      `running ${shownNodeId(running.nodeId)}${
        ms < 1000 ? "" : ` for ${formatDuration(ms)}`
      }`,
    );
  }
  return parts.join("; ");
}

/** `45 s`, `1 min 20 s`, `2 h 5 min`. */
export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${s % 60} s`;
  return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
}

/**
 * For a terminal's line: the outcomes summed over the runs, then how far
 * each run got: `12 passed, 1 failed; suite 8/10, properties 2/2`.
 */
function compactRuns(runs: readonly RunCounts[]): string[] {
  const sum = (key: "passed" | "failed" | "skipped") =>
    runs.reduce((n, r) => n + r[key], 0);
  const skipped = sum("skipped");
  return [
    `${sum("passed")} passed, ${sum("failed")} failed${
      skipped === 0 ? "" : `, ${skipped} skipped`
    }`,
    runs.map((r) => `${r.label} ${howFar(r)}`).join(", "),
  ];
}

function describeRun(run: RunCounts): string {
  const counts =
    `${run.passed} passed, ${run.failed} failed, ${run.skipped} skipped`;
  if (run.ended) return `${run.label} done: ${counts}`;
  const far = howFar(run);
  return far === "collecting"
    ? `${run.label} collecting`
    : `${run.label} ${far}: ${counts}`;
}

/**
 * `8/10`; only the tests done when the selection is not known or is
 * smaller (a run whose tests pytest-xdist's workers collected);
 * `collecting` before anything is known.
 */
function howFar(run: RunCounts): string {
  const done = run.passed + run.failed + run.skipped;
  if (run.selected !== null && run.selected >= done) {
    return `${done}/${run.selected}`;
  }
  return run.selected === null && done === 0 ? "collecting" : String(done);
}

/** Runs with one label summed, in the order the first of each started. */
function grouped(runs: readonly RunCounts[]): RunCounts[] {
  const groups = new Map<string, RunCounts>();
  for (const run of runs) {
    const was = groups.get(run.label);
    groups.set(
      run.label,
      was === undefined ? run : {
        label: run.label,
        selected: was.selected === null || run.selected === null
          ? null
          : was.selected + run.selected,
        passed: was.passed + run.passed,
        failed: was.failed + run.failed,
        skipped: was.skipped + run.skipped,
        ended: was.ended && run.ended,
        startedMs: was.startedMs,
      },
    );
  }
  return [...groups.values()];
}

/**
 * A node id as it may be printed: it comes from the tests, so control
 * characters (a terminal's escapes) become `?`, and a long one is cut.
 */
function shownNodeId(nodeId: string): string {
  // deno-lint-ignore no-control-regex
  const plain = nodeId.replace(/[\u0000-\u001f\u007f-\u009f]/g, "?");
  if (plain.length <= MAX_SHOWN_NODE_ID) return plain;
  const half = Math.floor((MAX_SHOWN_NODE_ID - 1) / 2);
  return `${plain.slice(0, half)}…${plain.slice(-half)}`;
}
