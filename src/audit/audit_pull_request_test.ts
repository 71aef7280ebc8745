import assert from "node:assert/strict";
import { PullRequestDataError } from "../github/pull_request.ts";
import { apiPull } from "./_testing.ts";
import {
  readAuditPullRequest,
  readPullRequestList,
} from "./audit_pull_request.ts";

Deno.test("readAuditPullRequest() reads the title and both timestamps", () => {
  const pr = readAuditPullRequest(
    apiPull(7, { title: "<b>x</b>" }),
    "the API",
  );
  assert.equal(pr.title, "<b>x</b>");
  assert.equal(pr.createdAt, "2026-11-01T09:00:00Z");
  assert.equal(pr.mergedAt, "2026-11-30T11:30:00Z");
  assert.equal(pr.base.cloneUrl, "https://github.com/o/r.git");
});

Deno.test("readAuditPullRequest() reads a missing or null merged_at as never merged", () => {
  const { merged_at: _, ...unmerged } = apiPull(7);
  assert.equal(readAuditPullRequest(unmerged, "the API").mergedAt, null);
  assert.equal(
    readAuditPullRequest(apiPull(7, { "merged_at": null }), "the API")
      .mergedAt,
    null,
  );
});

Deno.test("readAuditPullRequest() refuses timestamps that are not RFC 3339", () => {
  assert.throws(
    () =>
      readAuditPullRequest(apiPull(7, { "merged_at": "yesterday" }), "the API"),
    (error) =>
      error instanceof PullRequestDataError &&
      /Cannot read pull request #7 from the API: expected an RFC 3339 timestamp at "merged_at"/
        .test(error.message),
  );
});

Deno.test("readPullRequestList() reports unreadable entries and keeps each number once", () => {
  const list = readPullRequestList([
    apiPull(3, { title: "first" }),
    { number: 4 },
    apiPull(3, { title: "again" }),
    apiPull(2, { "created_at": 5 }),
  ], "the API");
  assert.deepEqual(list.pulls.map((p) => [p.number, p.title]), [[3, "first"]]);
  assert.equal(list.unreadable.length, 2);
  assert.match(list.unreadable[1]!, /#2/);
});
