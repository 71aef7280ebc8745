/**
 * `audit.html`: one self-contained page a person can open from an
 * artifact — no scripts, no external fonts or styles, charts as inline
 * SVG. A Content-Security-Policy that allows nothing but the inline styles
 * backs up the escaping of everything that comes from a pull request.
 *
 * @module
 */
import type {
  AuditFinding,
  AuditOtherRules,
  AuditPeriod,
  AuditReport,
  AuditReportRow,
  AuditRuleTrend,
} from "./build_audit_report.ts";
import { CONTROL_CHARS, truncate } from "./_text.ts";
import { plural } from "../core/plural.ts";

/** The colour of each decision, shared by the charts, the legend and the table. */
const COLORS = {
  accept: "#1a7f37",
  reject: "#cf222e",
  undecided: "#9a6700",
  skipped: "#6e7781",
} as const;

const LABELS = {
  accept: "accept",
  reject: "reject",
  undecided: "undecided",
  skipped: "skipped",
} as const;

/** Characters of a reason kept in the table. */
const MAX_REASON_CHARS = 500;

/**
 * Render the report as one HTML page: the counts, a stacked bar chart of
 * decisions per week (or per pull request in order of the clock), a heat
 * map of the most common weakening rules per period (the rest in one "N
 * more rules" row), and every pull request with its findings' messages.
 * The page fits a phone: text wraps, charts and wide tables scroll inside
 * their own box, and below 900 px each pull request is a card. Pure: the
 * same report gives the same bytes.
 *
 * @example
 * ```ts
 * import { buildAuditReport } from "./build_audit_report.ts";
 * import { renderAuditHtml } from "./render_audit_html.ts";
 * const html = renderAuditHtml(buildAuditReport([]));
 * if (!html.startsWith("<!DOCTYPE html>") || html.includes("<script")) throw new Error("unexpected");
 * ```
 */
