import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { QUEUE_CASES as cases, spec, T0 } from "./_queue_cases.ts";
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
