/**
 * Reading `--prs`: pull request numbers and ranges.
 *
 * @module
 */
import { AuditOptionError } from "./audit_option_error.ts";

/** An inclusive range of pull request numbers; `last` is absent for `N..` (no upper end). */
export interface PullRequestRange {
  /** The first number in the range. */
  first: number;
  /** The last number in the range, or absent for no upper end. */
  last?: number;
}

const NUMBER = /^[1-9][0-9]{0,9}$/;

/**
 * Parse `--prs`: a comma-separated list of numbers (`3,5,9`), inclusive
 * ranges (`120..180`) and open ranges (`120..`), in any mix.
 *
 * @example
 * ```ts
 * import { parsePullRequestNumbers } from "./parse_pull_request_numbers.ts";
 * const ranges = parsePullRequestNumbers("3, 120..180, 400..");
 * if (ranges.length !== 3 || ranges[1]?.last !== 180 || ranges[2]?.last !== undefined) {
 *   throw new Error("unexpected");
 * }
 * ```
 */
export function parsePullRequestNumbers(text: string): PullRequestRange[] {
  const fail = (reason: string) =>
    new AuditOptionError(`Cannot read --prs "${text}": ${reason}`);
  const items = text.split(",").map((item) => item.trim());
  if (items.every((item) => item === "")) {
    throw fail('expected numbers or ranges such as "3,5,9" or "120..180"');
  }
  const ranges: PullRequestRange[] = [];
  for (const item of items) {
    if (item === "") throw fail("an item between two commas is empty");
    const [first, last, ...more] = item.split("..");
    if (
      first === undefined || !isNumber(first) || more.length > 0 ||
      (last !== undefined && last !== "" && !isNumber(last))
    ) {
      throw fail(
        `"${item}" is not a pull request number or a range such as "120..180"`,
      );
    }
    if (last === undefined || last === "") {
      ranges.push(
        last === undefined
          ? { first: Number(first), last: Number(first) }
          : { first: Number(first) },
      );
      continue;
    }
    if (Number(last) < Number(first)) {
      throw fail(`the range "${item}" runs backwards`);
    }
    ranges.push({ first: Number(first), last: Number(last) });
  }
  return ranges;
}

/**
 * Whether `number` is in one of `ranges`.
 *
 * @example
 * ```ts
 * import { inPullRequestRanges } from "./parse_pull_request_numbers.ts";
 * if (!inPullRequestRanges([{ first: 120, last: 180 }], 150)) throw new Error("unexpected");
 * ```
 */
export function inPullRequestRanges(
  ranges: readonly PullRequestRange[],
  number: number,
): boolean {
  return ranges.some((r) =>
    number >= r.first && (r.last === undefined || number <= r.last)
  );
}

function isNumber(text: string): boolean {
  return NUMBER.test(text) && Number(text) <= 2 ** 31 - 1;
}
