import assert from "node:assert/strict";
import {
  baselineSchema,
  type DriverResult,
  helloSchema,
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
    ["another event", { ...RESULT, event: "baseline" }, false],
    ["no exit code and no signal", { ...RESULT, exit: null }, true],
    ["a fractional exit code", { ...RESULT, exit: 1.5 }, false],
    ["a signal", { ...RESULT, exit: null, signal: "SIGKILL" }, true],
    ["a wall time that is not finite", { ...RESULT, wall: Infinity }, false],
    ["a negative CPU limit", { ...RESULT, cpuLimit: -0.5 }, false],
    ["zero seconds", { ...RESULT, cpu: 0, wall: 0, cpuLimit: 0 }, true],
    ["selected tests that are not names", { ...RESULT, selected: [1] }, false],
    ["an id that is not a string", { ...RESULT, id: 7 }, false],
    ["a wall kill that is not a boolean", { ...RESULT, wallKilled: 1 }, false],
    ["each status the driver sends: not covered", {
      ...RESULT,
      status: "not_covered",
    }, true],
    ["each status the driver sends: import only", {
      ...RESULT,
      status: "import_only",
    }, true],
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
    [
      "SIGKILL right at the limit",
      { exit: null, signal: "SIGKILL", cpu: 1.5 },
      true,
    ],
    ["SIGSEGV", { exit: null, signal: "SIGSEGV" }, false],
    [
      "SIGSEGV past the limit",
      { exit: null, signal: "SIGSEGV", cpu: 1.6 },
      false,
    ],
    ["an exit past the limit", { exit: 1, cpu: 1.6 }, false],
    ["an exit as the wall-clock ceiling's kill came", {
      exit: 0,
      signal: null,
      wallKilled: true,
    }, true],
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

Deno.test("readMessage() takes the driver's hello and baseline exactly as written, and nothing else", async (t) => {
  const hello = { event: "hello", token: "t0k", pid: 42 };
  const baseline = {
    event: "baseline",
    exit: 0,
    threads: 1,
    tests: { "tests/t.py::test_a": { cpu: 0.5, passed: true } },
    overhead: 0.1,
  };
  const cases: [
    string,
    typeof helloSchema | typeof baselineSchema,
    unknown,
    boolean,
  ][] = [
    ["the hello as written", helloSchema, hello, true],
    [
      "a hello with another event",
      helloSchema,
      { ...hello, event: "hi" },
      false,
    ],
    [
      "a hello without its token",
      helloSchema,
      { ...hello, token: undefined },
      false,
    ],
    [
      "a hello with a numeric token",
      helloSchema,
      { ...hello, token: 1 },
      false,
    ],
    [
      "a hello with a fractional pid",
      helloSchema,
      { ...hello, pid: 1.5 },
      false,
    ],
    ["a hello with an unknown key", helloSchema, { ...hello, x: 1 }, false],
    ["the baseline as written", baselineSchema, baseline, true],
    [
      "a baseline with no test",
      baselineSchema,
      { ...baseline, tests: {} },
      true,
    ],
    ["a baseline with no thread left", baselineSchema, {
      ...baseline,
      threads: 0,
    }, true],
    ["a baseline with another event", baselineSchema, {
      ...baseline,
      event: "result",
    }, false],
    ["a baseline with negative threads", baselineSchema, {
      ...baseline,
      threads: -1,
    }, false],
    ["a baseline with fractional threads", baselineSchema, {
      ...baseline,
      threads: 1.5,
    }, false],
    ["a baseline with a fractional exit", baselineSchema, {
      ...baseline,
      exit: 0.5,
    }, false],
    ["a baseline with negative overhead", baselineSchema, {
      ...baseline,
      overhead: -1,
    }, false],
    ["a baseline test with negative CPU time", baselineSchema, {
      ...baseline,
      tests: { "t::a": { cpu: -1, passed: true } },
    }, false],
    ["a baseline test without its outcome", baselineSchema, {
      ...baseline,
      tests: { "t::a": { cpu: 1 } },
    }, false],
    ["a baseline test with an unknown key", baselineSchema, {
      ...baseline,
      tests: { "t::a": { cpu: 1, passed: true, x: 1 } },
    }, false],
  ];
  for (const [name, schema, value, ok] of cases) {
    await t.step(name, () => {
      assert.equal(
        readMessage(schema as typeof helloSchema, value) !== undefined,
        ok,
      );
    });
  }
});
