import assert from "node:assert/strict";
import type { Outcome } from "../github/publish_verdict.ts";
import type { JobSpec } from "./job.ts";
import { GitError } from "../git/git_error.ts";
import { type Judge, type Publish, TransientError } from "./judge.ts";
import { createLogger } from "./logger.ts";
import { Metrics } from "./metrics.ts";
import type { JobQueue } from "./queue.ts";
import { openSqliteQueue } from "./sqlite_queue.ts";
import { DEFAULT_RETRY_SCHEDULE } from "./retry_schedule.ts";
import { WorkerPool, type WorkerPoolOptions } from "./worker_pool.ts";

function spec(
  number: number,
  head: string,
  now = "2026-11-30T10:00:00Z",
): JobSpec {
  return {
    owner: "octo",
    repo: "widgets",
    number,
    baseSha: "a".repeat(40),
    headSha: head.repeat(40).slice(0, 40),
    cloneUrl: "file:///nowhere",
    now,
    clockField: "pull_request.updated_at",
    event: "pull_request.opened",
    deliveryId: `d-${number}-${head}`,
  };
}

/** A verdict computed from the job alone: even pull requests are accepted. */
function verdictFor(job: JobSpec): Outcome {
  return {
    kind: "verdict",
    verdict: {
      decision: job.number % 2 === 0 ? "accept" : "reject",
      head: job.headSha,
    } as never,
    markdown: `pawl: ${job.headSha}`,
  };
}

async function withPool(
  parts: { judge: Judge; publish: Publish } & Partial<WorkerPoolOptions>,
  body: (
    ctx: {
      queue: JobQueue;
      pool: WorkerPool;
      metrics: Metrics;
      lines: string[];
    },
  ) => Promise<void>,
) {
  const dir = await Deno.makeTempDir({ prefix: "pawl-pool-" });
  const queue = openSqliteQueue(`${dir}/queue.db`);
  const metrics = new Metrics();
  const lines: string[] = [];
  const { log } = createLogger({ write: (l) => lines.push(l) });
  const pool = new WorkerPool({
    queue,
    concurrency: 3,
    leaseMs: 300,
    pollMs: 20,
    backoffMs: 20,
    backoffCapMs: 40,
    deadlineMs: 60,
    log,
    metrics,
    ...parts,
  });
  pool.start();
  try {
    await body({ queue, pool, metrics, lines });
  } finally {
    await pool.stop(1000);
    await queue.close();
    await Deno.remove(dir, { recursive: true });
  }
}

