import assert from "node:assert/strict";
import type { Mutant } from "./mutant.ts";
import { WarmJobQueue } from "./warm_queue.ts";

function jobs(n: number) {
  return Array.from({ length: n }, (_, i) => ({
    mutant: { id: `m${i}` } as Mutant,
  }));
}

Deno.test("WarmJobQueue hands each job out once, in order, and shares them among the sessions", () => {
  const queue = new WarmJobQueue(jobs(5), {
    deadline: 10,
    clock: () => 0,
    sessions: 2,
  });
  assert.equal(queue.share, 3);
  const taken = [];
  for (let j = queue.take(); j !== undefined; j = queue.take()) {
    taken.push(j.mutant.id);
  }
  assert.deepEqual(taken, ["m0", "m1", "m2", "m3", "m4"]);
  assert.deepEqual(queue.cut, []);
  assert.deepEqual(queue.left, []);
});

Deno.test("WarmJobQueue cuts what is left at the deadline, and tells it apart from what no session took", () => {
  const clock = { now: 0 };
  const queue = new WarmJobQueue(jobs(4), {
    deadline: 10,
    clock: () => clock.now,
    sessions: 1,
  });
  assert.equal(queue.take()?.mutant.id, "m0");
  assert.deepEqual(queue.left.map((j) => j.mutant.id), ["m1", "m2", "m3"]);
  assert.equal(queue.cut.length, 0, "nothing is cut before the deadline");
  clock.now = 10;
  assert.equal(queue.take(), undefined);
  clock.now = 0;
  assert.equal(queue.take(), undefined, "a cut queue stays cut");
  assert.deepEqual(queue.cut.map((j) => j.mutant.id), ["m1", "m2", "m3"]);
  assert.deepEqual(queue.left, []);
});

Deno.test("WarmJobQueue shares its jobs as evenly as the sessions allow, rounding up", async (t) => {
  const cases: [string, number, number, number][] = [
    ["no session counts as one", 5, 0, 5],
    ["one session takes all", 5, 1, 5],
    ["rounded up", 5, 2, 3],
    ["even", 6, 3, 2],
    ["more sessions than jobs", 2, 4, 1],
    ["no job", 0, 2, 0],
  ];
  for (const [name, n, sessions, share] of cases) {
    await t.step(name, () => {
      const q = new WarmJobQueue(jobs(n), {
        deadline: 10,
        clock: () => 0,
        sessions,
      });
      assert.equal(q.share, share);
    });
  }
});
