/**
 * What the base's tests saw on the base's code against what they saw on
 * the head's code: a pull request that changes only the code under test
 * must not starve the unchanged oracle. Both runs are the same tests, the
 * same command and the same seed, and pawl's observer counts what each
 * saw, so a difference is the code's:
 *
 * - examples the code under test discarded (an `UnsatisfiedAssumption`, or
 *   an invalid mark, raised from a file outside the test side) that the
 *   base's code never discarded: `property.examples_discarded_by_code`;
 * - valid examples, or the passes of one of the test's asserts, dropping
 *   below half of the base's, and by at least {@linkcode STARVED_MIN_DROP}:
 *   `property.examples_starved_by_code`.
 *   Hypothesis keeps generating until `max_examples` examples were valid,
 *   so an honest change that makes the test discard some more inputs (a
 *   stricter parser whose new errors the test `assume`s away) costs no
 *   valid examples at all until most inputs are discarded; only code that
 *   makes the test throw away most of what it tries falls below half. An
 *   assert is compared the same way: code that answers the failing inputs
 *   with something the test lets through unchecked (a `None` it returns
 *   early on) keeps every example valid but keeps them from the assert;
 *   a property that found a failure in either run is left to the rules
 *   about failures;
 * - Hypothesis' own objects patched where the base's code left them:
 *   `harness.hypothesis_patched`, naming each.
 *
 * Only counts are compared, never times, so the machine's load cannot
 * change a decision. Pure: the runs are made by the test stage's plan.
 *
 * @module
 */
import { plural } from "../core/plural.ts";
import { type Finding, finding } from "../core/finding.ts";
import type { ObservedProperty } from "./judge_examples.ts";
import { examplesOf } from "./judge_examples.ts";
import type { PropertyRun } from "./judge_property_runs.ts";
import type { DiscardSite, ExampleCounts, Observation } from "./observation.ts";
import type { PytestRun } from "./run_pytest.ts";

/**
 * The fewest valid examples a starved property must lose, beside falling
 * below half of the base's: a property the base runs on a handful of
 * examples is not judged by a ratio of a handful.
 */
export const STARVED_MIN_DROP = 10;

/** Options for {@linkcode judgeCodeSide}. */
export interface JudgeCodeSideOptions {
  /** The registered properties both runs ran (the base's tests of them). */
  properties: readonly ObservedProperty[];
  /** The injected seed, for the messages. */
  seed: number;
  /** Whether a repository path is on the test side. */
  isTestSide: (path: string) => boolean;
}

/**
 * Compare the base's tests on the base's code (`base`) with the base's
 * tests on the head's code (`head`).
 *
 * @example
 * ```ts
 * import { parseObservation } from "./observation.ts";
 * import { judgeCodeSide } from "./judge_code_side.ts";
 * const run = (workDir: string, lines: string[]) => ({
 *   workDir,
 *   rows: [],
 *   run: {
 *     result: { timedOut: false, outputExceeded: false },
 *     observation: parseObservation([['{"event":"hello","token":"t"}', ...lines]], "t"),
 *   },
 * }) as unknown as Parameters<typeof judgeCodeSide>[0];
 * const ran = '{"event":"examples","nodeid":"t.py::test_a","valid":100,"invalid":0,"overrun":0,"interesting":0}';
 * const head = run("/h", [
 *   ran,
 *   '{"event":"discards","nodeid":"t.py::test_a","sites":[{"file":"/h/pkg/a.py","line":3,"count":9}]}',
 * ]);
 * const f = judgeCodeSide(run("/b", [ran]), head, {
 *   properties: [{ id: "a", nodeId: "t.py::test_a" }],
 *   seed: 7,
 *   isTestSide: (p) => p.startsWith("t"),
 * });
 * if (f[0]?.rule !== "property.examples_discarded_by_code") throw new Error();
 * ```
 */
