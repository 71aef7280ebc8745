import assert from "node:assert/strict";
import fc from "fast-check";
import type { Mutant } from "./mutant.ts";
import type { WarmOutcome } from "./warm_child.ts";
import { Controls, decoy } from "./warm_controls.ts";
import type { WarmJob, WarmSessionResult } from "./warm_session.ts";

function job(id: string): WarmJob {
  return { mutant: { id } as Mutant };
}

function ran(outcomes: Record<string, string>): WarmOutcome {
  return {
    kind: "ran",
    outcomes: outcomes as Record<string, "survived">,
    findings: [],
    cached: false,
  };
}

function session(): WarmSessionResult {
  return {
    baseline: null,
    outcomes: new Map(),
    control: "none",
    intruded: false,
  };
}

Deno.test("Controls runs one control for each set of tests the mutants ran, with that set's job, by the session's end", async () => {
  const asked: string[] = [];
  const controls = new Controls<WarmJob>(
    3,
    (j) => {
      asked.push(j.mutant.id);
      return Promise.resolve(ran({ a: "survived" }));
    },
  );
  const out = session();
  controls.saw({ a: "killed" }, job("m1"), 1);
  controls.saw({ a: "survived" }, job("m2"), 2);
  controls.saw({ a: "killed", b: "killed" }, job("m3"), 3);
  assert.equal(controls.open, true);
  assert.equal(await controls.due(Number.POSITIVE_INFINITY, out), true);
  assert.deepEqual(asked.sort(), ["m1", "m3"]);
  assert.equal(controls.open, false);
  assert.equal(out.control, "passed");
});

Deno.test("Controls fails the session when one control does not pass, and stops when the driver went away", async (t) => {
  await t.step("a control that does not pass", async () => {
    const outcomes = [ran({ a: "survived" }), ran({ b: "killed" })];
    const controls = new Controls<WarmJob>(
      0,
      () => Promise.resolve(outcomes.shift()!),
    );
    const out = session();
    controls.saw({ a: "killed" }, job("m1"), 1);
    controls.saw({ b: "killed" }, job("m2"), 2);
    await controls.due(Number.POSITIVE_INFINITY, out);
    assert.equal(out.control, "failed");
  });
  await t.step("a driver that went away", async () => {
    const controls = new Controls<WarmJob>(
      0,
      () => Promise.resolve("lost" as const),
    );
    const out = session();
    controls.saw({ a: "killed" }, job("m1"), 1);
    assert.equal(await controls.due(Number.POSITIVE_INFINITY, out), false);
    assert.equal(controls.open, true);
    assert.equal(out.control, "none");
  });
});

Deno.test("decoy() draws an id shaped like a mutant's, afresh each time", () => {
  const ids = Array.from({ length: 100 }, () => decoy().id);
  for (const id of ids) assert.match(id, /^m[0-9a-f]{12}$/);
  assert.equal(new Set(ids).size, ids.length);
});

Deno.test("Controls passes a control only when it ran every test and each one passed", async (t) => {
  const cases: [string, WarmOutcome[], "passed" | "failed"][] = [
    ["every test passed", [ran({ a: "survived", b: "survived" })], "passed"],
    ["one test failed", [ran({ a: "survived", b: "killed" })], "failed"],
    ["one test timed out", [ran({ a: "timeout" })], "failed"],
    ["no report to trust", [ran({ a: "unknown" })], "failed"],
    ["no test ran", [ran({})], "failed"],
    ["its lines were not covered", [{ kind: "notCovered" }], "failed"],
    ["sent to run cold", [{ kind: "cold", why: "x" }], "failed"],
    [
      "a failed control is not undone by a later pass",
      [ran({ a: "killed" }), ran({ b: "survived" })],
      "failed",
    ],
    [
      "a pass does not undo a later failure",
      [ran({ a: "survived" }), ran({ b: "killed" })],
      "failed",
    ],
  ];
  for (const [name, outcomes, expected] of cases) {
    await t.step(name, async () => {
      const queue = [...outcomes];
      const controls = new Controls<WarmJob>(
        0,
        () => Promise.resolve(queue.shift()!),
      );
      const out = session();
      outcomes.forEach((_, i) =>
        controls.saw({ [`p${i}`]: "killed" }, job(`m${i}`), 1)
      );
      assert.equal(await controls.due(Number.POSITIVE_INFINITY, out), true);
      assert.equal(out.control, expected);
    });
  }
});

