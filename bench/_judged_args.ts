/**
 * The command line the benchmarks judge a head with: `main` as the base,
 * a fixed clock, quiet.
 *
 * @module
 */

/** The benchmarks' clock. */
export const BENCH_NOW = "2026-11-30T12:00:00Z";

/** `--repo repo --base main --head head --now BENCH_NOW --quiet`. */
export function judgedArgs(repo: string, head: string): string[] {
  return [
    "--repo",
    repo,
    "--base",
    "main",
    "--head",
    head,
    "--now",
    BENCH_NOW,
    "--quiet",
  ];
}
