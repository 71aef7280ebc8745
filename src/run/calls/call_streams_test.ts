import assert from "node:assert/strict";
import { parseRecording, parseReplayStream } from "./call_streams.ts";

const call = {
  call: ["pkg.core", "total"],
  at: ["pkg/core.py", 3],
  args: "gAJ9",
  shown: null,
  out: [["int", "1"], null],
  ran: [["pkg/core.py", 3, 5]],
};

Deno.test("parseRecording() reads only the connection that opened with the run's token", async (t) => {
  const lines = (token: string) => [
    JSON.stringify({ hello: token }),
    JSON.stringify({ roots: ["src", "."], ran: [["pkg/deco.py", 1, 2]] }),
    JSON.stringify(call),
    "not json",
    JSON.stringify({ ...call, extra: 1 }),
    JSON.stringify({ end: true, skipped: 0 }),
  ];
  await t.step("the token's connection, with unknown shapes dropped", () => {
    const r = parseRecording([lines("other"), lines("T")], "T");
    assert.deepEqual(r.roots, ["src", "."]);
    assert.deepEqual(r.importRan, [["pkg/deco.py", 1, 2]]);
    assert.equal(r.calls.length, 1);
    assert.deepEqual(r.calls[0]?.fn, ["pkg.core", "total"]);
    assert.equal(r.complete, true);
  });
  await t.step("a forged connection without the token gives nothing", () => {
    const r = parseRecording([lines("forged")], "T");
    assert.deepEqual(r, {
      roots: [],
      importRan: [],
      calls: [],
      complete: false,
    });
  });
});

Deno.test("parseReplayStream() reads both replay modes, the first outcome of a call counting", () => {
  const out = [["int", "1"], null];
  const passes = parseReplayStream([[
    JSON.stringify({ hello: "T" }),
    JSON.stringify({ i: 0, p: 1, out }),
    JSON.stringify({ i: 0, p: 1, out: [["int", "9"], null] }),
    JSON.stringify({ i: 0, p: 4, out: [["int", "2"], null] }),
    JSON.stringify({ passes: 9 }),
    JSON.stringify({ end: true }),
  ]], "T");
  assert.deepEqual([...passes.first], [[0, out]]);
  assert.deepEqual(passes.later, [{ i: 0, p: 4, out: [["int", "2"], null] }]);
  assert.equal(passes.passes, 9);
  assert.equal(passes.complete, true);
  const twice = parseReplayStream([[
    JSON.stringify({ hello: "T" }),
    JSON.stringify({
      i: 0,
      first: out,
      second: { error: "builtins.KeyError" },
    }),
  ]], "T");
  assert.deepEqual([...twice.second], [[0, { error: "builtins.KeyError" }]]);
  assert.equal(twice.complete, false);
});

Deno.test("parseRecording() and parseReplayStream() trust only the first line's token", async (t) => {
  const hello = JSON.stringify({ hello: "T" });
  const end = JSON.stringify({ end: true, skipped: 0 });
  const table: [string, string[][], boolean][] = [
    ["the token's connection after one opening with null", [["null", end], [
      hello,
      end,
    ]], true],
    ["the token's connection after one opening with a bare string", [[
      JSON.stringify("T"),
      end,
    ], [hello, end]], true],
    ["a token on a later line does not open a connection", [[
      JSON.stringify({ roots: [], ran: [] }),
      hello,
      end,
    ]], false],
    ["a token that only starts like the run's", [[
      JSON.stringify({ hello: "TT" }),
      end,
    ]], false],
    ["an empty connection", [[]], false],
  ];
  for (const [label, connections, complete] of table) {
    await t.step(label, () => {
      assert.equal(parseRecording(connections, "T").complete, complete);
      const replay = connections.map((lines) =>
        lines.map((l) => l === end ? JSON.stringify({ end: true }) : l)
      );
      assert.equal(parseReplayStream(replay, "T").complete, complete);
    });
  }
  await t.step("only the first connection with the token is read", () => {
    const r = parseRecording(
      [[hello, JSON.stringify(call)], [hello, end]],
      "T",
    );
    assert.equal(r.calls.length, 1);
    assert.equal(r.complete, false);
  });
});

