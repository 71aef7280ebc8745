/**
 * Rewritten assertions, decided by the evidence there is: where mutation
 * ran, the kill sets decide; elsewhere the rewrite blocks.
 *
 * @module
 */
import type { AssertionRewrite } from "../contract/check_registered_tests.ts";
import { type Finding, finding } from "../core/finding.ts";
import { plural } from "../core/plural.ts";

/** Options for {@linkcode settleRewrites}. */
export interface SettleRewritesOptions {
  /**
   * The properties whose head test kills every mutant their base test
   * kills, with how many, when mutation ran; undefined when it did not.
   */
  keptKills: ReadonlyMap<string, number> | undefined;
}

/**
 * One finding per rewrite: `property.assertion_rewritten` (not blocking)
 * when the head's test kills at least every mutant the base's test
 * kills, else `property.assertion_removed` (blocking), saying what
 * evidence was missing. A rewrite the form of the assertions cannot
 * classify is no weakening when the rewritten test still catches every
 * bug the base's catches.
 *
 * @example
 * ```ts
 * import { settleRewrites } from "./settle_rewrites.ts";
 * const rewrite = { key: "000/p", what: 'Property "p" test "test_p" rewrites 1 of the base\'s assertions', path: "tests/test_p.py", line: 3 };
 * const [kept] = settleRewrites([rewrite], { keptKills: new Map([["000/p", 4]]) });
 * const [blocked] = settleRewrites([rewrite], { keptKills: undefined });
 * if (kept?.blocking !== false || blocked?.rule !== "property.assertion_removed") throw new Error();
 * ```
 */
export function settleRewrites(
  rewrites: readonly AssertionRewrite[],
  options: SettleRewritesOptions,
): Finding[] {
  return rewrites.map((rewrite) => {
    const where = { path: rewrite.path, line: rewrite.line };
    const kills = options.keptKills?.get(rewrite.key);
    if (kills !== undefined) {
      return finding(
        "property.assertion_rewritten",
        `${rewrite.what}; the head's test still kills all ${
          plural(kills, "mutant")
        } of the code the base's test kills, so the rewrite is not a weakening`,
        where,
      );
    }
    const why = options.keptKills === undefined
      ? "keep the base's assertion beside the new one, or leave mutation testing on in the base's pawl.toml ([mutation] enabled, the default), where a rewritten test that still kills every mutant the base's kills is accepted"
      : "mutation ran, but it does not show the head's test killing every mutant the base's test kills; keep the base's assertion beside the new one";
    return finding(
      "property.assertion_removed",
      `${rewrite.what}: ${why}`,
      where,
    );
  });
}
