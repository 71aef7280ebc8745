/**
 * JUnit XML for CI systems that show test reports.
 *
 * One `<testsuite name="pawl">` holds one `<testcase>` per finding, named
 * so that CI views group them: `classname` is `pawl.<layer>` and `name` is
 * the rule and where it points (`property.removed
 * tests/agent_contract.yaml:3`). A blocking finding is a `<failure>` whose
 * message is the finding's message and whose body repeats it and says
 * where, what a failed test showed (falsifying example, exception,
 * traceback, the command that reproduces it) and how to fix it; an advisory finding is a passing
 * testcase with its message in `<system-out>`. A layer without findings is
 * one passing testcase named after the layer, or a skipped one for the
 * `tests` and `seed` layers when the suite did not run, so an accepted run
 * still lists what was checked. What the run observed (counts, seeds,
 * reruns) is the suite's `<system-out>`.
 *
 * Times are reporting only and never part of the verdict: a finding about
 * one test takes that test's duration when the caller knows it, else the
 * duration of the stage that raises its rule, and a layer without findings
 * the stages its rules are raised in, added up; a testcase whose time is not
 * known has no `time` attribute rather than a made-up zero.
 *
 * @module
 */
import type { Finding } from "../core/finding.ts";
import { type Layer, LAYERS, RULES, type RuleStage } from "../core/rules.ts";
import type { Verdict } from "../core/verdict.ts";
import { failureLines } from "./failure_lines.ts";
import { testCounts } from "./test_counts.ts";

/** How long the parts of a judgement took, in seconds (reporting only). */
export interface JunitTimings {
  /** The whole judgement. */
  total?: number;
  /** The static checks, and the test runs, each as a whole. */
  stages?: Partial<Record<Exclude<RuleStage, "either">, number>>;
  /** pytest node id → that test's own duration. */
  tests?: Readonly<Record<string, number>>;
}

/** Options for {@linkcode renderJunit}. */
export interface RenderJunitOptions {
  /** What the caller measured; without it no testcase has a time. */
  timings?: JunitTimings;
}

/**
 * Render a verdict as JUnit XML: one testcase per finding, a failure per
 * blocking one. Every attribute and text is escaped, and characters XML 1.0
 * cannot carry become U+FFFD. Pure: the same verdict and timings give the
 * same bytes.
 *
 * @example
 * ```ts
 * import { renderJunit } from "./render_junit.ts";
 * import { buildVerdict } from "../core/verdict.ts";
 * import { finding } from "../core/finding.ts";
 * const verdict = buildVerdict([finding("property.removed", 'Property "a" was removed')], {
 *   pawl: { version: "0.1.0" }, now: "2026-11-30T12:00:00Z", repo: ".", base: "b".repeat(40), head: "h".repeat(40),
 *   contract: { layouts: [], files: [], digest: "", freezeBodyHashes: [] },
 *   options: { allowFixtureRotate: false, isolation: "auto" }, isolation: null, tests: null,
 * });
 * const xml = renderJunit(verdict);
 * if (!xml.includes('<testcase classname="pawl.property" name="property.removed">')) throw new Error("unexpected");
 * if (!xml.includes('<failure message="Property &quot;a&quot; was removed" type="property.removed">')) {
 *   throw new Error("unexpected");
 * }
 * ```
 */
export function renderJunit(
  verdict: Verdict,
  options: RenderJunitOptions = {},
): string {
  const timings = options.timings ?? {};
  const cases = LAYERS.flatMap((layer) => layerCases(verdict, layer, timings));
  const failures = cases.filter((c) => c.failure !== undefined).length;
  const skipped = cases.filter((c) => c.skipped !== undefined).length;
  const total = seconds(timings.total);
  const counts = `tests="${cases.length}" failures="${failures}" ` +
    `errors="0" skipped="${skipped}"${total === "" ? "" : ` time="${total}"`}`;
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="pawl" ${counts}>`,
    `  <testsuite name="pawl" ${counts}>`,
    "    <properties>",
    ...suiteProperties(verdict).map(([name, value]) =>
      `      <property name="${attr(name)}" value="${attr(value)}"/>`
    ),
    "    </properties>",
    ...cases.flatMap(testcase),
  ];
  const observedLines = LAYERS.flatMap((layer) => observed(verdict, layer));
  if (observedLines.length > 0) {
    lines.push(
      `    <system-out>${text(observedLines.join("\n"))}</system-out>`,
    );
  }
  lines.push("  </testsuite>", "</testsuites>");
  return lines.join("\n") + "\n";
}

interface Case {
  classname: string;
  name: string;
  time: string;
  failure?: { message: string; type: string; body: string };
  skipped?: string;
  out?: string;
}

function testcase(c: Case): string[] {
  const time = c.time === "" ? "" : ` time="${c.time}"`;
  const open = `    <testcase classname="${attr(c.classname)}" name="${
    attr(c.name)
  }"${time}`;
  if (c.failure === undefined && c.skipped === undefined && !c.out) {
    return [`${open}/>`];
  }
  const lines = [`${open}>`];
  if (c.skipped !== undefined) {
    lines.push(`      <skipped message="${attr(c.skipped)}"/>`);
  }
  if (c.failure !== undefined) {
    lines.push(
      `      <failure message="${attr(c.failure.message)}" type="${
        attr(c.failure.type)
      }">${text(c.failure.body)}</failure>`,
    );
  }
  if (c.out) lines.push(`      <system-out>${text(c.out)}</system-out>`);
  lines.push("    </testcase>");
  return lines;
}

