/**
 * A stand-in for the Bottleneck group the throttling plugin spaces write
 * requests with, so the spacing can be scaled with the retry delays
 * (tests run it at a few milliseconds). Only what the plugin calls is
 * implemented: `group.key(id).schedule(options, fn, ...args)`.
 *
 * @module
 */

/**
 * One limiter: jobs start one at a time, at least `minTime` ms apart. The
 * gap is a timer armed when a job starts, so no clock is ever read.
 */
class SpacedLimiter {
  #minTime: number;
  #gap: Promise<void> = Promise.resolve();

  constructor(minTime: number) {
    this.#minTime = minTime;
  }

  schedule<T>(...args: unknown[]): Promise<T> {
    // Bottleneck's signature: (options?, fn, ...fnArgs).
    const start = typeof args[0] === "function" ? 0 : 1;
    const fn = args[start] as (...a: unknown[]) => Promise<T> | T;
    const fnArgs = args.slice(start + 1);
    const turn = this.#gap;
    this.#gap = turn.then(() =>
      new Promise<void>((resolve) => setTimeout(resolve, this.#minTime))
    );
    return turn.then(() => fn(...fnArgs));
  }
}

/** A group of limiters by key, like `Bottleneck.Group`. */
export class SpacedGroup {
  #minTime: number;
  #limiters = new Map<string, SpacedLimiter>();

  /** Jobs of one key start at least `minTime` ms apart. */
  constructor(minTime: number) {
    this.#minTime = minTime;
  }

  /** The limiter for `key`. */
  key(key = ""): SpacedLimiter {
    let limiter = this.#limiters.get(key);
    if (limiter === undefined) {
      limiter = new SpacedLimiter(this.#minTime);
      this.#limiters.set(key, limiter);
    }
    return limiter;
  }
}
