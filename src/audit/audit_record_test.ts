import assert from "node:assert/strict";
import { HEAD, pull, record } from "./_testing.ts";
import {
  auditRecordFileName,
  auditRecordNumber,
  isRecordCurrent,
} from "./audit_record.ts";

Deno.test("buildAuditRecord() keeps the verdict for a decision and the reason otherwise", () => {
  const reject = record(7, "reject");
  assert.equal(reject.decision, "reject");
  assert.equal(reject.verdict?.decision, "reject");
  assert.equal(reject.reason, undefined);
  const undecided = record(7, "undecided");
  assert.equal(undecided.verdict, undefined);
  assert.match(undecided.reason ?? "", /Cannot fetch/);
});

Deno.test("auditRecordFileName() and auditRecordNumber() agree, and other names are not records", () => {
  assert.equal(auditRecordFileName(42), "pr-42.json");
  assert.equal(auditRecordNumber("pr-42.json"), 42);
  for (
    const name of ["pr-0.json", "pr-042.json", "pr-4.json.tmp", "audit.json"]
  ) {
    assert.equal(auditRecordNumber(name), undefined, name);
  }
});

Deno.test("isRecordCurrent() holds only for the same repository, commits and clock", async (t) => {
  const kept = record(7, "reject");
  const pr = pull(7);
  const clock = kept.clock;
  await t.step("the same question", () => {
    assert.ok(isRecordCurrent(kept, "O/R", pr, clock));
  });
  await t.step("the head moved", () => {
    assert.ok(
      !isRecordCurrent(
        kept,
        "o/r",
        { ...pr, head: { sha: "c".repeat(40) } },
        clock,
      ),
    );
  });
  await t.step("another clock", () => {
    assert.ok(
      !isRecordCurrent(kept, "o/r", pr, { source: "flag", now: clock.now }),
    );
    assert.ok(
      !isRecordCurrent(kept, "o/r", pr, {
        ...clock,
        now: "2026-12-01T00:00:00Z",
      }),
    );
  });
  await t.step("another repository", () => {
    assert.ok(!isRecordCurrent(kept, "o/other", pr, clock));
  });
  await t.step("undecided is kept unless retried", () => {
    const undecided = record(7, "undecided");
    assert.ok(isRecordCurrent(undecided, "o/r", pr, undecided.clock));
    assert.ok(
      !isRecordCurrent(undecided, "o/r", pr, undecided.clock, {
        retryUndecided: true,
      }),
    );
    assert.equal(undecided.pullRequest.head, HEAD);
  });
});
