/**
 * The behaviours both queue backends must show, as cases each backend's
 * tests run against a fresh queue.
 *
 * @module
 */
import assert from "node:assert/strict";
import type { Outcome } from "../github/publish_verdict.ts";
import type { JobSpec } from "./job.ts";
import type { EnqueueResult, JobQueue } from "./queue.ts";

/** A lease of one second. */
export const LEASE = { leaseMs: 1000 };
/** The cases' first "now", epoch ms. */
export const T0 = 1_000_000;

/** A job of pull request `number` at head `head`, its event dated `now`. */
export function spec(number: number, head: string, now: string): JobSpec {
  return {
    owner: "Octo",
    repo: "widgets",
    number,
    baseSha: "a".repeat(40),
    headSha: head.repeat(40).slice(0, 40),
    cloneUrl: "file:///nowhere",
    now,
    clockField: "pull_request.updated_at",
    event: "pull_request.synchronize",
    deliveryId: `d-${number}-${head}`,
  };
}

/** Enqueue the push of pull request `number` to `head`, its event dated `at`, at T0. */
function push(
  q: JobQueue,
  number: number,
  head: string,
  at: string,
): Promise<EnqueueResult> {
  return q.enqueue(spec(number, head, at), { now: T0, rerequest: false });
}

/** A could-not-decide outcome for `head`. */
export function undecided(head: string): Outcome {
  return { kind: "undecided", reason: "Cannot clone", headSha: head };
}

