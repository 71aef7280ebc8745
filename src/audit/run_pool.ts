/**
 * A bounded worker pool that tells each job which worker runs it, so a
 * worker can own a resource no other may touch at the same time (its own
 * sandbox uid).
 *
 * @module
 */

/** Options for {@linkcode runPool}. */
export interface RunPoolOptions {
  /** Most jobs in flight at once (at least 1). */
  concurrency: number;
}

/**
 * Run `job` on every item, at most `concurrency` at a time, and return
 * the results in item order. Worker `w` (0-based, below `concurrency`)
 * runs one job at a time, so no two jobs with the same worker overlap. A
 * job that throws stops new jobs from starting; the first error is thrown
 * once the running ones ended.
 *
 * @example
 * ```ts
 * import { runPool } from "./run_pool.ts";
 * const busy = new Set<number>();
 * const out = await runPool([1, 2, 3, 4], { concurrency: 2 }, async (n, worker) => {
 *   if (busy.has(worker)) throw new Error("worker reused while busy");
 *   busy.add(worker);
 *   await new Promise((r) => setTimeout(r, 5 * n));
 *   busy.delete(worker);
 *   return n * 10;
 * });
 * if (out.join() !== "10,20,30,40") throw new Error("unexpected");
 * ```
 */
export async function runPool<T, R>(
  items: readonly T[],
  options: RunPoolOptions,
  job: (item: T, worker: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  let failed = false;
  let firstError: unknown;
  const work = async (worker: number) => {
    while (!failed && next < items.length) {
      const index = next++;
      try {
        results[index] = await job(items[index]!, worker);
      } catch (error) {
        if (!failed) firstError = error;
        failed = true;
      }
    }
  };
  const workers = Math.max(1, Math.min(options.concurrency, items.length));
  await Promise.all(Array.from({ length: workers }, (_, w) => work(w)));
  if (failed) throw firstError;
  return results;
}