export function judgeCodeSide(
  base: PropertyRun,
  head: PropertyRun,
  options: JudgeCodeSideOptions,
): Finding[] {
  const atBase = usable(base.run);
  const atHead = usable(head.run);
  if (atBase === undefined || atHead === undefined) return [];
  const findings: Finding[] = [];
  for (const p of options.properties) {
    // A property the base's code never ran Hypothesis on says nothing.
    const ran = examplesOf(atBase, p.nodeId);
    if (ran === undefined) continue;
    const discarded = discardsByCode(atHead, head.workDir, p.nodeId, options);
    const before = discardsByCode(atBase, base.workDir, p.nodeId, options);
    const failing = failed(ran, examplesOf(atHead, p.nodeId));
    if (discarded.count > 0 && before.count === 0 && !failing) {
      findings.push(discardedFinding(p, discarded, options.seed));
      continue;
    }
    const starved = starvedFinding(p, atBase, atHead, options.seed) ??
      unreachedFinding(p, { base, atBase }, { head, atHead }, options);
    if (starved !== undefined) findings.push(starved);
  }
  return [...findings, ...patchFindings(atBase, atHead, head.workDir)];
}

/** A run's observation, unless it is missing or the run was cut short. */
function usable(run: PytestRun): Observation | undefined {
  if (run.result.timedOut || run.result.outputExceeded) return undefined;
  return run.observation?.hello === true ? run.observation : undefined;
}

/** The discards of a property raised from a repository file outside the test side. */
function discardsByCode(
  observation: Observation,
  workDir: string,
  nodeId: string,
  options: JudgeCodeSideOptions,
): { count: number; first: { path: string; line: number } | undefined } {
  let count = 0;
  let first: { path: string; line: number } | undefined;
  for (const [id, sites] of observation.discards) {
    if (id !== nodeId && !id.startsWith(`${nodeId}[`)) continue;
    for (const site of sites) {
      const path = repositoryPath(site, workDir);
      if (path === undefined || options.isTestSide(path)) continue;
      count += site.count;
      first ??= { path, line: site.line };
    }
  }
  return { count, first };
}

function discardedFinding(
  p: ObservedProperty,
  discarded: {
    count: number;
    first: { path: string; line: number } | undefined;
  },
  seed: number,
): Finding {
  const where = discarded.first as { path: string; line: number };
  return finding(
    "property.examples_discarded_by_code",
    `The code under test discarded ${discarded.count} of the Hypothesis examples of property "${p.id}" (${p.nodeId}) on seed ${seed}, first at ${where.path}:${where.line}, where the base's code discards none: an UnsatisfiedAssumption (or an invalid mark) raised outside the test side hides those inputs from the base's test instead of failing it`,
    { path: where.path, line: where.line },
  );
}

/** Valid examples below half of the base's, and by at least {@linkcode STARVED_MIN_DROP}. */
function starvedFinding(
  p: ObservedProperty,
  atBase: Observation,
  atHead: Observation,
  seed: number,
): Finding | undefined {
  const before = examplesOf(atBase, p.nodeId);
  // Stryker disable next-line ConditionalExpression,LogicalOperator: judgeCodeSide() skips a property without base examples, so before is defined here; and no count is below half of zero, so starved() refuses a base of no valid examples anyway
  if (before === undefined || before.valid === 0) return undefined;
  const after = examplesOf(atHead, p.nodeId);
  const valid = after?.valid ?? 0;
  if (failed(before, after) || !starved(valid, before.valid)) return undefined;
  return finding(
    "property.examples_starved_by_code",
    `The base's test of property "${p.id}" (${p.nodeId}) executed ${valid} valid Hypothesis examples on the head's code (${
      after?.invalid ?? 0
    } discarded) but ${before.valid} on the base's code, with the same seed ${seed}: the code under test now makes the test discard most of what it tries (tolerance: at least half of the base's valid examples)`,
    { path: p.path, line: p.line },
  );
}

/** Whether `after` is below half of `before`, and by at least {@linkcode STARVED_MIN_DROP}. */
function starved(after: number, before: number): boolean {
  return after * 2 < before && before - after >= STARVED_MIN_DROP;
}

