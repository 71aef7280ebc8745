/**
 * "Did you mean" for misspelt keys: the closest known name by edit distance.
 *
 * @module
 */

/**
 * The known name closest to `name` by Levenshtein distance, when it is close
 * enough to be a slip (at most a third of the longer name's length, and at
 * most 3 edits); `undefined` otherwise. Ties keep the order of `known`.
 *
 * @example
 * ```ts
 * import { didYouMean } from "./did_you_mean.ts";
 * if (didYouMean("timout_seconds", ["runner", "timeout_seconds"]) !== "timeout_seconds") {
 *   throw new Error();
 * }
 * if (didYouMean("colour", ["runner"]) !== undefined) throw new Error();
 * ```
 */
export function didYouMean(
  name: string,
  known: readonly string[],
): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of known) {
    if (candidate === name) continue;
    const distance = editDistance(name.toLowerCase(), candidate.toLowerCase());
    const allowed = Math.min(
      3,
      Math.floor(Math.max(name.length, candidate.length) / 3),
    );
    if (distance <= allowed && distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] ?? 0) +
        (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(
        Math.min(
          (previous[j] ?? 0) + 1,
          (current[j - 1] ?? 0) + 1,
          substitution,
        ),
      );
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}
