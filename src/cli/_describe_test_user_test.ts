import assert from "node:assert/strict";
import type { IsolationReport } from "../sandbox/sandbox.ts";
import { describeTestUser } from "./_describe_test_user.ts";

function sandbox(tier: IsolationReport["tier"], uid?: number): IsolationReport {
  return {
    tier,
    network: tier === "bwrap" ? "isolated" : "inherited",
    ...(uid === undefined ? {} : { uid, gid: uid }),
    notes: [],
  };
}

Deno.test("describeTestUser() names the leased uid once when every judgement shared it", () => {
  assert.equal(
    describeTestUser([sandbox("uid", 64130), sandbox("uid", 64130)], 0),
    "The tests ran as uid 64130 (the same gid) in the uid sandbox, not as pawl's own uid 0",
  );
});

Deno.test("describeTestUser() lists distinct uids in order, runs of neighbours as ranges", () => {
  assert.equal(
    describeTestUser([sandbox("bwrap", 64131), sandbox("bwrap", 64130)], 0),
    "The tests ran as uids 64130, 64131 (the same gid) in the bwrap sandbox, not as pawl's own uid 0",
  );
  const seven = [64206, 64201, 64205, 64202, 64200, 64203, 64204, 64210];
  assert.equal(
    describeTestUser(seven.map((uid) => sandbox("bwrap", uid)), 0),
    "The tests ran as uids 64200–64206, 64210 (the same gid) in the bwrap sandbox, not as pawl's own uid 0",
  );
  assert.equal(
    describeTestUser([{ ...sandbox("uid", 64130), gid: 100 }], 0),
    "The tests ran as uid 64130 (gid 100) in the uid sandbox, not as pawl's own uid 0",
  );
});

Deno.test("describeTestUser() says the tests ran as pawl's own uid without isolation", () => {
  assert.equal(
    describeTestUser([sandbox("none")], 1000),
    "The tests ran as pawl's own uid 1000: no uid isolation (--isolation none)",
  );
});

Deno.test("describeTestUser() says nothing when no test ran", () => {
  assert.equal(describeTestUser([], 0), undefined);
});
