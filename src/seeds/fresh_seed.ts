/**
 * One fresh seed per run, derived from the head commit and the
 * orchestrator's clock, so the same inputs always reproduce the same run.
 *
 * @module
 */
import { createHash } from "node:crypto";

/**
 * Derive the run's fresh seed: the first 32 bits of
 * `sha256("<head>\n<now>")`, never 0 (seed 002's harness treats 0 as
 * "use the wall clock").
 *
 * @example
 * ```ts
 * import { freshSeed } from "./fresh_seed.ts";
 * const a = freshSeed("a".repeat(40), "2026-11-30T12:00:00Z");
 * if (a !== freshSeed("a".repeat(40), "2026-11-30T12:00:00Z")) throw new Error();
 * if (a === freshSeed("a".repeat(40), "2026-11-30T12:00:01Z")) throw new Error();
 * ```
 */
export function freshSeed(head: string, now: string): number {
  const digest = createHash("sha256").update(`${head}\n${now}`).digest();
  const seed = digest.readUInt32BE(0);
  return seed === 0 ? 1 : seed;
}