Deno.test("Controls runs each set's control once, never for a job that ran no test", async () => {
  let runs = 0;
  const controls = new Controls<WarmJob>(0, () => {
    runs++;
    return Promise.resolve(ran({ a: "survived" }));
  });
  const out = session();
  controls.saw({}, job("m0"), 1);
  assert.equal(controls.open, false);
  controls.saw({ a: "killed" }, job("m1"), 1);
  controls.saw({ a: "survived" }, job("m2"), 2);
  await controls.due(Number.POSITIVE_INFINITY, out);
  controls.saw({ a: "killed" }, job("m3"), 3);
  assert.equal(controls.open, false);
  await controls.due(Number.POSITIVE_INFINITY, out);
  assert.equal(runs, 1);
});

Deno.test("Controls tells two sets of tests apart whose names would run together", async () => {
  const ran_: string[] = [];
  const controls = new Controls<WarmJob>(0, (j) => {
    ran_.push(j.mutant.id);
    return Promise.resolve(ran({ a: "survived", bc: "survived" }));
  });
  controls.saw({ a: "killed", bc: "survived" }, job("m0"), 1);
  controls.saw({ ab: "killed", c: "survived" }, job("m1"), 2);
  await controls.due(Number.POSITIVE_INFINITY, session());
  assert.deepEqual(ran_.sort(), ["m0", "m1"]);
});

Deno.test("Controls makes a control due no sooner than the run that first showed its set, and by the session's expected end", async () => {
  await fc.assert(fc.asyncProperty(
    fc.integer({ min: 0, max: 20 }),
    fc.integer({ min: 0, max: 20 }),
    async (share, sent) => {
      let runs = 0;
      const controls = new Controls<WarmJob>(share, () => {
        runs++;
        return Promise.resolve(ran({ a: "survived" }));
      });
      const out = session();
      controls.saw({ a: "killed" }, job("m1"), sent);
      await controls.due(sent - 1, out);
      assert.equal(runs, 0, "not before its set first ran");
      await controls.due(Math.max(share, sent), out);
      assert.equal(runs, 1, "by the expected end");
      assert.equal(out.control, "passed");
    },
  ));
});

Deno.test("decoy() is a mutant of no file, at no place, that changes nothing", () => {
  const { id: _, ...rest } = decoy();
  assert.deepEqual(rest, {
    file: "",
    function: "",
    line: 0,
    column: 0,
    endLine: 0,
    endColumn: 0,
    start: 0,
    end: 0,
    original: "",
    replacement: "",
    operator: "statement",
  });
});

Deno.test("Controls draws a control's point over the rest of the session, its expected end included", async () => {
  // With one run to go, the point is this run or the last, each half the
  // time: 64 sessions all due at once would be a 2^-64 chance.
  let dueAtOnce = 0;
  for (let i = 0; i < 64; i++) {
    let runs = 0;
    const controls = new Controls<WarmJob>(2, () => {
      runs++;
      return Promise.resolve(ran({ a: "survived" }));
    });
    controls.saw({ a: "killed" }, job("m1"), 1);
    await controls.due(1, session());
    dueAtOnce += runs;
  }
  assert.ok(dueAtOnce > 0 && dueAtOnce < 64, `${dueAtOnce} of 64`);
});

Deno.test("Controls takes a set of tests as the same set whatever order its run listed them in", async () => {
  let runs = 0;
  const controls = new Controls<WarmJob>(0, () => {
    runs++;
    return Promise.resolve(ran({ a: "survived", b: "survived" }));
  });
  controls.saw({ a: "killed", b: "survived" }, job("m1"), 1);
  controls.saw({ b: "survived", a: "killed" }, job("m2"), 2);
  await controls.due(Number.POSITIVE_INFINITY, session());
  assert.equal(runs, 1);
});

Deno.test("Controls runs each set's control at its own point, even before that of a set seen earlier", async () => {
  // Two sets first seen at the session's start, with one run to go: each
  // point is this run or the last. The second set's control comes first
  // in a quarter of sessions: 64 sessions with none would be a
  // (3/4)^64 chance.
  let secondFirst = 0;
  for (let i = 0; i < 64; i++) {
    const order: string[] = [];
    const controls = new Controls<WarmJob>(1, (j) => {
      order.push(j.mutant.id);
      return Promise.resolve(ran({ a: "survived" }));
    });
    controls.saw({ a: "killed" }, job("m1"), 0);
    controls.saw({ b: "killed" }, job("m2"), 0);
    await controls.due(0, session());
    if (order.length === 1 && order[0] === "m2") secondFirst++;
  }
  assert.ok(secondFirst > 0, `${secondFirst} of 64`);
});
