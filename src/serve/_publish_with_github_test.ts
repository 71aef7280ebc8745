import assert from "node:assert/strict";
import { startFakeGitHub } from "../../tests/_fake_github.ts";
import type { JobSpec } from "./job.ts";
import type { JobContext } from "./judge.ts";
import { createLogger } from "./logger.ts";
import { createGitHubPublish } from "./_publish_with_github.ts";
import { retryAfterMs } from "./github_failure.ts";

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

Deno.test("the serve publisher makes could-not-decide a failing check run and publishes a head once however often it runs", async () => {
  await using gh = startFakeGitHub();
  gh.addRepository("o/r", { gitDir: "/nowhere" });
  const publish = createGitHubPublish({ retryBaseMs: 1 });
  const outcome = {
    kind: "undecided" as const,
    reason: "Cannot clone",
    headSha: HEAD,
  };
  await publish(job, outcome, context(gh.url));
  await publish(job, outcome, context(gh.url));
  assert.equal(gh.checkRuns.length, 1);
  assert.equal(gh.checkRuns[0]!.conclusion, "failure");
  assert.equal(gh.checkRuns[0]!.title, "Could not decide");
  assert.equal(gh.comments.length, 1);
  assert.ok(gh.statuses.every((s) => s.state === "error"));
});

Deno.test("the serve publisher sends nothing after a part that failed", async () => {
  await using gh = startFakeGitHub();
  gh.addRepository("o/r", { gitDir: "/nowhere" });
  gh.inject({
    method: "POST",
    path: "/repos/o/r/check-runs",
    status: 502,
    times: 10,
  });
  const publish = createGitHubPublish({ retryBaseMs: 1 });
  await assert.rejects(
    publish(
      job,
      { kind: "undecided", reason: "x", headSha: HEAD },
      context(gh.url),
    ),
    /502/,
  );
  assert.equal(gh.statuses.length, 0);
  assert.equal(gh.comments.length, 0);
});

Deno.test("the serve publisher leaves a long rate limit wait to the queue, which reads when to come back", async () => {
  await using gh = startFakeGitHub();
  gh.addRepository("o/r", { gitDir: "/nowhere" });
  const reset = gh.injectRateLimit(
    { method: "POST", path: "/repos/o/r/check-runs" },
    60,
  );
  const publish = createGitHubPublish({ retryBaseMs: 1000 });
  const started = Date.now();
  const error = await publish(
    job,
    { kind: "undecided", reason: "x", headSha: HEAD },
    context(gh.url),
  ).then(() => undefined, (e: unknown) => e);
  assert.ok(Date.now() - started < 5000, "a worker slept on the limit");
  const now = Date.now();
  const wait = retryAfterMs(error, now);
  assert.ok(
    wait !== undefined && Math.abs(now + wait - reset * 1000) < 1000,
    String(wait),
  );
});
