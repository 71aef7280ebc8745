import assert from "node:assert/strict";
import { AuditOptionError } from "./audit_option_error.ts";
import { inShard, parseShard } from "./parse_shard.ts";

Deno.test("parseShard() reads I/N with a 0-based index", () => {
  assert.deepEqual(parseShard("0/1"), { index: 0, count: 1 });
  assert.deepEqual(parseShard("3/4"), { index: 3, count: 4 });
});

Deno.test("parseShard() refuses indexes out of range and other shapes", async (t) => {
  for (const text of ["4/4", "1/0", "0/0", "-1/2", "a/b", "1", "1/2/3", ""]) {
    await t.step(JSON.stringify(text), () => {
      assert.throws(
        () => parseShard(text),
        (error) =>
          error instanceof AuditOptionError &&
          error.message.startsWith(`Cannot read --shard "${text}"`),
      );
    });
  }
});

Deno.test("inShard() puts every pull request in exactly one shard", () => {
  for (const count of [1, 2, 3, 7]) {
    for (let number = 1; number <= 50; number++) {
      const owners = Array.from({ length: count }, (_, index) => index)
        .filter((index) => inShard({ index, count }, number));
      assert.deepEqual(owners, [number % count]);
    }
  }
});
