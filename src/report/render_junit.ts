/**
 * JUnit XML for CI systems that show test reports.
 *
 * One `<testsuite name="pawl">` holds one `<testcase>` per rule family (the
 * finding layers, in report order), so a CI test view shows which part of
 * the contract held. Each blocking finding is a `<failure>` of its family;
 * non-blocking findings and what the run observed are `<system-out>` notes.
 * `tests` counts the families, `failures` the families with at least one
 * blocking finding, `skipped` the families that were not judged (the
 * `tests` and `seed` families when the suite did not run).
 *
 * @module
 */
import type { Finding } from "../core/finding.ts";
import { type Layer, LAYERS } from "../core/rules.ts";
import type { Verdict } from "../core/verdict.ts";

/**
 * Render a verdict as JUnit XML: one testcase per rule family, one failure
 * per blocking finding. Every attribute and text is escaped, and characters
 * XML 1.0 cannot carry become U+FFFD. Pure: the same verdict gives the same
 * bytes.
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
 * if (!xml.includes('<failure message="Property &quot;a&quot; was removed" type="property.removed">')) {
 *   throw new Error("unexpected");
 * }
 * ```
 */
export function renderJunit(verdict: Verdict): string {
  const families = LAYERS.map((layer) => family(verdict, layer));
  const failures = families.filter((f) => f.failures.length > 0).length;
  const skipped = families.filter((f) => f.skipped !== undefined).length;
  const counts = `tests="${families.length}" failures="${failures}" ` +
    `errors="0" skipped="${skipped}" time="0"`;
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="pawl" ${counts}>`,
    `  <testsuite name="pawl" ${counts}>`,
    "    <properties>",
    ...suiteProperties(verdict).map(([name, value]) =>
      `      <property name="${attr(name)}" value="${attr(value)}"/>`
    ),
    "    </properties>",
  ];
  for (const f of families) {
    const open =
      `    <testcase classname="pawl.${f.layer}" name="${f.layer}" ` +
      `time="0"`;
    if (
      f.failures.length === 0 && f.skipped === undefined && f.out.length === 0
    ) {
      lines.push(`${open}/>`);
      continue;
    }
    lines.push(`${open}>`);
    if (f.skipped !== undefined) {
      lines.push(`      <skipped message="${attr(f.skipped)}"/>`);
    }
    for (const finding of f.failures) {
      lines.push(
        `      <failure message="${attr(finding.message)}" type="${
          attr(finding.rule)
        }">${text(`${finding.rule} ${where(finding)}`)}</failure>`,
      );
    }
    if (f.out.length > 0) {
      lines.push(`      <system-out>${text(f.out.join("\n"))}</system-out>`);
    }
    lines.push("    </testcase>");
  }
  lines.push("  </testsuite>", "</testsuites>");
  return lines.join("\n") + "\n";
}

interface Family {
  layer: Layer;
  failures: Finding[];
  skipped: string | undefined;
  out: string[];
}

function family(verdict: Verdict, layer: Layer): Family {
  const findings = verdict.findings.filter((f) => f.layer === layer);
  const failures = findings.filter((f) => f.blocking);
  const out = [
    ...observed(verdict, layer),
    ...findings.filter((f) => !f.blocking).map((f) =>
      `note: ${f.rule} ${where(f)}: ${f.message}`
    ),
  ];
  const unjudged = verdict.tests === null &&
    (layer === "tests" || layer === "seed") && findings.length === 0;
  return {
    layer,
    failures,
    skipped: unjudged ? "The test suite was not run" : undefined,
    out,
  };
}

/** What the run observed for a family, as plain lines. */
function observed(verdict: Verdict, layer: Layer): string[] {
  const t = verdict.tests;
  if (t === null) return [];
  switch (layer) {
    case "tests": {
      const s = t.summary;
      return [
        `tests: ${s.passed} passed, ${s.failed} failed, ${s.errors} errors, ${s.skipped} skipped, ${s.xfailed} xfailed`,
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
