/**
 * Seed 002's freeze validator (`tools/check_flake_freeze.py`) as findings:
 * a freeze pins a seed with an owner, a witness and an expiry, and never
 * skips.
 *
 * @module
 */
import { type Finding, finding } from "../../core/finding.ts";
import { isFreezeExpired } from "./freeze_expiry.ts";
import type { FlakeFreeze } from "./read_flake_freeze.ts";

/** Options for {@linkcode checkFlakeFreeze}. */
export interface CheckFlakeFreezeOptions {
  /** The orchestrator's clock, epoch milliseconds (from `--now`). */
  now: number;
  /** Repository-relative path of the freeze file, for findings. */
  path: string;
}

/**
 * Judge every freeze at `now`, as the seed's validator does, but reporting
 * every problem instead of stopping at the first:
 * - `skip` missing or anything but the boolean `false` (`true`, `"false"`,
 *   `0`, `null`) → `freeze.skip_not_false` ("a freeze that skips is a
 *   deleted test with extra YAML");
 * - a missing or blank `owner` or `witness_sha256` → `freeze.incomplete`
 *   ("owner and witness required"); so is a missing or blank `reason`,
 *   which pawl requires of every freeze;
 * - expired (see {@linkcode isFreezeExpired}: a date holds through its UTC
 *   day) → `freeze.expired` ("expired freeze is a hard fail").
 * Unknown keys never reach this function: the reader refuses them.
 *
 * @example
 * ```ts
 * import { checkFlakeFreeze } from "./check_flake_freeze.ts";
 * import { NO_FREEZE_LINES } from "./read_flake_freeze.ts";
 * const findings = checkFlakeFreeze({
 *   lines: NO_FREEZE_LINES,
 *   freezes: [{
 *     id: "F-1", test: "tests/test_a.py::test_a", seed: 7, witness: "ab", owner: "me",
 *     expires: "2026-09-15", reason: "r", skip: true,
 *   }],
 * }, { now: Date.parse("2026-09-08T00:00:00Z"), path: "flake_freeze.yml" });
 * if (findings.map((f) => f.rule).join() !== "freeze.skip_not_false") throw new Error();
 * ```
 */
export function checkFlakeFreeze(
  file: FlakeFreeze,
  options: CheckFlakeFreezeOptions,
): Finding[] {
  const { now, path } = options;
  const lines = file.lines;
  const findings: Finding[] = [];
  for (const freeze of file.freezes) {
    const name = JSON.stringify(freeze.id);
    const at = (key: string) => ({
      path,
      line: lines.entry(freeze.id, key) ?? lines.entry(freeze.id),
    });
    if (freeze.skip !== false) {
      findings.push(finding(
        "freeze.skip_not_false",
        freeze.skip === undefined
          ? `Freeze ${name} has no "skip" key: write skip: false; a freeze pins a seed, it never skips the test`
          : `Freeze ${name} has skip ${
            JSON.stringify(freeze.skip) ?? String(freeze.skip)
          }, not false: a freeze that skips is a deleted test with extra YAML`,
        at("skip"),
      ));
    }
    const missing = [
      freeze.owner.trim() === "" ? "owner" : undefined,
      freeze.witness.trim() === "" ? "witness_sha256" : undefined,
      freeze.reason.trim() === "" ? "reason" : undefined,
    ].filter((key) => key !== undefined);
    if (missing.length > 0) {
      findings.push(finding(
        "freeze.incomplete",
        `Freeze ${name} has no ${
          missing.map((key) => JSON.stringify(key)).join(" and no ")
        }: every freeze needs an owner, a witness hash and a reason`,
        // Stryker disable next-line StringLiteral: `missing` is not empty here, so the fallback key is never used
        at(missing[0] ?? "id"),
      ));
    }
    if (isFreezeExpired(freeze.expires, now)) {
      findings.push(finding(
        "freeze.expired",
        `Freeze ${name} expired on ${
          JSON.stringify(freeze.expires)
        }: seed ${freeze.seed} is now a required pass; make the contract hold on it, then a human deletes the freeze`,
        at("expires"),
      ));
    }
  }
  return findings;
}
