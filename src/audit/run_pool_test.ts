import assert from "node:assert/strict";
import { runPool } from "./run_pool.ts";

const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

Deno.test("runPool() keeps at most `concurrency` jobs in flight, each worker one at a time", async () => {
  let inFlight = 0;
  let most = 0;
  const busy = new Set<number>();
  const workers = new Set<number>();
  const out = await runPool(
    Array.from({ length: 9 }, (_, i) => i),
    { concurrency: 3 },
    async (item, worker) => {
      assert.ok(!busy.has(worker), `worker ${worker} reused while busy`);
      busy.add(worker);
      workers.add(worker);
      inFlight += 1;
      most = Math.max(most, inFlight);
      await tick(item % 3);
      inFlight -= 1;
      busy.delete(worker);
      return item * 2;
    },
  );
  assert.deepEqual(out, [0, 2, 4, 6, 8, 10, 12, 14, 16]);
  assert.equal(most, 3);
  assert.deepEqual([...workers].sort(), [0, 1, 2]);
});

Deno.test("runPool() starts no more workers than items, and none for no items", async () => {
  const workers: number[] = [];
  await runPool([1], { concurrency: 4 }, (_, worker) => {
    workers.push(worker);
    return Promise.resolve();
  });
  assert.deepEqual(workers, [0]);
  assert.deepEqual(
    await runPool([], { concurrency: 4 }, () => Promise.resolve(1)),
    [],
  );
});

Deno.test("runPool() stops taking jobs after a failure and throws the first error", async () => {
  const started: number[] = [];
  await assert.rejects(
    runPool([1, 2, 3, 4, 5], { concurrency: 1 }, async (item) => {
      started.push(item);
      await tick(0);
      if (item === 2) throw new RangeError("job 2 failed");
    }),
    /job 2 failed/,
  );
  assert.deepEqual(started, [1, 2]);
});
