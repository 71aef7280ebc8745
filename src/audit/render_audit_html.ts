/**
 * `audit.html`: one self-contained page a person can open from an
 * artifact — no scripts, no external fonts or styles, charts as inline
 * SVG. A Content-Security-Policy that allows nothing but the inline styles
 * backs up the escaping of everything that comes from a pull request.
 *
 * @module
 */
import type {
  AuditPeriod,
  AuditReport,
  AuditReportRow,
  AuditRuleTrend,
} from "./build_audit_report.ts";
import { CONTROL_CHARS, truncate } from "./_text.ts";

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
 * map of the most common weakening rules per period, and a table of every
 * pull request. Pure: the same report gives the same bytes.
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
    `<p class="counts"><strong>${c.total}</strong> pull request${
      c.total === 1 ? "" : "s"
    }: ${
      (["accept", "reject", "undecided", "skipped"] as const).map((d) =>
        `<span class="badge ${d}">${c[d]} ${LABELS[d]}</span>`
      ).join(" ")
    }</p>`,
  ];
  if (report.unreadable.length > 0) {
    parts.push(
      `<div class="warning"><p>${report.unreadable.length} record file${
        report.unreadable.length === 1 ? "" : "s"
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
    `<p class="note">How many rejected pull requests each rule blocked, ${per}; the darker the cell, the more.</p>`,
    report.topRules.length === 0
      ? "<p>No pull request was rejected.</p>"
      : rulesChart(report.topRules, report.periods, report.periodKind),
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
  "body{font:14px/1.45 system-ui,-apple-system,'Segoe UI',Helvetica,Arial,sans-serif;color:#1f2328;margin:2rem auto;max-width:1200px;padding:0 1rem}",
  "h1{font-size:1.6rem;margin:0 0 .5rem}",
  "h2{font-size:1.2rem;margin:2rem 0 .5rem;border-bottom:1px solid #d0d7de;padding-bottom:.25rem}",
  ".note{color:#59636e;margin:.25rem 0 .75rem}",
  ".badge{display:inline-block;border-radius:1em;padding:0 .6em;color:#fff;font-weight:600;margin-right:.25em}",
  ...(Object.keys(COLORS) as (keyof typeof COLORS)[]).map((d) =>
    `.${d}{background:${COLORS[d]}}`
  ),
  ".warning{border:1px solid #d4a72c;background:#fff8c5;padding:.5rem 1rem;border-radius:6px}",
  "figure{margin:0;overflow-x:auto}",
  "svg text{font:11px system-ui,-apple-system,'Segoe UI',Helvetica,Arial,sans-serif;fill:#1f2328}",
  "table{border-collapse:collapse;width:100%}",
  "th,td{border-bottom:1px solid #d0d7de;padding:.35rem .5rem;text-align:left;vertical-align:top}",
  "th{background:#f6f8fa}",
  "td.num{white-space:nowrap}",
  "code{font:12px ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;background:#f6f8fa;padding:0 .2em;border-radius:4px}",
  "td .badge{font-weight:500}",
  ".reason{color:#59636e;font-size:.92em}",
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
  const width = left + slot * periods.length + 20;
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
  for (let tick = 0; tick <= scaleMax; tick += step) {
    const ty = round(y(tick));
    out.push(
      `<line x1="${left}" x2="${
        width - 10
      }" y1="${ty}" y2="${ty}" stroke="#d0d7de" stroke-width="1"/>`,
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
    `<line x1="${left}" x2="${width - 10}" y1="${top + height}" y2="${
      top + height
    }" stroke="#59636e" stroke-width="1"/>`,
    "</svg></figure>",
  );
  return out.join("\n");
}

/** A heat map: the top rules down, the periods across, the count in each cell. */
function rulesChart(
  rules: readonly AuditRuleTrend[],
  periods: readonly AuditPeriod[],
  kind: AuditReport["periodKind"],
): string {
  const cell = Math.max(
    6,
    Math.min(48, Math.floor(900 / Math.max(1, periods.length))),
  );
  const row = 24;
  const left = 230;
  const top = 8;
  const bottom = 70;
  const total = 60;
  const width = left + cell * periods.length + 10 + total;
  const height = top + row * rules.length + bottom;
  const max = Math.max(1, ...rules.flatMap((r) => r.byPeriod));
  const out: string[] = [
    `<figure><svg class="chart rules" xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-labelledby="rules-title">`,
    `<title id="rules-title">Most common weakening rules ${
      kind === "week" ? "per week" : "per pull request"
    }: ${
      rules.map((r) => `${escape(r.rule)} blocked ${r.pullRequests}`).join("; ")
    }</title>`,
  ];
  rules.forEach((trend, r) => {
    const ry = top + r * row;
    out.push(
      `<text x="${left - 8}" y="${ry + row / 2 + 4}" text-anchor="end">${
        escape(trend.rule)
      }</text>`,
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
        }" fill="${fill}"><title>${escape(trend.rule)}, ${
          escape(period.label)
        }: ${n} pull request${n === 1 ? "" : "s"}</title></rect>`,
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
      }">${trend.pullRequests} total</text>`,
    );
  });
  const labelEvery = Math.max(1, Math.ceil(periods.length / 40));
  periods.forEach((period, p) => {
    if (p % labelEvery !== 0) return;
    const lx = round(left + p * cell + cell / 2);
    const ly = top + row * rules.length + 12;
    out.push(
      `<text x="${lx}" y="${ly}" text-anchor="end" transform="rotate(-45 ${lx} ${ly})">${
        escape(period.label)
      }</text>`,
    );
  });
  out.push("</svg></figure>");
  return out.join("\n");
}

function legend(
  x: number,
  y: number,
  decisions: readonly (keyof typeof COLORS)[],
): string {
  return decisions.map((d, i) =>
    `<rect x="${x + i * 100}" y="${y - 9}" width="10" height="10" fill="${
      COLORS[d]
    }"/><text x="${x + i * 100 + 14}" y="${y}">${LABELS[d]}</text>`
  ).join("");
}

function pullRequestTable(rows: readonly AuditReportRow[]): string {
  if (rows.length === 0) return "<p>No records.</p>";
  const out = [
    "<table>",
    "<thead><tr><th>pull request</th><th>title</th><th>clock</th><th>decision</th><th>blocking rules / reason</th><th>base..head</th></tr></thead>",
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
      : r.blockingRules.map((rule) => `<code>${escape(rule)}</code>`).join(" ");
    out.push(
      `<tr><td class="num">${number}</td><td>${
        escape(r.title)
      }</td><td class="num">${clock}</td><td><span class="badge ${r.decision}">${
        LABELS[r.decision]
      }</span></td><td>${detail}</td><td class="num"><code>${
        escape(r.base.slice(0, 12))
      }..${escape(r.head.slice(0, 12))}</code></td></tr>`,
    );
  }
  out.push("</tbody>", "</table>");
  return out.join("\n");
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
