/**
 * Whether the head's run of each registered property executed as many
 * valid Hypothesis examples as the base's oracle did on the same code and
 * seed. Fewer is a weaker property, however it was weakened: a profile, a
 * narrowed or constant strategy, `assume()`, explicit-only phases, a
 * settings alias.
 *
 * @module
 */
import { plural } from "../core/plural.ts";
import { type Finding, finding } from "../core/finding.ts";
import type { ExampleCounts, Observation } from "./observation.ts";

/** A registered property as the judge needs it. */
export interface ObservedProperty {
  /** Contract id. */
  id: string;
  /** pytest node id (without parameters). */
  nodeId: string;
  /** Head file, for the finding. */
  path?: string | undefined;
  /** Head line, for the finding. */
  line?: number | undefined;
}

/** The examples a property's node id (every parametrization of it) executed. */
export function examplesOf(
  observation: Observation,
  nodeId: string,
): ExampleCounts | undefined {
  let total: ExampleCounts | undefined;
  for (const [id, counts] of observation.examples) {
    if (id !== nodeId && !id.startsWith(`${nodeId}[`)) continue;
    total = {
      valid: (total?.valid ?? 0) + counts.valid,
      invalid: (total?.invalid ?? 0) + counts.invalid,
      overrun: (total?.overrun ?? 0) + counts.overrun,
      interesting: (total?.interesting ?? 0) + counts.interesting,
    };
  }
  return total;
}

/**
 * `property.examples_not_executed` for every property whose head run
 * executed fewer valid examples than the oracle run. Properties the oracle
 * ran without Hypothesis (no examples seen) are not judged here.
 *
 * @example
 * ```ts
 * import { parseObservation } from "./observation.ts";
 * import { judgeExamples } from "./judge_examples.ts";
 * const run = (valid: number) => parseObservation([[
 *   '{"event":"hello","token":"t"}',
 *   `{"event":"examples","nodeid":"t.py::test_a","valid":${valid},"invalid":0,"overrun":0,"interesting":0}`,
 * ]], "t");
 * const f = judgeExamples([{ id: "a", nodeId: "t.py::test_a" }], { head: run(2), oracle: run(100), seed: 7 });
 * if (f[0]?.rule !== "property.examples_not_executed") throw new Error("unexpected");
 * ```
 */
export function judgeExamples(
  properties: readonly ObservedProperty[],
  runs: { head: Observation; oracle: Observation; seed: number },
): Finding[] {
  const findings: Finding[] = [];
  for (const p of properties) {
    const oracle = examplesOf(runs.oracle, p.nodeId);
    // Stryker disable next-line ConditionalExpression: no count is below zero, so an oracle of no valid examples is passed over by the comparison below anyway
    if (oracle === undefined || oracle.valid === 0) continue;
    const head = examplesOf(runs.head, p.nodeId);
    const valid = head?.valid ?? 0;
    if (valid >= oracle.valid) continue;
    const filtered = head === undefined
      ? "it ran no Hypothesis examples at all"
      : `${head.invalid} more were filtered out or invalid`;
    findings.push(finding(
      "property.examples_not_executed",
      `Property "${p.id}" (${p.nodeId}) executed ${valid} valid Hypothesis examples on seed ${runs.seed} (${filtered}), but the base's test executes ${oracle.valid} on the same code and seed: the head weakened what the property tries (a settings profile, a narrowed or constant strategy, assume(), explicit-only phases or a settings alias)`,
      { path: p.path, line: p.line },
    ));
  }
  findings.push(...judgeSteps(properties, runs));
  return findings;
}

/**
 * A state machine property whose longest run on the head took fewer steps
 * than the base's oracle's did (a lowered `stateful_step_count`, a rule
 * that ends runs early): `property.examples_not_executed` too, since the
 * head tried shorter programs.
 */
function judgeSteps(
  properties: readonly ObservedProperty[],
  runs: { head: Observation; oracle: Observation; seed: number },
): Finding[] {
  const findings: Finding[] = [];
  for (const p of properties) {
    const oracle = runs.oracle.steps.get(p.nodeId);
    // Stryker disable next-line ConditionalExpression: no step count is below zero, so an oracle of no steps is passed over by the comparison below anyway
    if (oracle === undefined || oracle.longest === 0) continue;
    const head = runs.head.steps.get(p.nodeId);
    const longest = head?.longest ?? 0;
    if (longest >= oracle.longest) continue;
    findings.push(finding(
      "property.examples_not_executed",
      `Property "${p.id}" (${p.nodeId}) ran state machine programs of at most ${
        plural(longest, "step")
      } on seed ${runs.seed}, but the base's test runs programs of ${
        plural(oracle.longest, "step")
      } on the same code and seed: the head shortened what the machine tries (stateful_step_count, a settings profile or a rule that stops runs early)`,
      { path: p.path, line: p.line },
    ));
  }
  return findings;
}
