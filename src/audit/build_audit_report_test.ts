import assert from "node:assert/strict";
import type { RuleId } from "../core/rules.ts";
import { record } from "./_testing.ts";
import { buildAuditReport } from "./build_audit_report.ts";

Deno.test("buildAuditReport() counts every decision and lists the pull requests by number", () => {
  const report = buildAuditReport([
    record(9, "skipped"),
    record(3, "reject"),
    record(1, "accept"),
    record(5, "undecided"),
  ]);
  assert.deepEqual(report.counts, {
    total: 4,
    accept: 1,
    reject: 1,
    undecided: 1,
    skipped: 1,
  });
  assert.deepEqual(report.repos, ["o/r"]);
  assert.deepEqual(report.pullRequests.map((r) => r.number), [1, 3, 5, 9]);
  assert.deepEqual(report.pullRequests[1]!.blockingRules, ["property.removed"]);
  assert.match(report.pullRequests[2]!.reason ?? "", /Cannot fetch/);
});

Deno.test("buildAuditReport() gives the same report whatever order the records come in", () => {
  const records = [
    record(1, "accept", { now: "2026-10-05T10:00:00Z" }),
    record(2, "reject", { now: "2026-11-02T10:00:00Z" }),
    record(3, "undecided", { now: "2026-10-20T10:00:00Z" }),
    record(4, "skipped"),
  ];
  const expected = JSON.stringify(buildAuditReport(records));
  for (const order of [[3, 2, 1, 0], [2, 0, 3, 1], [1, 3, 0, 2]]) {
    assert.equal(
      JSON.stringify(buildAuditReport(order.map((i) => records[i]!))),
      expected,
    );
  }
});

Deno.test("buildAuditReport() buckets clocks by Monday-to-Sunday UTC weeks, empty weeks included", () => {
  const report = buildAuditReport([
    // Sunday 2026-11-01 belongs to the week of Monday 2026-10-26.
    record(1, "accept", { now: "2026-11-01T23:59:59Z" }),
    record(2, "reject", { now: "2026-11-02T00:00:00Z" }),
    // A clock with an offset counts at its UTC instant: Sunday 2026-11-15.
    record(3, "reject", {
      now: "2026-11-16T01:00:00+02:00",
      rules: ["freeze.expiry_extended", "property.removed"],
    }),
    record(4, "undecided", { now: "2026-11-17T00:00:00Z" }),
    record(5, "skipped"),
  ]);
  assert.equal(report.periodKind, "week");
  assert.deepEqual(
    report.periods.map((p) => [p.label, p.accept, p.reject, p.undecided]),
    [
      ["2026-10-26", 1, 0, 0],
      ["2026-11-02", 0, 1, 0],
      ["2026-11-09", 0, 1, 0],
      ["2026-11-16", 0, 0, 1],
    ],
  );
  assert.deepEqual(report.periods[2]!.pullRequests, [3]);
  assert.deepEqual(report.topRules, [
    { rule: "property.removed", pullRequests: 2, byPeriod: [0, 1, 1, 0] },
    { rule: "freeze.expiry_extended", pullRequests: 1, byPeriod: [0, 0, 1, 0] },
  ]);
});

Deno.test("buildAuditReport() shows one bar per pull request in order of the clock when all fall in one week", () => {
  const report = buildAuditReport([
    record(8, "accept", { now: "2026-11-03T10:00:00Z" }),
    record(2, "reject", { now: "2026-11-04T10:00:00Z" }),
    record(5, "reject", { now: "2026-11-03T10:00:00Z" }),
    record(6, "skipped"),
  ]);
  assert.equal(report.periodKind, "pull-request");
  assert.deepEqual(report.periods.map((p) => p.label), ["#5", "#8", "#2"]);
  assert.deepEqual(report.topRules[0]!.byPeriod, [1, 0, 1]);
});

Deno.test("buildAuditReport() counts a rule once per pull request and keeps the most common ones", () => {
  const report = buildAuditReport([
    record(1, "reject", { rules: ["property.removed", "property.removed"] }),
    record(2, "reject", { rules: ["tests.failed", "property.removed"] }),
    record(3, "reject", { rules: ["tests.failed"] }),
    record(4, "reject", { rules: ["fixture.digest_changed"] }),
  ], { topRules: 2 });
  assert.deepEqual(report.topRules.map((r) => [r.rule, r.pullRequests]), [
    ["property.removed", 2],
    ["tests.failed", 2],
  ]);
  assert.deepEqual(report.pullRequests[0]!.blockingRules, [
    "property.removed",
  ]);
});

Deno.test("buildAuditReport() lists unreadable record files", () => {
  const report = buildAuditReport([], { unreadable: ["b", "a"] });
  assert.deepEqual(report.unreadable, ["a", "b"]);
  assert.deepEqual(report.periods, []);
});

Deno.test("buildAuditReport() folds the rules past the top ones into one row, so no rejected pull request is left out", () => {
  const rules: RuleId[] = [
    "property.removed",
    "tests.failed",
    "fixture.digest_changed",
    "freeze.expired",
  ];
  // One week: a column per pull request, each blocked by its own rule.
  const report = buildAuditReport(
    rules.map((rule, i) =>
      record(i + 1, "reject", {
        now: `2026-11-0${i + 3}T10:00:00Z`,
        rules: [rule],
      })
    ),
    { topRules: 2 },
  );
  assert.equal(report.periodKind, "pull-request");
  assert.deepEqual(report.topRules.map((r) => r.rule), [
    "fixture.digest_changed",
    "freeze.expired",
  ]);
  assert.deepEqual(report.otherRules, {
    rules: ["property.removed", "tests.failed"],
    pullRequests: 2,
    byPeriod: [1, 1, 0, 0],
  });
  report.periods.forEach((period, i) => {
    const shown = report.topRules.reduce((n, r) => n + r.byPeriod[i]!, 0) +
      (report.otherRules?.byPeriod[i] ?? 0);
    assert.ok(shown > 0, `${period.label} has an empty column`);
  });
});

Deno.test("buildAuditReport() has no row of other rules when every rule has its own", () => {
  const report = buildAuditReport([
    record(1, "reject", { rules: ["property.removed", "tests.failed"] }),
  ]);
  assert.equal(report.otherRules, null);
  assert.equal(report.topRules.length, 2);
});

Deno.test("buildAuditReport() keeps each finding's message, blocking ones first", () => {
  const report = buildAuditReport([
    record(1, "reject", {
      rules: ["config.settings_ignored", "property.removed"],
    }),
  ]);
  assert.deepEqual(report.pullRequests[0]!.findings, [
    {
      rule: "property.removed",
      message: 'Rule "property.removed" fired',
      blocking: true,
    },
    {
      rule: "config.settings_ignored",
      message: 'Rule "config.settings_ignored" fired',
      blocking: false,
    },
  ]);
});
