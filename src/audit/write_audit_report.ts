/**
 * The audit report's three files, built from every record of a directory.
 *
 * @module
 */
import { plural } from "../core/plural.ts";
import { UsageError } from "../core/usage_error.ts";
import { writeOutputFile } from "../gate/outputs/write_output_file.ts";
import { type AuditRecord, auditRecordNumber } from "./audit_record.ts";
import { type AuditReport, buildAuditReport } from "./build_audit_report.ts";
import { AuditRecordError, readAuditRecord } from "./read_audit_record.ts";
import { renderAuditHtml } from "./render_audit_html.ts";
import { renderAuditJson } from "./render_audit_json.ts";
import { renderAuditMarkdown } from "./render_audit_markdown.ts";

/** The report's files, in the output directory. */
export const AUDIT_REPORT_FILES = {
  json: "audit.json",
  markdown: "audit.md",
  html: "audit.html",
} as const;

/**
 * Build the report from every record in `outDir` and write its three
 * files; with `requireRecords`, a directory without a single record file
 * is an error and nothing is written.
 */
export async function writeAuditReport(
  outDir: string,
  options: { requireRecords?: boolean } = {},
): Promise<AuditReport> {
  const records: AuditRecord[] = [];
  const unreadable: string[] = [];
  let entries: Deno.DirEntry[];
  try {
    entries = await Array.fromAsync(Deno.readDir(outDir));
  } catch (error) {
    throw new UsageError(
      `Cannot build the audit report: cannot read the directory "${outDir}": ${
        error instanceof Error ? error.message : String(error)
      }`,
    );
  }
  for (const entry of entries) {
    if (!entry.isFile || auditRecordNumber(entry.name) === undefined) continue;
    const path = `${outDir}/${entry.name}`;
    try {
      records.push(readAuditRecord(await Deno.readTextFile(path), path));
    } catch (error) {
      if (!(error instanceof AuditRecordError)) throw error;
      unreadable.push(error.message);
    }
  }
  if (
    options.requireRecords === true && records.length + unreadable.length === 0
  ) {
    throw new UsageError(
      `Cannot build the audit report: "${outDir}" holds no audit records ("pr-<N>.json")`,
    );
  }
  const report = buildAuditReport(records, { unreadable });
  const files = AUDIT_REPORT_FILES;
  await writeOutputFile(`${outDir}/${files.json}`, renderAuditJson(report));
  await writeOutputFile(
    `${outDir}/${files.markdown}`,
    renderAuditMarkdown(report),
  );
  await writeOutputFile(`${outDir}/${files.html}`, renderAuditHtml(report));
  return report;
}

/** The line naming the report's files, as both audit commands print it. */
export function auditReportLine(outDir: string, report: AuditReport): string {
  return `report (${plural(report.counts.total, "record")}): ${
    Object.values(AUDIT_REPORT_FILES).map((f) => `${outDir}/${f}`).join(", ")
  }\n`;
}
