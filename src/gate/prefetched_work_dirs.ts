/**
 * Fresh working copies for the test runs, one made ahead: exporting a large
 * head tree takes as long as a short test run, so the next copy is made
 * while the current run's tests execute instead of after them.
 *
 * @module
 */

/** The work directories of one judgement. */
export interface WorkDirs {
  /** A fresh directory no earlier run has touched. */
  next(): Promise<string>;
  /** Wait for the copy made ahead (its failure is ignored): call before removing the workspace. */
  settle(): Promise<void>;
}

/** Options for {@linkcode prefetchedWorkDirs}. */
export interface PrefetchedWorkDirsOptions {
  /**
   * How many runs are expected: no copy is made ahead beyond this many, so
   * a judgement with one run never pays for a second export. More are
   * still made on demand.
   */
  expected: number;
}

/**
 * Hand out directories from `make` (called with 1, 2, ...), each used
 * once. Once a directory is handed out the next one is started if fewer
 * than `expected` have been made, so at most one is made ahead; a failure
 * to make one surfaces from the `next()` that takes it.
 *
 * @example
 * ```ts
 * import { prefetchedWorkDirs } from "./prefetched_work_dirs.ts";
 * const dirs = prefetchedWorkDirs((n) => Promise.resolve(`work-${n}`), { expected: 2 });
 * if (await dirs.next() !== "work-1" || await dirs.next() !== "work-2") throw new Error();
 * await dirs.settle();
 * ```
 */
export function prefetchedWorkDirs(
  make: (n: number) => Promise<string>,
  options: PrefetchedWorkDirsOptions,
): WorkDirs {
  let made = 0;
  let ahead: Promise<string> | undefined;
  const start = (): Promise<string> => {
    made += 1;
    const dir = make(made);
    // Handled here so an unused copy that fails is not an unhandled
    // rejection; the `next()` that takes it still sees the error.
    dir.catch(() => undefined);
    return dir;
  };
  return {
    async next(): Promise<string> {
      const taken = ahead ?? start();
      ahead = undefined;
      const dir = await taken;
      if (made < options.expected) ahead = start();
      return dir;
    },
    async settle(): Promise<void> {
      await ahead?.catch(() => undefined);
    },
  };
}
