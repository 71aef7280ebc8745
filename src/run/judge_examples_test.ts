import assert from "node:assert/strict";
import fc from "fast-check";
import { examplesOf, judgeExamples } from "./judge_examples.ts";
import { type Observation, parseObservation } from "./observation.ts";

const hello = '{"event":"hello","token":"t"}';
const examples = (nodeid: string, valid: number, invalid = 0) =>
  JSON.stringify({
    event: "examples",
    nodeid,
    valid,
    invalid,
    overrun: 0,
    interesting: 0,
  });
const steps = (nodeid: string, longest: number) =>
  JSON.stringify({
    event: "steps",
    nodeid,
    machines: 1,
    steps: longest,
    longest,
  });
const run = (...lines: string[]): Observation =>
  parseObservation([[hello, ...lines]], "t");
const PROPS = [{ id: "p", nodeId: "t.py::test_p" }];
const judged = (head: Observation, oracle: Observation) =>
  judgeExamples(PROPS, { head, oracle, seed: 1 }).map((f) => f.rule);

Deno.test("examplesOf() sums every parametrization of a property's node id and nothing else", async (t) => {
  const table: [string, string[], number | undefined][] = [
    ["the bare node id", [examples("t.py::test_p", 7)], 7],
    [
      "each parametrization is added",
      [examples("t.py::test_p[1]", 30), examples("t.py::test_p[2]", 40)],
      70,
    ],
    [
      "the bare node id and its parametrizations together",
      [examples("t.py::test_p", 5), examples("t.py::test_p[x-y]", 6)],
      11,
    ],
    [
      "a longer name with the same prefix is another test",
      [examples("t.py::test_pq", 9), examples("t.py::test_p_other[1]", 9)],
      undefined,
    ],
    ["no examples at all", [], undefined],
  ];
  for (const [label, lines, valid] of table) {
    await t.step(label, () => {
      assert.equal(examplesOf(run(...lines), "t.py::test_p")?.valid, valid);
    });
  }
  await t.step("the sum is the sum of the parts, whatever they are", () => {
    fc.assert(
      fc.property(
        fc.array(fc.nat({ max: 1000 }), { minLength: 1, maxLength: 6 }),
        (counts) => {
          const o = run(
            ...counts.map((n, i) => examples(`t.py::test_p[${i}]`, n, 1)),
          );
          const total = examplesOf(o, "t.py::test_p");
          assert.equal(total?.valid, counts.reduce((a, b) => a + b, 0));
          assert.equal(total?.invalid, counts.length);
        },
      ),
    );
  });
});

Deno.test("judgeExamples() compares the examples of all a property's parametrizations with the oracle's", async (t) => {
  const oracle = run(
    examples("t.py::test_p[1]", 50),
    examples("t.py::test_p[2]", 50),
  );
  const table: [string, Observation, string[]][] = [
    [
      "every parametrization as strong is clean",
      run(examples("t.py::test_p[1]", 50), examples("t.py::test_p[2]", 50)),
      [],
    ],
    [
      "one parametrization weaker is weaker",
      run(examples("t.py::test_p[1]", 50), examples("t.py::test_p[2]", 10)),
      ["property.examples_not_executed"],
    ],
    [
      "a parametrization dropped is weaker",
      run(examples("t.py::test_p[1]", 50)),
      ["property.examples_not_executed"],
    ],
    [
      "examples moved between parametrizations are as strong",
      run(examples("t.py::test_p[1]", 90), examples("t.py::test_p[2]", 10)),
      [],
    ],
  ];
  for (const [label, head, expected] of table) {
    await t.step(label, () => assert.deepEqual(judged(head, oracle), expected));
  }
  await t.step("an oracle of one valid example holds a head of none", () => {
    assert.deepEqual(
      judged(
        run(examples("t.py::test_p", 0, 5)),
        run(examples("t.py::test_p", 1)),
      ),
      ["property.examples_not_executed"],
    );
  });
});

Deno.test("judgeExamples() rejects state machine runs shorter than the oracle's longest and accepts as long or longer", async (t) => {
  const oracle = run(steps("t.py::test_p", 50));
  const table: [string, Observation, Observation, string[]][] = [
    ["as long is clean", run(steps("t.py::test_p", 50)), oracle, []],
    ["longer is clean", run(steps("t.py::test_p", 80)), oracle, []],
    [
      "one step shorter is weaker",
      run(steps("t.py::test_p", 49)),
      oracle,
      ["property.examples_not_executed"],
    ],
    [
      "no machine run at all is weaker",
      run(),
      oracle,
      ["property.examples_not_executed"],
    ],
    [
      "the longest run counts, not the last one",
      run(steps("t.py::test_p", 50), steps("t.py::test_p", 3)),
      oracle,
      [],
    ],
    [
      "an oracle whose longest run took one step holds a head of none",
      run(steps("t.py::test_p", 0)),
      run(steps("t.py::test_p", 1)),
      ["property.examples_not_executed"],
    ],
    [
      "an oracle that ran no machine judges nothing",
      run(),
      run(steps("t.py::test_p", 0)),
      [],
    ],
  ];
  for (const [label, head, o, expected] of table) {
    await t.step(label, () => assert.deepEqual(judged(head, o), expected));
  }
});

Deno.test("examplesOf() sums every kind of count of a property's parametrizations", () => {
  const counts = (nodeid: string, n: number) =>
    JSON.stringify({
      event: "examples",
      nodeid,
      valid: n,
      invalid: n + 1,
      overrun: n + 2,
      interesting: n + 3,
    });
  assert.deepEqual(
    examplesOf(
      run(counts("t.py::test_p[a]", 1), counts("t.py::test_p[b]", 10)),
      "t.py::test_p",
    ),
    { valid: 11, invalid: 13, overrun: 15, interesting: 17 },
  );
});

Deno.test("judgeExamples() says what the head ran against the oracle, at the property", async (t) => {
  const placed = [{ id: "p", nodeId: "t.py::test_p", path: "t.py", line: 5 }];
  await t.step("fewer valid examples", () => {
    const [f] = judgeExamples(placed, {
      head: run(examples("t.py::test_p", 2, 40)),
      oracle: run(examples("t.py::test_p", 100)),
      seed: 3,
    });
    assert.equal(
      f?.message,
      'Property "p" (t.py::test_p) executed 2 valid Hypothesis examples on seed 3 (40 more were filtered out or invalid), but the base\'s test executes 100 on the same code and seed: the head weakened what the property tries (a settings profile, a narrowed or constant strategy, assume(), explicit-only phases or a settings alias)',
    );
    assert.equal(f?.path, "t.py");
    assert.equal(f?.line, 5);
  });
  await t.step("no examples at all", () => {
    const [f] = judgeExamples(placed, {
      head: run(),
      oracle: run(examples("t.py::test_p", 100)),
      seed: 3,
    });
    assert.match(
      f?.message ?? "",
      /executed 0 valid Hypothesis examples on seed 3 \(it ran no Hypothesis examples at all\), but/,
    );
  });
  await t.step("shorter state machine programs", () => {
    const [f] = judgeExamples(placed, {
      head: run(steps("t.py::test_p", 1)),
      oracle: run(steps("t.py::test_p", 50)),
      seed: 3,
    });
    assert.equal(
      f?.message,
      'Property "p" (t.py::test_p) ran state machine programs of at most 1 step on seed 3, but the base\'s test runs programs of 50 steps on the same code and seed: the head shortened what the machine tries (stateful_step_count, a settings profile or a rule that stops runs early)',
    );
    assert.equal(f?.path, "t.py");
    assert.equal(f?.line, 5);
  });
});
