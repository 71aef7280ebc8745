import assert from "node:assert/strict";
import type { Sandbox } from "../sandbox/sandbox.ts";
import {
  type Lane,
  type RunSlot,
  type SchedulerPorts,
  scheduleRuns,
} from "./run_scheduler.ts";
import type { RunOutcome, StageRun } from "./stage_plan.ts";

const SANDBOX = {} as Sandbox;
const RUN = { command: [], env: {} };

function slot(name: string): RunSlot {
  return { sandbox: SANDBOX, owner: SANDBOX, reportDir: name };
}

function entry(id: string, extra: Partial<StageRun> = {}): StageRun {
  return { id, kind: "pytest", tree: "head", run: RUN, after: [], ...extra };
}

/** Ports that log each run's start and end with its slot, each run taking `ms`. */
function ports(
  lanes: number,
  options: { ms?: number; fail?: string } = {},
) {
  const log: string[] = [];
  const taken: string[] = [];
  const closed: string[] = [];
  const made: Lane[] = Array.from({ length: lanes }, (_, i) => ({
    ...slot(`lane-${i + 1}`),
    close: () => {
      closed.push(`lane-${i + 1}`);
      return Promise.resolve();
    },
  }));
  const scheduled: SchedulerPorts = {
    first: slot("first"),
    lanes: (runs) => Promise.resolve(made.slice(0, runs.length)),
    copies: {
      plan: (plan) => {
        log.push(`plan ${plan.map((r) => r.id).join(",")}`);
      },
      take: (tree, name) => {
        taken.push(`${tree}:${name ?? "fresh"}`);
        return Promise.resolve(`/w/${name ?? "fresh"}`);
      },
      settle: () => Promise.resolve(),
    },
    execute: async (run, context): Promise<RunOutcome> => {
      log.push(`start ${run.id} in ${context.slot.reportDir}`);
      await context.copy();
      await new Promise((resolve) => setTimeout(resolve, options.ms ?? 5));
      log.push(`end ${run.id}`);
      if (run.id === options.fail) throw new Error(`${run.id} broke`);
      return { kind: "checked" };
    },
    progress: () => {},
  };
  return { scheduled, log, taken, closed };
}

Deno.test("scheduleRuns() makes the runs in plan order in the first sandbox, skipping those whose condition fails", async () => {
  const { scheduled, log, taken } = ports(0);
  const results = await scheduleRuns([
    entry("suite", { copy: "work-1", ahead: true }),
    entry("at-base", { tree: "base", when: () => false }),
    entry("alone", { copy: "work-2", spare: true, after: ["suite"] }),
    entry("again", {
      after: ["alone"],
      when: (r) => r.has("alone") && !r.has("at-base"),
    }),
  ], scheduled);
  assert.deepEqual(log, [
    "plan suite,at-base,alone,again",
    "start suite in first",
    "end suite",
    "start alone in first",
    "end alone",
    "start again in first",
    "end again",
  ]);
  assert.deepEqual([...results.keys()], ["suite", "alone", "again"]);
  assert.ok([...results.values()].every((r) => !r.lane));
  assert.deepEqual(taken, ["head:work-1", "head:work-2", "head:fresh"]);
});

Deno.test("scheduleRuns() starts the spare runs at once in lanes, one each, or one after another in the last lane", async (t) => {
  const plan = [
    entry("suite"),
    entry("alone", { spare: true, after: ["suite"] }),
    entry("oracle", { spare: true, after: ["suite"] }),
  ];
  const table = [
    {
      lanes: 2,
      // Both start before the suite ends.
      before: ["start alone in lane-1", "start oracle in lane-2"],
      closed: ["lane-1", "lane-2"],
    },
    { lanes: 1, before: ["start alone in lane-1"], closed: ["lane-1"] },
  ];
  for (const row of table) {
    await t.step(`${row.lanes} lanes`, async () => {
      const { scheduled, log, closed } = ports(row.lanes, { ms: 30 });
      const results = await scheduleRuns(plan, scheduled);
      const suiteEnd = log.indexOf("end suite");
      for (const line of row.before) {
        assert.ok(log.indexOf(line) < suiteEnd, log.join("\n"));
      }
      if (row.lanes === 1) {
        assert.ok(
          log.indexOf("start oracle in lane-1") > log.indexOf("end alone"),
        );
      }
      assert.deepEqual(closed.sort(), row.closed);
      assert.equal(results.get("suite")?.lane, false);
      assert.equal(results.get("alone")?.lane, true);
      assert.equal(results.get("oracle")?.lane, true);
    });
  }
});

Deno.test("scheduleRuns() drops a lane's result, and its error, when its condition fails once the runs it waits for ended", async () => {
  const { scheduled, closed } = ports(1, { fail: "alone" });
  const results = await scheduleRuns([
    entry("suite"),
    entry("alone", { spare: true, after: ["suite"], when: () => false }),
  ], scheduled);
  assert.deepEqual([...results.keys()], ["suite"]);
  assert.deepEqual(closed, ["lane-1"]);
});

Deno.test("scheduleRuns() stops at the first run that cannot decide, once the runs in lanes ended, and closes the lanes", async (t) => {
  await t.step("in the first sandbox", async () => {
    const { scheduled, log, closed } = ports(1, { fail: "suite", ms: 20 });
    await assert.rejects(
      scheduleRuns([
        entry("suite"),
        entry("alone", { spare: true }),
        entry("replay"),
      ], scheduled),
      /suite broke/,
    );
    assert.ok(!log.includes("start replay in first"));
    assert.ok(log.includes("end alone"));
    assert.deepEqual(closed, ["lane-1"]);
  });
  await t.step("in a lane whose result counts", async () => {
    const { scheduled, log } = ports(1, { fail: "alone" });
    await assert.rejects(
      scheduleRuns([
        entry("suite"),
        entry("alone", { spare: true }),
        entry("replay"),
      ], scheduled),
      /alone broke/,
    );
    assert.ok(!log.includes("start replay in first"));
  });
});

Deno.test("scheduleRuns() announces a run made in a lane in its turn, as if it ran then", async () => {
  const { scheduled, log } = ports(1, { ms: 20 });
  const steps: string[] = [];
  await scheduleRuns([
    entry("suite", { step: "the suite" }),
    entry("alone", { spare: true, step: "the properties" }),
  ], { ...scheduled, progress: (line) => steps.push(line) });
  assert.ok(log.indexOf("start alone in lane-1") < log.indexOf("end suite"));
  assert.deepEqual(steps, ["the suite", "the properties"]);
});

Deno.test("scheduleRuns() shows a run only the results it waits for, and refuses a plan that makes them after it", async () => {
  const { scheduled } = ports(0);
  const results = await scheduleRuns([
    entry("suite"),
    entry("blind", { when: (r) => r.has("suite") }),
    entry("told", { after: ["suite"], when: (r) => r.has("suite") }),
  ], scheduled);
  assert.deepEqual([...results.keys()], ["suite", "told"]);
  await assert.rejects(
    scheduleRuns([entry("told", { after: ["suite"] }), entry("suite")], {
      ...ports(0).scheduled,
    }),
    /Run "told" waits for "suite", which the plan makes after it/,
  );
});
