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
