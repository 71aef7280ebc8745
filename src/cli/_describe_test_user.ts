/**
 * One line saying which uid a judgement's tests ran as, so a person can
 * tell at a glance whether the sandbox dropped privileges.
 *
 * @module
 */
import type { IsolationReport } from "../sandbox/sandbox.ts";

/**
 * Describe the users the tests of one or more judgements ran as, given
 * each sandbox's report and the uid pawl itself runs as (the tests' uid at
 * tier `none`). Several judgements usually share one leased uid; distinct
 * ones are listed in order.
 *
 * @example
 * ```ts
 * import { describeTestUser } from "./_describe_test_user.ts";
 * const line = describeTestUser([{ tier: "bwrap", network: "isolated", uid: 64123, gid: 64123, notes: [] }], 0);
 * if (line !== "The tests ran as uid 64123 (the same gid) in the bwrap sandbox, not as pawl's own uid 0") throw new Error(line);
 * ```
 */
export function describeTestUser(
  sandboxes: readonly IsolationReport[],
  selfUid: number | null,
): string | undefined {
  if (sandboxes.length === 0) return undefined;
  const self = selfUid === null
    ? "pawl's own user"
    : `pawl's own uid ${selfUid}`;
  const isolated = sandboxes.filter((s) =>
    s.tier !== "none" && s.uid !== undefined
  );
  if (isolated.length === 0) {
    return `The tests ran as ${self}: no uid isolation (--isolation none)`;
  }
  const uids = isolated.map((s) => s.uid!);
  const sameIds = isolated.every((s) => (s.gid ?? s.uid) === s.uid);
  const ids = sameIds
    ? `${labelled("uid", uids)} (the same gid)`
    : `${labelled("uid", uids)} (${
      labelled("gid", isolated.map((s) => s.gid ?? s.uid!))
    })`;
  const tiers = [...new Set(isolated.map((s) => s.tier))].sort();
  const mixed = isolated.length < sandboxes.length
    ? `; some ran as ${self} (--isolation none)`
    : "";
  return `The tests ran as ${ids} in the ${
    tiers.join("/")
  } sandbox, not as ${self}${mixed}`;
}

/**
 * Distinct ids in ascending order, runs of consecutive ids as `A–B`:
 * judgements side by side lease neighbouring uids in any order.
 */
export function compactIds(ids: readonly number[]): string {
  const sorted = [...new Set(ids)].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < sorted.length;) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + 1) j++;
    parts.push(
      j - i >= 2
        ? `${sorted[i]}–${sorted[j]}`
        : sorted.slice(i, j + 1).join(", "),
    );
    i = j + 1;
  }
  return parts.join(", ");
}

function labelled(word: string, ids: readonly number[]): string {
  return `${new Set(ids).size === 1 ? word : `${word}s`} ${compactIds(ids)}`;
}
