import assert from "node:assert/strict";
import { startFakeGitHub } from "../../tests/_fake_github.ts";
import type { JobSpec } from "./job.ts";
import type { JobContext } from "./judge.ts";
import { createLogger } from "./logger.ts";
import { createGitHubAnnounce } from "./_announce_with_github.ts";
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

Deno.test("the serve publisher logs what it published: the check run's id and whether the comment was created or updated", async () => {
  await using gh = startFakeGitHub();
  gh.addRepository("o/r", { gitDir: "/nowhere" });
  const publish = createGitHubPublish({ retryBaseMs: 1 });
  const outcome = { kind: "undecided" as const, reason: "x", headSha: HEAD };
  const events: Record<string, unknown>[] = [];
  const logged = {
    ...context(gh.url),
    log: (event: string, fields: Record<string, unknown> = {}) =>
      events.push({ event, ...fields }),
  };
  await publish(job, outcome, logged);
  await publish(job, outcome, logged);
  const id = gh.checkRuns[0]!.id;
  assert.deepEqual(
    events.filter((e) => e.event === "job.publish_done"),
    [
      { event: "job.publish_done", checkRun: id, comment: "created" },
      { event: "job.publish_done", checkRun: id, comment: "updated" },
    ],
  );
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

Deno.test("the serve publisher fails the job when one part of the publication failed, so the queue tries again", async () => {
  await using gh = startFakeGitHub();
  gh.addRepository("o/r", { gitDir: "/nowhere" });
  gh.inject({
    method: "POST",
    path: "/repos/o/r/issues/3/comments",
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
  assert.equal(gh.checkRuns.length, 1);
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
  const error = await publish(
    job,
    { kind: "undecided", reason: "x", headSha: HEAD },
    context(gh.url),
  ).then(() => undefined, (e: unknown) => e);
  // A worker that waited out the limit would have asked again after it.
  assert.ok(error !== undefined, "the publisher waited out the limit");
  assert.equal(
    gh.requests.filter((r) =>
      r.method === "POST" && r.path === "/repos/o/r/check-runs"
    ).length,
    1,
  );
  const now = Date.now();
  const wait = retryAfterMs(error, now);
  assert.ok(
    wait !== undefined && Math.abs(now + wait - reset * 1000) < 1000,
    String(wait),
  );
});

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

Deno.test("the serve publisher sends nothing more once finding or completing the check run failed", async (t) => {
  for (const part of ["find", "complete"] as const) {
    await t.step(part, async () => {
      await using gh = startFakeGitHub();
      gh.addRepository("o/r", { gitDir: "/nowhere" });
      if (part === "complete") {
        await createGitHubAnnounce({ retryBaseMs: 1 })(job, context(gh.url));
        assert.equal(gh.checkRuns.length, 1);
      }
      const statuses = gh.statuses.length;
      gh.inject({
        method: part === "find" ? "GET" : "PATCH",
        path: part === "find"
          ? `/repos/o/r/commits/${HEAD}/check-runs`
          : `/repos/o/r/check-runs/${gh.checkRuns[0]?.id}`,
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
      assert.equal(gh.statuses.length, statuses);
      assert.equal(gh.comments.length, 0);
    });
  }
});
