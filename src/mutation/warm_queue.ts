/**
 * The jobs the warm sessions of one side share: each taken once, in
 * order, and none after the deadline; those left then are cut, never
 * guessed.
 *
 * @module
 */
import type { WarmJob, WarmQueue } from "./warm_session.ts";

/** A queue of warm jobs with a deadline on a monotonic clock. */
export class WarmJobQueue implements WarmQueue {
  readonly #jobs: readonly WarmJob[];
  readonly #deadline: number;
  readonly #clock: () => number;
  #next = 0;
  #cut = false;
  /** About how many jobs one of the sessions takes. */
  readonly share: number;

  /**
   * Jobs in order, handed out until `clock()` reaches `deadline`, to
   * `sessions` sessions.
   */
  constructor(
    jobs: readonly WarmJob[],
    options: { deadline: number; clock: () => number; sessions: number },
  ) {
    this.#jobs = jobs;
    this.#deadline = options.deadline;
    this.#clock = options.clock;
    this.share = Math.ceil(jobs.length / Math.max(1, options.sessions));
  }

  /** The next job, or undefined when none is left or the deadline passed. */
  take(): WarmJob | undefined {
    // Stryker disable next-line ConditionalExpression,EqualityOperator: #next never passes the length; at the length the clock is read for nothing, and `cut` and `left` are empty either way
    if (this.#next >= this.#jobs.length) return undefined;
    if (this.#cut || this.#clock() >= this.#deadline) {
      this.#cut = true;
      return undefined;
    }
    return this.#jobs[this.#next++];
  }

  /** Jobs the deadline left untaken. */
  get cut(): readonly WarmJob[] {
    return this.#cut ? this.#jobs.slice(this.#next) : [];
  }

  /** Jobs nobody took although the deadline had not passed (every session ended first). */
  get left(): readonly WarmJob[] {
    return this.#cut ? [] : this.#jobs.slice(this.#next);
  }
}
