import assert from "node:assert/strict";
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
  const [a, b] = [decoy(), decoy()];
  assert.match(a.id, /^m[0-9a-f]{12}$/);
  assert.notEqual(a.id, b.id);
});
