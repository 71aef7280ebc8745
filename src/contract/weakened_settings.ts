/**
 * Whether a Hypothesis test got weaker between two versions of its
 * decorators: fewer examples, or a `@settings` keyword changed in a way
 * that can hide failures. Shared by every dialect that compares a
 * registered test base → head (decorators sit outside seed 003's source
 * hash, so this is the only check that sees them).
 *
 * @module
 */
import { plural } from "../core/plural.ts";
import type {
  HypothesisSettings,
  PythonFunction,
} from "../python/python_module.ts";

/**
 * Hypothesis' `max_examples` when no `@settings(max_examples=...)` is
 * written. Profiles loaded in a conftest are out of reach of a static
 * check; the harness rules guard conftest changes instead.
 */
export const HYPOTHESIS_DEFAULT_MAX_EXAMPLES = 100;

/** Hypothesis' default `stateful_step_count`. */
const DEFAULT_STATEFUL_STEP_COUNT = 50;

/** Settings keywords that never make a test weaker at finding bugs. */
const HARMLESS_KEYWORDS = new Set([
  "deadline",
  "verbosity",
  "print_blob",
  "report_multiple_bugs",
  "database",
]);

/**
 * The phases that find failures. Dropping `shrink` or `explain` only makes
 * reports less readable, so those are not weakening.
 */
const FINDING_PHASES = ["explicit", "reuse", "generate", "target"];

/** How many examples a test runs, as far as its source says. */
export type HypothesisExamples =
  /** A count read from the source; `description` completes "The test ...". */
  | { kind: "known"; count: number; description: string }
  /** `max_examples` is set but not to an integer literal. */
  | { kind: "dynamic" };

/**
 * The examples a test runs: one without `@given`, the `max_examples`
 * literal of its `@settings`, or Hypothesis' default of 100.
 *
 * @example
 * ```ts
 * import { hypothesisExamples } from "./weakened_settings.ts";
 * const examples = hypothesisExamples({
 *   name: "test_a", qualname: "test_a", line: 1, endLine: 2, source: "",
 *   decorators: [], usesHypothesis: true, skips: [], exampleAssertions: 0,
 *   settings: { line: 1, keywords: { max_examples: "5" }, maxExamples: 5 },
 * });
 * if (examples.kind !== "known" || examples.count !== 5) throw new Error();
 * ```
 */
export function hypothesisExamples(fn: PythonFunction): HypothesisExamples {
  if (!fn.usesHypothesis) {
    return {
      kind: "known",
      count: 1,
      description:
        "is not a Hypothesis test (no @given), so it runs one example,",
    };
  }
  const settings = fn.settings;
  if (settings?.maxExamplesDynamic === true) return { kind: "dynamic" };
  if (settings?.maxExamples !== undefined) {
    return {
      kind: "known",
      count: settings.maxExamples,
      description: `runs at most ${plural(settings.maxExamples, "example")}`,
    };
  }
  return {
    kind: "known",
    count: HYPOTHESIS_DEFAULT_MAX_EXAMPLES,
    description:
      `runs Hypothesis' default of ${HYPOTHESIS_DEFAULT_MAX_EXAMPLES} examples`,
  };
}

/**
 * Every way `head` runs a weaker search than `base`, as phrases that
 * complete "The test ..." (e.g. `lowered its example count from 100 to 10`);
 * empty when nothing weakened. Weakening: fewer examples (a test that lost
 * `@given` runs one), a failure-finding `phase` dropped,
 * `suppress_health_check` widened, `derandomize` turned on,
 * `stateful_step_count` lowered, and any unknown keyword (such as `parent`
 * or `backend`) added, changed or removed. `deadline`, `verbosity`,
 * `print_blob`, `report_multiple_bugs` and `database` are not weakening.
 *
 * @example
 * ```ts
 * import { weakenedSettings } from "./weakened_settings.ts";
 * const fn = (n: number) => ({
 *   name: "test_a", qualname: "test_a", line: 2, endLine: 3, source: "",
 *   decorators: [], usesHypothesis: true, skips: [], exampleAssertions: 0,
 *   settings: { line: 1, keywords: { max_examples: String(n) }, maxExamples: n },
 * });
 * const found = weakenedSettings(fn(10), fn(100));
 * if (found[0] !== "lowered its example count from 100 to 10") throw new Error();
 * ```
 */
