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
