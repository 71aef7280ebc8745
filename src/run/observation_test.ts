import assert from "node:assert/strict";
import fc from "fast-check";
import {
  type ObservedOutcome,
  parseLine,
  parseObservation,
} from "./observation.ts";

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

Deno.test("parseObservation() reads each event's fields as the observer wrote them", async (t) => {
  const read = (...lines: unknown[]) => {
    const o = parseObservation([[
      hello,
      ...lines.map((l) => JSON.stringify(l)),
    ]], "t");
    assert.deepEqual(o.problems, []);
    return o;
  };
  await t.step("a configure event marks the plugin configured", () => {
    assert.equal(read().configured, false);
    assert.equal(read({ event: "configure" }).configured, true);
  });
  await t.step("collected node ids are read", () => {
    const o = read({ event: "collected", nodeids: ["a.py::t"] });
    assert.deepEqual(o.collected, ["a.py::t"]);
  });
  await t.step("a collection error keeps its collector and text", () => {
    const o = read({ event: "collect_error", nodeid: "a.py", text: "boom" });
    assert.deepEqual(o.collectErrors, [{ nodeId: "a.py", text: "boom" }]);
  });
  await t.step("a seed keeps its source, seed and max_examples", () => {
    const o = read(
      {
        event: "seed",
        nodeid: "a.py::t",
        source: "explicit",
        seed: "42",
        max_examples: 100,
      },
      { event: "seed", nodeid: "a.py::t", source: "random", seed: 7 },
      { event: "seed", nodeid: "a.py::t", source: "derandomize" },
      { event: "seed", nodeid: "a.py::t", source: "forced", seed: "1" },
    );
    assert.deepEqual(o.seeds.get("a.py::t"), [
      { source: "explicit", seed: "42", maxExamples: 100 },
      { source: "random", seed: null, maxExamples: null },
      { source: "derandomize", seed: null, maxExamples: null },
      { source: "forced", seed: "1", maxExamples: null },
    ]);
  });
  await t.step("discard sites and assert passes add up per test", () => {
    const site = (line: number, count: number) => ({
      file: "/w/a.py",
      line,
      count,
    });
    const o = read(
      { event: "discards", nodeid: "a.py::t", sites: [site(3, 2)] },
      { event: "discards", nodeid: "a.py::t", sites: [site(4, 0)] },
      { event: "reach", nodeid: "a.py::t", asserts: [site(9, 5)] },
    );
    assert.deepEqual(o.discards.get("a.py::t"), [site(3, 2), site(4, 0)]);
    assert.deepEqual(o.reach.get("a.py::t"), [site(9, 5)]);
  });
  await t.step(
    "a patch is removed only when it says so, in or outside a test",
    () => {
      const o = read(
        {
          event: "patched",
          nodeid: null,
          patches: [{ name: "h.a", file: "/w/x.py", removed: "yes" }],
        },
        {
          event: "patched",
          nodeid: "a.py::t",
          patches: [{ name: "h.b", file: "", removed: true }],
        },
      );
      assert.deepEqual(o.patches, [
        { name: "h.a", file: "/w/x.py", removed: false, nodeId: null },
        { name: "h.b", file: "", removed: true, nodeId: "a.py::t" },
      ]);
    },
  );
  await t.step("a profile load keeps its test, or none outside one", () => {
    const o = read(
      { event: "profile", name: "ci", file: "/w/conftest.py" },
      { event: "profile", name: "dev", file: "/w/a.py", nodeid: "a.py::t" },
    );
    assert.deepEqual(o.profiles, [
      { name: "ci", file: "/w/conftest.py", nodeId: null },
      { name: "dev", file: "/w/a.py", nodeId: "a.py::t" },
    ]);
  });
  await t.step("a finish keeps an integer exit status only", () => {
    const done = read({ event: "finish", exitstatus: 1 });
    assert.equal(done.finished, true);
    assert.equal(done.exitStatus, 1);
    const odd = read({ event: "finish", exitstatus: "1" });
    assert.equal(odd.finished, true);
    assert.equal(odd.exitStatus, null);
    assert.equal(read().finished, false);
  });
  await t.step("an unprobed file keeps its mark", () => {
    const o = read({
      event: "lines",
      files: {
        "a.py": { executable: [2], executed: [], unprobed: true },
        "b.py": { executable: [], executed: [] },
      },
      removed: true,
    });
    assert.deepEqual(o.lines, {
      files: new Map([
        ["a.py", { executable: [2], executed: [], unprobed: true }],
        ["b.py", { executable: [], executed: [] }],
      ]),
      removed: true,
    });
  });
});

