import assert from "node:assert/strict";
import { record } from "./_testing.ts";
import { buildAuditReport } from "./build_audit_report.ts";
import { renderAuditHtml } from "./render_audit_html.ts";

/** Every element the page may hold: no script, image, link, frame or form. */
const ALLOWED_TAGS = new Set(
  "html head meta title style body h1 h2 p strong span section figure svg rect text line table thead tbody tr th td a code div ul li"
    .split(" "),
);

const RECORDS = [
  record(1, "accept", { now: "2026-10-05T10:00:00Z" }),
  record(2, "reject", {
    now: "2026-10-14T10:00:00Z",
    rules: ["property.removed", "tests.failed"],
  }),
  record(3, "reject", { now: "2026-10-28T10:00:00Z" }),
  record(4, "undecided", { now: "2026-10-29T10:00:00Z" }),
  record(5, "skipped", {
    title: `<script>alert("x")</script><img src=x onerror=alert(1)> & 'q'`,
  }),
];

Deno.test("renderAuditHtml() draws decisions over time and rules over time as inline SVG", () => {
  const html = renderAuditHtml(buildAuditReport(RECORDS));
  assert.ok(html.startsWith('<!DOCTYPE html>\n<html lang="en">'));
  assert.match(html, /<svg class="chart decisions"[^>]*role="img"/);
  assert.match(html, /<svg class="chart rules"/);
  // Four weeks from the first clock to the last, one bar segment per decision.
  assert.equal((html.match(/<rect class="bar accept"/g) ?? []).length, 1);
  assert.equal((html.match(/<rect class="bar reject"/g) ?? []).length, 2);
  assert.equal((html.match(/<rect class="bar undecided"/g) ?? []).length, 1);
  for (const week of ["2026-10-05", "2026-10-12", "2026-10-19", "2026-10-26"]) {
    assert.ok(html.includes(`>${week}</text>`), week);
  }
  assert.match(
    html,
    /<title>property\.removed, 2026-10-26: 1 pull request<\/title>/,
  );
  assert.match(html, /<span class="badge reject">2 reject<\/span>/);
});

Deno.test("renderAuditHtml() is self-contained and escapes everything from pull requests", () => {
  const html = renderAuditHtml(buildAuditReport(RECORDS));
  assert.ok(!/<script|<img|<link|@import|url\(/i.test(html));
  const tags = new Set(
    [...html.matchAll(/<\/?([a-z0-9]+)/gi)].map((m) => m[1]),
  );
  assert.deepEqual([...tags].filter((tag) => !ALLOWED_TAGS.has(tag!)), []);
  assert.match(
    html,
    /&lt;script&gt;alert\(&quot;x&quot;\)&lt;\/script&gt;&lt;img src=x onerror=alert\(1\)&gt; &amp; &#39;q&#39;/,
  );
  assert.match(html, /&lt;gone&gt;/);
  assert.match(html, /Content-Security-Policy" content="default-src 'none'/);
  const hrefs = [...html.matchAll(/href="([^"]*)"/g)].map((m) => m[1]);
  assert.ok(hrefs.every((h) => h!.startsWith("https://github.com/o/r/pull/")));
});

Deno.test("renderAuditHtml() links only web addresses", () => {
  const bad = record(1, "accept");
  bad.pullRequest.htmlUrl = "javascript:alert(1)";
  const html = renderAuditHtml(buildAuditReport([bad]));
  assert.ok(!html.includes("javascript:"));
  assert.match(html, /<td class="num">#1<\/td>/);
});

Deno.test("renderAuditHtml() gives the same bytes for the same report", () => {
  assert.equal(
    renderAuditHtml(buildAuditReport(RECORDS)),
    renderAuditHtml(buildAuditReport([...RECORDS].reverse())),
  );
});

Deno.test("renderAuditHtml() says so when nothing was judged or rejected", () => {
  const html = renderAuditHtml(buildAuditReport([record(1, "skipped")]));
  assert.match(html, /No pull request was judged\./);
  assert.match(html, /No pull request was rejected\./);
  assert.ok(!html.includes("<svg"));
});
