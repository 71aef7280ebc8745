import assert from "node:assert/strict";
import type {
  RecordedCall,
  Recording,
  ReplayStream,
} from "../run/calls/call_streams.ts";
import { callDifferences, judgeCallReplay } from "./judge_call_replay.ts";

const int = (v: number) => ["int", String(v)];
const args = (...xs: number[]) => [
  "tuple",
  [["tuple", xs.map(int)], ["dict", []]],
];

function call(fn: string, a: number, result: number): RecordedCall {
  return {
    fn: ["pkg.core", fn],
    at: ["pkg/core.py", 3],
    args: `${fn}:${a}`,
    shown: args(a),
    out: [int(result), args(a)],
    ran: [["pkg/core.py", 3, 9]],
  };
}

function recording(calls: RecordedCall[]): Recording {
  return { roots: ["src"], importRan: [], calls, complete: true };
}

function stream(
  first: number[],
  options: {
    second?: number[];
    later?: { i: number; p: number; v: number }[];
    a?: number[];
  } = {},
): ReplayStream {
  const out = (v: number, i: number) => [int(v), args(options.a?.[i] ?? 0)];
  return {
    first: new Map(first.map((v, i) => [i, out(v, i)])),
    second: new Map((options.second ?? first).map((v, i) => [i, out(v, i)])),
    later: (options.later ?? []).map(({ i, p, v }) => ({
      i,
      p,
      out: out(v, i),
    })),
    passes: 3,
    complete: true,
  };
}

Deno.test("callDifferences() judges a call only where it behaves as a function of its arguments", async (t) => {
  const calls = [call("f", 0, 0), call("f", 0, 0)];
  const cases: {
    name: string;
    passes: ReplayStream;
    twice: ReplayStream;
    expected: number[];
  }[] = [
    {
      name: "the same outcomes everywhere: no difference",
      passes: stream([0, 0]),
      twice: stream([0, 0]),
      expected: [],
    },
    {
      name: "a deterministic other outcome in production: both calls differ",
      passes: stream([1, 1]),
      twice: stream([1, 1]),
      expected: [0, 1],
    },
    {
      name: "two fresh interpreters disagree (time, randomness): not judged",
      passes: stream([1, 1]),
      twice: stream([2, 2]),
      expected: [],
    },
    {
      name:
        "a call made twice in a row gives two outcomes (a counter): not judged",
      passes: stream([1, 1]),
      twice: stream([1, 1], { second: [2, 2] }),
      expected: [],
    },
    {
      name: "a later pass goes wrong for steady calls: judged there",
      passes: stream([0, 0], { later: [{ i: 1, p: 9, v: 7 }] }),
      twice: stream([0, 0]),
      expected: [1],
    },
  ];
  for (const c of cases) {
    await t.step(c.name, () => {
      const found = callDifferences(recording(calls), c);
      assert.deepEqual(found.map((d) => d.index), c.expected);
    });
  }
});

Deno.test("callDifferences() never judges a later pass of calls whose same arguments gave several outcomes (an id generator)", () => {
  // The same arguments gave 1 then 2 in the recording: ids by design.
  const calls = [call("next_id", 0, 1), call("next_id", 0, 2)];
  const passes = stream([1, 2], { later: [{ i: 0, p: 2, v: 3 }] });
  // Judged at the first making only when steady; here each call alone looks steady.
  const twice = stream([1, 2]);
  assert.deepEqual(
    callDifferences(recording(calls), { passes, twice }),
    [],
  );
});

Deno.test("judgeCallReplay() names the call and both results, and leaves to the base what the base had", () => {
  const calls = [call("total", 3, 6)];
  const evidence = {
    recording: recording(calls),
    passes: stream([5], { a: [3] }),
    twice: stream([5], { a: [3] }),
  };
  const [own] = judgeCallReplay(evidence, { base: "b".repeat(40) }).findings;
  assert.equal(own?.rule, "harness.code_detects_tests");
  assert.equal(own?.blocking, true);
  assert.match(
    own?.message ?? "",
    /"pkg\.core\.total" called as total\(3\) gave 6 under the tests, 5 in a clean interpreter/,
  );
  const [base] = judgeCallReplay(
    { ...evidence, base: stream([5], { a: [3] }) },
    { base: "b".repeat(40) },
  ).findings;
  assert.equal(base?.blocking, false);
  assert.match(base?.message ?? "", /base commit bbbbbbbbbbbb gives the same/);
  const [other] = judgeCallReplay(
    { ...evidence, base: stream([6], { a: [3] }) },
    { base: "b".repeat(40) },
  ).findings;
  assert.equal(other?.blocking, true);
});

Deno.test("judgeCallReplay() with no difference reports the functions the judged calls ran", () => {
  const calls = [call("total", 3, 6)];
  const j = judgeCallReplay({
    recording: {
      ...recording(calls),
      importRan: [["pkg/deco.py", 1, 4]],
    },
    passes: stream([6], { a: [3] }),
    twice: stream([6], { a: [3] }),
  }, { base: "b" });
  assert.deepEqual(j.findings, []);
  assert.deepEqual([...j.exercised ?? []], [
    ["pkg/core.py", [[3, 9]]],
    ["pkg/deco.py", [[1, 4]]],
  ]);
});