Deno.test("parseObservation() refuses a malformed event as a line it cannot read, keeping nothing of it", async (t) => {
  const site = { file: "/w/a.py", line: 3, count: 1 };
  const table: [string, unknown][] = [
    ["a line that is no JSON", "{not json"],
    ["a JSON array", []],
    ["JSON null", null],
    ["an unknown event", { event: "shrug" }],
    ["collected ids that are not a list", {
      event: "collected",
      nodeids: "a.py::t",
    }],
    ["collected ids that are not strings", {
      event: "collected",
      nodeids: ["a.py::t", 3],
    }],
    ["a collection error without text", {
      event: "collect_error",
      nodeid: "a.py",
    }],
    ["a collection error without a collector", {
      event: "collect_error",
      text: "boom",
    }],
    ["a made report of an unknown phase", {
      event: "made",
      nodeid: "a.py::t",
      when: "later",
      outcome: "passed",
    }],
    ["a made report of an unknown outcome", {
      event: "made",
      nodeid: "a.py::t",
      when: "call",
      outcome: "xfailed",
    }],
    ["a made report without a node id", {
      event: "made",
      when: "call",
      outcome: "passed",
    }],
    ["a report without a node id", {
      event: "report",
      when: "call",
      outcome: "passed",
    }],
    ["a report of an unknown outcome", {
      event: "report",
      nodeid: "a.py::t",
      when: "call",
      outcome: "rerun",
    }],
    ["examples that are not integers", {
      event: "examples",
      nodeid: "a.py::t",
      valid: 1.5,
      invalid: 0,
      overrun: 0,
      interesting: 0,
    }],
    ["steps with a negative count", {
      event: "steps",
      nodeid: "a.py::t",
      machines: 1,
      steps: -1,
      longest: 1,
    }],
    ["steps that are not integers", {
      event: "steps",
      nodeid: "a.py::t",
      machines: 1,
      steps: "2",
      longest: 1,
    }],
    ["a seed of an unknown source", {
      event: "seed",
      nodeid: "a.py::t",
      source: "guessed",
    }],
    ["discards without a node id", { event: "discards", sites: [site] }],
    ["discards whose sites are not a list", {
      event: "discards",
      nodeid: "a.py::t",
      sites: site,
    }],
    ["a discard site that is null", {
      event: "discards",
      nodeid: "a.py::t",
      sites: [null],
    }],
    ["a discard site that is not an object", {
      event: "discards",
      nodeid: "a.py::t",
      sites: [3],
    }],
    ["a discard site without a file", {
      event: "discards",
      nodeid: "a.py::t",
      sites: [{ line: 3, count: 1 }],
    }],
    ["a discard site without a line", {
      event: "discards",
      nodeid: "a.py::t",
      sites: [{ file: "/w/a.py", count: 1 }],
    }],
    ["a discard site without a count", {
      event: "discards",
      nodeid: "a.py::t",
      sites: [{ file: "/w/a.py", line: 3 }],
    }],
    ["a discard site with a negative count", {
      event: "discards",
      nodeid: "a.py::t",
      sites: [site, { ...site, count: -1 }],
    }],
    ["asserts reached without a node id", { event: "reach", asserts: [site] }],
    ["patches with a numeric node id", {
      event: "patched",
      nodeid: 3,
      patches: [],
    }],
    ["patches that are not a list", {
      event: "patched",
      nodeid: null,
      patches: {},
    }],
    ["a patch that is null", {
      event: "patched",
      nodeid: null,
      patches: [null],
    }],
    ["a patch that is not an object", {
      event: "patched",
      nodeid: null,
      patches: ["h.a"],
    }],
    ["a patch without a name", {
      event: "patched",
      nodeid: null,
      patches: [{ name: "h.a", file: "" }, { file: "" }],
    }],
    ["a patch without a file", {
      event: "patched",
      nodeid: null,
      patches: [{ name: "h.a" }],
    }],
    ["a profile without a name", { event: "profile", file: "/w/a.py" }],
    ["a profile without a file", { event: "profile", name: "ci" }],
    ["lines whose files are null", {
      event: "lines",
      files: null,
      removed: false,
    }],
    ["lines of a file that is null", {
      event: "lines",
      files: { "a.py": null },
      removed: false,
    }],
    ["lines without executed ones", {
      event: "lines",
      files: { "a.py": { executable: [1] } },
      removed: false,
    }],
    ["lines whose executable ones are not a list", {
      event: "lines",
      files: { "a.py": { executable: 1, executed: [] } },
      removed: false,
    }],
    ["lines with an unprobed mark other than true", {
      event: "lines",
      files: { "a.py": { executable: [1], executed: [], unprobed: false } },
      removed: false,
    }],
  ];
  for (const [label, event] of table) {
    await t.step(label, () => {
      const line = typeof event === "string" ? event : JSON.stringify(event);
      const o = parseObservation([[hello, line]], "t");
      assert.deepEqual(o.problems, [
        `the observer stream has a line pawl cannot read: ${
          JSON.stringify(line)
        }`,
      ]);
      assert.equal(o.collected, null);
      assert.equal(o.lines, undefined);
      assert.equal(
        o.collectErrors.length + o.patches.length + o.profiles.length +
          o.outcomes.size + o.examples.size + o.steps.size + o.seeds.size +
          o.discards.size + o.reach.size,
        0,
      );
    });
  }
  await t.step("only the first 200 characters of the line are quoted", () => {
    const line = "x".repeat(300);
    const o = parseObservation([[hello, line]], "t");
    assert.deepEqual(o.problems, [
      `the observer stream has a line pawl cannot read: "${"x".repeat(200)}"`,
    ]);
  });
});

