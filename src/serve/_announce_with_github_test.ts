import assert from "node:assert/strict";
import { startFakeGitHub } from "../../tests/_fake_github.ts";
import type { JobSpec } from "./job.ts";
import type { JobContext } from "./judge.ts";
import { createLogger } from "./logger.ts";
import { createGitHubAnnounce } from "./_announce_with_github.ts";
import { createGitHubPublish } from "./_publish_with_github.ts";

const HEAD = "c".repeat(40);

const job: JobSpec = {
  owner: "o",
  repo: "r",
  number: 3,
  baseSha: "a".repeat(40),
  headSha: HEAD,
  cloneUrl: "file:///nowhere",
  now: "2026-11-30T11:00:00Z",
  clockField: "pull_request.updated_at",
  event: "pull_request.opened",
  deliveryId: "d",
};

function context(apiUrl: string): JobContext {
  return {
    token: undefined,
    apiUrl,
    attempt: 1,
    log: createLogger({ write: () => {} }).log,
  };
}

Deno.test("the serve announcer marks one check run in progress however often a head starts, the publisher completes that one, and judging the head again starts a new one", async () => {
  await using gh = startFakeGitHub();
  gh.addRepository("o/r", { gitDir: "/nowhere" });
  const announce = createGitHubAnnounce({ retryBaseMs: 1 });
  await announce(job, context(gh.url));
  // A retry, or another server after a restart.
  await announce(job, context(gh.url));
  assert.deepEqual(
    gh.checkRuns.map((r) => [r.headSha, r.status, r.conclusion, r.title]),
    [[HEAD, "in_progress", null, "Judging"]],
  );
  assert.deepEqual(gh.statuses.map((s) => [s.state, s.context]), [
    ["pending", "pawl"],
    ["pending", "pawl"],
  ]);
  assert.match(gh.statuses[0]!.targetUrl ?? "", /\/runs\/\d+$/);
  const id = gh.checkRuns[0]!.id;
  await createGitHubPublish({ retryBaseMs: 1 })(job, {
    kind: "undecided",
    reason: "Cannot decide: no contract",
    headSha: HEAD,
  }, context(gh.url));
  assert.deepEqual(
    gh.checkRuns.map((r) => [r.id, r.status, r.conclusion, r.title]),
    [[id, "completed", "failure", "Could not decide"]],
  );
  assert.equal(gh.statuses.at(-1)?.state, "error");
  // Judged again (a re-run): the completed check run cannot be reopened,
  // so a new one shows the progress and then the verdict.
  await announce(job, context(gh.url));
  await createGitHubPublish({ retryBaseMs: 1 })(job, {
    kind: "undecided",
    reason: "Cannot decide: still no contract",
    headSha: HEAD,
  }, context(gh.url));
  assert.deepEqual(gh.checkRuns.map((r) => [r.status, r.conclusion]), [
    ["completed", "failure"],
    ["completed", "failure"],
  ]);
  assert.match(gh.checkRuns[1]!.summary, /still no contract/);
  assert.doesNotMatch(gh.checkRuns[0]!.summary, /still/);
});

Deno.test("the serve announcer says what failed", async () => {
  await using gh = startFakeGitHub();
  gh.addRepository("o/r", { gitDir: "/nowhere" });
  gh.inject({ method: "POST", path: /\/statuses\//, status: 403, times: 5 });
  await assert.rejects(
    createGitHubAnnounce({ retryBaseMs: 1 })(job, context(gh.url)),
    /Cannot set the commit status .*403/,
  );
  assert.equal(gh.checkRuns[0]?.status, "in_progress");
});
