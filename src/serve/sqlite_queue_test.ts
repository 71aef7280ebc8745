import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import {
  LEASE,
  QUEUE_CASES as cases,
  spec,
  T0,
  undecided,
} from "./_queue_cases.ts";
import { openSqliteQueue } from "./sqlite_queue.ts";

Deno.test("SQLite queue", async (t) => {
  for (const [name, body] of cases) {
    await t.step(name, async () => {
      const dir = await Deno.makeTempDir({ prefix: "pawl-queue-" });
      const q = openSqliteQueue(`${dir}/queue.db`);
      try {
        await body(q);
      } finally {
        await q.close();
        await Deno.remove(dir, { recursive: true });
      }
    });
  }
});

Deno.test("SQLite queue opens a queue file from before the queued_at column", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pawl-queue-" });
  try {
    const old = new DatabaseSync(`${dir}/queue.db`);
    old.exec(`CREATE TABLE jobs (
      seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE,
      pull TEXT NOT NULL, event_ms INTEGER NOT NULL, spec TEXT NOT NULL,
      state TEXT NOT NULL, attempts INTEGER NOT NULL DEFAULT 0,
      run_after INTEGER NOT NULL DEFAULT 0, lease_owner TEXT,
      lease_until INTEGER NOT NULL DEFAULT 0, outcome TEXT, last_error TEXT)`);
    old.close();
    const q = openSqliteQueue(`${dir}/queue.db`);
    try {
      await q.enqueue(spec(1, "b", "2026-11-30T10:00:00Z"), {
        now: T0,
        rerequest: false,
      });
      assert.deepEqual(await q.oldestQueuedAt(), { queued: T0 });
    } finally {
      await q.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("SQLite queue stops answering its ping once closed", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pawl-queue-" });
  try {
    const q = openSqliteQueue(`${dir}/queue.db`);
    await q.close();
    assert.equal(await q.ping(), false);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("SQLite queue fails through the promise each call returns, never by throwing where it is called", async (t) => {
  const dir = await Deno.makeTempDir({ prefix: "pawl-queue-" });
  try {
    const q = openSqliteQueue(`${dir}/queue.db`);
    await q.close();
    // node:sqlite throws on a closed handle as it does on a full disk; the
    // worker pool's heartbeat timer only attaches .catch() to the promise.
    const calls: [string, () => Promise<unknown>][] = [
      ["enqueue", () =>
        q.enqueue(spec(1, "b", "2026-11-30T10:00:00Z"), {
          now: T0,
          rerequest: false,
        })],
      ["claim", () => q.claim("w1", { now: T0, ...LEASE })],
      [
        "confirmNewest",
        () => q.confirmNewest("j", "w1", { now: T0, ...LEASE }),
      ],
      ["heartbeat", () => q.heartbeat("j", "w1", { now: T0, ...LEASE })],
      ["release", () => q.release("j", "w1", { runAfter: T0, error: "e" })],
      [
        "recordOutcome",
        () => q.recordOutcome("j", "w1", undecided("b"), { now: T0, ...LEASE }),
      ],
      ["markPublished", () => q.markPublished("j", "w1")],
      ["get", () => q.get("j")],
      ["list", () => q.list()],
      ["counts", () => q.counts()],
      ["oldestQueuedAt", () => q.oldestQueuedAt()],
    ];
    for (const [name, call] of calls) {
      await t.step(name, async () => {
        let answer: Promise<unknown> | undefined;
        assert.doesNotThrow(() => {
          answer = call();
        });
        await assert.rejects(answer!, /not open/);
      });
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("SQLite queue takes a job while another connection reads the queue file", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pawl-queue-" });
  const q = openSqliteQueue(`${dir}/queue.db`);
  const reader = new DatabaseSync(`${dir}/queue.db`);
  try {
    reader.exec("BEGIN");
    reader.prepare("SELECT count(*) FROM jobs").get();
    const result = await q.enqueue(spec(1, "b", "2026-11-30T10:00:00Z"), {
      now: T0,
      rerequest: false,
    });
    assert.equal(result.status, "queued");
    reader.exec("COMMIT");
  } finally {
    reader.close();
    await q.close();
    await Deno.remove(dir, { recursive: true });
  }
});