export function renderAuditHtml(report: AuditReport): string {
  const c = report.counts;
  const repos = report.repos.length === 0
    ? "no pull requests"
    : report.repos.join(", ");
  const per = report.periodKind === "week"
    ? "per week (weeks start on Monday, UTC)"
    : "per pull request, in order of the clock";
  const parts: string[] = [
    "<!DOCTYPE html>",
    '<html lang="en">',
    "<head>",
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>pawl audit: ${escape(repos)}</title>`,
    `<style>${STYLE}</style>`,
    "</head>",
    "<body>",
    `<h1>pawl audit: ${escape(repos)}</h1>`,
    `<p class="counts"><strong>${c.total}</strong> ${
      c.total === 1 ? "pull request" : "pull requests"
    }: ${
      (["accept", "reject", "undecided", "skipped"] as const).map((d) =>
        `<span class="badge ${d}">${c[d]} ${LABELS[d]}</span>`
      ).join(" ")
    }</p>`,
  ];
  if (report.unreadable.length > 0) {
    parts.push(
      `<div class="warning"><p>${
        plural(report.unreadable.length, "record file")
      } could not be read and ${
        report.unreadable.length === 1 ? "is" : "are"
      } left out:</p><ul>${
        report.unreadable.map((m) => `<li>${escape(m)}</li>`).join("")
      }</ul></div>`,
    );
  }
  parts.push(
    "<section>",
    `<h2>Decisions over time</h2>`,
    `<p class="note">Accepted, rejected and undecided pull requests ${per}, at the clock each was judged at. Skipped pull requests have no clock and are not shown.</p>`,
    report.periods.length === 0
      ? "<p>No pull request was judged.</p>"
      : decisionsChart(report.periods, report.periodKind),
    "</section>",
    "<section>",
    "<h2>Most common weakening rules over time</h2>",
    `<p class="note">How many rejected pull requests each rule blocked, ${per}; the darker the cell, the more.${
      report.otherRules === null
        ? ""
        : ` The ${report.topRules.length} most common rules have a row each; the other ${report.otherRules.rules.length} share the last row.`
    }</p>`,
    report.topRules.length === 0
      ? "<p>No pull request was rejected.</p>"
      : rulesChart(
        report.topRules,
        report.otherRules,
        report.periods,
        report.periodKind,
      ),
    otherRulesList(report.otherRules),
    "</section>",
    "<section>",
    "<h2>Pull requests</h2>",
    pullRequestTable(report.pullRequests),
    "</section>",
    "</body>",
    "</html>",
    "",
  );
  return parts.join("\n");
}

const STYLE = [
  "*{box-sizing:border-box}",
  "body{font:14px/1.45 system-ui,-apple-system,'Segoe UI',Helvetica,Arial,sans-serif;color:#1f2328;margin:2rem auto;max-width:1200px;padding:0 1rem;overflow-wrap:break-word}",
  "h1{font-size:1.6rem;margin:0 0 .5rem;overflow-wrap:anywhere}",
  "h2{font-size:1.2rem;margin:2rem 0 .5rem;border-bottom:1px solid #d0d7de;padding-bottom:.25rem}",
  ".note{color:#59636e;margin:.25rem 0 .75rem}",
  ".badge{display:inline-block;border-radius:1em;padding:0 .6em;color:#fff;font-weight:600;margin:0 .25em .2em 0;white-space:nowrap}",
  ...(Object.keys(COLORS) as (keyof typeof COLORS)[]).map((d) =>
    `.${d}{background:${COLORS[d]}}`
  ),
  ".warning{border:1px solid #d4a72c;background:#fff8c5;padding:.5rem 1rem;border-radius:6px}",
  "figure,.scroll{margin:0;max-width:100%;overflow-x:auto}",
  "svg{display:block}",
  "svg text{font:11px system-ui,-apple-system,'Segoe UI',Helvetica,Arial,sans-serif;fill:#1f2328}",
  "table{border-collapse:collapse;width:100%}",
  "th,td{border-bottom:1px solid #d0d7de;padding:.35rem .5rem;text-align:left;vertical-align:top}",
  "th{background:#f6f8fa}",
  "td.title{min-width:9rem}",
  "td.findings{min-width:14rem}",
  "td.num code,td.clock code,td.commits code{white-space:nowrap}",
  "td.num{white-space:nowrap}",
  "code{font:12px ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;background:#f6f8fa;padding:0 .2em;border-radius:4px;overflow-wrap:anywhere}",
  "td .badge{font-weight:500}",
  ".reason{color:#59636e;font-size:.92em;overflow-wrap:anywhere}",
  "ul.findings{margin:0;padding:0;list-style:none}",
  "ul.findings li{margin:0 0 .4rem;overflow-wrap:anywhere}",
  ".where{color:#59636e;font-size:.92em}",
  "details summary{cursor:pointer;color:#59636e}",
  ".more{color:#59636e}",
  // A phone: each pull request is a card, each cell labelled.
  "@media (max-width:900px){body{margin:1rem auto}table.prs,table.prs tbody,table.prs tr,table.prs td{display:block;width:100%}table.prs thead{display:none}table.prs tr{border:1px solid #d0d7de;border-radius:6px;margin:0 0 .75rem;padding:.25rem .5rem}table.prs td{border:0;padding:.15rem 0}table.prs td:empty{display:none}table.prs td::before{content:attr(data-label);display:inline-block;min-width:6.5rem;color:#59636e;font-size:.85em}td.num{white-space:normal}}",
].join("\n");

/** A stacked bar per period: accepted at the bottom, rejected, then undecided. */
function decisionsChart(
  periods: readonly AuditPeriod[],
  kind: AuditReport["periodKind"],
): string {
  const slot = Math.max(6, Math.min(48, Math.floor(1000 / periods.length)));
  const left = 40;
  const top = 30;
  const height = 200;
  const bottom = 70;
  // Never narrower than its legend: three entries, 85 px apart.
  const width = Math.max(left + slot * periods.length + 20, left + 255);
  const max = Math.max(1, ...periods.map(total));
  const step = Math.max(1, Math.ceil(max / 4));
  const scaleMax = step * Math.ceil(max / step);
  const y = (value: number) => top + height - (value / scaleMax) * height;
  const out: string[] = [
    `<figure><svg class="chart decisions" xmlns="http://www.w3.org/2000/svg" width="${width}" height="${
      top + height + bottom
    }" viewBox="0 0 ${width} ${
      top + height + bottom
    }" role="img" aria-labelledby="decisions-title">`,
    `<title id="decisions-title">Decisions ${
      kind === "week" ? "per week" : "per pull request"
    }: ${
      periods.map((p) =>
        `${
          escape(p.label)
        } ${p.accept} accept, ${p.reject} reject, ${p.undecided} undecided`
      ).join("; ")
    }</title>`,
    legend(left, 12, ["accept", "reject", "undecided"]),
  ];
  const plotEnd = left + slot * periods.length + 10;
  for (let tick = 0; tick <= scaleMax; tick += step) {
    const ty = round(y(tick));
    out.push(
      `<line x1="${left}" x2="${plotEnd}" y1="${ty}" y2="${ty}" stroke="#d0d7de" stroke-width="1"/>`,
      `<text x="${left - 6}" y="${ty + 4}" text-anchor="end">${tick}</text>`,
    );
  }
  const labelEvery = Math.max(1, Math.ceil(periods.length / 40));
  periods.forEach((period, i) => {
    const x = left + i * slot + Math.max(1, Math.floor(slot * 0.15));
    const w = Math.max(2, slot - 2 * Math.max(1, Math.floor(slot * 0.15)));
    let base = 0;
    for (const decision of ["accept", "reject", "undecided"] as const) {
      const n = period[decision];
      if (n === 0) continue;
      const y1 = y(base + n);
      out.push(
        `<rect class="bar ${decision}" x="${x}" y="${
          round(y1)
        }" width="${w}" height="${round(y(base) - y1)}" fill="${
          COLORS[decision]
        }"><title>${escape(period.label)}: ${n} ${
          LABELS[decision]
        }</title></rect>`,
      );
      base += n;
    }
    if (i % labelEvery === 0) {
      const lx = left + i * slot + slot / 2;
      const ly = top + height + 12;
      out.push(
        `<text x="${
          round(lx)
        }" y="${ly}" text-anchor="end" transform="rotate(-45 ${
          round(lx)
        } ${ly})">${escape(period.label)}</text>`,
      );
    }
  });
  out.push(
    `<line x1="${left}" x2="${plotEnd}" y1="${top + height}" y2="${
      top + height
    }" stroke="#59636e" stroke-width="1"/>`,
    "</svg></figure>",
  );
  return out.join("\n");
}

