/**
 * The counts progress shows while tests run: per run, what it selected,
 * how many of its tests passed, failed or were skipped so far, and which
 * test it is running now (the one after the last that reported, in the
 * order the run collected them). Times come from the caller's clock.
 *
 * @module
 */
import type { TallyOutcome, TestTally } from "../core/progress.ts";

/** One run's counts at a moment. */
export interface RunCounts {
  /** What the run's tests are called (`suite`, `properties`...). */
  label: string;
  /** Tests it selected, once it collected them. */
  selected: number | null;
  /** Tests that passed so far. */
  passed: number;
  /** Tests that failed (or errored) so far. */
  failed: number;
  /** Tests skipped so far. */
  skipped: number;
  /** Whether the run ended. */
  ended: boolean;
  /** When the run started, on the clock. */
  startedMs: number;
  /** The test it is running now, and since when. */
  running?: { nodeId: string; sinceMs: number };
}

const RANK: Record<TallyOutcome, number> = { failed: 0, skipped: 1, passed: 2 };

/** One run's tally. */
class RunTally implements TestTally {
  readonly counts: RunCounts;
  #order: readonly string[] = [];
  #index = new Map<string, number>();
  #outcomes = new Map<string, TallyOutcome>();
  #next = 0;
  #sinceMs: number;
  #now: () => number;

  constructor(label: string, now: () => number) {
    this.#now = now;
    this.#sinceMs = now();
    this.counts = {
      label,
      selected: null,
      passed: 0,
      failed: 0,
      skipped: 0,
      ended: false,
      startedMs: this.#sinceMs,
    };
  }

  collected(nodeIds: readonly string[]): void {
    this.#order = [...this.#order, ...nodeIds];
    nodeIds.forEach((id, i) =>
      this.#index.set(id, this.#order.length - nodeIds.length + i)
    );
    this.counts.selected = this.#order.length;
    this.#sinceMs = this.#now();
  }

  reported(nodeId: string, outcome: TallyOutcome): void {
    const was = this.#outcomes.get(nodeId);
    if (was !== undefined && RANK[was] <= RANK[outcome]) return;
    if (was !== undefined) this.counts[was]--;
    this.counts[outcome]++;
    this.#outcomes.set(nodeId, outcome);
    const at = this.#index.get(nodeId);
    if (at !== undefined && at + 1 > this.#next) {
      this.#next = at + 1;
      this.#sinceMs = this.#now();
    }
  }

  end(): void {
    this.counts.ended = true;
  }

  /** The counts, with the test running now. */
  snapshot(): RunCounts {
    const { running: _, ...counts } = this.counts;
    const nodeId = this.#order[this.#next];
    return nodeId === undefined || counts.ended || this.#outcomes.has(nodeId)
      ? counts
      : { ...counts, running: { nodeId, sinceMs: this.#sinceMs } };
  }
}

/** Every run's tally, in the order they started. */
export class TestCounts {
  #runs: RunTally[] = [];
  #now: () => number;

  /** Counts on `now` (milliseconds, any origin). */
  constructor(now: () => number) {
    this.#now = now;
  }

  /** A new run's tally. */
  start(label: string): TestTally {
    const run = new RunTally(label, this.#now);
    this.#runs.push(run);
    return run;
  }

  /** Whether any run started. */
  get started(): boolean {
    return this.#runs.length > 0;
  }

  /** Whether a run is still going. */
  get active(): boolean {
    return this.#runs.some((r) => !r.counts.ended);
  }

  /** When the first run started. */
  get firstStartMs(): number | undefined {
    return this.#runs[0]?.counts.startedMs;
  }

  /** Each run's counts, in the order they started. */
  snapshot(): RunCounts[] {
    return this.#runs.map((r) => r.snapshot());
  }
}
