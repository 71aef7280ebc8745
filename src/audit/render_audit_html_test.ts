import assert from "node:assert/strict";
import { record } from "./_testing.ts";
import { buildAuditReport } from "./build_audit_report.ts";
import { renderAuditHtml } from "./render_audit_html.ts";

/** Every element the page may hold: no script, image, link, frame or form. */
const ALLOWED_TAGS = new Set(
  "html head meta title style body h1 h2 p strong span section figure svg rect text line table thead tbody tr th td a code div ul li details summary wbr"
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
  assert.match(html, /<td class="num" data-label="pull request">#1<\/td>/);
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

Deno.test("renderAuditHtml() shows each finding's message, escaped, with its place", () => {
  const hostile = record(1, "reject");
  const verdict = hostile.verdict!;
  verdict.findings = [
    {
      ...verdict.findings[0]!,
      message: `Removed <img src=x onerror=alert(1)> & "quoted"`,
      path: "tests/<a>.py",
      line: 3,
    },
    {
      layer: "config",
      rule: "config.settings_ignored",
      message: "The pull request changes pawl.toml",
      blocking: false,
    },
  ];
  const html = renderAuditHtml(buildAuditReport([hostile]));
  assert.ok(
    html.includes(
      '<li><code>property.removed</code> Removed &lt;img src=x onerror=alert(1)&gt; &amp; &quot;quoted&quot; <span class="where">(tests/&lt;a&gt;.py:3)</span></li>',
    ),
    html,
  );
  assert.match(
    html,
    /<details><summary>1 advisory note<\/summary><ul class="findings"><li><code>config\.settings_ignored<\/code> The pull request changes pawl\.toml<\/li>/,
  );
  assert.ok(!/<img/i.test(html));
});

Deno.test("renderAuditHtml() names the rules past the top ones in a row of their own", () => {
  const records = Array.from({ length: 10 }, (_, i) =>
    record(i + 1, "reject", {
      now: `2026-11-03T1${i}:00:00Z`,
      rules: [
        ([
          "property.removed",
          "tests.failed",
          "fixture.missing",
          "freeze.expired",
          "seed.fresh_failed",
          "tests.timeout",
          "property.vacuous",
          "harness.conftest_changed",
          "config.ci_changed",
          "fixture.symlink",
        ] as const)[i]!,
      ],
    }));
  const html = renderAuditHtml(buildAuditReport(records));
  assert.match(html, />2 more rules<\/text>/);
  assert.match(
    html,
    /<p class="more">The 2 more rules, most common first: <code>tests\.failed<\/code> <code>tests\.timeout<\/code><\/p>/,
  );
  // Every pull request's column has a cell that is not empty.
  for (let n = 1; n <= 10; n++) {
    assert.match(html, new RegExp(`, #${n}: 1 pull request</title>`), `#${n}`);
  }
});

Deno.test("renderAuditHtml() fits a narrow screen", () => {
  const html = renderAuditHtml(buildAuditReport(RECORDS));
  assert.match(
    html,
    /<meta name="viewport" content="width=device-width, initial-scale=1">/,
  );
  // Long words wrap; charts and the table scroll inside their own box.
  assert.match(html, /body\{[^}]*overflow-wrap:break-word/);
  assert.match(html, /figure,\.scroll\{[^}]*overflow-x:auto/);
  assert.match(html, /<div class="scroll"><table class="prs">/);
  const figures = html.match(/<figure>/g)?.length ?? 0;
  assert.equal(figures, 2);
  // Below 900 px each pull request is a card whose cells say what they are.
  assert.match(
    html,
    /@media \(max-width:900px\)\{[^]*table\.prs thead\{display:none\}/,
  );
  assert.match(html, /table\.prs td::before\{content:attr\(data-label\)/);
  const rows = [...html.matchAll(/<tr><td[^]*?<\/tr>/g)].map((m) => m[0]);
  assert.equal(rows.length, RECORDS.length);
  for (const row of rows) {
    const cells = [...row.matchAll(/<td([^>]*)>/g)].map((m) => m[1]!);
    assert.equal(cells.length, 6);
    assert.ok(cells.every((c) => / data-label="[^"]+"/.test(c)), row);
  }
});