Deno.test("parseObservation() reads only the first connection, and says who else wrote", async (t) => {
  await t.step("a second connection's lines are counted, never read", () => {
    const o = parseObservation([
      [hello, report("a.py::t", "call", "passed")],
      [hello, report("b.py::t", "call", "failed")],
    ], "t");
    assert.deepEqual([...o.outcomes.keys()], ["a.py::t"]);
    assert.deepEqual(o.problems, [
      "a second process connected to the observer stream and wrote 2 lines",
    ]);
  });
  await t.step("a first connection without the token is named as such", () => {
    const o = parseObservation([[report("a.py::t", "call", "passed")]], "t");
    assert.deepEqual(o.problems, [
      "the first connection to the observer stream did not identify itself with this run's token",
    ]);
  });
  await t.step("an empty first connection is not trusted", () => {
    const o = parseObservation([[]], "t");
    assert.equal(o.hello, false);
    assert.equal(o.problems.length, 1);
  });
});

Deno.test("parseLine() gives a JSON object, and nothing for any other line", async (t) => {
  const table: [string, string, Record<string, unknown> | undefined][] = [
    ["an object", '{"event":"hello"}', { event: "hello" }],
    ["an empty object", "{}", {}],
    ["an array", '[{"event":"hello"}]', undefined],
    ["null", "null", undefined],
    ["a number", "3", undefined],
    ["a string", '"hello"', undefined],
    ["no JSON", "{event", undefined],
    ["nothing", "", undefined],
  ];
  for (const [label, line, expected] of table) {
    await t.step(label, () => assert.deepEqual(parseLine(line), expected));
  }
});

