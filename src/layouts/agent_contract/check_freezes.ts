/**
 * Layer 3 of seed 000: a freeze is a time-boxed, owned, budgeted exception,
 * never an open-ended skip.
 *
 * @module
 */
import { plural } from "../../core/plural.ts";
import { type Finding, finding } from "../../core/finding.ts";
import { parseRfc3339 } from "../../core/parse_rfc3339.ts";
import type { AgentContract } from "./read_agent_contract.ts";

/** Options for {@linkcode checkFreezes}. */
export interface CheckFreezesOptions {
  /** The orchestrator's clock, epoch milliseconds (from `--now`). */
  now: number;
  /** Repository-relative path of the contract file, for findings. */
  path: string;
}

/**
 * Judge the freeze ledger at `now`: every freeze needs a non-blank owner and
 * reason (`freeze.incomplete`), an expiry strictly after `now`
 * (`freeze.expired`; an unparsable expiry counts as expired), and at least
 * one remaining rerun (`freeze.no_reruns`); the number of freezes listed
 * may not exceed `max_active_freezes` (`freeze.over_cap`). Every listed
 * freeze counts towards the cap, expired or not, as in the seed.
 *
 * @example
 * ```ts
 * import { checkFreezes } from "./check_freezes.ts";
 * import { NO_LINES } from "./read_agent_contract.ts";
 * const findings = checkFreezes({
 *   version: 1, properties: [], fixtures: [], maxActiveFreezes: 1, lines: NO_LINES,
 *   freezes: [{ id: "t", owner: "me", reason: "PAY-1", expires: "2026-01-01T00:00:00Z", remainingReruns: 1 }],
 * }, { now: Date.parse("2026-01-02T00:00:00Z"), path: "tests/agent_contract.yaml" });
 * if (findings[0]?.rule !== "freeze.expired") throw new Error();
 * ```
 */
export function checkFreezes(
  contract: AgentContract,
  options: CheckFreezesOptions,
): Finding[] {
  const { now, path } = options;
  if (!Number.isFinite(now)) {
    throw new RangeError(`Cannot check freezes: "now" is not an instant`);
  }
  const lines = contract.lines;
  const findings: Finding[] = [];
  const count = contract.freezes.length;
  if (count > contract.maxActiveFreezes) {
    findings.push(finding(
      "freeze.over_cap",
      `${plural(count, "freeze")} ${
        count === 1 ? "is" : "are"
      } active but "max_active_freezes" is ${contract.maxActiveFreezes}`,
      {
        path,
        line: lines.key("max_active_freezes") ?? lines.key("freezes"),
      },
    ));
  }
  for (const freeze of contract.freezes) {
    const name = JSON.stringify(freeze.id);
    const line = (key: string) =>
      lines.entry("freezes", freeze.id, key) ??
        lines.entry("freezes", freeze.id);
    const missing = [
      freeze.owner.trim() === "" ? "owner" : undefined,
      freeze.reason.trim() === "" ? "reason" : undefined,
    ].filter((part) => part !== undefined);
    if (missing.length > 0) {
      findings.push(finding(
        "freeze.incomplete",
        `Freeze ${name} has no ${
          missing.join(" and no ")
        }: every freeze needs an owner and a reason`,
        { path, line: line(freeze.owner.trim() === "" ? "owner" : "reason") },
      ));
    }
    const expires = parseRfc3339(freeze.expires);
    if (expires === undefined) {
      findings.push(finding(
        "freeze.expired",
        `Freeze ${name} has expiry ${
          JSON.stringify(freeze.expires)
        }, which is not an RFC 3339 date-time: treated as expired`,
        { path, line: line("expires") },
      ));
    } else if (expires <= now) {
      findings.push(finding(
        "freeze.expired",
        `Freeze ${name} expired at ${
          JSON.stringify(freeze.expires)
        }: fix the test or drop the freeze`,
        { path, line: line("expires") },
      ));
    }
    if (freeze.remainingReruns <= 0) {
      findings.push(finding(
        "freeze.no_reruns",
        `Freeze ${name} has no reruns left: fix the test or drop the freeze`,
        { path, line: line("remaining_reruns") },
      ));
    }
  }
  return findings;
}
