/**
 * Reading `--shard I/N`: which share of an audit one machine judges.
 *
 * @module
 */
import { AuditOptionError } from "./audit_option_error.ts";

/** Shard `index` (0-based) of `count`: the pull requests whose number modulo `count` is `index`. */
export interface Shard {
  /** 0-based shard index, below `count`. */
  index: number;
  /** How many shards the audit is split into. */
  count: number;
}

/**
 * Parse `I/N` (0-based `I` below `N`), as a Kubernetes Indexed Job's
 * `JOB_COMPLETION_INDEX` or a CI matrix gives it.
 *
 * @example
 * ```ts
 * import { inShard, parseShard } from "./parse_shard.ts";
 * const shard = parseShard("1/4");
 * if (!inShard(shard, 9) || inShard(shard, 10)) throw new Error("unexpected");
 * ```
 */
export function parseShard(text: string): Shard {
  const m = /^(0|[1-9][0-9]{0,5})\/([1-9][0-9]{0,5})$/.exec(text.trim());
  if (m === null) {
    throw new AuditOptionError(
      `Cannot read --shard "${text}": expected "I/N" with a shard index I from 0 and a shard count N, such as "0/4"`,
    );
  }
  const index = Number(m[1]);
  const count = Number(m[2]);
  if (index >= count) {
    throw new AuditOptionError(
      `Cannot read --shard "${text}": the index must be below the count (shards are numbered from 0 to ${
        count - 1
      })`,
    );
  }
  return { index, count };
}

/** Whether pull request `number` belongs to `shard` (`number % count === index`). */
export function inShard(shard: Shard, number: number): boolean {
  return number % shard.count === shard.index;
}
