import assert from "node:assert/strict";
import fc from "fast-check";
import { type ObservedOutcome, parseObservation } from "./observation.ts";

const hello = '{"event":"hello","token":"t"}';
const report = (
  nodeid: string,
  when: string,
  outcome: string,
  xfail = false,
) => JSON.stringify({ event: "report", nodeid, when, outcome, xfail });
const made = (nodeid: string, when: string, outcome: string) =>
  JSON.stringify({ event: "made", nodeid, when, outcome });
const steps = (nodeid: string, machines: number, n: number, longest: number) =>
  JSON.stringify({ event: "steps", nodeid, machines, steps: n, longest });

Deno.test("parseObservation() trusts a stream only when its hello carries this run's non-empty token", async (t) => {
  const table: [string, string[], string, boolean][] = [
    ["the run's token authenticates", [hello], "t", true],
    ["another token does not", ['{"event":"hello","token":"x"}'], "t", false],
    [
      "an empty token does not, even when the run's token is empty too",
      ['{"event":"hello","token":""}'],
      "",
      false,
    ],
    ["a hello without a token does not", ['{"event":"hello"}'], "", false],
    [
      "a first line that is not a hello does not",
      ['{"event":"configure","token":"t"}'],
      "t",
      false,
    ],
  ];
  for (const [label, lines, token, trusted] of table) {
    await t.step(label, () => {
      const o = parseObservation([[
        ...lines,
        report("a.py::t", "call", "passed"),
      ]], token);
      assert.equal(o.hello, trusted);
      assert.equal(o.outcomes.size, trusted ? 1 : 0);
      assert.equal(o.problems.length, trusted ? 0 : 1);
    });
  }
});

/** Worst first, as a test's outcome is judged. */
const SEVERITY: readonly ObservedOutcome[] = [
  "failed",
  "error",
  "xfailed",
  "skipped",
  "passed",
];

const phase = fc.record({
  when: fc.constantFrom("setup", "call", "teardown"),
  outcome: fc.constantFrom("passed", "failed", "skipped"),
  xfail: fc.boolean(),
});
type Phase = { when: string; outcome: string; xfail: boolean };

function outcomeOf(phases: readonly Phase[]): ObservedOutcome | undefined {
  const o = parseObservation([[
    hello,
    ...phases.map((p) => report("a.py::t", p.when, p.outcome, p.xfail)),
  ]], "t");
  return o.outcomes.get("a.py::t");
}

const rank = (o: ObservedOutcome | undefined) =>
  o === undefined ? SEVERITY.length : SEVERITY.indexOf(o);

Deno.test("parseObservation() gives a test the worst outcome of its phases, in whatever order they came", async (t) => {
  const table: [string, Phase[], ObservedOutcome | undefined][] = [
    ["a passing call passes", [{
      when: "call",
      outcome: "passed",
      xfail: false,
    }], "passed"],
    ["a passing setup alone gives no outcome", [{
      when: "setup",
      outcome: "passed",
      xfail: false,
    }], undefined],
    ["a failing call fails", [{
      when: "call",
      outcome: "failed",
      xfail: false,
    }], "failed"],
    ["a failing setup is an error", [{
      when: "setup",
      outcome: "failed",
      xfail: false,
    }], "error"],
    ["a skip marked xfail is an xfail", [{
      when: "call",
      outcome: "skipped",
      xfail: true,
    }], "xfailed"],
    [
      "a passing call with a failing teardown is an error",
      [
        { when: "setup", outcome: "passed", xfail: false },
        { when: "call", outcome: "passed", xfail: false },
        { when: "teardown", outcome: "failed", xfail: false },
      ],
      "error",
    ],
    [
      "a failing call with a failing teardown is a failure",
      [
        { when: "call", outcome: "failed", xfail: false },
        { when: "teardown", outcome: "failed", xfail: false },
      ],
      "failed",
    ],
    [
      "a skipped setup then a passing teardown is skipped",
      [
        { when: "setup", outcome: "skipped", xfail: false },
        { when: "teardown", outcome: "passed", xfail: false },
      ],
      "skipped",
    ],
  ];
  for (const [label, phases, expected] of table) {
    await t.step(label, () => assert.equal(outcomeOf(phases), expected));
  }
  await t.step(
    "merging is the minimum in severity, so order does not matter",
    () => {
      fc.assert(
        fc.property(fc.array(phase, { maxLength: 6 }), (phases) => {
          const merged = outcomeOf(phases);
          const each = phases.map((p) => outcomeOf([p]));
          assert.equal(
            rank(merged),
            Math.min(SEVERITY.length, ...each.map(rank)),
          );
          assert.equal(outcomeOf([...phases].reverse()), merged);
        }),
      );
    },
  );
  await t.step("one more phase never makes a test's outcome milder", () => {
    fc.assert(
      fc.property(fc.array(phase, { maxLength: 5 }), phase, (phases, more) => {
        assert.ok(
          rank(outcomeOf([...phases, more])) <= rank(outcomeOf(phases)),
        );
        assert.ok(
          rank(outcomeOf([more, ...phases])) <= rank(outcomeOf(phases)),
        );
      }),
    );
  });
});

