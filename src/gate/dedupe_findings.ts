/**
 * One finding per fact.
 *
 * @module
 */
import type { Finding } from "../core/finding.ts";

/**
 * The same finding from two layouts (e.g. a harness rule) is reported
 * once; the first occurrence keeps its place.
 *
 * @example
 * ```ts
 * import { finding } from "../core/finding.ts";
 * import { dedupeFindings } from "./dedupe_findings.ts";
 * const one = finding("config.settings_ignored", "x", { path: "pawl.toml" });
 * if (dedupeFindings([one, { ...one }]).length !== 1) throw new Error();
 * ```
 */
export function dedupeFindings(findings: readonly Finding[]): Finding[] {
  const seen = new Set<string>();
  return findings.filter((f) => {
    const key = JSON.stringify([f.rule, f.path, f.line, f.message, f.blocking]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
