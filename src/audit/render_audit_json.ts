/**
 * `audit.json`: the report's data for machines.
 *
 * @module
 */
import type { AuditReport } from "./build_audit_report.ts";

/**
 * Render the report as pretty JSON with a final newline. Pure: the same
 * report gives the same bytes.
 *
 * @example
 * ```ts
 * import { buildAuditReport } from "./build_audit_report.ts";
 * import { renderAuditJson } from "./render_audit_json.ts";
 * const json = JSON.parse(renderAuditJson(buildAuditReport([])));
 * if (json.counts.total !== 0) throw new Error("unexpected");
 * ```
 */
export function renderAuditJson(report: AuditReport): string {
  return JSON.stringify(report, null, 2) + "\n";
}
