import assert from "node:assert/strict";
import { record } from "./_testing.ts";
import { buildAuditReport } from "./build_audit_report.ts";
import { renderAuditJson } from "./render_audit_json.ts";

Deno.test("renderAuditJson() holds, per pull request, number, title, commits, clock, decision, reason, blocking rules and findings", () => {
  const json = JSON.parse(renderAuditJson(buildAuditReport([
    record(2, "reject", { title: "Drop a property" }),
    record(3, "undecided"),
  ])));
  assert.deepEqual(json.pullRequests[0], {
    repo: "o/r",
    number: 2,
    title: "Drop a property",
    htmlUrl: "https://github.com/o/r/pull/2",
    state: "closed",
    createdAt: "2026-11-01T09:00:00Z",
    mergedAt: "2026-11-30T11:30:00Z",
    base: "a".repeat(40),
    head: "b".repeat(40),
    clock: {
      source: "merged-at",
      field: "pull_request.merged_at",
      now: "2026-11-30T11:30:00Z",
    },
    decision: "reject",
    blockingRules: ["property.removed"],
    findings: [{
      rule: "property.removed",
      message: 'Rule "property.removed" fired',
      blocking: true,
    }],
  });
  assert.equal(json.otherRules, null);
  assert.equal(json.pullRequests[1].decision, "undecided");
  assert.match(json.pullRequests[1].reason, /Cannot fetch/);
});
