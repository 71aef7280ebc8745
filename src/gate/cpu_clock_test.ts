import assert from "node:assert/strict";
import { cpuClock, cpuMillisOf } from "./cpu_clock.ts";

Deno.test("cpuMillisOf() sums the process's and its waited-for children's CPU ticks", () => {
  assert.equal(
    cpuMillisOf("42 (py) thon) R 1 42 42 0 -1 0 0 0 0 0 100 50 7 3 20 0"),
    1600,
  );
  assert.equal(cpuMillisOf("garbage"), undefined);
});

Deno.test("cpuClock() advances with work done, and with a child's once it is waited for", async () => {
  const clock = cpuClock();
  const before = clock();
  await new Deno.Command("/usr/bin/python3", {
    args: ["-c", "sum(i * i for i in range(3_000_000))"],
  }).output();
  assert.ok(clock() - before >= 50, `${clock() - before}`);
});
