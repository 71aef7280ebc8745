import assert from "node:assert/strict";
import { TransientError } from "./judge.ts";

Deno.test("TransientError names itself where an error is printed, and keeps its message and cause", () => {
  const cause = new Error("502 Bad Gateway");
  const error = new TransientError("Cannot fetch the head", { cause });
  assert.ok(error instanceof Error);
  assert.equal(error.name, "TransientError");
  assert.equal(error.message, "Cannot fetch the head");
  assert.equal(error.cause, cause);
  assert.equal(String(error), "TransientError: Cannot fetch the head");
  assert.match(error.stack ?? "", /^TransientError: Cannot fetch the head/);
  assert.equal(new TransientError("x").cause, undefined);
});
