import assert from "node:assert/strict";
import { prefetchedWorkDirs } from "./prefetched_work_dirs.ts";

const ORDER = ["work-1", "work-2", "work-3"];

Deno.test("prefetchedWorkDirs() hands out each directory once, making the next while the current one is used", async () => {
  const started: string[] = [];
  const dirs = prefetchedWorkDirs((name) => {
    started.push(name);
    return Promise.resolve(`/w/${name}`);
  }, { order: ORDER });
  assert.deepEqual(started, []);
  assert.equal(await dirs.take("work-1"), "/w/work-1");
  assert.deepEqual(started, ["work-1", "work-2"]);
  assert.equal(await dirs.take("work-2"), "/w/work-2");
  assert.equal(await dirs.take("work-3"), "/w/work-3");
  assert.deepEqual(started, ORDER);
  // Beyond the planned order, copies are made on demand only.
  assert.equal(await dirs.take("work-9"), "/w/work-9");
  assert.deepEqual(started, [...ORDER, "work-9"]);
  await assert.rejects(dirs.take("work-2"), /"work-2" was already taken/);
  await dirs.settle();
});

Deno.test("prefetchedWorkDirs() gives each name its own copy whatever order the runs take them in", async () => {
  const dirs = prefetchedWorkDirs(
    (name) => Promise.resolve(`/w/${name}`),
    { order: ORDER },
  );
  const [third, first, second] = await Promise.all([
    dirs.take("work-3"),
    dirs.take("work-1"),
    dirs.take("work-2"),
  ]);
  assert.deepEqual([first, second, third], [
    "/w/work-1",
    "/w/work-2",
    "/w/work-3",
  ]);
  await dirs.settle();
});

Deno.test("prefetchedWorkDirs() makes nothing ahead when one run is expected", async () => {
  const started: string[] = [];
  const dirs = prefetchedWorkDirs((name) => {
    started.push(name);
    return Promise.resolve(name);
  }, { order: ["work-1"] });
  assert.equal(await dirs.take("work-1"), "work-1");
  await dirs.settle();
  assert.deepEqual(started, ["work-1"]);
});

Deno.test("prefetchedWorkDirs() reports a failed copy to the run that takes it, and settles quietly on an unused one", async () => {
  const dirs = prefetchedWorkDirs(
    (name) =>
      name === "work-1"
        ? Promise.resolve("work-1")
        : Promise.reject(new Error(`cannot export ${name}`)),
    { order: ORDER },
  );
  assert.equal(await dirs.take("work-1"), "work-1");
  await assert.rejects(dirs.take("work-2"), /cannot export work-2/);
  await dirs.settle();
});

Deno.test("prefetchedWorkDirs() settle() waits for the copy in flight", async () => {
  let finished = false;
  const dirs = prefetchedWorkDirs(async (name) => {
    await new Promise((resolve) =>
      setTimeout(resolve, name === "work-1" ? 0 : 20)
    );
    if (name === "work-2") finished = true;
    return name;
  }, { order: ["work-1", "work-2"] });
  await dirs.take("work-1");
  assert.equal(finished, false);
  await dirs.settle();
  assert.equal(finished, true);
});
