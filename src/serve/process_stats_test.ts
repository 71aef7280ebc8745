import assert from "node:assert/strict";
import { parseProcessStats, readProcessStats } from "./process_stats.ts";

const STAT = "7 (deno) S 1 7 7 0 -1 0 0 0 0 0 250 50 0 0 20 0 9 0 1000 0 0";
const STATUS = "Name:\tdeno\nVmRSS:\t    2048 kB\nThreads:\t9\n";
const LIMITS =
  "Limit                     Soft Limit           Hard Limit           Units\nMax open files            1024                 4096                 files\n";
const SYSTEM = "cpu  1 2 3\nbtime 1796429250\nprocesses 9\n";

Deno.test("parseProcessStats() reads what Linux writes in /proc", async (t) => {
  const cases: [string, Partial<Record<string, string>>, unknown][] = [
    ["a plain process", {}, {
      cpuSeconds: 3,
      residentBytes: 2048 * 1024,
      startTimeSeconds: 1796429260,
      openFds: 5,
      maxFds: 1024,
    }],
    [
      "a command name holding spaces and a parenthesis",
      { stat: STAT.replace("(deno)", "(a) b (c)") },
      {
        cpuSeconds: 3,
        residentBytes: 2048 * 1024,
        startTimeSeconds: 1796429260,
        openFds: 5,
        maxFds: 1024,
      },
    ],
    ["no file descriptor limit", {
      limits: LIMITS.replace(/1024 +4096/, "unlimited unlimited"),
    }, {
      cpuSeconds: 3,
      residentBytes: 2048 * 1024,
      startTimeSeconds: 1796429260,
      openFds: 5,
    }],
    ["a status without VmRSS", { status: "Name:\tdeno\n" }, undefined],
    ["a truncated stat", { stat: "7 (deno) S 1 7" }, undefined],
    ["a stat whose user time is not a number", {
      stat: STAT.replace(" 250 50 ", " x 50 "),
    }, undefined],
    ["a stat whose start time is not a number", {
      stat: STAT.replace(" 9 0 1000 ", " 9 0 later "),
    }, undefined],
    ["a system stat without the boot time", {
      systemStat: "cpu  1 2 3\nprocesses 9\n",
    }, undefined],
    ["a boot time inside another line", {
      systemStat: "cpu  1 2 3\nxbtime 1796429250\n",
    }, undefined],
    ["a boot time followed by more", {
      systemStat: "btime 1796429250 9\n",
    }, undefined],
    ["a resident size inside another line", {
      status: "Name:\tdeno\nMaxVmRSS:\t    2048 kB\n",
    }, undefined],
    ["a resident size not in kB", {
      status: "Name:\tdeno\nVmRSS:\t    2048 kB pages\n",
    }, undefined],
    ["limits without the open files line", {
      limits: "Limit                     Soft Limit\n",
    }, {
      cpuSeconds: 3,
      residentBytes: 2048 * 1024,
      startTimeSeconds: 1796429260,
      openFds: 5,
    }],
    ["an open files line that is not the limit's own", {
      limits: "Soft Max open files       1024                 4096\n",
    }, {
      cpuSeconds: 3,
      residentBytes: 2048 * 1024,
      startTimeSeconds: 1796429260,
      openFds: 5,
    }],
  ];
  for (const [name, change, expected] of cases) {
    await t.step(name, () => {
      assert.deepEqual(
        parseProcessStats({
          stat: change["stat"] ?? STAT,
          status: change["status"] ?? STATUS,
          limits: change["limits"] ?? LIMITS,
          systemStat: change["systemStat"] ?? SYSTEM,
          openFds: 5,
        }),
        expected,
      );
    });
  }
});

Deno.test("readProcessStats() reads this process's own figures on Linux", async () => {
  const stats = await readProcessStats();
  assert.ok(stats !== undefined);
  assert.ok(stats.residentBytes > 1024 * 1024);
  assert.ok(stats.openFds >= 3);
  // The descriptors open now, less the one the count itself holds.
  let listed = 0;
  for await (const _ of Deno.readDir("/proc/self/fd")) listed++;
  assert.equal(stats.openFds, listed - 1);
  // Started a little while ago, by the wall clock.
  const age = Date.now() / 1000 - stats.startTimeSeconds;
  assert.ok(age > 0 && age < 3600, String(age));
});
