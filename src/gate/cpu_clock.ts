/**
 * A clock for budgets that must not depend on the machine's load: the CPU
 * time pawl's process and the processes it has waited for spent, in
 * milliseconds. A busy machine makes the wall clock run ahead of the work
 * done, so a wall-clock budget would cut more on a busy runner and the
 * verdict would say so; CPU time counts the work itself.
 *
 * Read from `/proc/self/stat` (utime, stime, cutime, cstime). A process
 * pawl has not waited for yet (a warm interpreter still running) counts
 * once it ends.
 *
 * @module
 */

/** Clock ticks per second of `/proc/<pid>/stat` (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

/**
 * The CPU time of `stat` (a `/proc/<pid>/stat` line), children waited for
 * included, in milliseconds; undefined when it cannot be read.
 *
 * @example
 * ```ts
 * import { cpuMillisOf } from "./cpu_clock.ts";
 * const line = "7 (a b) S 1 7 7 0 -1 0 0 0 0 0 12 3 40 5 20 0";
 * if (cpuMillisOf(line) !== 600) throw new Error();
 * ```
 */
export function cpuMillisOf(stat: string): number | undefined {
  // The command name is in parentheses and may hold spaces: fields count
  // from after its closing one (the state is field 3).
  const rest = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const ticks = rest.slice(11, 15).map(Number);
  if (ticks.length !== 4 || ticks.some((t) => !Number.isFinite(t))) {
    return undefined;
  }
  return ticks.reduce((a, b) => a + b, 0) * 1000 / TICKS_PER_SECOND;
}

/**
 * The CPU clock of this process; where `/proc` cannot be read, one that
 * never advances (the budget then never cuts, and `max_mutants` alone
 * bounds the work).
 */
export function cpuClock(): () => number {
  return () => {
    try {
      return cpuMillisOf(Deno.readTextFileSync("/proc/self/stat")) ?? 0;
    } catch {
      return 0;
    }
  };
}
