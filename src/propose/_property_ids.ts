/**
 * Property ids derived from module and test name.
 *
 * @module
 */
import { plural } from "../core/plural.ts";
import type { PropertyCandidate } from "./_collect_candidates.ts";

/**
 * `module.name` for each candidate, in order. Two different tests can
 * only share one (`a/test_b.py` class `TestC` and `a/test_b/TestC.py`) in
 * contrived trees; a later one then gets `~2`, `~3`, … so ids stay unique,
 * which the readers require.
 */
export function propertyIds(
  candidates: readonly PropertyCandidate[],
): string[] {
  const used = new Set<string>();
  return candidates.map((candidate) => {
    const base = `${candidate.module}.${candidate.name}`;
    let id = base;
    for (let n = 2; used.has(id); n++) id = `${base}~${n}`;
    used.add(id);
    return id;
  });
}

/** A comment saying where a property's test is and how many examples it runs. */
export function examplesComment(candidate: PropertyCandidate): string {
  const where = `${JSON.stringify(candidate.path)} line ${candidate.line}`;
  if (candidate.examplesUnresolved !== undefined) {
    return `${where}: pawl could not resolve its example count (${candidate.examplesUnresolved}); Hypothesis' default of ${candidate.examples} is written, check it`;
  }
  if (candidate.examplesDetail !== undefined) {
    return `${where} runs ${
      plural(candidate.examples, "example")
    }: ${candidate.examplesDetail}`;
  }
  return candidate.examplesFrom === "settings"
    ? `${where} runs ${
      plural(candidate.examples, "example")
    } (@settings max_examples)`
    : `${where} runs Hypothesis' default of ${
      plural(candidate.examples, "example")
    } (no max_examples)`;
}