Deno.test("parseRecording() keeps every call in order and only lines of its own shapes", async (t) => {
  const hello = JSON.stringify({ hello: "T" });
  await t.step("calls keep their order and fields", () => {
    const second = { ...call, call: ["pkg.core", "mean"], at: null, ran: [] };
    const r = parseRecording([[
      hello,
      JSON.stringify(call),
      JSON.stringify(second),
    ]], "T");
    const { call: fn, ...rest } = call;
    const { call: fn2, ...rest2 } = second;
    assert.deepEqual(r.calls, [{ fn, ...rest }, { fn: fn2, ...rest2 }]);
  });
  const table: [string, unknown][] = [
    ["an end without its skipped count", { end: true }],
    ["an end that is not true", { end: false, skipped: 0 }],
    ["an end with more fields", { end: true, skipped: 0, x: 1 }],
  ];
  for (const [label, line] of table) {
    await t.step(`${label} does not complete the stream`, () => {
      assert.equal(
        parseRecording([[hello, JSON.stringify(line)]], "T").complete,
        false,
      );
    });
  }
  const calls: [string, unknown][] = [
    ["a line number that is not an integer", { ...call, at: ["p.py", 1.5] }],
    ["a ran range that is not integers", { ...call, ran: [["p.py", 1, 2.5]] }],
    ["a missing field", {
      call: call.call,
      at: null,
      args: "",
      shown: null,
      out: null,
    }],
    ["a function that is not two names", { ...call, call: ["pkg.core"] }],
    ["a call without where its function is", {
      call: call.call,
      args: "",
      shown: null,
      out: null,
      ran: [],
    }],
  ];
  for (const [label, line] of calls) {
    await t.step(`${label} is no call`, () => {
      assert.equal(
        parseRecording([[hello, JSON.stringify(line)]], "T").calls.length,
        0,
      );
    });
  }
  await t.step("roots that are not all names are no roots", () => {
    const r = parseRecording([[
      hello,
      JSON.stringify({ roots: ["src", 1], ran: [["p.py", 1, 2]] }),
    ]], "T");
    assert.deepEqual([r.roots, r.importRan], [[], []]);
  });
  await t.step("roots with more fields are no roots", () => {
    const r = parseRecording([[
      hello,
      JSON.stringify({ roots: ["src"], ran: [], x: 1 }),
    ]], "T");
    assert.deepEqual(r.roots, []);
  });
});

Deno.test("parseReplayStream() keeps each call's first outcome of each pass", async (t) => {
  const hello = JSON.stringify({ hello: "T" });
  const v = (n: number) => [["int", String(n)], null];
  await t.step("a repeated later pass keeps its first line", () => {
    const r = parseReplayStream([[
      hello,
      JSON.stringify({ i: 0, p: 2, out: v(1) }),
      JSON.stringify({ i: 0, p: 2, out: v(2) }),
      JSON.stringify({ i: 0, p: 3, out: v(3) }),
      JSON.stringify({ i: 1, p: 2, out: v(4) }),
    ]], "T");
    assert.deepEqual(r.later, [
      { i: 0, p: 2, out: v(1) },
      { i: 0, p: 3, out: v(3) },
      { i: 1, p: 2, out: v(4) },
    ]);
    assert.equal(r.first.size, 0);
  });
  await t.step("a repeated twice-mode line replaces neither outcome", () => {
    const r = parseReplayStream([[
      hello,
      JSON.stringify({ i: 0, first: v(1), second: v(2) }),
      JSON.stringify({ i: 0, first: v(3), second: v(4) }),
      JSON.stringify({ i: 1, first: v(5), second: v(6) }),
    ]], "T");
    assert.deepEqual([...r.first], [[0, v(1)], [1, v(5)]]);
    assert.deepEqual([...r.second], [[0, v(2)], [1, v(6)]]);
  });
  await t.step(
    "a twice-mode line after a pass-1 line of the same call is ignored",
    () => {
      const r = parseReplayStream([[
        hello,
        JSON.stringify({ i: 0, p: 1, out: v(1) }),
        JSON.stringify({ i: 0, first: v(3), second: v(4) }),
      ]], "T");
      assert.deepEqual([...r.first], [[0, v(1)]]);
      assert.equal(r.second.size, 0);
    },
  );
  await t.step("a pass before the first is a later pass, not the first", () => {
    const r = parseReplayStream([[
      hello,
      JSON.stringify({ i: 0, p: 0, out: v(1) }),
    ]], "T");
    assert.equal(r.first.size, 0);
    assert.deepEqual(r.later, [{ i: 0, p: 0, out: v(1) }]);
  });
  await t.step("a count of passes sent again is not added up", () => {
    const r = parseReplayStream([[
      hello,
      JSON.stringify({ passes: 3 }),
      JSON.stringify({ passes: 3 }),
    ]], "T");
    assert.equal(r.passes, 3);
  });
  await t.step(
    "an outcome of a pass that is not a whole number is dropped",
    () => {
      const r = parseReplayStream([[
        hello,
        JSON.stringify({ i: 0, p: 1.5, out: v(1) }),
        JSON.stringify({ i: 1, p: 2.5, out: v(2) }),
      ]], "T");
      assert.deepEqual([r.first.size, r.later], [0, []]);
    },
  );
  await t.step("only an end of true completes the stream", () => {
    const end = (value: unknown) =>
      parseReplayStream([[hello, JSON.stringify({ end: value })]], "T")
        .complete;
    assert.deepEqual([end(true), end(false), end(1)], [true, false, false]);
  });
  await t.step("lines of other shapes are dropped", () => {
    const r = parseReplayStream([[
      hello,
      JSON.stringify({ i: 0.5, p: 1, out: v(1) }),
      JSON.stringify({ i: 0, p: 1, out: v(1), x: 1 }),
      JSON.stringify({ passes: 1.5 }),
      JSON.stringify({ end: true, skipped: 0 }),
    ]], "T");
    assert.deepEqual(r, {
      first: new Map(),
      second: new Map(),
      later: [],
      passes: 0,
      complete: false,
    });
  });
});
