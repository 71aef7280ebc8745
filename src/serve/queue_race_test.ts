import assert from "node:assert/strict";
// @ts-types="@types/pg"
import pgClient from "pg";
import type { Outcome } from "../github/publish_verdict.ts";
import { jobId, type JobSpec, pullKey } from "./job.ts";
import { openPostgresQueue } from "./postgres_queue.ts";
import type { JobQueue } from "./queue.ts";
import { openSqliteQueue } from "./sqlite_queue.ts";
import { startTestPostgres } from "../../tests/_postgres.ts";

const ROUNDS = 40;
const PULLS = 5;
const HEADS = 3;
const CLAIMERS = 16;
const START = Date.UTC(2026, 10, 30);

function spec(number: number, round: number, head: number): JobSpec {
  return {
    owner: "Octo",
    repo: "widgets",
    number,
    baseSha: "a".repeat(40),
    headSha: `${round}-${head}`.padEnd(40, "0"),
    cloneUrl: "file:///nowhere",
    now: new Date(START + round * 60_000 + head * 1000).toISOString(),
    clockField: "pull_request.updated_at",
    event: "pull_request.synchronize",
    deliveryId: `d-${number}-${round}-${head}`,
  };
}

function outcomeOf(job: JobSpec): Outcome {
  return { kind: "undecided", reason: "test", headSha: job.headSha };
}

/** What a race saw go wrong. */
interface RaceReport {
  /** A job claimed while another job of its pull request was held. */
  overlaps: string[];
  /** A head published after a newer head of its pull request. */
  staleOverNewer: string[];
  /** A pull request whose newest head was never published. */
  missing: string[];
  /** A head published although a newer head of its pull request was known. */
  overtaken: string[];
}

/**
 * Rounds of: a worker dies holding the first head of each pull request
 * (judged for some, still running for others, its lease run out), two
 * newer heads arrive, then `CLAIMERS` workers spread over `queues` race
 * to claim, judge and publish until each pull request's newest head is
 * published.
 */
async function race(queues: JobQueue[]): Promise<RaceReport> {
  const report: RaceReport = {
    overlaps: [],
    staleOverNewer: [],
    missing: [],
    overtaken: [],
  };
  const q = queues[0]!;
  const published = new Set<string>();
  const lastPublished = new Map<string, number>();
  for (let round = 0; round < ROUNDS; round++) {
    const now = START + round * 10_000_000;
    for (let n = 1; n <= PULLS; n++) {
      await q.enqueue(spec(n, round, 0), { now, rerequest: false });
    }
    for (let n = 1; n <= PULLS; n++) {
      const dead = await q.claim("dead", { now, leaseMs: 1 });
      if (dead !== undefined && n % 2 === 1) {
        await q.recordOutcome(dead.id, "dead", outcomeOf(dead.spec), {
          now,
          leaseMs: 1,
        });
      }
    }
    for (let head = 1; head < HEADS; head++) {
      for (let n = 1; n <= PULLS; n++) {
        await q.enqueue(spec(n, round, head), { now, rerequest: false });
      }
    }
    const newest = Array.from(
      { length: PULLS },
      (_, i) => jobId(spec(i + 1, round, HEADS - 1)),
    );
    const done = () => newest.every((id) => published.has(id));
    const later = now + 1000;
    const holders = new Map<string, string>();
    const deadline = Date.now() + 60_000;
    await Promise.all(
      Array.from({ length: CLAIMERS }, async (_, c) => {
        const queue = queues[c % queues.length]!;
        const worker = `w${c}`;
        const lease = { now: later, leaseMs: 60_000 };
        while (!done() && Date.now() < deadline) {
          const job = await queue.claim(worker, lease);
          if (job === undefined) {
            await new Promise((r) => setTimeout(r, Math.random() * 3));
            continue;
          }
          const pull = pullKey(job.spec);
          const other = holders.get(pull);
          if (other !== undefined) {
            report.overlaps.push(`${job.id} by ${worker} while ${other} held`);
          }
          const mine = `${job.id} by ${worker}`;
          holders.set(pull, mine);
          const letGo = () => {
            if (holders.get(pull) === mine) holders.delete(pull);
          };
          await new Promise((r) => setTimeout(r, Math.random() * 3));
          if (
            job.state === "running" &&
            !await queue.recordOutcome(
              job.id,
              worker,
              outcomeOf(job.spec),
              lease,
            )
          ) {
            letGo();
            continue;
          }
          if (!await queue.confirmNewest(job.id, worker, lease)) {
            letGo();
            continue;
          }
          letGo();
          if (!await queue.markPublished(job.id, worker)) continue;
          published.add(job.id);
          if (!newest.includes(job.id)) report.overtaken.push(job.id);
          const ms = Date.parse(job.spec.now);
          const last = lastPublished.get(pull) ?? 0;
          if (ms < last) {
            report.staleOverNewer.push(
              `${job.id} after ${new Date(last).toISOString()}`,
            );
          }
          lastPublished.set(pull, Math.max(last, ms));
        }
      }),
    );
    if (!done()) report.missing.push(`round ${round}`);
  }
  return report;
}