/** One testcase per finding of `layer`, or one for the layer when it has none. */
function layerCases(
  verdict: Verdict,
  layer: Layer,
  timings: JunitTimings,
): Case[] {
  const classname = `pawl.${layer}`;
  const findings = verdict.findings.filter((f) => f.layer === layer);
  const ran = verdict.tests !== null;
  if (findings.length === 0) {
    const unjudged = !ran && (layer === "tests" || layer === "seed");
    return [{
      classname,
      name: layer,
      time: unjudged ? "" : seconds(layerTime(layer, timings)),
      ...(unjudged ? { skipped: "The test suite was not run" } : {}),
    }];
  }
  const seen = new Map<string, number>();
  return findings.map((f) => {
    const base = `${f.rule}${f.path === undefined ? "" : ` ${where(f)}`}`;
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    const name = n === 1 ? base : `${base} (${n})`;
    const time = seconds(findingTime(f, timings));
    if (!f.blocking) {
      const shown = f.failure === undefined ? [] : failureLines(f.failure).text;
      return {
        classname,
        name,
        time,
        out: [`note: ${f.message}`, ...shown].join("\n"),
      };
    }
    return {
      classname,
      name,
      time,
      failure: { message: f.message, type: f.rule, body: failureBody(f) },
    };
  });
}

/**
 * How long checking a layer took: the stages its rules are raised in, added
 * up (only those measured).
 */
function layerTime(layer: Layer, timings: JunitTimings): number | undefined {
  const stages = new Set<RuleStage>();
  for (const spec of Object.values(RULES)) {
    if (spec.layer === layer) stages.add(spec.stage);
  }
  let total: number | undefined;
  for (const stage of ["static", "tests"] as const) {
    const value = timings.stages?.[stage];
    if (value === undefined) continue;
    if (stages.has(stage) || stages.has("either")) total = (total ?? 0) + value;
  }
  return total;
}

/** The test's own duration, else the duration of the stage that raises the rule. */
function findingTime(f: Finding, timings: JunitTimings): number | undefined {
  const test = f.failure?.test;
  const own = test === undefined ? undefined : timings.tests?.[test];
  if (own !== undefined) return own;
  const stage = RULES[f.rule]?.stage;
  return stage === undefined || stage === "either"
    ? undefined
    : timings.stages?.[stage];
}

/**
 * The message again (some CI views show only the body), where, what a
 * failed test showed, and how to fix it.
 */
function failureBody(f: Finding): string {
  const lines = [f.message, ""];
  if (f.path !== undefined) lines.push(`Where: ${where(f)}`);
  if (f.failure !== undefined) lines.push(...failureLines(f.failure).text);
  const fix = RULES[f.rule]?.fix;
  if (fix !== undefined) lines.push(`How to fix: ${fix}`);
  return lines.join("\n");
}

/** Seconds as JUnit writes them (three decimals), or "" when unknown. */
function seconds(value: number | undefined): string {
  if (value === undefined || !Number.isFinite(value) || value < 0) return "";
  return value.toFixed(3);
}

/** What the run observed for a layer, as plain lines. */
function observed(verdict: Verdict, layer: Layer): string[] {
  const t = verdict.tests;
  if (t === null) return [];
  switch (layer) {
    case "tests": {
      const s = t.summary;
      return [
        `tests: ${testCounts(s)}`,
      ];
    }
    case "property": {
      if (t.properties.length === 0) return [];
      const passed = t.properties.filter((p) => p.outcome === "passed").length;
      return [
        `properties: ${passed}/${t.properties.length} passed`,
        ...t.properties.map((p) => `  ${p.id} (${p.layout}): ${p.outcome}`),
      ];
    }
    case "freeze":
      return t.reruns.map((r) =>
        `freeze ${
          JSON.stringify(r.freeze)
        }: ${r.used}/${r.allowed} reruns used, ${
          r.passed ? "passed" : "still failing"
        }`
      );
    case "seed":
      return [
        `fresh seed ${t.seeds.fresh}${
          t.seeds.trials === null ? "" : ` (trials ${t.seeds.trials})`
        }`,
        ...t.seeds.replays.map((r) =>
          `replay ${JSON.stringify(r.freeze)} seed ${r.seed} on ${r.test}: ${
            r.passed ? "passed" : "failed"
          }`
        ),
      ];
    default:
      return [];
  }
}

function suiteProperties(verdict: Verdict): [string, string][] {
  return [
    ["decision", verdict.decision],
    ["base", verdict.base],
    ["head", verdict.head],
    ["now", verdict.now],
    ["pawl.version", verdict.pawl.version],
    ["contract.digest", verdict.contract.digest],
    ["contract.layouts", verdict.contract.layouts.join(",")],
    ["isolation", verdict.isolation?.tier ?? "not used"],
  ];
}

function where(f: Finding): string {
  if (f.path === undefined) return "(no file location)";
  return f.line === undefined ? f.path : `${f.path}:${f.line}`;
}

/**
 * Characters XML 1.0 cannot carry at all: C0 controls other than tab,
 * newline and carriage return, lone surrogates, U+FFFE and U+FFFF.
 */
const NOT_XML =
  // deno-lint-ignore no-control-regex
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** Escape for an attribute value in double quotes; whitespace controls survive as references. */
function attr(value: string): string {
  return value.replace(NOT_XML, "\ufffd")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;")
    .replace(/\t/g, "&#9;")
    .replace(/\n/g, "&#10;")
    .replace(/\r/g, "&#13;");
}

/** Escape for element text; a carriage return survives as a reference. */
function text(value: string): string {
  return value.replace(NOT_XML, "\ufffd")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/\r/g, "&#13;");
}
