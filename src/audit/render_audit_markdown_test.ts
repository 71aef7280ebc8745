import assert from "node:assert/strict";
import { record } from "./_testing.ts";
import { buildAuditReport } from "./build_audit_report.ts";
import { renderAuditMarkdown } from "./render_audit_markdown.ts";

Deno.test("renderAuditMarkdown() puts the counts first, then time, rules, pull requests and reasons", () => {
  const text = renderAuditMarkdown(buildAuditReport([
    record(1, "accept"),
    record(2, "reject"),
    record(3, "undecided"),
    record(4, "skipped"),
  ]));
  const lines = text.split("\n");
  assert.equal(lines[0], "# pawl audit: o/r");
  assert.equal(
    lines[2],
    "4 pull requests: **1 accepted**, **1 rejected**, 1 undecided, 1 skipped.",
  );
  assert.match(text, /## Decisions per pull request, in order of the clock/);
  assert.match(text, /\| `property\.removed` \| 1 \|/);
  assert.match(
    text,
    /\| \[#2\]\(https:\/\/github\.com\/o\/r\/pull\/2\) \| Pull request 2 \| `2026-11-30T11:30:00Z` \(merged-at\) \| ❌ reject \| `property\.removed` \| `aaaaaaaaaaaa\.\.bbbbbbbbbbbb` \|/,
  );
  assert.match(
    text,
    /## Not decided\n\n- \[#3\]\([^)]*\) \(undecided\): Cannot fetch/,
  );
  assert.match(
    text,
    /- \[#4\]\([^)]*\) \(skipped\): Pull request #4 was never merged/,
  );
});

Deno.test("renderAuditMarkdown() escapes titles and reasons: no HTML, no broken table, no mentions", () => {
  const text = renderAuditMarkdown(buildAuditReport([
    record(1, "accept", {
      title: "<script>alert(1)</script> | @octocat `x`\nnext",
    }),
    record(2, "undecided"),
  ]));
  assert.ok(!text.includes("<script>"));
  assert.ok(!text.includes("<gone>"));
  assert.match(
    text,
    /&lt;script&gt;alert\(1\)&lt;\/script&gt; \\\| @&#8203;octocat \\`x\\` next/,
  );
  const row = text.split("\n").find((l) => l.includes("octocat"))!;
  assert.equal(row.split(/(?<!\\)\|/).length, 8, row);
});

Deno.test("renderAuditMarkdown() says so when nothing was judged or rejected", () => {
  const text = renderAuditMarkdown(buildAuditReport([record(1, "skipped")]));
  assert.match(text, /No pull request was judged\./);
  assert.match(text, /No pull request was rejected\./);
});

Deno.test("renderAuditMarkdown() names the rules past the top ones in a last row", () => {
  const markdown = renderAuditMarkdown(buildAuditReport([
    record(1, "reject", {
      now: "2026-11-03T10:00:00Z",
      rules: ["property.removed"],
    }),
    record(2, "reject", {
      now: "2026-11-04T10:00:00Z",
      rules: ["tests.failed"],
    }),
    record(3, "reject", {
      now: "2026-11-05T10:00:00Z",
      rules: ["tests.timeout"],
    }),
  ], { topRules: 1 }));
  assert.ok(
    markdown.includes(
      "| 2 more rules: `tests.failed`, `tests.timeout` | 2 | 0 | 1 | 1 |",
    ),
    markdown,
  );
});