/** One row of the heat map: a label, a count per period, a total. */
interface HeatRow {
  label: string;
  byPeriod: readonly number[];
  total: number;
  more: boolean;
}

/**
 * A heat map: the top rules down (then one row for all the others), the
 * periods across, the count in each cell.
 */
function rulesChart(
  rules: readonly AuditRuleTrend[],
  other: AuditOtherRules | null,
  periods: readonly AuditPeriod[],
  kind: AuditReport["periodKind"],
): string {
  const rows: HeatRow[] = rules.map((r) => ({
    label: r.rule,
    byPeriod: r.byPeriod,
    total: r.pullRequests,
    more: false,
  }));
  if (other !== null) {
    rows.push({
      label: `${plural(other.rules.length, "more rule")}`,
      byPeriod: other.byPeriod,
      total: other.pullRequests,
      more: true,
    });
  }
  const cell = Math.max(
    6,
    Math.min(48, Math.floor(900 / Math.max(1, periods.length))),
  );
  const row = 24;
  const left = 230;
  const top = 8;
  const bottom = 70;
  const width = left + cell * periods.length + 10 + 60;
  const height = top + row * rows.length + bottom;
  const max = Math.max(1, ...rows.flatMap((r) => r.byPeriod));
  const out: string[] = [
    `<figure><svg class="chart rules" xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-labelledby="rules-title">`,
    `<title id="rules-title">Most common weakening rules ${
      kind === "week" ? "per week" : "per pull request"
    }: ${
      rows.map((r) => `${escape(r.label)} blocked ${r.total}`).join("; ")
    }</title>`,
  ];
  rows.forEach((trend, r) => {
    const ry = top + r * row;
    out.push(
      `<text x="${left - 8}" y="${ry + row / 2 + 4}" text-anchor="end"${
        trend.more ? ' font-style="italic"' : ""
      }>${escape(trend.label)}</text>`,
    );
    periods.forEach((period, p) => {
      const n = trend.byPeriod[p] ?? 0;
      const fill = n === 0
        ? "#f6f8fa"
        : `rgba(207,34,46,${(0.2 + 0.8 * (n / max)).toFixed(3)})`;
      const x = left + p * cell;
      out.push(
        `<rect x="${x}" y="${ry + 1}" width="${cell - 1}" height="${
          row - 2
        }" fill="${fill}"><title>${escape(trend.label)}, ${
          escape(period.label)
        }: ${plural(n, "pull request")}</title></rect>`,
      );
      if (n > 0 && cell >= 18) {
        out.push(
          `<text x="${round(x + cell / 2)}" y="${
            ry + row / 2 + 4
          }" text-anchor="middle" style="fill:${
            n / max > 0.5 ? "#fff" : "#1f2328"
          }">${n}</text>`,
        );
      }
    });
    out.push(
      `<text x="${left + cell * periods.length + 10}" y="${
        ry + row / 2 + 4
      }">${trend.total} total</text>`,
    );
  });
  const labelEvery = Math.max(1, Math.ceil(periods.length / 40));
  periods.forEach((period, p) => {
    if (p % labelEvery !== 0) return;
    const lx = round(left + p * cell + cell / 2);
    const ly = top + row * rows.length + 12;
    out.push(
      `<text x="${lx}" y="${ly}" text-anchor="end" transform="rotate(-45 ${lx} ${ly})">${
        escape(period.label)
      }</text>`,
    );
  });
  out.push("</svg></figure>");
  return out.join("\n");
}