Deno.test("parseObservation() records only the phases and outcomes a report gives", async (t) => {
  await t.step(
    "a passing setup alone gives neither a phase nor an outcome",
    () => {
      const o = parseObservation([[
        hello,
        report("a.py::t", "setup", "passed"),
      ]], "t");
      assert.equal(o.phases.has("a.py::t"), false);
      assert.equal(o.outcomes.has("a.py::t"), false);
    },
  );
  await t.step("a passing setup then a call gives the call's only", () => {
    const o = parseObservation([[
      hello,
      report("a.py::t", "setup", "passed"),
      report("a.py::t", "call", "failed"),
      report("a.py::t", "teardown", "passed"),
    ]], "t");
    assert.deepEqual(o.phases.get("a.py::t"), new Set(["failed"]));
    assert.equal(o.outcomes.get("a.py::t"), "failed");
  });
  await t.step("a report without text leaves no text or tail", () => {
    const o = parseObservation(
      [[hello, report("a.py::t", "call", "failed")]],
      "t",
    );
    assert.equal(o.texts.has("a.py::t"), false);
    assert.equal(o.tails.has("a.py::t"), false);
  });
  await t.step("a text without a tail keeps no tail", () => {
    const o = parseObservation([[
      hello,
      JSON.stringify({
        event: "report",
        nodeid: "a.py::t",
        when: "call",
        outcome: "failed",
        xfail: false,
        text: "boom",
      }),
    ]], "t");
    assert.equal(o.texts.get("a.py::t"), "boom");
    assert.equal(o.tails.has("a.py::t"), false);
  });
  await t.step("counts of zero are counts", () => {
    const o = parseObservation([[
      hello,
      JSON.stringify({
        event: "examples",
        nodeid: "a.py::t",
        valid: 0,
        invalid: 0,
        overrun: 0,
        interesting: 0,
      }),
      steps("a.py::t", 0, 0, 0),
    ]], "t");
    assert.deepEqual(o.problems, []);
    assert.deepEqual(o.examples.get("a.py::t"), {
      valid: 0,
      invalid: 0,
      overrun: 0,
      interesting: 0,
    });
    assert.deepEqual(o.steps.get("a.py::t"), {
      machines: 0,
      steps: 0,
      longest: 0,
    });
  });
});

Deno.test("parseObservation() reads the changed lines the run executed, ascending and once each", () => {
  const o = parseObservation([[
    hello,
    JSON.stringify({
      event: "lines",
      files: { "src/a.py": { executable: [5, 3, 3, 12], executed: [12, 3] } },
      removed: false,
    }),
  ]], "t");
  assert.deepEqual(o.problems, []);
  assert.deepEqual(o.lines, {
    files: new Map([["src/a.py", {
      executable: [3, 5, 12],
      executed: [3, 12],
    }]]),
    removed: false,
  });
});

Deno.test("parseObservation() refuses a malformed or second lines event", async (t) => {
  const lines = (files: unknown, removed: unknown = false) =>
    JSON.stringify({ event: "lines", files, removed });
  const good = lines({ "src/a.py": { executable: [1], executed: [] } });
  const cases: [string, string[]][] = [
    ["a line number of zero", [lines({
      "src/a.py": { executable: [0], executed: [] },
    })]],
    ["a negative line number", [lines({
      "src/a.py": { executable: [2], executed: [-1] },
    })]],
    ["a line number that is no integer", [lines({
      "src/a.py": { executable: [2, 2.5], executed: [] },
    })]],
    ["executed lines that are not a list", [lines({
      "src/a.py": { executable: [2], executed: 2 },
    })]],
    ["no executable lines", [lines({ "src/a.py": { executed: [] } })]],
    ["no removed flag", [JSON.stringify({ event: "lines", files: {} })]],
    ["a removed flag that is no boolean", [lines({}, "no")]],
    ["files as a list", [lines([])]],
    ["files as a string", [lines("src/a.py")]],
    ["files as a number", [lines(3)]],
    ["a second event", [good, good]],
  ];
  for (const [name, events] of cases) {
    await t.step(name, () => {
      const o = parseObservation([[hello, ...events]], "t");
      assert.equal(o.problems.length, 1, name);
      if (events.length === 1) assert.equal(o.lines, undefined);
      else assert.equal(o.lines?.files.size, 1);
    });
  }
});