async function until(what: string, test: () => Promise<boolean>, ms = 10_000) {
  const deadline = Date.now() + ms;
  while (!await test()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const allPublished = (queue: JobQueue, n: number) => async () =>
  (await queue.counts()).published === n;

Deno.test("WorkerPool judges and publishes every job exactly once", async () => {
  const judged: string[] = [];
  const published: string[] = [];
  const apiUrls = new Set<string>();
  await withPool({
    judge: (job, ctx) => {
      judged.push(job.headSha);
      apiUrls.add(ctx.apiUrl);
      return Promise.resolve(verdictFor(job));
    },
    publish: (job, outcome) => {
      assert.equal(outcome.kind, "verdict");
      published.push(job.headSha);
      return Promise.resolve();
    },
  }, async ({ queue, pool, metrics }) => {
    for (const n of [1, 2, 3, 4, 5, 6]) {
      await queue.enqueue(spec(n, "b"), { now: Date.now(), rerequest: false });
    }
    pool.wake();
    await until("all published", allPublished(queue, 6));
    // A job is held only until it is published.
    await until("no job held", () => Promise.resolve(pool.held.size === 0));
    assert.equal(judged.length, 6);
    assert.equal(published.length, 6);
    assert.deepEqual([...apiUrls], ["https://api.github.com"]);
    assert.match(
      metrics.render(),
      /^pawl_serve_judgement_duration_seconds_count 6$/m,
    );
    assert.equal(metrics.value("pawl_serve_jobs_total", 'outcome="accept"'), 3);
    assert.equal(metrics.value("pawl_serve_jobs_total", 'outcome="reject"'), 3);
  });
});

Deno.test("WorkerPool retries a transient failure, then gives up as could not decide at its deadline", async () => {
  const attempts = new Map<number, number>();
  const outcomes = new Map<number, Outcome>();
  await withPool({
    judge: (job, ctx) => {
      attempts.set(job.number, ctx.attempt);
      if (job.number === 1 && ctx.attempt < 2) {
        throw new TransientError("Cannot clone: 502");
      }
      if (job.number === 2) throw new TransientError("Cannot clone: 502");
      if (job.number === 3) throw new Error("Cannot decide: no contract");
      return Promise.resolve(verdictFor(job));
    },
    publish: (job, outcome) => {
      outcomes.set(job.number, outcome);
      return Promise.resolve();
    },
  }, async ({ queue, metrics, lines }) => {
    for (const n of [1, 2, 3]) {
      await queue.enqueue(spec(n, "b"), { now: Date.now(), rerequest: false });
    }
    await until("all published", allPublished(queue, 3));
    // A retry is neither a discarded result nor a second wait in the queue.
    assert.equal(
      metrics.value("pawl_serve_jobs_total", 'outcome="discarded"'),
      0,
    );
    assert.match(metrics.render(), /^pawl_serve_queue_wait_seconds_count 3$/m);
    assert.ok(!lines.some((l) => l.includes('"job.interrupted"')));
    // The published line gives a could-not-decide's reason, and only then.
    const publishedLines = lines.map((l) => JSON.parse(l)).filter((e) =>
      e.event === "job.published"
    );
    assert.deepEqual(
      publishedLines.map((e) => [e.decision, e.reason]).sort(),
      [
        ["reject", undefined],
        ["undecided", "Cannot decide: no contract"],
        [
          "undecided",
          "Gave up at the deadline of 0.1 s after 3 attempts: Cannot clone: 502",
        ],
      ],
    );
    assert.equal(attempts.get(1), 2);
    assert.equal(outcomes.get(1)?.kind, "verdict");
    assert.equal(attempts.get(2), 3);
    const two = outcomes.get(2);
    assert.equal(two?.kind, "undecided");
    assert.match(
      two?.kind === "undecided" ? two.reason : "",
      /^Gave up at the deadline of 0\.1 s after 3 attempts: Cannot clone: 502$/,
    );
    assert.equal(attempts.get(3), 1);
    assert.deepEqual(outcomes.get(3), {
      kind: "undecided",
      reason: "Cannot decide: no contract",
      headSha: "b".repeat(40),
    });
  });
});

Deno.test("WorkerPool counts attempts lost with their server against the deadline", async () => {
  // Backoff 20 ms then 40 ms, deadline 60 ms: two lost attempts still fit,
  // a third does not.
  let now = 0;
  const judged: number[] = [];
  const outcomes = new Map<number, Outcome>();
  await withPool({
    clock: () => now,
    judge: (job) => {
      judged.push(job.number);
      return Promise.resolve(verdictFor(job));
    },
    publish: (job, outcome) => {
      outcomes.set(job.number, outcome);
      return Promise.resolve();
    },
  }, async ({ queue }) => {
    // Due only later than the pool's clock says until it moves on.
    const lost = new Map([[1, 2], [2, 3]]);
    for (const [n, times] of lost) {
      const due = 1000 * n;
      await queue.enqueue(spec(n, "b"), { now: due, rerequest: false });
      // Servers that claimed it and died; the last lease runs out at 5000.
      for (let k = 0; k < times; k++) {
        const at = due + 2 * k;
        const leaseMs = k === times - 1 ? 5000 - at : 1;
        assert.equal(
          (await queue.claim("gone", { now: at, leaseMs }))?.spec.number,
          n,
        );
      }
    }
    now = 10_000;
    await until("both published", allPublished(queue, 2));
    assert.deepEqual(judged, [1]);
    assert.equal(outcomes.get(1)?.kind, "verdict");
    assert.deepEqual(outcomes.get(2), {
      kind: "undecided",
      reason:
        "Gave up at the deadline of 0.1 s after 3 attempts: the server judging it stopped each time",
      headSha: "b".repeat(40),
    });
  });
});

Deno.test("WorkerPool publishes again after GitHub failed, without judging again", async () => {
  let judged = 0;
  let calls = 0;
  await withPool({
    judge: (job) => {
      judged++;
      return Promise.resolve(verdictFor(job));
    },
    publish: () => {
      calls++;
      if (calls <= 3) throw new Error("GitHub answered 502");
      return Promise.resolve();
    },
  }, async ({ queue, metrics }) => {
    await queue.enqueue(spec(1, "b"), { now: Date.now(), rerequest: false });
    await until("published", allPublished(queue, 1));
    assert.equal(judged, 1);
    assert.equal(calls, 4);
    assert.equal(metrics.value("pawl_serve_publish_failures_total"), 3);
  });
});

Deno.test("WorkerPool discards the result of a job superseded while it ran", async () => {
  let release!: () => void;
  const gate = new Promise<void>((r) => release = r);
  const published: string[] = [];
  await withPool({
    judge: async (job) => {
      if (job.headSha.startsWith("b")) await gate;
      return verdictFor(job);
    },
    publish: (job) => {
      published.push(job.headSha[0]!);
      return Promise.resolve();
    },
  }, async ({ queue, metrics, lines }) => {
    await queue.enqueue(spec(1, "b"), { now: Date.now(), rerequest: false });
    await until("running", async () => (await queue.counts()).running === 1);
    const lostLines = () =>
      lines.filter((l) => l.includes('"job.lease_lost"')).length;
    // Beats while it still holds the job say nothing.
    await new Promise((r) => setTimeout(r, 250));
    assert.equal(lostLines(), 0);
    await queue.enqueue(spec(1, "c", "2026-11-30T10:05:00Z"), {
      now: Date.now(),
      rerequest: false,
    });
    await until("newer published", allPublished(queue, 1));
    // Its heartbeats (every 100 ms) find it lost: said once, not per beat.
    await until("lease lost", () => Promise.resolve(lostLines() > 0));
    await new Promise((r) => setTimeout(r, 350));
    assert.equal(lostLines(), 1);
    release();
    await until(
      "discarded",
      () =>
        Promise.resolve(
          metrics.value("pawl_serve_jobs_total", 'outcome="discarded"') === 1,
        ),
    );
    assert.deepEqual(published, ["c"]);
  });
});

Deno.test("WorkerPool.stop() gives a job still running back to the queue", async () => {
  await withPool({
    judge: () => new Promise(() => {}),
    publish: () => Promise.resolve(),
    leaseMs: 60_000,
  }, async ({ queue, pool }) => {
    await queue.enqueue(spec(1, "b"), { now: Date.now(), rerequest: false });
    await until("running", async () => (await queue.counts()).running === 1);
    const [running] = await queue.list();
    assert.deepEqual([...pool.held.keys()], [running?.id]);
    await pool.stop(50);
    const [job] = await queue.list();
    assert.equal(job?.state, "queued");
    assert.equal(job?.lastError, "The server shut down during the job");
    // Due at once: another server takes it without waiting.
    const next = await queue.claim("other", { now: Date.now(), leaseMs: 1000 });
    assert.equal(next?.spec.number, 1);
  });
});

/**
 * A pool of one worker holding a job whose judgement never ends, with a
 * lease of `leaseMs`, over a queue that records when each heartbeat came.
 */
async function heldJob(leaseMs: number) {
  const dir = await Deno.makeTempDir({ prefix: "pawl-pool-" });
  const inner = openSqliteQueue(`${dir}/queue.db`);
  const beats: number[] = [];
  const queue: JobQueue = {
    ...Object.fromEntries(
      Object.keys(inner).map((k) => [k, (inner as never)[k]]),
    ) as unknown as JobQueue,
    heartbeat: (id, worker, options) => {
      beats.push(performance.now());
      return inner.heartbeat(id, worker, options);
    },
  };
  const pool = new WorkerPool({
    queue,
    concurrency: 1,
    leaseMs,
    pollMs: 20,
    judge: () => new Promise(() => {}),
    publish: () => Promise.resolve(),
    log: () => {},
    metrics: new Metrics(),
  });
  pool.start();
  await inner.enqueue(spec(1, "b"), { now: Date.now(), rerequest: false });
  return {
    pool,
    beats,
    async [Symbol.asyncDispose]() {
      await pool.stop(10);
      await inner.close();
      await Deno.remove(dir, { recursive: true });
    },
  };
}

Deno.test("WorkerPool renews a running job's lease every third of it, so a late beat does not lose it", async () => {
  await using held = await heldJob(600);
  const { beats } = held;
  await until("the first renewal", () => Promise.resolve(beats.length > 0));
  // Four leases from the first beat: twelve more beats are due at one per
  // 200 ms; one per half lease would give eight, one per lease four.
  const first = beats[0]!;
  await new Promise((r) => setTimeout(r, 2400));
  const later = beats.filter((t) => t > first).length;
  assert.ok(later >= 10, `${later} renewals in 2.4 s of a 600 ms lease`);
});

Deno.test("WorkerPool.stop() stops renewing the lease of a job it gave back, though its judgement still runs", async () => {
  await using held = await heldJob(60);
  const { beats } = held;
  await until(
    "the running job's lease renewed",
    () => Promise.resolve(beats.length >= 2),
  );
  await held.pool.stop(10);
  const after = beats.length;
  // Ten heartbeat periods: a renewal would be due in each.
  await new Promise((r) => setTimeout(r, 200));
  assert.equal(beats.length, after);
});

Deno.test("WorkerPool drops a judged result a newer push overtook, and publishes only the newer", async () => {
  let now = 0;
  const published: string[] = [];
  await withPool({
    clock: () => now,
    judge: (job) => Promise.resolve(verdictFor(job)),
    publish: (job) => {
      published.push(job.headSha);
      return Promise.resolve();
    },
  }, async ({ queue, pool, metrics }) => {
    // A server judged head b and died before publishing; then c came.
    const old = spec(1, "b", "2026-11-30T10:00:00Z");
    await queue.enqueue(old, { now: 1000, rerequest: false });
    const dead = await queue.claim("dead", { now: 1000, leaseMs: 1 });
    assert.equal(dead?.spec.headSha, old.headSha);
    await queue.recordOutcome(dead!.id, "dead", verdictFor(old), {
      now: 1000,
      leaseMs: 1,
    });
    await queue.enqueue(spec(1, "c", "2026-11-30T10:05:00Z"), {
      now: 1000,
      rerequest: false,
    });
    now = 5000;
    pool.wake();
    await until("the newer head published", allPublished(queue, 1));
    assert.deepEqual(published, ["c".repeat(40)]);
    assert.equal((await queue.get(dead!.id))?.state, "superseded");
    assert.equal(
      metrics.value("pawl_serve_jobs_total", 'outcome="discarded"'),
      1,
    );
    // c waited from its delivery at 1000 to its judgement and publication at 5000.
    const text = metrics.render();
    assert.match(text, /^pawl_serve_delivery_to_publication_seconds_sum 4$/m);
    assert.match(text, /^pawl_serve_queue_wait_seconds_sum 4$/m);
    assert.match(text, /^pawl_serve_queue_wait_seconds_count 1$/m);
  });
});

/** The server's defaults: 5 s doubling, 5 minutes a wait at most, for 2 hours. */
const DEFAULT_TIMING = {
  backoffMs: DEFAULT_RETRY_SCHEDULE.baseMs,
  backoffCapMs: DEFAULT_RETRY_SCHEDULE.capMs,
  deadlineMs: DEFAULT_RETRY_SCHEDULE.deadlineMs,
};

/** The server's clock running `speed` times faster than real time. */
function fastClock(speed: number): () => number {
  const start = Date.now();
  return () => start + (Date.now() - start) * speed;
}

/** An error shaped like octokit's for an HTTP answer. */
function httpError(status: number, headers: Record<string, string> = {}) {
  return Object.assign(new Error(`GitHub answered ${status}`), {
    status,
    response: { headers },
  });
}

Deno.test("WorkerPool waits out an hour-long GitHub outage with the default backoff, then publishes the verdict once", async () => {
  const clock = fastClock(2000);
  const outageEnds = clock() + 60 * 60_000;
  const attempts: number[] = [];
  const published: { at: number; outcome: Outcome }[] = [];
  await withPool({
    clock,
    random: () => 0.5,
    ...DEFAULT_TIMING,
    leaseMs: 3_600_000,
    judge: (job, ctx) => {
      attempts.push(ctx.attempt);
      if (clock() < outageEnds) {
        throw new TransientError("Cannot clone: GitHub answered 503");
      }
      return Promise.resolve(verdictFor(job));
    },
    publish: (_job, outcome) => {
      published.push({ at: clock(), outcome });
      return Promise.resolve();
    },
  }, async ({ queue }) => {
    await queue.enqueue(spec(2, "b"), { now: clock(), rerequest: false });
    await until("published", allPublished(queue, 1));
    assert.equal(published.length, 1);
    assert.equal(published[0]!.outcome.kind, "verdict");
    assert.ok(attempts.length > 10, `only ${attempts.length} attempts`);
    // The verdict comes at most one capped wait after the outage ends.
    const late = published[0]!.at - outageEnds;
    assert.ok(late < 5 * 60_000 * 1.25 + 60_000, `${late} ms late`);
  });
});

Deno.test("WorkerPool says a job ran out of its deadline when GitHub never comes back", async () => {
  const clock = fastClock(20_000);
  const outcomes: Outcome[] = [];
  await withPool({
    clock,
    random: () => 0.5,
    ...DEFAULT_TIMING,
    leaseMs: 3_600_000,
    judge: () => {
      throw new TransientError("Cannot clone: GitHub answered 503");
    },
    publish: (_job, outcome) => {
      outcomes.push(outcome);
      return Promise.resolve();
    },
  }, async ({ queue }) => {
    const start = clock();
    await queue.enqueue(spec(2, "b"), { now: start, rerequest: false });
    await until("published", allPublished(queue, 1));
    const [outcome] = outcomes;
    assert.equal(outcome?.kind, "undecided");
    assert.match(
      outcome?.kind === "undecided" ? outcome.reason : "",
      /^Gave up at the deadline of 2 h after \d+ attempts: Cannot clone: GitHub answered 503$/,
    );
    assert.ok(clock() - start >= 2 * 60 * 60_000 * 0.9);
  });
});

Deno.test("WorkerPool waits as long as GitHub's Retry-After asks before publishing again", async () => {
  const clock = fastClock(1000);
  const calls: number[] = [];
  await withPool({
    clock,
    random: () => 0.5,
    backoffMs: 1000,
    leaseMs: 3_600_000,
    judge: (job) => Promise.resolve(verdictFor(job)),
    publish: () => {
      calls.push(clock());
      if (calls.length === 1) {
        throw httpError(403, { "retry-after": "90" });
      }
      return Promise.resolve();
    },
  }, async ({ queue }) => {
    await queue.enqueue(spec(2, "b"), { now: clock(), rerequest: false });
    await until("published", allPublished(queue, 1));
    assert.equal(calls.length, 2);
    assert.ok(calls[1]! - calls[0]! >= 90_000, `${calls[1]! - calls[0]!} ms`);
  });
});

Deno.test("WorkerPool drops a token GitHub or git turned away and tries once more with a fresh one", async () => {
  let minted = 0;
  let cached: string | undefined;
  const forgotten: string[] = [];
  const outcomes: Outcome[] = [];
  await withPool({
    token: () => Promise.resolve(cached ??= `t${++minted}`),
    forgetToken: (_id, token) => {
      forgotten.push(token);
      if (cached === token) cached = undefined;
    },
    judge: (job, ctx) => {
      if (ctx.token === "t1") {
        throw new TransientError("Cannot clone", {
          cause: new GitError('Cannot clone "https://github.com/o/r"', {
            stderr:
              "fatal: could not read Username for 'https://github.com': terminal prompts disabled",
          }),
        });
      }
      return Promise.resolve(verdictFor(job));
    },
    publish: (_job, outcome, ctx) => {
      if (ctx.token === "t2") throw httpError(401);
      outcomes.push(outcome);
      return Promise.resolve();
    },
  }, async ({ queue, metrics }) => {
    await queue.enqueue(spec(2, "b"), { now: Date.now(), rerequest: false });
    await until("published", allPublished(queue, 1));
    assert.deepEqual(forgotten, ["t1", "t2"]);
    assert.equal(outcomes.length, 1);
    assert.equal(outcomes[0]!.kind, "verdict");
    assert.equal(
      metrics.value("pawl_serve_jobs_total", 'outcome="retried"'),
      0,
    );
    assert.equal(metrics.value("pawl_serve_publish_failures_total"), 0);
  });
});

Deno.test("WorkerPool marks a job in progress before judging it, and still judges it when marking fails", async () => {
  const order: string[] = [];
  await withPool({
    announce: (job) => {
      order.push(`announce ${job.number}`);
      if (job.number === 2) throw httpError(403);
      return Promise.resolve();
    },
    judge: (job) => {
      order.push(`judge ${job.number}`);
      return Promise.resolve(verdictFor(job));
    },
    publish: (job) => {
      order.push(`publish ${job.number}`);
      return Promise.resolve();
    },
    concurrency: 1,
  }, async ({ queue, lines }) => {
    await queue.enqueue(spec(1, "b"), { now: Date.now(), rerequest: false });
    await queue.enqueue(spec(2, "b"), { now: Date.now(), rerequest: false });
    await until("published", allPublished(queue, 2));
    assert.deepEqual(order, [
      "announce 1",
      "judge 1",
      "publish 1",
      "announce 2",
      "judge 2",
      "publish 2",
    ]);
    assert.ok(lines.some((l) => l.includes('"job.in_progress_failed"')));
  });
});

Deno.test("WorkerPool keeps a finished job through a queue outage, and takes work again once the queue answers", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pawl-pool-" });
  const inner = openSqliteQueue(`${dir}/queue.db`);
  // The queue is down for the first claims and the first two writes of
  // the published mark.
  let claimsDown = 2;
  let marksDown = 2;
  const queue: JobQueue = {
    ...Object.fromEntries(
      Object.keys(inner).map((k) => [k, (inner as never)[k]]),
    ) as unknown as JobQueue,
    claim: (worker, options) =>
      claimsDown-- > 0
        ? Promise.reject(new Error("connection refused"))
        : inner.claim(worker, options),
    markPublished: (id, worker) =>
      marksDown-- > 0
        ? Promise.reject(new Error("connection refused"))
        : inner.markPublished(id, worker),
  };
  const metrics = new Metrics();
  const lines: string[] = [];
  const { log } = createLogger({ write: (l) => lines.push(l) });
  let published = 0;
  const pool = new WorkerPool({
    queue,
    concurrency: 1,
    leaseMs: 3000,
    pollMs: 20,
    judge: (job) => Promise.resolve(verdictFor(job)),
    publish: () => {
      published++;
      return Promise.resolve();
    },
    log,
    metrics,
  });
  pool.start();
  try {
    await inner.enqueue(spec(2, "b"), { now: Date.now(), rerequest: false });
    await until("published", allPublished(inner, 1));
    assert.equal(published, 1);
    const events = lines.map((l) => JSON.parse(l).event as string);
    assert.equal(events.filter((e) => e === "queue.unavailable").length, 2);
    assert.equal(events.filter((e) => e === "queue.retry").length, 2);
    assert.ok(events.includes("job.published"));
  } finally {
    await pool.stop(1000);
    await inner.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("WorkerPool keeps retrying a queue write through 29 failures, and gives the job up to its lease at the 30th", async (t) => {
  for (const [failures, lands] of [[29, true], [30, false]] as const) {
    await t.step(
      `${failures} failed writes of the published mark`,
      async () => {
        const dir = await Deno.makeTempDir({ prefix: "pawl-pool-" });
        const inner = openSqliteQueue(`${dir}/queue.db`);
        let marksDown = failures;
        const queue: JobQueue = {
          ...Object.fromEntries(
            Object.keys(inner).map((k) => [k, (inner as never)[k]]),
          ) as unknown as JobQueue,
          markPublished: (id, worker) =>
            marksDown-- > 0
              ? Promise.reject(new Error("connection refused"))
              : inner.markPublished(id, worker),
        };
        const lines: string[] = [];
        const { log } = createLogger({ write: (l) => lines.push(l) });
        const pool = new WorkerPool({
          queue,
          concurrency: 1,
          leaseMs: 60_000,
          pollMs: 20,
          judge: (job) => Promise.resolve(verdictFor(job)),
          publish: () => Promise.resolve(),
          log,
          metrics: new Metrics(),
        });
        pool.start();
        const events = () => lines.map((l) => JSON.parse(l).event as string);
        try {
          await inner.enqueue(spec(2, "b"), {
            now: Date.now(),
            rerequest: false,
          });
          await until(
            "the published mark to land or the job to be given up",
            () =>
              Promise.resolve(
                events().includes("job.published") ||
                  events().includes("job.interrupted"),
              ),
            60_000,
          );
          assert.equal(events().filter((e) => e === "queue.retry").length, 29);
          assert.equal(events().includes("job.published"), lands);
          assert.equal((await inner.counts()).published, lands ? 1 : 0);
        } finally {
          await pool.stop(1000);
          await inner.close();
          await Deno.remove(dir, { recursive: true });
        }
      },
    );
  }
});

Deno.test("WorkerPool runs two jobs at once by default, and never more than its concurrency", async (t) => {
  for (const concurrency of [undefined, 1, 3]) {
    const expected = concurrency ?? 2;
    await t.step(`concurrency ${concurrency ?? "by default"}`, async () => {
      const dir = await Deno.makeTempDir({ prefix: "pawl-pool-" });
      const queue = openSqliteQueue(`${dir}/queue.db`);
      const { log } = createLogger({ write: () => {} });
      let running = 0;
      let most = 0;
      let release!: () => void;
      const gate = new Promise<void>((r) => release = r);
      const pool = new WorkerPool({
        queue,
        ...(concurrency === undefined ? {} : { concurrency }),
        leaseMs: 60_000,
        pollMs: 10,
        judge: async (job) => {
          most = Math.max(most, ++running);
          await gate;
          running--;
          return verdictFor(job);
        },
        publish: () => Promise.resolve(),
        log,
        metrics: new Metrics(),
      });
      pool.start();
      try {
        for (const n of [1, 2, 3, 4, 5]) {
          await queue.enqueue(spec(n, "b"), {
            now: Date.now(),
            rerequest: false,
          });
        }
        await until(
          `${expected} running`,
          () => Promise.resolve(running === expected),
        );
        // Idle workers poll every 10 ms: give them many chances to take more.
        await new Promise((r) => setTimeout(r, 300));
        assert.equal(most, expected);
        assert.equal((await queue.counts()).running, expected);
        release();
        await until("all published", allPublished(queue, 5));
        assert.equal(most, expected);
      } finally {
        release();
        await pool.stop(1000);
        await queue.close();
        await Deno.remove(dir, { recursive: true });
      }
    });
  }
});

Deno.test("WorkerPool waits twice as long after each failed publication of a job, until it lands", async () => {
  let now = 0;
  let calls = 0;
  await withPool({
    clock: () => now,
    random: () => 0.5,
    backoffMs: 1000,
    backoffCapMs: 60_000,
    deadlineMs: 60_000,
    judge: (job) => Promise.resolve(verdictFor(job)),
    publish: () => {
      calls++;
      if (calls <= 3) throw new Error("GitHub answered 502");
      return Promise.resolve();
    },
  }, async ({ queue, pool, lines, metrics }) => {
    const events = () => lines.map((l) => JSON.parse(l));
    const failures = () =>
      events().filter((e) => e.event === "job.publish_failed");
    await queue.enqueue(spec(2, "b"), { now, rerequest: false });
    pool.wake();
    for (const [k, wait] of [[1, 1000], [2, 2000], [3, 4000]] as const) {
      await until(
        `failure ${k}`,
        () => Promise.resolve(failures().length === k),
      );
      assert.equal(
        failures()[k - 1].retryAt,
        new Date(now + wait).toISOString(),
      );
      // Not due a moment before its backoff ends.
      assert.equal(
        await queue.claim("other", { now: now + wait - 1, leaseMs: 1 }),
        undefined,
      );
      now += 1_000_000;
      pool.wake();
    }
    await until("published", allPublished(queue, 1));
    assert.equal(calls, 4);
    assert.equal(metrics.value("pawl_serve_publish_failures_total"), 3);
    assert.equal(
      events().filter((e) => e.event === "job.publish_unrecorded").length,
      0,
    );
  });
});

Deno.test("WorkerPool counts a publication only once the queue recorded it", async () => {
  let refused = 1;
  let published = 0;
  await withPool({
    judge: (job) => Promise.resolve(verdictFor(job)),
    publish: () => {
      published++;
      return Promise.resolve();
    },
  }, async ({ queue: inner, metrics, lines }) => {
    // The first published mark finds the lease gone (a slow worker).
    const marking = inner.markPublished;
    inner.markPublished = (id, worker) =>
      refused-- > 0 ? Promise.resolve(false) : marking(id, worker);
    await inner.enqueue(spec(2, "b"), { now: Date.now(), rerequest: false });
    await until("published", allPublished(inner, 1));
    const events = lines.map((l) => JSON.parse(l).event as string);
    assert.equal(published, 2);
    assert.equal(
      events.filter((e) => e === "job.publish_unrecorded").length,
      1,
    );
    assert.equal(events.filter((e) => e === "job.published").length, 1);
    assert.equal(metrics.value("pawl_serve_jobs_total", 'outcome="accept"'), 1);
  });
});

Deno.test("WorkerPool gives up a job whose lost attempts spent its deadline, with the last error they recorded", async (t) => {
  // Each case leaves the job claimed by a server that is gone.
  const cases: [string, (queue: JobQueue) => Promise<void>, string][] = [
    [
      "one lost attempt, past a deadline shorter than the first backoff",
      async (queue) => {
        assert.ok(await queue.claim("gone", { now: 1000, leaseMs: 1 }));
      },
      "Gave up at the deadline of 0.5 s after 1 attempts: the server judging it stopped each time",
    ],
    [
      "a failure that said why, then a lost attempt",
      async (queue) => {
        const first = await queue.claim("gone", { now: 1000, leaseMs: 1 });
        assert.ok(first);
        assert.ok(
          await queue.release(first.id, "gone", {
            runAfter: 1001,
            error: "GitHub answered 502",
          }),
        );
        assert.ok(await queue.claim("gone", { now: 1001, leaseMs: 1 }));
      },
      "Gave up at the deadline of 0.5 s after 2 attempts: GitHub answered 502",
    ],
  ];
  for (const [name, lose, reason] of cases) {
    await t.step(name, async () => {
      let now = 0;
      const judged: number[] = [];
      const outcomes: Outcome[] = [];
      await withPool({
        clock: () => now,
        backoffMs: 1000,
        backoffCapMs: 1000,
        deadlineMs: 500,
        judge: (job) => {
          judged.push(job.number);
          return Promise.resolve(verdictFor(job));
        },
        publish: (_job, outcome) => {
          outcomes.push(outcome);
          return Promise.resolve();
        },
      }, async ({ queue, pool }) => {
        await queue.enqueue(spec(1, "b"), { now: 1000, rerequest: false });
        await lose(queue);
        now = 10_000;
        pool.wake();
        await until("published", allPublished(queue, 1));
        assert.deepEqual(judged, []);
        assert.deepEqual(outcomes, [{
          kind: "undecided",
          reason,
          headSha: "b".repeat(40),
        }]);
      });
    });
  }
});

Deno.test("WorkerPool renews a token only when it has one and a way to drop it", async (t) => {
  await t.step(
    "no token: a 401 is an ordinary failed publication",
    async () => {
      const forgotten: (string | undefined)[] = [];
      let calls = 0;
      await withPool({
        token: () => Promise.resolve(undefined),
        forgetToken: (_id, token) => forgotten.push(token),
        judge: (job) => Promise.resolve(verdictFor(job)),
        publish: () => {
          calls++;
          if (calls === 1) throw httpError(401);
          return Promise.resolve();
        },
      }, async ({ queue, metrics }) => {
        await queue.enqueue(spec(2, "b"), {
          now: Date.now(),
          rerequest: false,
        });
        await until("published", allPublished(queue, 1));
        assert.deepEqual(forgotten, []);
        assert.equal(calls, 2);
        assert.equal(metrics.value("pawl_serve_publish_failures_total"), 1);
      });
    },
  );
  await t.step(
    "no way to drop it: a rejected token waits in the queue",
    async () => {
      const outcomes: Outcome[] = [];
      let calls = 0;
      await withPool({
        token: () => Promise.resolve("t1"),
        judge: (job) => {
          calls++;
          if (calls === 1) {
            throw new TransientError("Cannot clone", { cause: httpError(401) });
          }
          return Promise.resolve(verdictFor(job));
        },
        publish: (_job, outcome) => {
          outcomes.push(outcome);
          return Promise.resolve();
        },
      }, async ({ queue, metrics }) => {
        await queue.enqueue(spec(2, "b"), {
          now: Date.now(),
          rerequest: false,
        });
        await until("published", allPublished(queue, 1));
        assert.equal(calls, 2);
        assert.equal(outcomes[0]?.kind, "verdict");
        assert.equal(
          metrics.value("pawl_serve_jobs_total", 'outcome="retried"'),
          1,
        );
      });
    },
  );
});

Deno.test("WorkerPool hands the judge, the in-progress mark and the publisher no token when it has no way to get one", async () => {
  const seen: unknown[] = [];
  await withPool({
    announce: (_job, context) => {
      seen.push(context.token);
      return Promise.resolve();
    },
    judge: (job, context) => {
      seen.push(context.token);
      return Promise.resolve(verdictFor(job));
    },
    publish: (_job, _outcome, context) => {
      seen.push(context.token);
      return Promise.resolve();
    },
  }, async ({ queue }) => {
    await queue.enqueue(spec(2, "b"), { now: Date.now(), rerequest: false });
    await until("published", allPublished(queue, 1));
    assert.deepEqual(seen, [undefined, undefined, undefined]);
  });
});

Deno.test("WorkerPool.stop() returns without waiting out the poll interval", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pawl-pool-" });
  const inner = openSqliteQueue(`${dir}/queue.db`);
  // The first claim is in flight when the server is told to stop.
  let claimed!: () => void;
  const claiming = new Promise<void>((r) => claimed = r);
  let answer!: () => void;
  const answered = new Promise<void>((r) => answer = r);
  const queue: JobQueue = {
    ...Object.fromEntries(
      Object.keys(inner).map((k) => [k, (inner as never)[k]]),
    ) as unknown as JobQueue,
    claim: async () => {
      claimed();
      await answered;
      return undefined;
    },
  };
  const { log } = createLogger({ write: () => {} });
  const pool = new WorkerPool({
    queue,
    concurrency: 1,
    pollMs: 3_600_000,
    judge: (job) => Promise.resolve(verdictFor(job)),
    publish: () => Promise.resolve(),
    log,
    metrics: new Metrics(),
  });
  pool.start();
  try {
    await claiming;
    const stopped = pool.stop(3_600_000).then(() => "stopped");
    answer();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const first = await Promise.race([
      stopped,
      new Promise((r) => timer = setTimeout(() => r("still waiting"), 30_000)),
    ]);
    clearTimeout(timer);
    assert.equal(first, "stopped");
  } finally {
    answer();
    await inner.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("WorkerPool keeps the lease of a job judged for longer than the lease", async () => {
  let judged = 0;
  await withPool({
    leaseMs: 1500,
    judge: async (job) => {
      judged++;
      await new Promise((r) => setTimeout(r, 3500));
      return verdictFor(job);
    },
    publish: () => Promise.resolve(),
  }, async ({ queue, lines }) => {
    await queue.enqueue(spec(2, "b"), { now: Date.now(), rerequest: false });
    await until("published", allPublished(queue, 1));
    assert.equal(judged, 1);
    assert.ok(!lines.some((l) => l.includes('"job.lease_lost"')));
  });
});

Deno.test("WorkerPool times a job's wait and publication only when the queue knows when it was queued", async (t) => {
  for (
    const [name, queuedAt, observed] of [["unknown", 0, 0], [
      "known",
      5,
      1,
    ]] as const
  ) {
    await t.step(name, async () => {
      let now = queuedAt;
      await withPool({
        clock: () => now,
        judge: (job) => Promise.resolve(verdictFor(job)),
        publish: () => Promise.resolve(),
      }, async ({ queue, pool, metrics }) => {
        await queue.enqueue(spec(2, "b"), { now, rerequest: false });
        now += 1000;
        pool.wake();
        await until("published", allPublished(queue, 1));
        const text = metrics.render();
        for (const family of ["queue_wait", "delivery_to_publication"]) {
          assert.match(
            text,
            new RegExp(`^pawl_serve_${family}_seconds_count ${observed}$`, "m"),
          );
        }
        if (observed > 0) {
          assert.match(text, /^pawl_serve_queue_wait_seconds_sum 1$/m);
        }
      });
    });
  }
});

Deno.test("WorkerPool starts the backoff afresh for a job published again after a rerequest", async () => {
  let now = 0;
  let calls = 0;
  await withPool({
    clock: () => now,
    random: () => 0.5,
    backoffMs: 1000,
    backoffCapMs: 60_000,
    deadlineMs: 60_000,
    judge: () => Promise.reject(new Error("Cannot decide: no contract")),
    publish: () => {
      calls++;
      if (calls !== 2) throw new Error("GitHub answered 502");
      return Promise.resolve();
    },
  }, async ({ queue, pool, lines }) => {
    const failures = () =>
      lines.map((l) => JSON.parse(l)).filter((e) =>
        e.event === "job.publish_failed"
      );
    await queue.enqueue(spec(2, "b"), { now, rerequest: false });
    pool.wake();
    await until(
      "the first failure",
      () => Promise.resolve(failures().length === 1),
    );
    assert.equal(failures()[0].retryAt, new Date(now + 1000).toISOString());
    now += 1_000_000;
    pool.wake();
    await until("published", allPublished(queue, 1));
    assert.equal(
      (await queue.enqueue(spec(2, "b"), { now, rerequest: true })).status,
      "requeued",
    );
    pool.wake();
    await until(
      "the second failure",
      () => Promise.resolve(failures().length === 2),
    );
    assert.equal(failures()[1].retryAt, new Date(now + 1000).toISOString());
  });
});

Deno.test("WorkerPool keeps a token through a failure that is no rejection of it", async () => {
  const forgotten: string[] = [];
  let calls = 0;
  await withPool({
    token: () => Promise.resolve("t1"),
    forgetToken: (_id, token) => forgotten.push(token),
    judge: (job) => Promise.resolve(verdictFor(job)),
    publish: () => {
      calls++;
      if (calls === 1) throw httpError(502);
      return Promise.resolve();
    },
  }, async ({ queue, metrics }) => {
    await queue.enqueue(spec(2, "b"), { now: Date.now(), rerequest: false });
    await until("published", allPublished(queue, 1));
    assert.deepEqual(forgotten, []);
    assert.equal(calls, 2);
    assert.equal(metrics.value("pawl_serve_publish_failures_total"), 1);
  });
});

Deno.test("WorkerPool renews a token the in-progress mark was refused with before judging", async () => {
  let minted = 0;
  let cached: string | undefined;
  const forgotten: string[] = [];
  const judgedWith: (string | undefined)[] = [];
  await withPool({
    token: () => Promise.resolve(cached ??= `t${++minted}`),
    forgetToken: (_id, token) => {
      forgotten.push(token);
      if (cached === token) cached = undefined;
    },
    announce: (_job, ctx) =>
      ctx.token === "t1" ? Promise.reject(httpError(401)) : Promise.resolve(),
    judge: (job, ctx) => {
      judgedWith.push(ctx.token);
      return Promise.resolve(verdictFor(job));
    },
    publish: () => Promise.resolve(),
  }, async ({ queue, lines }) => {
    await queue.enqueue(spec(2, "b"), { now: Date.now(), rerequest: false });
    await until("published", allPublished(queue, 1));
    assert.deepEqual(forgotten, ["t1"]);
    assert.deepEqual(judgedWith, ["t2"]);
    assert.ok(!lines.some((l) => l.includes('"job.in_progress_failed"')));
  });
});

Deno.test("WorkerPool.wake() sends an idle worker to the queue at once, without waiting out the poll interval", async () => {
  const published: number[] = [];
  await withPool({
    concurrency: 1,
    pollMs: 3_600_000,
    judge: (job) => Promise.resolve(verdictFor(job)),
    publish: (job) => {
      published.push(job.number);
      return Promise.resolve();
    },
  }, async ({ queue, pool }) => {
    // The worker found nothing and waits out its poll interval.
    let claims = 0;
    const claim = queue.claim;
    queue.claim = async (worker, options) => {
      const job = await claim(worker, options);
      claims++;
      return job;
    };
    await until("an empty claim", () => {
      pool.wake();
      return Promise.resolve(claims > 0);
    });
    await queue.enqueue(spec(2, "b"), { now: Date.now(), rerequest: false });
    pool.wake();
    await until("published", allPublished(queue, 1), 30_000);
    assert.deepEqual(published, [2]);
  });
});
