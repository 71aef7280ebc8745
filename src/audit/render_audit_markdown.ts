/**
 * `audit.md`: the report for people reading a repository or a job summary.
 * Counts first, then decisions over time, the most common weakening rules,
 * every pull request, and why the undecided and skipped ones were not
 * decided. Everything that comes from a pull request is escaped.
 *
 * @module
 */
import { markdownInline } from "../report/markdown_text.ts";
import type {
  AuditPeriod,
  AuditReport,
  AuditReportRow,
} from "./build_audit_report.ts";
import { CONTROL_CHARS, truncate } from "./_text.ts";
import { plural } from "../core/plural.ts";

/** Periods shown as columns of the rules table before it is cut to totals. */
const MAX_RULE_COLUMNS = 12;

/** Characters of a reason kept. */
const MAX_REASON_CHARS = 500;

const ICONS = {
  accept: "✅ accept",
  reject: "❌ reject",
  undecided: "⚠️ undecided",
  skipped: "⏭️ skipped",
} as const;

/**
 * Render the report as Markdown. Pure: the same report gives the same
 * bytes.
 *
 * @example
 * ```ts
 * import { buildAuditReport } from "./build_audit_report.ts";
 * import { renderAuditMarkdown } from "./render_audit_markdown.ts";
 * const text = renderAuditMarkdown(buildAuditReport([]));
 * if (!text.startsWith("# pawl audit")) throw new Error("unexpected");
 * ```
 */
export function renderAuditMarkdown(report: AuditReport): string {
  const c = report.counts;
  const lines: string[] = [
    `# pawl audit${
      report.repos.length === 0
        ? ""
        : `: ${report.repos.map(inline).join(", ")}`
    }`,
    "",
    `${
      plural(c.total, "pull request")
    }: **${c.accept} accepted**, **${c.reject} rejected**, ${c.undecided} undecided, ${c.skipped} skipped.`,
    "",
  ];
  if (report.unreadable.length > 0) {
    lines.push(
      `${
        plural(report.unreadable.length, "record file")
      } could not be read and ${
        report.unreadable.length === 1 ? "is" : "are"
      } left out:`,
      "",
      ...report.unreadable.map((m) => `- ${inline(m)}`),
      "",
    );
  }
  const byWeek = report.periodKind === "week";
  lines.push(
    byWeek
      ? "## Decisions per week (weeks start on Monday, UTC)"
      : "## Decisions per pull request, in order of the clock",
    "",
  );
  if (report.periods.length === 0) {
    lines.push("No pull request was judged.", "");
  } else {
    lines.push(
      `| ${
        byWeek ? "week of" : "pull request"
      } | accept | reject | undecided |`,
      "| --- | ---: | ---: | ---: |",
      ...report.periods.map((p) =>
        `| ${p.label} | ${p.accept} | ${p.reject} | ${p.undecided} |`
      ),
      "",
    );
  }
  lines.push("## Most common weakening rules", "");
  if (report.topRules.length === 0) {
    lines.push("No pull request was rejected.", "");
  } else {
    const columns = report.periods.length <= MAX_RULE_COLUMNS
      ? report.periods
      : ([] as AuditPeriod[]);
    lines.push(
      `| rule | pull requests |${columns.map((p) => ` ${p.label} |`).join("")}`,
      `| --- | ---: |${columns.map(() => " ---: |").join("")}`,
      ...report.topRules.map((r) =>
        `| ${code(r.rule)} | ${r.pullRequests} |${
          columns.map((_, i) => ` ${r.byPeriod[i] ?? 0} |`).join("")
        }`
      ),
      ...(report.otherRules === null ? [] : [
        `| ${plural(report.otherRules.rules.length, "more rule")}: ${
          report.otherRules.rules.map(code).join(", ")
        } | ${report.otherRules.pullRequests} |${
          columns.map((_, i) => ` ${report.otherRules?.byPeriod[i] ?? 0} |`)
            .join("")
        }`,
      ]),
      "",
    );
    if (columns.length === 0) {
      lines.push(
        `Per ${
          byWeek ? "week" : "pull request"
        }: see \`audit.html\` or \`audit.json\`.`,
        "",
      );
    }
  }
  lines.push(
    "## Pull requests",
    "",
    "| pull request | title | clock | decision | blocking rules | base..head |",
    "| --- | --- | --- | --- | --- | --- |",
    ...report.pullRequests.map(row),
    "",
  );
  const open = report.pullRequests.filter((r) => r.reason !== undefined);
  if (open.length > 0) {
    lines.push("## Not decided", "");
    for (const r of open) {
      lines.push(
        `- ${label(r)} (${r.decision}): ${
          inline(truncate(r.reason ?? "", MAX_REASON_CHARS))
        }`,
      );
    }
    lines.push("");
  }
  return lines.join("\n");
}

function row(r: AuditReportRow): string {
  const clock = r.clock.now === null
    ? `none (${r.clock.source})`
    : `${code(r.clock.now)}${
      r.clock.source === "flag" ? "" : ` (${r.clock.source})`
    }`;
  const rules = r.blockingRules.map(code).join(", ");
  return `| ${label(r)} | ${inline(truncate(r.title, 200))} | ${clock} | ${
    ICONS[r.decision]
  } | ${rules} | \`${r.base.slice(0, 12)}..${r.head.slice(0, 12)}\` |`;
}

/** `#N`, linked to the pull request when its address is a web address. */
function label(r: AuditReportRow): string {
  return r.htmlUrl !== undefined && /^https?:\/\/[^\s()<>]+$/i.test(r.htmlUrl)
    ? `[#${r.number}](${r.htmlUrl})`
    : `#${r.number}`;
}

/** Untrusted text inside a table cell or a list item, on one line. */
function inline(value: string): string {
  return markdownInline(value, { newline: " " });
}

/** A code span that nothing inside can end early or break the table with. */
function code(value: string): string {
  const body = value.replace(CONTROL_CHARS, "\ufffd").replace(/[`\r\n]/g, " ")
    .replace(/\|/g, "\\|");
  return `\`${body}\``;
}