/** Each behaviour, by name, checked on an empty queue. */
export const QUEUE_CASES: [string, (q: JobQueue) => Promise<void>][] = [
  ["a redelivered event queues nothing", async (q) => {
    const s = spec(1, "b", "2026-11-30T10:00:00Z");
    assert.equal(
      (await q.enqueue(s, { now: T0, rerequest: false })).status,
      "queued",
    );
    assert.deepEqual(await q.enqueue(s, { now: T0, rerequest: false }), {
      status: "duplicate",
      id: (await q.list())[0]!.id,
      superseded: [],
    });
    assert.equal((await q.list()).length, 1);
  }],
  ["a claimed job is claimed by nobody else", async (q) => {
    await push(q, 1, "b", "2026-11-30T10:00:00Z");
    const job = await q.claim("w1", { now: T0, ...LEASE });
    assert.equal(job?.state, "running");
    assert.equal(job?.attempts, 1);
    assert.equal(await q.claim("w2", { now: T0 + 10, ...LEASE }), undefined);
  }],
  [
    "a newer push supersedes a queued job, and the older event is then stale",
    async (q) => {
      const old = spec(1, "b", "2026-11-30T10:00:00Z");
      const newer = spec(1, "c", "2026-11-30T10:05:00Z");
      await q.enqueue(old, { now: T0, rerequest: false });
      const result = await q.enqueue(newer, { now: T0, rerequest: false });
      assert.equal(result.status, "queued");
      assert.equal(result.superseded.length, 1);
      const stale = await push(q, 1, "d", "2026-11-30T09:00:00Z");
      assert.equal(stale.status, "stale");
      assert.deepEqual(stale.superseded, []);
      const job = await q.claim("w1", { now: T0, ...LEASE });
      assert.equal(job?.spec.headSha, newer.headSha);
      assert.equal(await q.claim("w1", { now: T0, ...LEASE }), undefined);
    },
  ],
  [
    "a running job superseded by a newer push cannot record its outcome",
    async (q) => {
      const old = spec(1, "b", "2026-11-30T10:00:00Z");
      await q.enqueue(old, { now: T0, rerequest: false });
      const job = await q.claim("w1", { now: T0, ...LEASE });
      await push(q, 1, "c", "2026-11-30T10:05:00Z");
      assert.equal(
        await q.recordOutcome(job!.id, "w1", undecided(old.headSha), {
          now: T0,
          ...LEASE,
        }),
        false,
      );
      assert.equal((await q.get(job!.id))?.state, "superseded");
      const next = await q.claim("w2", { now: T0, ...LEASE });
      assert.equal(next?.spec.headSha, "c".repeat(40));
    },
  ],
  [
    "a job whose lease expires is claimed again, and its first worker is refused",
    async (q) => {
      await push(q, 1, "b", "2026-11-30T10:00:00Z");
      const first = await q.claim("w1", { now: T0, ...LEASE });
      assert.equal(
        await q.heartbeat(first!.id, "w1", { now: T0 + 900, ...LEASE }),
        true,
      );
      assert.equal(
        await q.claim("w2", { now: T0 + 1500, ...LEASE }),
        undefined,
      );
      const again = await q.claim("w2", { now: T0 + 2000, ...LEASE });
      assert.equal(again?.id, first?.id);
      assert.equal(again?.attempts, 2);
      assert.equal(
        await q.heartbeat(first!.id, "w1", { now: T0 + 2001, ...LEASE }),
        false,
      );
      assert.equal(
        await q.recordOutcome(first!.id, "w1", undecided("b"), {
          now: T0 + 2001,
          ...LEASE,
        }),
        false,
      );
      assert.equal(
        await q.recordOutcome(first!.id, "w2", undecided("b"), {
          now: T0 + 2001,
          ...LEASE,
        }),
        true,
      );
    },
  ],
  [
    "a lease holds through its last millisecond, for claims and for a newer push",
    async (q) => {
      await push(q, 1, "b", "2026-11-30T10:00:00Z");
      const first = await q.claim("w1", { now: T0, ...LEASE });
      const last = T0 + LEASE.leaseMs;
      assert.equal(await q.claim("w2", { now: last, ...LEASE }), undefined);
      await q.recordOutcome(first!.id, "w1", undecided("b"), {
        now: T0,
        ...LEASE,
      });
      const newer = await q.enqueue(spec(1, "c", "2026-11-30T10:05:00Z"), {
        now: last,
        rerequest: false,
      });
      assert.equal(newer.status, "queued");
      assert.deepEqual(newer.superseded, []);
      assert.equal((await q.get(first!.id))?.state, "judged");
      assert.equal(await q.claim("w2", { now: last, ...LEASE }), undefined);
      const again = await q.claim("w2", { now: last + 1, ...LEASE });
      assert.equal(again?.id, first?.id);
      assert.equal(again?.state, "judged");
    },
  ],
  [
    "a judged job whose worker died is published by the next, not judged again",
    async (q) => {
      await push(q, 1, "b", "2026-11-30T10:00:00Z");
      const first = await q.claim("w1", { now: T0, ...LEASE });
      await q.recordOutcome(first!.id, "w1", undecided("b"), {
        now: T0,
        ...LEASE,
      });
      const again = await q.claim("w2", { now: T0 + 5000, ...LEASE });
      assert.equal(again?.state, "judged");
      assert.equal(again?.attempts, 1);
      assert.deepEqual(again?.outcome, undecided("b"));
      assert.equal(await q.markPublished(again!.id, "w1"), false);
      assert.equal(await q.markPublished(again!.id, "w2"), true);
      assert.equal(
        await q.claim("w2", { now: T0 + 99999, ...LEASE }),
        undefined,
      );
      assert.equal((await q.counts()).published, 1);
    },
  ],
  ["a released job waits for its backoff", async (q) => {
    await push(q, 1, "b", "2026-11-30T10:00:00Z");
    const job = await q.claim("w1", { now: T0, ...LEASE });
    assert.equal(
      await q.release(job!.id, "w1", {
        runAfter: T0 + 500,
        error: "Cannot clone",
      }),
      true,
    );
    assert.equal(await q.claim("w1", { now: T0 + 499, ...LEASE }), undefined);
    const again = await q.claim("w1", { now: T0 + 500, ...LEASE });
    assert.equal(again?.lastError, "Cannot clone");
    assert.equal(again?.attempts, 2);
  }],
  [
    "a newer job of a pull request waits while an older one publishes",
    async (q) => {
      await push(q, 1, "b", "2026-11-30T10:00:00Z");
      await push(q, 2, "b", "2026-11-30T10:00:00Z");
      const old = await q.claim("w1", { now: T0, ...LEASE });
      await q.recordOutcome(old!.id, "w1", undecided("b"), {
        now: T0,
        ...LEASE,
      });
      await push(q, 1, "c", "2026-11-30T10:05:00Z");
      const other = await q.claim("w2", { now: T0, ...LEASE });
      assert.equal(other?.spec.number, 2);
      assert.equal(await q.claim("w2", { now: T0, ...LEASE }), undefined);
      await q.markPublished(old!.id, "w1");
      assert.equal(
        (await q.claim("w2", { now: T0, ...LEASE }))?.spec.headSha,
        "c".repeat(40),
      );
    },
  ],
  [
    "a rerequest runs a finished could-not-decide again, never a verdict",
    async (q) => {
      const s = spec(1, "b", "2026-11-30T10:00:00Z");
      await q.enqueue(s, { now: T0, rerequest: false });
      const job = await q.claim("w1", { now: T0, ...LEASE });
      await q.recordOutcome(job!.id, "w1", undecided(s.headSha), {
        now: T0,
        ...LEASE,
      });
      await q.markPublished(job!.id, "w1");
      assert.equal(
        (await q.enqueue(s, { now: T0, rerequest: false })).status,
        "duplicate",
      );
      assert.deepEqual(await q.enqueue(s, { now: T0, rerequest: true }), {
        status: "requeued",
        id: job!.id,
        superseded: [],
      });
      const again = await q.claim("w1", { now: T0, ...LEASE });
      assert.equal(again?.state, "running");
      assert.equal(again?.outcome, undefined);
      const verdict = {
        kind: "verdict",
        verdict: { decision: "accept" },
        markdown: "",
      } as unknown as Outcome;
      await q.recordOutcome(again!.id, "w1", verdict, { now: T0, ...LEASE });
      await q.markPublished(again!.id, "w1");
      assert.equal(
        (await q.enqueue(s, { now: T0, rerequest: true })).status,
        "duplicate",
      );
    },
  ],
  [
    "a rerequest of unseen commits never supersedes a job in progress",
    async (q) => {
      await push(q, 1, "c", "2026-11-30T10:05:00Z");
      const rerun = await q.enqueue(spec(1, "b", "2026-11-30T12:00:00Z"), {
        now: T0,
        rerequest: true,
      });
      assert.equal(rerun.status, "stale");
      assert.equal(
        (await q.claim("w1", { now: T0, ...LEASE }))?.spec.headSha,
        "c".repeat(40),
      );
      const other = await q.enqueue(spec(2, "b", "2026-11-30T12:00:00Z"), {
        now: T0,
        rerequest: true,
      });
      assert.equal(other.status, "queued");
    },
  ],
  [
    "a rerequest never runs an old could-not-decide again once a newer event of the pull request exists",
    async (q) => {
      const old = spec(1, "b", "2026-11-30T10:00:00Z");
      await q.enqueue(old, { now: T0, rerequest: false });
      const job = await q.claim("w1", { now: T0, ...LEASE });
      await q.recordOutcome(job!.id, "w1", undecided(old.headSha), {
        now: T0,
        ...LEASE,
      });
      await q.markPublished(job!.id, "w1");
      const newer = spec(1, "c", "2026-11-30T10:05:00Z");
      await q.enqueue(newer, { now: T0, rerequest: false });
      const next = await q.claim("w1", { now: T0, ...LEASE });
      await q.recordOutcome(next!.id, "w1", undecided(newer.headSha), {
        now: T0,
        ...LEASE,
      });
      await q.markPublished(next!.id, "w1");
      const rerun = await q.enqueue(old, { now: T0 + 10, rerequest: true });
      assert.notEqual(rerun.status, "requeued");
      assert.equal((await q.get(job!.id))?.state, "published");
      assert.equal(await q.claim("w2", { now: T0 + 10, ...LEASE }), undefined);
      assert.equal(
        (await q.enqueue(newer, { now: T0 + 10, rerequest: true })).status,
        "requeued",
      );
    },
  ],
  [
    "a rerequest of unseen commits never supersedes a job being judged",
    async (q) => {
      await push(q, 1, "c", "2026-11-30T10:05:00Z");
      const running = await q.claim("w1", { now: T0, ...LEASE });
      const rerun = await q.enqueue(spec(1, "b", "2026-11-30T12:00:00Z"), {
        now: T0,
        rerequest: true,
      });
      assert.equal(rerun.status, "stale");
      assert.deepEqual(rerun.superseded, []);
      assert.equal((await q.get(running!.id))?.state, "running");
      assert.equal(
        await q.recordOutcome(running!.id, "w1", undecided("c"), {
          now: T0,
          ...LEASE,
        }),
        true,
      );
    },
  ],
  [
    "a judged job a newer push overtook is superseded instead of published",
    async (q) => {
      await push(q, 1, "b", "2026-11-30T10:00:00Z");
      const old = await q.claim("w1", { now: T0, ...LEASE });
      await q.recordOutcome(old!.id, "w1", undecided("b"), {
        now: T0,
        ...LEASE,
      });
      assert.equal(
        await q.confirmNewest(old!.id, "w2", { now: T0, ...LEASE }),
        false,
      );
      assert.equal(
        await q.confirmNewest(old!.id, "w1", { now: T0, ...LEASE }),
        true,
      );
      await push(q, 1, "c", "2026-11-30T10:05:00Z");
      assert.equal(
        await q.confirmNewest(old!.id, "w1", { now: T0, ...LEASE }),
        false,
      );
      assert.equal((await q.get(old!.id))?.state, "superseded");
      assert.equal(await q.markPublished(old!.id, "w1"), false);
      const next = await q.claim("w2", { now: T0, ...LEASE });
      assert.equal(next?.spec.headSha, "c".repeat(40));
    },
  ],
  [
    "a judged job is overtaken by a push dated the same second, which came later",
    async (q) => {
      const first = await push(q, 1, "b", "2026-11-30T10:00:00Z");
      const old = await q.claim("w1", { now: T0, ...LEASE });
      await q.recordOutcome(old!.id, "w1", undecided("b"), {
        now: T0,
        ...LEASE,
      });
      const same = await push(q, 1, "c", "2026-11-30T10:00:00Z");
      assert.equal(same.status, "queued");
      assert.equal(
        await q.confirmNewest(first.id, "w1", { now: T0, ...LEASE }),
        false,
      );
      assert.equal((await q.get(first.id))?.state, "superseded");
      assert.equal(
        (await q.claim("w2", { now: T0, ...LEASE }))?.spec.headSha,
        "c".repeat(40),
      );
    },
  ],
  [
    "a newer push supersedes a judged job waiting to publish again, so the newer head does not wait out its backoff",
    async (q) => {
      await push(q, 1, "b", "2026-11-30T10:00:00Z");
      const old = await q.claim("w1", { now: T0, ...LEASE });
      await q.recordOutcome(old!.id, "w1", undecided("b"), {
        now: T0,
        ...LEASE,
      });
      // GitHub was down: the publication waits an hour.
      await q.release(old!.id, "w1", {
        runAfter: T0 + 3_600_000,
        error: "Service Unavailable",
      });
      const newer = await q.enqueue(spec(1, "c", "2026-11-30T10:05:00Z"), {
        now: T0 + 10,
        rerequest: false,
      });
      assert.deepEqual(newer.superseded, [old!.id]);
      assert.equal((await q.get(old!.id))?.state, "superseded");
      assert.equal(
        (await q.claim("w2", { now: T0 + 20, ...LEASE }))?.spec.headSha,
        "c".repeat(40),
      );
    },
  ],
  [
    "a dead worker's judged job is taken up before a newer job of its pull request",
    async (q) => {
      await push(q, 1, "b", "2026-11-30T10:00:00Z");
      const old = await q.claim("w1", { now: T0, ...LEASE });
      await q.recordOutcome(old!.id, "w1", undecided("b"), {
        now: T0,
        ...LEASE,
      });
      await push(q, 1, "c", "2026-11-30T10:05:00Z");
      const later = { now: T0 + 5000, ...LEASE };
      assert.equal((await q.claim("w2", later))?.id, old!.id);
      assert.equal(await q.claim("w3", later), undefined);
    },
  ],
  [
    "each unfinished state's oldest job is known by when it was queued",
    async (q) => {
      assert.deepEqual(await q.oldestQueuedAt(), {});
      await push(q, 1, "b", "2026-11-30T10:00:00Z");
      await q.enqueue(spec(2, "b", "2026-11-30T10:00:00Z"), {
        now: T0 + 100,
        rerequest: false,
      });
      await q.enqueue(spec(3, "b", "2026-11-30T10:00:00Z"), {
        now: T0 + 200,
        rerequest: false,
      });
      const first = await q.claim("w1", { now: T0 + 300, ...LEASE });
      assert.equal(first?.queuedAt, T0);
      await q.recordOutcome(first!.id, "w1", undecided("b"), {
        now: T0 + 300,
        ...LEASE,
      });
      await q.claim("w1", { now: T0 + 300, ...LEASE });
      assert.deepEqual(await q.oldestQueuedAt(), {
        judged: T0,
        running: T0 + 100,
        queued: T0 + 200,
      });
    },
  ],
  [
    "an event as old as the pull request's newest is not stale: it supersedes that one",
    async (q) => {
      const first = await push(q, 1, "b", "2026-11-30T10:00:00Z");
      const second = await push(q, 1, "c", "2026-11-30T10:00:00Z");
      assert.equal(second.status, "queued");
      assert.deepEqual(second.superseded, [first.id]);
      assert.equal((await q.get(first.id))?.state, "superseded");
    },
  ],
  [
    "an enqueue that fails part way changes nothing, and the queue goes on",
    async (q) => {
      const old = await push(q, 1, "b", "2026-11-30T10:00:00Z");
      // Fails when stored, after the jobs it overtakes were found.
      const broken = {
        ...spec(1, "c", "2026-11-30T10:05:00Z"),
        toJSON(): never {
          throw new Error("cannot store this spec");
        },
      };
      await assert.rejects(
        async () => await q.enqueue(broken, { now: T0, rerequest: false }),
        /cannot store this spec/,
      );
      assert.equal((await q.get(old.id))?.state, "queued");
      assert.equal((await q.list()).length, 1);
      const newer = await push(q, 1, "d", "2026-11-30T10:06:00Z");
      assert.deepEqual(newer.superseded, [old.id]);
      assert.equal(
        (await q.claim("w1", { now: T0, ...LEASE }))?.spec.headSha,
        "d".repeat(40),
      );
    },
  ],
  [
    "a rerequest of a could-not-decide still being published queues nothing, and its worker publishes it",
    async (q) => {
      const s = spec(1, "b", "2026-11-30T10:00:00Z");
      await q.enqueue(s, { now: T0, rerequest: false });
      const job = await q.claim("w1", { now: T0, ...LEASE });
      await q.recordOutcome(job!.id, "w1", undecided(s.headSha), {
        now: T0,
        ...LEASE,
      });
      const again = await q.enqueue(s, { now: T0, rerequest: true });
      assert.equal(again.status, "duplicate");
      assert.equal((await q.get(job!.id))?.state, "judged");
      assert.equal(await q.markPublished(job!.id, "w1"), true);
    },
  ],
  [
    "only the worker holding a running or judged job can give it back",
    async (q) => {
      await push(q, 1, "b", "2026-11-30T10:00:00Z");
      const queued = (await q.list())[0]!;
      const backoff = { runAfter: T0 + 500, error: "Cannot clone" };
      assert.equal(await q.release(queued.id, "w1", backoff), false);
      const job = await q.claim("w1", { now: T0, ...LEASE });
      assert.equal(await q.release(job!.id, "w2", backoff), false);
      assert.equal((await q.get(job!.id))?.state, "running");
      assert.equal(await q.release(job!.id, "w1", backoff), true);
      assert.equal(await q.release(job!.id, "w1", backoff), false);
      const again = await q.claim("w1", { now: T0 + 500, ...LEASE });
      await q.recordOutcome(again!.id, "w1", undecided("b"), {
        now: T0 + 500,
        ...LEASE,
      });
      assert.equal(await q.release(again!.id, "w1", backoff), true);
      assert.equal((await q.get(again!.id))?.state, "judged");
    },
  ],
  [
    "confirming a judged job as the newest renews its lease",
    async (q) => {
      await push(q, 1, "b", "2026-11-30T10:00:00Z");
      const job = await q.claim("w1", { now: T0, ...LEASE });
      await q.recordOutcome(job!.id, "w1", undecided("b"), {
        now: T0,
        ...LEASE,
      });
      assert.equal(
        await q.confirmNewest(job!.id, "w1", { now: T0 + 900, ...LEASE }),
        true,
      );
      assert.equal(
        await q.claim("w2", { now: T0 + 1500, ...LEASE }),
        undefined,
      );
      assert.equal(
        (await q.claim("w2", { now: T0 + 2000, ...LEASE }))?.id,
        job!.id,
      );
    },
  ],
  [
    "a judged job given back waits for its backoff before it is published again",
    async (q) => {
      await push(q, 1, "b", "2026-11-30T10:00:00Z");
      const job = await q.claim("w1", { now: T0, ...LEASE });
      await q.recordOutcome(job!.id, "w1", undecided("b"), {
        now: T0,
        ...LEASE,
      });
      await q.release(job!.id, "w1", {
        runAfter: T0 + 500,
        error: "GitHub answered 502",
      });
      assert.equal(await q.claim("w2", { now: T0 + 499, ...LEASE }), undefined);
      const again = await q.claim("w2", { now: T0 + 501, ...LEASE });
      assert.equal(again?.id, job!.id);
      assert.equal(again?.state, "judged");
    },
  ],
  [
    "a heartbeat keeps a judged job's lease as it does a running one's",
    async (q) => {
      await push(q, 1, "b", "2026-11-30T10:00:00Z");
      const job = await q.claim("w1", { now: T0, ...LEASE });
      await q.recordOutcome(job!.id, "w1", undecided("b"), {
        now: T0,
        ...LEASE,
      });
      assert.equal(
        await q.heartbeat(job!.id, "w1", { now: T0 + 900, ...LEASE }),
        true,
      );
      assert.equal(
        await q.claim("w2", { now: T0 + 1500, ...LEASE }),
        undefined,
      );
    },
  ],
  [
    "an outcome is recorded once, and only a judged job is confirmed or published",
    async (q) => {
      await push(q, 1, "b", "2026-11-30T10:00:00Z");
      const job = await q.claim("w1", { now: T0, ...LEASE });
      const at = { now: T0, ...LEASE };
      assert.equal(await q.confirmNewest(job!.id, "w1", at), false);
      assert.equal(await q.markPublished(job!.id, "w1"), false);
      assert.equal((await q.get(job!.id))?.state, "running");
      assert.equal(
        await q.recordOutcome(job!.id, "w1", undecided("b"), at),
        true,
      );
      assert.equal(
        await q.recordOutcome(job!.id, "w1", undecided("b"), at),
        false,
      );
      assert.equal(await q.markPublished(job!.id, "w1"), true);
    },
  ],
  [
    "a rerequest of unseen commits never supersedes a judged job waiting to publish",
    async (q) => {
      await push(q, 1, "c", "2026-11-30T10:05:00Z");
      const job = await q.claim("w1", { now: T0, ...LEASE });
      await q.recordOutcome(job!.id, "w1", undecided("c"), {
        now: T0,
        ...LEASE,
      });
      const rerun = await q.enqueue(spec(1, "b", "2026-11-30T12:00:00Z"), {
        now: T0,
        rerequest: true,
      });
      assert.equal(rerun.status, "stale");
      assert.equal((await q.list()).length, 1);
    },
  ],
  [
    "a rerequest dated before a could-not-decide's own event keeps that event's date",
    async (q) => {
      await push(q, 1, "b", "2026-11-30T10:05:00Z");
      const job = await q.claim("w1", { now: T0, ...LEASE });
      await q.recordOutcome(job!.id, "w1", undecided("b"), {
        now: T0,
        ...LEASE,
      });
      await q.markPublished(job!.id, "w1");
      const rerun = await q.enqueue(spec(1, "b", "2026-11-30T10:00:00Z"), {
        now: T0,
        rerequest: true,
      });
      assert.equal(rerun.status, "requeued");
      // A push dated between the two is older than the job it would replace.
      assert.equal(
        (await push(q, 1, "c", "2026-11-30T10:02:00Z")).status,
        "stale",
      );
    },
  ],
  [
    "a lease is live through its last millisecond, for claims and for newer pushes",
    async (q) => {
      await push(q, 1, "b", "2026-11-30T10:00:00Z");
      const job = await q.claim("w1", { now: T0, ...LEASE });
      assert.equal(
        await q.claim("w2", { now: T0 + 1000, ...LEASE }),
        undefined,
      );
      await q.recordOutcome(job!.id, "w1", undecided("b"), {
        now: T0,
        ...LEASE,
      });
      const at = (now: number, head: string, time: string) =>
        q.enqueue(spec(1, head, time), { now, rerequest: false });
      assert.deepEqual(
        (await at(T0 + 1000, "c", "2026-11-30T10:05:00Z")).superseded,
        [],
      );
      assert.equal((await q.get(job!.id))?.state, "judged");
      assert.deepEqual(
        (await at(T0 + 1001, "d", "2026-11-30T10:06:00Z")).superseded.includes(
          job!.id,
        ),
        true,
      );
    },
  ],
  [
    "a judged job is not overtaken by an earlier job of its pull request dated the same second",
    async (q) => {
      await push(q, 1, "b", "2026-11-30T10:00:00Z");
      const first = await q.claim("w1", { now: T0, ...LEASE });
      await q.recordOutcome(first!.id, "w1", undecided("b"), {
        now: T0,
        ...LEASE,
      });
      await q.markPublished(first!.id, "w1");
      assert.equal(
        (await push(q, 1, "c", "2026-11-30T10:00:00Z")).status,
        "queued",
      );
      const second = await q.claim("w2", { now: T0, ...LEASE });
      assert.equal(second?.spec.headSha, "c".repeat(40));
      await q.recordOutcome(second!.id, "w2", undecided("c"), {
        now: T0,
        ...LEASE,
      });
      assert.equal(
        await q.confirmNewest(second!.id, "w2", { now: T0, ...LEASE }),
        true,
      );
    },
  ],
  [
    "a rerun could-not-decide waits for a later job of its pull request dated the same second, through that job's lease's last millisecond",
    async (q) => {
      await push(q, 1, "b", "2026-11-30T10:00:00Z");
      const first = await q.claim("w1", { now: T0, ...LEASE });
      await q.recordOutcome(first!.id, "w1", undecided("b"), {
        now: T0,
        ...LEASE,
      });
      await q.markPublished(first!.id, "w1");
      await push(q, 1, "c", "2026-11-30T10:00:00Z");
      const second = await q.claim("w2", { now: T0, ...LEASE });
      assert.equal(second?.spec.headSha, "c".repeat(40));
      const rerun = await q.enqueue(spec(1, "b", "2026-11-30T10:00:00Z"), {
        now: T0,
        rerequest: true,
      });
      assert.equal(rerun.status, "requeued");
      // Held while that job's lease lives: half way, and at its end.
      for (const now of [T0 + 500, T0 + 1000]) {
        assert.equal(await q.claim("w3", { now, ...LEASE }), undefined);
      }
    },
  ],
  ["the counts hold every job of each state", async (q) => {
    for (const n of [1, 2, 3]) await push(q, n, "b", "2026-11-30T10:00:00Z");
    await q.claim("w1", { now: T0, ...LEASE });
    const counts = await q.counts();
    assert.equal(counts.queued, 2);
    assert.equal(counts.running, 1);
  }],
  ["a job the queue never held is not found", async (q) => {
    assert.equal(await q.get("no-such-job"), undefined);
  }],
  [
    "a job the queue never held is never confirmed, renewed or given back",
    async (q) => {
      assert.equal(
        await q.confirmNewest("no-such-job", "w1", { now: T0, ...LEASE }),
        false,
      );
      assert.equal(
        await q.heartbeat("no-such-job", "w1", { now: T0, ...LEASE }),
        false,
      );
      assert.equal(
        await q.release("no-such-job", "w1", { runAfter: T0, error: "x" }),
        false,
      );
      assert.equal(await q.markPublished("no-such-job", "w1"), false);
    },
  ],
  ["an open queue answers its ping", async (q) => {
    assert.equal(await q.ping(), true);
  }],
  ["concurrent claimers take every job exactly once", async (q) => {
    for (let n = 1; n <= 24; n++) {
      await q.enqueue(spec(n, "b", "2026-11-30T10:00:00Z"), {
        now: T0,
        rerequest: false,
      });
    }
    const taken: string[] = [];
    await Promise.all(Array.from({ length: 6 }, async (_, w) => {
      while (true) {
        const job = await q.claim(`w${w}`, { now: T0, ...LEASE });
        if (job === undefined) return;
        taken.push(job.id);
      }
    }));
    assert.equal(taken.length, 24);
    assert.equal(new Set(taken).size, 24);
  }],
];