Deno.test("parseObservation() flags a report whose outcome changed between made and logged in a way pytest never does", async (t) => {
  const table: [string, string, string, boolean, boolean][] = [
    ["an unchanged pass", "passed", "passed", false, false],
    [
      "a failure that xfail turned into a skip",
      "failed",
      "skipped",
      true,
      false,
    ],
    [
      "a failure turned into a skip without xfail",
      "failed",
      "skipped",
      false,
      true,
    ],
    ["a failure turned into a pass", "failed", "passed", false, true],
    [
      "a failure turned into a pass under xfail",
      "failed",
      "passed",
      true,
      true,
    ],
    [
      "a pass that strict xfail turned into a failure",
      "passed",
      "failed",
      true,
      false,
    ],
    ["a pass turned into a skip", "passed", "skipped", false, true],
    ["a skip turned into a pass", "skipped", "passed", false, true],
    ["a skip turned into a failure", "skipped", "failed", false, true],
  ];
  for (const [label, before, logged, xfail, flagged] of table) {
    await t.step(label, () => {
      const o = parseObservation([[
        hello,
        made("a.py::t", "call", before),
        report("a.py::t", "call", logged, xfail),
      ]], "t");
      assert.deepEqual(
        o.rewritten,
        flagged
          ? [{ nodeId: "a.py::t", when: "call", made: before, logged }]
          : [],
      );
    });
  }
  await t.step("a report made in another phase is not compared", () => {
    const o = parseObservation([[
      hello,
      made("a.py::t", "setup", "failed"),
      report("a.py::t", "call", "passed"),
    ]], "t");
    assert.deepEqual(o.rewritten, []);
  });
});

Deno.test("parseObservation() sums a test's state machine runs and keeps the longest run's steps", async (t) => {
  const table: [
    string,
    string[],
    { machines: number; steps: number; longest: number },
  ][] = [
    ["one event is taken as it is", [steps("a.py::t", 3, 30, 12)], {
      machines: 3,
      steps: 30,
      longest: 12,
    }],
    [
      "the longest is the maximum when the longer run came first",
      [steps("a.py::t", 2, 60, 50), steps("a.py::t", 1, 10, 10)],
      { machines: 3, steps: 70, longest: 50 },
    ],
    [
      "the longest is the maximum when the longer run came last",
      [steps("a.py::t", 1, 10, 10), steps("a.py::t", 2, 60, 50)],
      { machines: 3, steps: 70, longest: 50 },
    ],
  ];
  for (const [label, lines, expected] of table) {
    await t.step(label, () => {
      const o = parseObservation([[hello, ...lines]], "t");
      assert.deepEqual(o.steps.get("a.py::t"), expected);
    });
  }
});

Deno.test("parseObservation() sums a test's Hypothesis examples over engine runs and refuses negative counts", async (t) => {
  const ex = (valid: number, invalid = 0) =>
    JSON.stringify({
      event: "examples",
      nodeid: "a.py::t",
      valid,
      invalid,
      overrun: 1,
      interesting: 0,
    });
  await t.step("two runs add up", () => {
    const o = parseObservation([[hello, ex(10, 2), ex(5, 1)]], "t");
    assert.deepEqual(o.examples.get("a.py::t"), {
      valid: 15,
      invalid: 3,
      overrun: 2,
      interesting: 0,
    });
  });
  await t.step("a negative count is a line pawl cannot read", () => {
    const o = parseObservation([[hello, ex(10), ex(-5)]], "t");
    assert.deepEqual(o.examples.get("a.py::t")?.valid, 10);
    assert.equal(o.problems.length, 1);
  });
});

Deno.test("parseObservation() keeps a test's last non-empty failure text with its own tail, never an earlier report's", async (t) => {
  const withText = (when: string, text: string, tail?: string) =>
    JSON.stringify({
      event: "report",
      nodeid: "a.py::t",
      when,
      outcome: "failed",
      xfail: false,
      text,
      ...(tail === undefined ? {} : { tail }),
    });
  const table: [string, string[], string | undefined, string | undefined][] = [
    ["one text and its tail", [withText("call", "boom", "end")], "boom", "end"],
    [
      "a later text replaces an earlier one and drops its tail",
      [withText("call", "boom", "end"), withText("teardown", "later")],
      "later",
      undefined,
    ],
    [
      "an empty later text keeps the earlier one and its tail",
      [withText("call", "boom", "end"), withText("teardown", "")],
      "boom",
      "end",
    ],
  ];
  for (const [label, lines, text, tail] of table) {
    await t.step(label, () => {
      const o = parseObservation([[hello, ...lines]], "t");
      assert.equal(o.texts.get("a.py::t"), text);
      assert.equal(o.tails.get("a.py::t"), tail);
    });
  }
});

Deno.test("parseObservation() collects the node ids of every collected event, in order", () => {
  const collected = (ids: string[]) =>
    JSON.stringify({ event: "collected", nodeids: ids });
  assert.equal(parseObservation([[hello]], "t").collected, null);
  const o = parseObservation([[
    hello,
    collected(["a.py::x", "a.py::y"]),
    collected(["b.py::z"]),
  ]], "t");
  assert.deepEqual(o.collected, ["a.py::x", "a.py::y", "b.py::z"]);
});

Deno.test("parseObservation() reads Hypothesis events outside any test and refuses ones with a malformed node id", async (t) => {
  const event = (name: string, nodeid: unknown) =>
    JSON.stringify({
      event: name,
      nodeid,
      valid: 1,
      invalid: 0,
      overrun: 0,
      interesting: 0,
      machines: 1,
      steps: 1,
      longest: 1,
      source: "random",
    });
  for (const name of ["examples", "steps", "seed"]) {
    await t.step(`${name} without a test is read and kept nowhere`, () => {
      const o = parseObservation([[hello, event(name, null)]], "t");
      assert.deepEqual(o.problems, []);
      assert.equal(o.examples.size + o.steps.size + o.seeds.size, 0);
    });
    await t.step(`${name} with a numeric node id is a problem`, () => {
      const o = parseObservation([[hello, event(name, 3)]], "t");
      assert.equal(o.problems.length, 1);
    });
  }
});
