/**
 * Fresh working copies for the test runs, one made ahead: exporting a large
 * head tree takes as long as a short test run, so the next copy is made
 * while the current run's tests execute instead of after them. Each copy
 * has the name the plan gave its run, so runs that overlap take their
 * copies in any order and each still gets the same name.
 *
 * @module
 */

/** The planned work directories of one judgement. */
export interface WorkDirs {
  /** The fresh directory `name` (one of the planned names), handed out once. */
  take(name: string): Promise<string>;
  /**
   * Start making the first `count` names of the order now, before any is
   * taken (runs that start together then wait for one export, not two).
   */
  begin(count: number): void;
  /** Make ahead in `order` from now on (once the runs are planned). */
  plan(order: readonly string[]): void;
  /** The copy `name` once made, when it was started, without taking it. */
  peek(name: string): Promise<string> | undefined;
  /** Wait for the copy made ahead (its failure is ignored): call before removing the workspace. */
  settle(): Promise<void>;
}

/** Options for {@linkcode prefetchedWorkDirs}. */
export interface PrefetchedWorkDirsOptions {
  /**
   * The names the runs are expected to take, in the order they usually
   * do: no copy is made ahead beyond these, so a judgement with one run
   * never pays for a second export.
   */
  order: readonly string[];
}

/**
 * Hand out directories made by `make(name)`, each once. Once one is handed
 * out and no copy is in flight, the first name of `order` not yet made is
 * started, so at most one is made ahead (besides those `begin` started);
 * a failure to make one surfaces
 * from the `take()` that takes it. Taking a name twice is a programming
 * error and throws.
 *
 * @example
 * ```ts
 * import { prefetchedWorkDirs } from "./prefetched_work_dirs.ts";
 * const dirs = prefetchedWorkDirs((name) => Promise.resolve(`/w/${name}`), {
 *   order: ["work-1", "work-2"],
 * });
 * if (await dirs.take("work-1") !== "/w/work-1") throw new Error();
 * if (await dirs.take("work-2") !== "/w/work-2") throw new Error();
 * await dirs.settle();
 * ```
 */
export function prefetchedWorkDirs(
  make: (name: string) => Promise<string>,
  options: PrefetchedWorkDirsOptions,
): WorkDirs {
  let order = options.order;
  const started = new Map<string, Promise<string>>();
  const taken = new Set<string>();
  let ahead: Promise<string> | undefined;
  const start = (name: string): Promise<string> => {
    const dir = make(name);
    // Handled here so an unused copy that fails is not an unhandled
    // rejection; the `take()` that takes it still sees the error.
    dir.catch(() => undefined);
    started.set(name, dir);
    return dir;
  };
  const startAhead = () => {
    if (ahead !== undefined) return;
    const name = order.find((n) => !started.has(n));
    if (name === undefined) return;
    const dir = start(name);
    ahead = dir;
    const done = () => {
      if (ahead === dir) ahead = undefined;
    };
    dir.then(done, done);
  };
  return {
    async take(name: string): Promise<string> {
      if (taken.has(name)) {
        throw new Error(`Work directory "${name}" was already taken`);
      }
      taken.add(name);
      const dir = started.get(name) ?? start(name);
      const made = await dir;
      startAhead();
      return made;
    },
    begin(count: number): void {
      for (const name of order.slice(0, count)) {
        if (!started.has(name)) start(name);
      }
    },
    peek(name: string): Promise<string> | undefined {
      return started.get(name);
    },
    plan(next: readonly string[]): void {
      order = next;
    },
    async settle(): Promise<void> {
      await Promise.allSettled(started.values());
    },
  };
}
