/**
 * A base contract is judged by the same rules as the head's; a finding
 * about the base's own content (a malformed hash, a freeze that skips, an
 * incomplete or over-budget freeze) is a problem the base already had, so
 * it is never blamed on the pull request: pawl cannot decide.
 *
 * @module
 */
import { ContractSyntaxError } from "../contract/contract_syntax_error.ts";
import type { Finding } from "../core/finding.ts";

/**
 * The earliest instant a `Date` holds: judging a base contract "now" at it
 * leaves out every finding that depends on the clock, such as an expiry.
 */
export const BEFORE_ANY_EXPIRY = -8_640_000_000_000_000;

/**
 * Throw a {@linkcode ContractSyntaxError} for the first blocking finding of
 * `findings`, which a layout computed from its base contract alone (no
 * tree, no clock); return when there is none.
 *
 * @example
 * ```ts
 * import { refuseBaseFindings } from "./refuse_base_findings.ts";
 * refuseBaseFindings([], "freeze.yml");
 * ```
 */
export function refuseBaseFindings(
  findings: readonly Finding[],
  path: string,
): void {
  const first = findings.find((f) => f.blocking);
  if (first === undefined) return;
  const rule = JSON.stringify(first.rule);
  throw new ContractSyntaxError(
    first.path ?? path,
    `the base commit's own copy breaks rule ${rule}: ${
      first.message.charAt(0).toLowerCase()
    }${first.message.slice(1)}`,
    { line: first.line, lineAfter: rule },
  );
}