/** The rules the heat map folds into its last row, named. */
function otherRulesList(other: AuditOtherRules | null): string {
  if (other === null) return "";
  return `<p class="more">The ${
    plural(other.rules.length, "more rule")
  }, most common first: ${
    other.rules.map((rule) => `<code>${escape(rule)}</code>`).join(" ")
  }</p>`;
}

function legend(
  x: number,
  y: number,
  decisions: readonly (keyof typeof COLORS)[],
): string {
  return decisions.map((d, i) =>
    `<rect x="${x + i * 85}" y="${y - 9}" width="10" height="10" fill="${
      COLORS[d]
    }"/><text x="${x + i * 85 + 14}" y="${y}">${LABELS[d]}</text>`
  ).join("");
}

function pullRequestTable(rows: readonly AuditReportRow[]): string {
  if (rows.length === 0) return "<p>No records.</p>";
  const out = [
    '<div class="scroll"><table class="prs">',
    "<thead><tr><th>pull request</th><th>title</th><th>clock</th><th>decision</th><th>findings / reason</th><th>base..head</th></tr></thead>",
    "<tbody>",
  ];
  for (const r of rows) {
    const number = r.htmlUrl !== undefined && /^https?:\/\//i.test(r.htmlUrl)
      ? `<a href="${escape(r.htmlUrl)}">#${r.number}</a>`
      : `#${r.number}`;
    const clock = r.clock.now === null
      ? `none <span class="reason">(${escape(r.clock.source)})</span>`
      : `<code>${escape(r.clock.now)}</code>${
        r.clock.source === "flag"
          ? ""
          : ` <span class="reason">(${escape(r.clock.source)})</span>`
      }`;
    const detail = r.reason !== undefined
      ? `<span class="reason">${
        escape(truncate(r.reason, MAX_REASON_CHARS))
      }</span>`
      : findingList(r.findings);
    out.push(
      `<tr><td class="num" data-label="pull request">${number}</td><td class="title" data-label="title">${
        escape(r.title)
      }</td><td class="clock" data-label="clock">${clock}</td><td data-label="decision"><span class="badge ${r.decision}">${
        LABELS[r.decision]
      }</span></td><td class="findings" data-label="findings">${detail}</td><td class="commits" data-label="base..head"><code>${
        escape(r.base.slice(0, 12))
      }..</code><wbr><code>${escape(r.head.slice(0, 12))}</code></td></tr>`,
    );
  }
  out.push("</tbody>", "</table></div>");
  return out.join("\n");
}

/**
 * Blocking findings as a list (rule, message, place); advisory ones folded
 * under a summary line that opens without a script.
 */
function findingList(findings: readonly AuditFinding[]): string {
  const item = (f: AuditFinding) =>
    `<li><code>${escape(f.rule)}</code> ${escape(f.message)}${
      f.path === undefined
        ? ""
        : ` <span class="where">(${escape(f.path)}${
          f.line === undefined ? "" : `:${f.line}`
        })</span>`
    }</li>`;
  const blocking = findings.filter((f) => f.blocking);
  const notes = findings.filter((f) => !f.blocking);
  const parts: string[] = [];
  if (blocking.length > 0) {
    parts.push(`<ul class="findings">${blocking.map(item).join("")}</ul>`);
  }
  if (notes.length > 0) {
    parts.push(
      `<details><summary>${
        plural(notes.length, "advisory note")
      }</summary><ul class="findings">${
        notes.map(item).join("")
      }</ul></details>`,
    );
  }
  return parts.join("");
}

function total(p: AuditPeriod): number {
  return p.accept + p.reject + p.undecided;
}

function round(n: number): number {
  return Math.round(n * 10) / 10;
}

/** Text or an attribute value from a pull request, made inert. */
function escape(value: string): string {
  return value.replace(CONTROL_CHARS, "\ufffd")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
}
