import assert from "node:assert/strict";
import {
  SandboxCleanupError,
  SandboxCommandError,
  SandboxInterruptedError,
  SandboxUidLostError,
  SandboxUidRangeError,
  SandboxUidsBusyError,
  SandboxUnavailableError,
} from "./sandbox_errors.ts";

Deno.test("each sandbox error names itself and extends the closest built-in", async (t) => {
  const cases: [Error, string, ErrorConstructor | TypeErrorConstructor][] = [
    [new SandboxUnavailableError("x"), "SandboxUnavailableError", Error],
    [new SandboxCommandError("x"), "SandboxCommandError", TypeError],
    [new SandboxCleanupError(64123, 1), "SandboxCleanupError", Error],
    [new SandboxUidRangeError("x"), "SandboxUidRangeError", TypeError],
    [
      new SandboxUidsBusyError({ first: 1, last: 2 }, "/run/pawl", 0),
      "SandboxUidsBusyError",
      Error,
    ],
    [new SandboxUidLostError(64123), "SandboxUidLostError", Error],
    [
      new SandboxInterruptedError("prlimit", "SIGTERM"),
      "SandboxInterruptedError",
      Error,
    ],
  ];
  for (const [error, name, base] of cases) {
    await t.step(name, () => {
      assert.equal(error.name, name);
      assert.ok(error instanceof base);
    });
  }
});

Deno.test("SandboxUnavailableError carries the probe's notes and its cause", () => {
  const cause = new Error("bwrap failed");
  const error = new SandboxUnavailableError("Cannot isolate", {
    notes: ["bwrap unavailable: no"],
    cause,
  });
  assert.deepEqual(error.notes, ["bwrap unavailable: no"]);
  assert.equal(error.cause, cause);
  const bare = new SandboxUnavailableError("Cannot isolate");
  assert.deepEqual(bare.notes, []);
  assert.equal("cause" in bare, false);
});

Deno.test("SandboxCleanupError says which uid kept how many processes", () => {
  const error = new SandboxCleanupError(64123, 3);
  assert.equal(
    error.message,
    "Cannot stop the processes of uid 64123: 3 still running after repeated SIGKILL",
  );
  assert.deepEqual([error.uid, error.survivors], [64123, 3]);
});

Deno.test("SandboxUidsBusyError suggests a range at least twice as wide, and 64 uids at least", async (t) => {
  const cases: [string, [number, number], number, number, string][] = [
    [
      "one uid, waited 1.5 s",
      [64000, 64000],
      1500,
      0,
      'Cannot lease a sandbox uid: all 1 of 64000-64000 are held by other pawl runs (locks in "/run/pawl") and none came free within 2 s; widen the range with "--sandbox-uids 64000-64063" or PAWL_SANDBOX_UIDS=64000-64063 (uids no one else uses), or run fewer judgements at once',
    ],
    [
      "32 uids: twice as many is 64",
      [64000, 64031],
      1400,
      0,
      'Cannot lease a sandbox uid: all 32 of 64000-64031 are held by other pawl runs (locks in "/run/pawl") and none came free within 1 s; widen the range with "--sandbox-uids 64000-64063" or PAWL_SANDBOX_UIDS=64000-64063 (uids no one else uses), or run fewer judgements at once',
    ],
    [
      "40 uids, one held elsewhere",
      [64000, 64039],
      60_000,
      1,
      'Cannot lease a sandbox uid: all 40 of 64000-64039 are held by other pawl runs (locks in "/run/pawl"; 1 by pawl in another container on this kernel, or by processes of the uid this pawl cannot see) and none came free within 60 s; widen the range with "--sandbox-uids 64000-64079" or PAWL_SANDBOX_UIDS=64000-64079 (uids no one else uses), or run fewer judgements at once',
    ],
    [
      "an hour's wait, told in whole seconds",
      [64000, 64000],
      3_600_000,
      0,
      'Cannot lease a sandbox uid: all 1 of 64000-64000 are held by other pawl runs (locks in "/run/pawl") and none came free within 3600 s; widen the range with "--sandbox-uids 64000-64063" or PAWL_SANDBOX_UIDS=64000-64063 (uids no one else uses), or run fewer judgements at once',
    ],
  ];
  for (const [name, [first, last], waitedMs, elsewhere, message] of cases) {
    await t.step(name, () => {
      const error = new SandboxUidsBusyError(
        { first, last },
        "/run/pawl",
        waitedMs,
        elsewhere,
      );
      assert.equal(error.message, message);
      assert.deepEqual([error.first, error.last], [first, last]);
    });
  }
});

Deno.test("SandboxUidLostError and SandboxInterruptedError say which uid and which signal", () => {
  const lost = new SandboxUidLostError(64123);
  assert.equal(lost.uid, 64123);
  assert.ok(lost.message.startsWith("Cannot keep sandbox uid 64123: "));
  const interrupted = new SandboxInterruptedError("prlimit", "SIGTERM");
  assert.equal(interrupted.signal, "SIGTERM");
  assert.ok(
    interrupted.message.startsWith(
      'Cannot judge the test run: "prlimit" was killed by SIGTERM, which pawl did not send',
    ),
  );
});
