/**
 * What every benchmark prints beside its ratios: the median of its runs
 * and the machine's load while they ran.
 *
 * @module
 */

/** The median of `values` (the mean of the middle two for an even count). */
export function median(values: readonly number[]): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? sorted[mid] as number
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** The 1-, 5- and 15-minute load averages, or "unknown". */
export function loadAverage(): string {
  try {
    return Deno.readTextFileSync("/proc/loadavg").split(" ").slice(0, 3).join(
      " ",
    );
  } catch {
    return "unknown";
  }
}
