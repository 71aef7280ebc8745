import assert from "node:assert/strict";
// @ts-types="@types/pg"
import pgClient from "pg";
import { LEASE, QUEUE_CASES as cases, spec, T0 } from "./_queue_cases.ts";
import { pullKey } from "./job.ts";
import { openPostgresQueue } from "./postgres_queue.ts";
import { startTestPostgres } from "../../tests/_postgres.ts";

Deno.test("PostgreSQL queue", async (t) => {
  await using pg = await startTestPostgres();
  let n = 0;
  for (const [name, body] of cases) {
    await t.step(name, async () => {
      // A database per case, on the one server.
      const db = `case_${++n}`;
      const client = new pgClient.Client({ connectionString: pg.url });
      await client.connect();
      await client.query(`CREATE DATABASE ${db}`);
      await client.end();
      const q = await openPostgresQueue(
        pg.url.replace(/\/postgres$/, `/${db}`),
      );
      try {
        await body(q);
      } finally {
        await q.close();
      }
    });
  }
});

Deno.test("PostgreSQL queue keeps its jobs across a server restart", async () => {
  await using pg = await startTestPostgres();
  const q = await openPostgresQueue(pg.url);
  try {
    await q.enqueue(spec(1, "b", "2026-11-30T10:00:00Z"), {
      now: T0,
      rerequest: false,
    });
    await pg.stop();
    assert.equal(await q.ping(), false);
    await pg.start();
    assert.equal(await q.ping(), true);
    assert.equal((await q.claim("w1", { now: T0, ...LEASE }))?.spec.number, 1);
  } finally {
    await q.close();
  }
});

Deno.test("PostgreSQL queue skips a pull request whose lock another transaction holds, instead of claiming under it", async () => {
  await using pg = await startTestPostgres();
  const q = await openPostgresQueue(pg.url);
  const other = new pgClient.Client({ connectionString: pg.url });
  await other.connect();
  try {
    const job = spec(1, "b", "2026-11-30T10:00:00Z");
    await q.enqueue(job, { now: T0, rerequest: false });
    // An enqueue of the same pull request, say, still in its transaction.
    await other.query("BEGIN");
    await other.query("SELECT pg_advisory_xact_lock(hashtext($1))", [
      pullKey(job),
    ]);
    assert.equal(await q.claim("w1", { now: T0, ...LEASE }), undefined);
    await other.query("COMMIT");
    assert.equal((await q.claim("w1", { now: T0, ...LEASE }))?.spec.number, 1);
  } finally {
    await other.end();
    await q.close();
  }
});

Deno.test("PostgreSQL queue survives a connection the server ends inside a transaction: the call fails, the error is told, and the next call works", async () => {
  await using pg = await startTestPostgres();
  const told: string[] = [];
  const q = await openPostgresQueue(pg.url, {
    onError: (error) => told.push(error.message),
  });
  const other = new pgClient.Client({ connectionString: pg.url });
  await other.connect();
  try {
    const job = spec(1, "b", "2026-11-30T10:00:00Z");
    // Hold the pull request's lock, so the enqueue waits inside its transaction.
    await other.query("BEGIN");
    await other.query("SELECT pg_advisory_xact_lock(hashtext($1))", [
      pullKey(job),
    ]);
    const waiting = q.enqueue(job, { now: T0, rerequest: false }).then(
      () => undefined,
      (error: Error) => error,
    );
    const deadline = Date.now() + 60_000;
    let pid: number | undefined;
    while (pid === undefined && Date.now() < deadline) {
      pid = (await other.query(
        `SELECT pid FROM pg_stat_activity
          WHERE wait_event_type = 'Lock' AND pid <> pg_backend_pid()`,
      )).rows[0]?.pid;
    }
    assert.ok(pid !== undefined, "the enqueue never waited on the lock");
    await other.query("SELECT pg_terminate_backend($1)", [pid]);
    await other.query("COMMIT");
    const error = await waiting;
    assert.ok(
      error instanceof Error,
      "the enqueue on an ended connection passed",
    );
    assert.ok(told.length > 0, "the ended connection was not told");
    await q.enqueue(job, { now: T0, rerequest: false });
    assert.equal((await q.claim("w1", { now: T0, ...LEASE }))?.spec.number, 1);
  } finally {
    await other.end();
    await q.close();
  }
});
