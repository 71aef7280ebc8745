import assert from "node:assert/strict";
import { record } from "./_testing.ts";
import { AuditRecordError, readAuditRecord } from "./read_audit_record.ts";

const text = (value: unknown) => JSON.stringify(value, null, 2) + "\n";

Deno.test("readAuditRecord() reads back every kind of record as written", async (t) => {
  for (
    const decision of ["accept", "reject", "undecided", "skipped"] as const
  ) {
    await t.step(decision, () => {
      const written = record(7, decision);
      const read = readAuditRecord(text(written), "pr-7.json");
      assert.deepEqual(read, written);
      assert.equal(text(read), text(written));
    });
  }
});

Deno.test("readAuditRecord() refuses anything but a complete record", async (t) => {
  const reject = record(7, "reject");
  const cases: [string, string, RegExp][] = [
    ["a truncated file", text(reject).slice(0, 120), /not JSON/],
    ["an unknown key", text({ ...reject, extra: 1 }), /extra/],
    [
      "an accept without its verdict",
      text({ ...record(7, "accept"), verdict: undefined }),
      /decision "accept" without its verdict/,
    ],
    [
      "a verdict with another decision",
      text({ ...reject, decision: "accept" }),
      /differ from the record's/,
    ],
    [
      "a verdict for other commits",
      text({
        ...reject,
        pullRequest: { ...reject.pullRequest, head: "c".repeat(40) },
      }),
      /differ from the record's/,
    ],
    [
      "an undecided record without a reason",
      text({ ...record(7, "undecided"), reason: undefined }),
      /needs a reason/,
    ],
    [
      "another format",
      text({ decision: "undecided", error: "x" }),
      /pawlAudit/,
    ],
  ];
  for (const [name, body, message] of cases) {
    await t.step(name, () => {
      assert.throws(() => readAuditRecord(body, "out/pr-7.json"), (error) => {
        assert.ok(error instanceof AuditRecordError);
        assert.equal(error.path, "out/pr-7.json");
        assert.match(
          error.message,
          /^Cannot read audit record "out\/pr-7\.json": /,
        );
        assert.match(error.message, message);
        return true;
      });
    });
  }
});