export function weakenedSettings(
  head: PythonFunction,
  base: PythonFunction,
): string[] {
  const found: string[] = [];
  const headExamples = hypothesisExamples(head);
  const baseExamples = hypothesisExamples(base);
  if (
    // Stryker disable next-line ConditionalExpression,LogicalOperator: a count that is not known is undefined, and undefined is never less
    headExamples.kind === "known" && baseExamples.kind === "known" &&
    headExamples.count < baseExamples.count
  ) {
    found.push(
      `lowered its example count from ${baseExamples.count} to ${headExamples.count}`,
    );
  }
  const headKeywords = keywordsOf(head.settings);
  const baseKeywords = keywordsOf(base.settings);
  const names = new Set([
    ...Object.keys(headKeywords),
    ...Object.keys(baseKeywords),
  ]);
  for (const keyword of [...names].sort()) {
    if (keyword === "max_examples" || HARMLESS_KEYWORDS.has(keyword)) continue;
    const now = headKeywords[keyword];
    const before = baseKeywords[keyword];
    if (now === before) continue;
    if (isWeakening(keyword, before, now)) {
      found.push(
        `changed ${keyword} from ${shown(before)} to ${
          shown(now)
        }, which can hide failures`,
      );
    }
  }
  return found;
}

function keywordsOf(
  settings: HypothesisSettings | undefined,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(settings?.keywords ?? {})) {
    out[key] = value.trim();
  }
  return out;
}

function shown(text: string | undefined): string {
  return text === undefined ? "the default" : JSON.stringify(text);
}

/** Whether changing `keyword` from `before` to `now` (undefined: absent) weakens the test. */
function isWeakening(
  keyword: string,
  before: string | undefined,
  now: string | undefined,
): boolean {
  switch (keyword) {
    case "phases": {
      const was = before === undefined
        ? new Set(FINDING_PHASES)
        : enumNames(before, "Phase");
      const is = now === undefined
        ? new Set(FINDING_PHASES)
        : enumNames(now, "Phase");
      // Every finding phase run now is no weakening, whatever ran before.
      if (is === undefined) return true;
      return FINDING_PHASES.some((phase) =>
        !is.has(phase) && (was === undefined || was.has(phase))
      );
    }
    case "suppress_health_check": {
      const was = before === undefined
        ? new Set<string>()
        : enumNames(before, "HealthCheck");
      const is = now === undefined
        ? new Set<string>()
        : enumNames(now, "HealthCheck");
      // Nothing suppressed now is no weakening, whatever was before.
      if (is === undefined) return true;
      return [...is].some((check) => was === undefined || !was.has(check));
    }
    case "derandomize":
      // A derandomized test ignores the seed pawl injects.
      return now !== undefined && now !== "False";
    case "stateful_step_count": {
      const was = before === undefined
        ? DEFAULT_STATEFUL_STEP_COUNT
        : integer(before);
      const is = now === undefined ? DEFAULT_STATEFUL_STEP_COUNT : integer(now);
      if (was === undefined || is === undefined) return true;
      return is < was;
    }
    default:
      // Unknown keywords (parent=, backend=, ...) can change anything.
      return true;
  }
}

/**
 * The member names of `Enum.member` references in a list, tuple or set
 * literal; `undefined` when the text is anything else (a variable, a call),
 * which the caller treats as weakening if it changed.
 */
function enumNames(text: string, enumName: string): Set<string> | undefined {
  const member = new RegExp(`\\b${enumName}\\.([A-Za-z_][A-Za-z0-9_]*)`, "g");
  const found = new Set<string>();
  // Stryker disable next-line StringLiteral: group 1 takes part in every match, so the fallback is never used
  for (const match of text.matchAll(member)) found.add(match[1] ?? "");
  const rest = text.replace(member, "").replace(/[\s,()[\]{}]/g, "");
  return rest === "" ? found : undefined;
}

function integer(text: string): number | undefined {
  const cleaned = text.replaceAll("_", "");
  return /^\d+$/.test(cleaned) ? Number(cleaned) : undefined;
}