Deno.test("PostgreSQL queue: sixteen racing claimers never hold two jobs of one pull request at once", async () => {
  await using pg = await startTestPostgres();
  const client = new pgClient.Client({ connectionString: pg.url });
  await client.connect();
  await client.query("CREATE DATABASE race");
  await client.end();
  const url = pg.url.replace(/\/postgres$/, "/race");
  const queues = await Promise.all(
    Array.from(
      { length: 4 },
      () => openPostgresQueue(url, { maxConnections: 4 }),
    ),
  );
  try {
    const report = await race(queues);
    assert.deepEqual(report, {
      overlaps: [],
      staleOverNewer: [],
      missing: [],
      overtaken: [],
    });
  } finally {
    await Promise.all(queues.map((q) => q.close()));
  }
});

Deno.test("PostgreSQL queue: racing claimers take one job of a pull request even when two are queued at once", async () => {
  // No event sequence pawl accepts queues two jobs of one pull request;
  // rows written by hand (or by an older pawl) may. A claimer that passes
  // over one job another is claiming must not take its twin: a claim that
  // skipped locked rows and checked a stale snapshot did.
  await using pg = await startTestPostgres();
  const client = new pgClient.Client({ connectionString: pg.url });
  await client.connect();
  await client.query("CREATE DATABASE twins");
  await client.end();
  const url = pg.url.replace(/\/postgres$/, "/twins");
  const queues = await Promise.all(
    Array.from(
      { length: 4 },
      () => openPostgresQueue(url, { maxConnections: 4 }),
    ),
  );
  const sql = new pgClient.Client({ connectionString: url });
  await sql.connect();
  const overlaps: string[] = [];
  try {
    for (let round = 0; round < ROUNDS; round++) {
      const now = START + round * 10_000_000;
      for (let n = 1; n <= PULLS; n++) {
        await queues[0]!.enqueue(spec(round * 100 + n, round, 0), {
          now,
          rerequest: false,
        });
      }
      await sql.query(
        `INSERT INTO pawl_jobs (id, pull, event_ms, spec, state, run_after, queued_at)
           SELECT id || '-twin', pull, event_ms, spec, 'queued', run_after, queued_at
           FROM pawl_jobs WHERE state = 'queued'`,
      );
      const taken = await Promise.all(
        Array.from(
          { length: CLAIMERS },
          (_, c) =>
            queues[c % queues.length]!.claim(`w${c}`, {
              now,
              leaseMs: 60_000,
            }),
        ),
      );
      const pulls = taken.flatMap((job) =>
        job === undefined ? [] : [pullKey(job.spec)]
      );
      for (const pull of new Set(pulls)) {
        if (pulls.filter((p) => p === pull).length > 1) overlaps.push(pull);
      }
      await sql.query("UPDATE pawl_jobs SET state = 'published'");
    }
    assert.deepEqual(overlaps, []);
  } finally {
    await sql.end();
    await Promise.all(queues.map((q) => q.close()));
  }
});

Deno.test("SQLite queue: sixteen racing claimers never hold two jobs of one pull request at once", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pawl-race-" });
  const queues = Array.from(
    { length: 4 },
    () => openSqliteQueue(`${dir}/queue.db`),
  );
  try {
    const report = await race(queues);
    assert.deepEqual(report, {
      overlaps: [],
      staleOverNewer: [],
      missing: [],
      overtaken: [],
    });
  } finally {
    await Promise.all(queues.map((q) => q.close()));
    await Deno.remove(dir, { recursive: true });
  }
});
