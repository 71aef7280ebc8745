import assert from "node:assert/strict";
import { prefetchedWorkDirs } from "./prefetched_work_dirs.ts";

Deno.test("prefetchedWorkDirs() hands out each directory once, making the next while the current one is used", async () => {
  const started: number[] = [];
  const dirs = prefetchedWorkDirs((n) => {
    started.push(n);
    return Promise.resolve(`work-${n}`);
  }, { expected: 3 });
  assert.deepEqual(started, []);
  assert.equal(await dirs.next(), "work-1");
  assert.deepEqual(started, [1, 2]);
  assert.equal(await dirs.next(), "work-2");
  assert.equal(await dirs.next(), "work-3");
  assert.deepEqual(started, [1, 2, 3]);
  // Beyond the expected runs, copies are made on demand only.
  assert.equal(await dirs.next(), "work-4");
  assert.deepEqual(started, [1, 2, 3, 4]);
  await dirs.settle();
});

Deno.test("prefetchedWorkDirs() makes nothing ahead when one run is expected", async () => {
  const started: number[] = [];
  const dirs = prefetchedWorkDirs((n) => {
    started.push(n);
    return Promise.resolve(`work-${n}`);
  }, { expected: 1 });
  assert.equal(await dirs.next(), "work-1");
  await dirs.settle();
  assert.deepEqual(started, [1]);
});

Deno.test("prefetchedWorkDirs() reports a failed copy to the run that takes it, and settles quietly on an unused one", async () => {
  const dirs = prefetchedWorkDirs(
    (n) =>
      n === 1
        ? Promise.resolve("work-1")
        : Promise.reject(new Error(`cannot export work-${n}`)),
    { expected: 3 },
  );
  assert.equal(await dirs.next(), "work-1");
  await assert.rejects(dirs.next(), /cannot export work-2/);
  await dirs.settle();
});

Deno.test("prefetchedWorkDirs() settle() waits for the copy in flight", async () => {
  let finished = false;
  const dirs = prefetchedWorkDirs(async (n) => {
    await new Promise((resolve) => setTimeout(resolve, n === 1 ? 0 : 20));
    if (n === 2) finished = true;
    return `work-${n}`;
  }, { expected: 2 });
  await dirs.next();
  assert.equal(finished, false);
  await dirs.settle();
  assert.equal(finished, true);
});
