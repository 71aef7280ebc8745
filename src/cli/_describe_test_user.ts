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
 * if (line !== "The tests ran as uid 64123 (gid 64123) in the bwrap sandbox, not as pawl's own uid 0") throw new Error(line);
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
  const uids = unique(isolated.map((s) => `${s.uid}`));
  const gids = unique(isolated.map((s) => `${s.gid ?? s.uid}`));
  const tiers = unique(isolated.map((s) => s.tier));
  const mixed = isolated.length < sandboxes.length
    ? `; some ran as ${self} (--isolation none)`
    : "";
  return `The tests ran as ${plural("uid", uids)} (${
    plural("gid", gids)
  }) in the ${tiers.join("/")} sandbox, not as ${self}${mixed}`;
}

function unique(values: readonly string[]): string[] {
  return [...new Set(values)];
}

function plural(word: string, values: readonly string[]): string {
  return `${word}${values.length === 1 ? "" : "s"} ${values.join(", ")}`;
}
