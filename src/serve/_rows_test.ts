import assert from "node:assert/strict";
import {
  emptyCounts,
  eventMs,
  type JobRow,
  oldestByState,
  recordOf,
} from "./_rows.ts";
import { JOB_STATES } from "./job.ts";

const SPEC = { owner: "acme", repo: "app", number: 3 };
const OUTCOME = { verdict: "accept" };

function row(over: Partial<JobRow> = {}): JobRow {
  return {
    id: "acme/app#3@b..h",
    spec: JSON.stringify(SPEC),
    state: "queued",
    attempts: 0,
    outcome: null,
    last_error: null,
    ...over,
  };
}

Deno.test("recordOf() reads a row as either driver returns it", async (t) => {
  const cases: [string, Partial<JobRow>, Record<string, unknown>][] = [
    ["a fresh row", {}, {}],
    ["attempts as text (Postgres)", { attempts: "2" }, { attempts: 2 }],
    ["attempts as a bigint (SQLite)", { attempts: 3n }, { attempts: 3 }],
    ["an outcome", { outcome: JSON.stringify(OUTCOME) }, { outcome: OUTCOME }],
    ["a last error", { last_error: "boom" }, { lastError: "boom" }],
    ["an empty last error is kept", { last_error: "" }, { lastError: "" }],
    ["queued_at as a number", { queued_at: 1700 }, { queuedAt: 1700 }],
    ["queued_at as text", { queued_at: "1700" }, { queuedAt: 1700 }],
    ["queued_at as a bigint", { queued_at: 1700n }, { queuedAt: 1700 }],
    ["queued_at zero means never queued", { queued_at: 0 }, {}],
    ["queued_at null", { queued_at: null }, {}],
    ["queued_at negative", { queued_at: -5 }, {}],
  ];
  for (const [name, over, extra] of cases) {
    await t.step(name, () => {
      assert.deepEqual(recordOf(row(over)), {
        id: "acme/app#3@b..h",
        spec: SPEC,
        state: "queued",
        attempts: 0,
        ...extra,
      });
    });
  }
  await t.step("every known state", () => {
    for (const state of JOB_STATES) {
      assert.equal(recordOf(row({ state })).state, state);
    }
  });
});

Deno.test("recordOf() refuses a state it does not know, naming the state and the job", () => {
  for (const state of ["", "done", "Queued", "queued "]) {
    assert.throws(
      () => recordOf(row({ state })),
      (e: Error) =>
        e.message === `Unknown job state "${state}" for job "acme/app#3@b..h"`,
    );
  }
});

Deno.test("oldestByState() keeps the states with a real time", () => {
  assert.deepEqual(
    oldestByState([
      { state: "queued", at: 100 },
      { state: "running", at: "250" },
      { state: "judged", at: 7n },
      { state: "published", at: 0 },
      { state: "superseded", at: null },
    ]),
    { queued: 100, running: 250, judged: 7 },
  );
  assert.deepEqual(
    oldestByState([
      { state: "queued", at: "not a time" },
      { state: "running", at: -1 },
      { state: "judged", at: Infinity },
    ]),
    {},
  );
  assert.deepEqual(oldestByState([]), {});
});

Deno.test("emptyCounts() has a zero for every state and nothing else", () => {
  const counts = emptyCounts();
  assert.deepEqual(Object.keys(counts), [...JOB_STATES]);
  assert.ok(Object.values(counts).every((n) => n === 0));
  counts.queued = 5;
  assert.equal(emptyCounts().queued, 0);
});

Deno.test("eventMs() orders by the event's time and puts an unreadable time first", () => {
  assert.equal(eventMs("2026-12-01T10:00:00Z"), Date.UTC(2026, 11, 1, 10));
  assert.equal(
    eventMs("2026-12-01T10:00:00.250+01:00"),
    Date.UTC(2026, 11, 1, 9, 0, 0, 250),
  );
  assert.equal(eventMs("yesterday"), 0);
  assert.equal(eventMs(""), 0);
});
