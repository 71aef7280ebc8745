/**
 * The monotonic base → head diff of seed 000: the head may add to the
 * contract or tighten it, never loosen it.
 *
 * @module
 */
import { type Finding, finding } from "../../core/finding.ts";
import { parseRfc3339 } from "../../core/parse_rfc3339.ts";
import type { AgentContract } from "./read_agent_contract.ts";

/** Options for {@linkcode diffAgentContract}. */
export interface DiffAgentContractOptions {
  /** Repository-relative path of the contract file, for findings. */
  path: string;
}

/**
 * Every way `head` is weaker than `base`, following seed 000's
 * `check_monotonic` and its decision table:
 *
 * | change | rule |
 * |---|---|
 * | property id gone (a rename is a removal) | `property.removed` |
 * | same id, other `module` or `name` | `property.retargeted` |
 * | `min_examples` lowered | `property.min_examples_lowered` |
 * | fixture id gone | `fixture.removed` |
 * | same id, other `path` | `fixture.retargeted` |
 * | same id, other `sha256` | `fixture.digest_changed` (even with an unlock) |
 * | `unlock` non-null and different from base (new fixtures included) | `fixture.self_unlock` |
 * | freeze `expires` later (compared as instants) | `freeze.expiry_extended` |
 * | `remaining_reruns` raised | `freeze.reruns_raised` |
 * | `max_active_freezes` raised | `freeze.cap_raised` |
 *
 * Allowed: new properties and fixtures, higher `min_examples`, removed
 * freezes, earlier expiries, fewer reruns, a lower cap, an unlock reset to
 * `null`, and new freezes (whose owner, expiry, budget and count are
 * {@linkcode checkFreezes}' job). Findings point at the head file's lines;
 * a removed entry points at its section key.
 *
 * @example
 * ```ts
 * import { diffAgentContract } from "./diff_agent_contract.ts";
 * import { NO_LINES, type AgentContract } from "./read_agent_contract.ts";
 * const base: AgentContract = {
 *   version: 1, fixtures: [], freezes: [], maxActiveFreezes: 0, lines: NO_LINES,
 *   properties: [{ id: "p", module: "tests.test_p", name: "test_p", minExamples: 40 }],
 * };
 * const head = { ...base, properties: [] };
 * const findings = diffAgentContract(base, head, { path: "tests/agent_contract.yaml" });
 * if (findings[0]?.rule !== "property.removed") throw new Error();
 * ```
 */
export function diffAgentContract(
  base: AgentContract,
  head: AgentContract,
  options: DiffAgentContractOptions,
): Finding[] {
  const { path } = options;
  const lines = head.lines;
  const findings: Finding[] = [];
  const at = (
    section: "properties" | "fixtures" | "freezes",
    id: string,
    key: string,
  ) => ({
    path,
    line: lines.entry(section, id, key) ?? lines.entry(section, id),
  });

  const headProperties = new Map(head.properties.map((p) => [p.id, p]));
  for (const old of base.properties) {
    const name = JSON.stringify(old.id);
    const now = headProperties.get(old.id);
    if (now === undefined) {
      findings.push(finding(
        "property.removed",
        `Property ${name} was removed or renamed away: restore it (a rename is a removal plus an addition)`,
        { path, line: lines.key("properties") },
      ));
      continue;
    }
    if (now.module !== old.module || now.name !== old.name) {
      findings.push(finding(
        "property.retargeted",
        `Property ${name} now points at ${
          JSON.stringify(`${now.module}:${now.name}`)
        } instead of ${
          JSON.stringify(`${old.module}:${old.name}`)
        }: restore the target`,
        at(
          "properties",
          old.id,
          now.module !== old.module ? "module" : "name",
        ),
      ));
    }
    if (now.minExamples < old.minExamples) {
      findings.push(finding(
        "property.min_examples_lowered",
        `Property ${name} min_examples was lowered from ${old.minExamples} to ${now.minExamples}: restore the count`,
        at("properties", old.id, "min_examples"),
      ));
    }
  }

  const baseFixtures = new Map(base.fixtures.map((f) => [f.id, f]));
  const headFixtures = new Map(head.fixtures.map((f) => [f.id, f]));
  for (const old of base.fixtures) {
    const name = JSON.stringify(old.id);
    const now = headFixtures.get(old.id);
    if (now === undefined) {
      findings.push(finding(
        "fixture.removed",
        `Fixture ${name} was removed from the contract: restore it`,
        { path, line: lines.key("fixtures") },
      ));
      continue;
    }
    if (now.path !== old.path) {
      findings.push(finding(
        "fixture.retargeted",
        `Fixture ${name} now points at ${JSON.stringify(now.path)} instead of ${
          JSON.stringify(old.path)
        }: restore the path`,
        at("fixtures", old.id, "path"),
      ));
    }
    if (now.sha256.toLowerCase() !== old.sha256.toLowerCase()) {
      findings.push(finding(
        "fixture.digest_changed",
        `Fixture ${name} digest changed from ${old.sha256.slice(0, 12)} to ${
          now.sha256.slice(0, 12)
        }: a fixture is rotated only by a human commit that sets unlock`,
        at("fixtures", old.id, "sha256"),
      ));
    }
  }
  for (const now of head.fixtures) {
    const before = baseFixtures.get(now.id)?.unlock ?? null;
    if (now.unlock !== null && now.unlock !== before) {
      findings.push(finding(
        "fixture.self_unlock",
        `Fixture ${
          JSON.stringify(now.id)
        } unlock is set on this branch: move the unlock to a human-reviewed commit`,
        at("fixtures", now.id, "unlock"),
      ));
    }
  }

  const baseFreezes = new Map(base.freezes.map((f) => [f.id, f]));
  for (const now of head.freezes) {
    const old = baseFreezes.get(now.id);
    if (old === undefined) continue;
    const name = JSON.stringify(now.id);
    if (expiryExtended(old.expires, now.expires)) {
      findings.push(finding(
        "freeze.expiry_extended",
        `Freeze ${name} expiry moved from ${JSON.stringify(old.expires)} to ${
          JSON.stringify(now.expires)
        }: let it expire, then fix the test`,
        at("freezes", now.id, "expires"),
      ));
    }
    if (now.remainingReruns > old.remainingReruns) {
      findings.push(finding(
        "freeze.reruns_raised",
        `Freeze ${name} remaining_reruns was raised from ${old.remainingReruns} to ${now.remainingReruns}: leave the budget as it is`,
        at("freezes", now.id, "remaining_reruns"),
      ));
    }
  }
  if (head.maxActiveFreezes > base.maxActiveFreezes) {
    findings.push(finding(
      "freeze.cap_raised",
      `max_active_freezes was raised from ${base.maxActiveFreezes} to ${head.maxActiveFreezes}: fix or drop a freeze instead`,
      { path, line: lines.key("max_active_freezes") },
    ));
  }
  return findings;
}

/** Later, as instants; an unparsable changed expiry counts as extended. */
function expiryExtended(before: string, now: string): boolean {
  if (before === now) return false;
  const was = parseRfc3339(before);
  const is = parseRfc3339(now);
  if (was === undefined || is === undefined) return true;
  return is > was;
}
