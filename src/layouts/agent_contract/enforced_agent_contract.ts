/**
 * The contract pawl enforces on a pull request's head state. The base is the
 * authority and the head may only add, so the enforced contract is the
 * union of both, each entry at its stricter setting.
 *
 * @module
 */
import { parseRfc3339 } from "../../core/parse_rfc3339.ts";
import {
  type AgentContract,
  type ContractFixture,
  type ContractFreeze,
  type ContractProperty,
  NO_LINES,
} from "./read_agent_contract.ts";

/**
 * Merge `base` and `head` into the contract the head files are judged by:
 * - properties: every test registered at base or head, keyed by
 *   `module:name`, with the larger `min_examples` (a property the head
 *   removed or retargeted is still checked at its base target);
 * - fixtures: every head entry, plus every base entry whose `path` or
 *   `sha256` the head does not repeat (a removed or re-hashed base fixture
 *   is still checked against the base digest);
 * - freezes: the head's freezes only (removing one is allowed), each with
 *   the earlier expiry and the smaller rerun budget of base and head;
 * - `max_active_freezes`: the smaller of the two.
 *
 * Lines are the head file's (looked up by id); with no head contract there
 * are none, since the base file's lines do not describe the head file.
 * `head` is `null` when the head contract is missing or invalid: then the
 * base contract is enforced as it is.
 *
 * @example
 * ```ts
 * import { enforcedAgentContract } from "./enforced_agent_contract.ts";
 * import { NO_LINES, type AgentContract } from "./read_agent_contract.ts";
 * const base: AgentContract = {
 *   version: 1, properties: [], fixtures: [], freezes: [], maxActiveFreezes: 3, lines: NO_LINES,
 * };
 * if (enforcedAgentContract(base, { ...base, maxActiveFreezes: 9 }).maxActiveFreezes !== 3) throw new Error();
 * ```
 */
export function enforcedAgentContract(
  base: AgentContract,
  head: AgentContract | null,
): AgentContract {
  if (head === null) return { ...base, lines: NO_LINES };
  return {
    version: 1,
    properties: mergeProperties(head.properties, base.properties),
    fixtures: mergeFixtures(head.fixtures, base.fixtures),
    freezes: head.freezes.map((freeze) =>
      tightenFreeze(freeze, base.freezes.find((f) => f.id === freeze.id))
    ),
    maxActiveFreezes: Math.min(base.maxActiveFreezes, head.maxActiveFreezes),
    lines: head.lines,
  };
}

function mergeProperties(
  head: readonly ContractProperty[],
  base: readonly ContractProperty[],
): ContractProperty[] {
  const byTarget = new Map<string, ContractProperty>();
  for (const property of [...head, ...base]) {
    const target = `${property.module}:${property.name}`;
    const seen = byTarget.get(target);
    if (seen === undefined) byTarget.set(target, { ...property });
    else seen.minExamples = Math.max(seen.minExamples, property.minExamples);
  }
  return [...byTarget.values()];
}

function mergeFixtures(
  head: readonly ContractFixture[],
  base: readonly ContractFixture[],
): ContractFixture[] {
  const key = (f: ContractFixture) =>
    // Stryker disable next-line MethodExpression: the key only needs both sides in one case, and a digest's hex digits fold to upper case as they do to lower
    JSON.stringify([f.path, f.sha256.toLowerCase()]);
  const inHead = new Set(head.map(key));
  return [...head, ...base.filter((fixture) => !inHead.has(key(fixture)))];
}

function tightenFreeze(
  freeze: ContractFreeze,
  base: ContractFreeze | undefined,
): ContractFreeze {
  if (base === undefined) return freeze;
  return {
    ...freeze,
    expires: isEarlier(base.expires, freeze.expires)
      ? base.expires
      : freeze.expires,
    remainingReruns: Math.min(freeze.remainingReruns, base.remainingReruns),
  };
}

/** Whether expiry `a` is a strictly earlier instant than `b`; never when either is unreadable. */
function isEarlier(a: string, b: string): boolean {
  // An unreadable expiry reads as NaN, which no comparison holds for.
  return (parseRfc3339(a) ?? NaN) < (parseRfc3339(b) ?? NaN);
}