/** Whether either run found a failing example: the failure rules judge it. */
function failed(...counts: (ExampleCounts | undefined)[]): boolean {
  return counts.some((c) => (c?.interesting ?? 0) > 0);
}

/** The first assert of the base's test the head's code lets pass less than half as often. */
function unreachedFinding(
  p: ObservedProperty,
  { base, atBase }: { base: PropertyRun; atBase: Observation },
  { head, atHead }: { head: PropertyRun; atHead: Observation },
  options: JudgeCodeSideOptions,
): Finding | undefined {
  if (failed(examplesOf(atBase, p.nodeId), examplesOf(atHead, p.nodeId))) {
    return undefined;
  }
  const before = reachOf(atBase, base.workDir, p.nodeId);
  const after = reachOf(atHead, head.workDir, p.nodeId);
  for (const [where, count] of before) {
    const reached = after.get(where) ?? 0;
    if (!starved(reached, count)) continue;
    const [path, line] = where.split("\0") as [string, string];
    return finding(
      "property.examples_starved_by_code",
      `The assert at ${path}:${line} of the base's test of property "${p.id}" (${p.nodeId}) passed ${
        plural(reached, "time")
      } on the head's code but ${
        plural(count, "time")
      } on the base's code, with the same seed ${options.seed}: the code under test keeps most examples from reaching it (tolerance: at least half of the base's passes)`,
      { path, line: Number(line) },
    );
  }
  return undefined;
}

/** How often each assert (`path` NUL `line`) of a property passed, over its parametrizations. */
function reachOf(
  observation: Observation,
  workDir: string,
  nodeId: string,
): Map<string, number> {
  const counts = new Map<string, number>();
  for (const [id, asserts] of observation.reach) {
    if (id !== nodeId && !id.startsWith(`${nodeId}[`)) continue;
    for (const a of asserts) {
      const path = repositoryPath(a, workDir);
      if (path === undefined) continue;
      const key = `${path}\0${a.line}`;
      counts.set(key, (counts.get(key) ?? 0) + a.count);
    }
  }
  return counts;
}

/**
 * Hypothesis objects the head's code patched and the base's code did not,
 * one finding per file the replacements were written in.
 */
function patchFindings(
  atBase: Observation,
  atHead: Observation,
  workDir: string,
): Finding[] {
  const before = new Set(atBase.patches.map((p) => p.name));
  const byFile = new Map<string, Set<string>>();
  for (const patch of atHead.patches) {
    if (before.has(patch.name)) continue;
    const path = patch.removed ? "" : repositoryPath(patch, workDir) ?? "";
    byFile.set(path, (byFile.get(path) ?? new Set()).add(patch.name));
  }
  return [...byFile].map(([path, names]) => {
    const listed = [...names].sort();
    const shown = listed.slice(0, MAX_NAMED).map((n) => `"${n}"`).join(", ");
    const more = listed.length > MAX_NAMED
      ? ` and ${listed.length - MAX_NAMED} more`
      : "";
    const how = path === "" ? "replaced or removed" : `replaced from ${path}`;
    return finding(
      "harness.hypothesis_patched",
      `Hypothesis' ${shown}${more} ${
        listed.length === 1 ? "was" : "were"
      } ${how} while the base's tests ran on the head's code, where the base's code leaves ${
        listed.length === 1 ? "it" : "them"
      } alone: the code under test changes what Hypothesis generates or how it judges examples`,
      path === "" ? {} : { path },
    );
  });
}

/** The most patched names one finding quotes. */
const MAX_NAMED = 5;

/** A file the observer named, relative to the run's copy; undefined outside it. */
function repositoryPath(
  site: Pick<DiscardSite, "file">,
  workDir: string,
): string | undefined {
  const prefix = `${workDir.replace(/\/+$/, "")}/`;
  return site.file.startsWith(prefix)
    ? site.file.slice(prefix.length)
    : undefined;
}
