/**
 * Which listed pull requests an audit judges: `--prs`, `--since` and
 * `--shard` together.
 *
 * @module
 */
import { parseRfc3339 } from "../core/parse_rfc3339.ts";
import type { Instant } from "../core/parse_now.ts";
import {
  inPullRequestRanges,
  type PullRequestRange,
} from "./parse_pull_request_numbers.ts";
import { inShard, type Shard } from "./parse_shard.ts";

/** Options for {@linkcode selectPullRequests}; each one given narrows the selection. */
export interface SelectPullRequestsOptions {
  /** `--prs`: only these numbers. */
  numbers?: readonly PullRequestRange[];
  /** `--since`: only pull requests created at or after this instant. */
  since?: Instant;
  /** `--shard`: only this shard's share. */
  shard?: Shard;
}

/**
 * The pull requests every given option admits, ascending by number, each
 * once.
 *
 * @example
 * ```ts
 * import { selectPullRequests } from "./select_pull_requests.ts";
 * import { parseSince } from "./parse_since.ts";
 * const pulls = [5, 4, 3, 2, 1].map((number) => ({ number, createdAt: `2026-11-0${number}T00:00:00Z` }));
 * const picked = selectPullRequests(pulls, {
 *   numbers: [{ first: 2, last: 5 }],
 *   since: parseSince("2026-11-03"),
 *   shard: { index: 1, count: 2 },
 * });
 * if (picked.map((p) => p.number).join() !== "3,5") throw new Error("unexpected");
 * ```
 */
export function selectPullRequests<
  T extends { number: number; createdAt: string },
>(pulls: readonly T[], options: SelectPullRequestsOptions): T[] {
  const byNumber = new Map<number, T>();
  for (const pull of pulls) {
    if (byNumber.has(pull.number)) continue;
    if (
      options.numbers !== undefined &&
      !inPullRequestRanges(options.numbers, pull.number)
    ) continue;
    if (options.shard !== undefined && !inShard(options.shard, pull.number)) {
      continue;
    }
    if (options.since !== undefined) {
      const created = parseRfc3339(pull.createdAt);
      if (created === undefined || created < options.since.epochMs) continue;
    }
    byNumber.set(pull.number, pull);
  }
  return [...byNumber.values()].sort((a, b) => a.number - b.number);
}
