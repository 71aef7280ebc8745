import assert from "node:assert/strict";
import {
  type DriverResult,
  readMessage,
  resultSchema,
  stoppedByLimit,
} from "./warm_driver_messages.ts";

const RESULT: DriverResult = {
  event: "result",
  id: "m0123456789ab",
  status: "ran",
  selected: ["tests/t.py::test_a"],
  cpuLimit: 1.5,
  cpu: 0.2,
  wall: 0.3,
  exit: 1,
  signal: null,
  wallKilled: false,
};

Deno.test("readMessage() takes a result exactly as the driver writes it, and nothing else", async (t) => {
  const cases: [string, unknown, boolean][] = [
    ["the result as written", RESULT, true],
    ["an unknown key", { ...RESULT, killed: true }, false],
    ["a missing key", { ...RESULT, wall: undefined }, false],
    ["a status the driver never sends", { ...RESULT, status: "killed" }, false],
    ["a negative CPU time", { ...RESULT, cpu: -1 }, false],
    ["a selection that is not a list", { ...RESULT, selected: "all" }, false],
    ["a line that was not JSON", undefined, false],
  ];
  for (const [name, value, ok] of cases) {
    await t.step(name, () => {
      assert.equal(readMessage(resultSchema, value) !== undefined, ok);
    });
  }
});

Deno.test("stoppedByLimit() reads the CPU timer, RLIMIT_CPU and the wall-clock ceiling as limits, and nothing else", async (t) => {
  const cases: [string, Partial<DriverResult>, boolean][] = [
    ["an exit", { exit: 1 }, false],
    ["SIGPROF", { exit: null, signal: "SIGPROF" }, true],
    ["SIGXCPU", { exit: null, signal: "SIGXCPU" }, true],
    [
      "SIGKILL past the limit",
      { exit: null, signal: "SIGKILL", cpu: 1.6 },
      true,
    ],
    [
      "SIGKILL before the limit",
      { exit: null, signal: "SIGKILL", cpu: 0.4 },
      false,
    ],
    ["SIGSEGV", { exit: null, signal: "SIGSEGV" }, false],
    ["the wall-clock ceiling", {
      exit: null,
      signal: "SIGKILL",
      wallKilled: true,
    }, true],
  ];
  for (const [name, change, stopped] of cases) {
    await t.step(name, () => {
      assert.equal(stoppedByLimit({ ...RESULT, ...change }), stopped);
    });
  }
});
