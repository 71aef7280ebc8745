import assert from "node:assert/strict";
import { crossCheckReport } from "./cross_check_report.ts";
import { judgeExamples } from "./judge_examples.ts";
import { judgeSeedUse } from "./judge_seed_use.ts";
import { parseObservation } from "./observation.ts";

const hello = '{"event":"hello","token":"t"}';
const configure = '{"event":"configure"}';
const report = (id: string, outcome: string, when = "call") =>
  JSON.stringify({ event: "report", nodeid: id, when, outcome, xfail: false });
const examples = (id: string, valid: number, invalid = 0) =>
  JSON.stringify({
    event: "examples",
    nodeid: id,
    valid,
    invalid,
    overrun: 0,
    interesting: 0,
  });
const seed = (id: string, source: string, s: string | null) =>
  JSON.stringify({
    event: "seed",
    nodeid: id,
    source,
    seed: s,
    max_examples: 100,
  });

Deno.test("parseObservation() refuses a stream without this run's token and a second writer", () => {
  assert.equal(
    parseObservation([['{"event":"hello","token":"x"}']], "t").hello,
    false,
  );
  const o = parseObservation(
    [[hello], [hello, report("a.py::t", "passed")]],
    "t",
  );
  assert.ok(o.hello);
  assert.equal(o.outcomes.size, 0);
  assert.match(o.problems[0]!, /second process/);
});

Deno.test("crossCheckReport() rejects every disagreement between the report and the stream", async (t) => {
  const o = parseObservation([[
    hello,
    configure,
    report("t.py::test_a", "passed"),
    report("t.py::test_b", "failed"),
  ]], "t");
  await t.step("agreement is clean", () => {
    assert.deepEqual(
      crossCheckReport(o, [
        { classname: "t", name: "test_a", outcome: "passed" },
        { classname: "t", name: "test_b", outcome: "failed" },
      ], { run: "r" }),
      [],
    );
  });
  const cases = [
    [{ classname: "t", name: "test_a", outcome: "passed" as const }],
    [
      { classname: "t", name: "test_a", outcome: "passed" as const },
      { classname: "t", name: "test_b", outcome: "failed" as const },
      { classname: "t", name: "test_b", outcome: "passed" as const },
    ],
    [
      { classname: "t", name: "test_a", outcome: "passed" as const },
      { classname: "t", name: "test_b", outcome: "failed" as const },
      { classname: "t", name: "test_c", outcome: "passed" as const },
    ],
  ];
  for (const [i, c] of cases.entries()) {
    await t.step(`case ${i}`, () => {
      assert.deepEqual(
        crossCheckReport(o, c, { run: "r" }).map((f) => f.rule),
        ["harness.report_tampered"],
      );
    });
  }
  await t.step("a silent observer", () => {
    const silent = parseObservation([], "t");
    assert.deepEqual(
      crossCheckReport(silent, cases[0]!, { run: "r" }).map((f) => f.rule),
      ["harness.observer_missing"],
    );
  });
});

Deno.test("judgeExamples() rejects fewer valid examples than the oracle and accepts as many or more", () => {
  const props = [{ id: "p", nodeId: "t.py::test_p" }];
  const run = (n: number) =>
    parseObservation([[hello, configure, examples("t.py::test_p", n)]], "t");
  assert.deepEqual(
    judgeExamples(props, { head: run(2), oracle: run(100), seed: 1 }).map((f) =>
      f.rule
    ),
    ["property.examples_not_executed"],
  );
  assert.deepEqual(
    judgeExamples(props, { head: run(100), oracle: run(100), seed: 1 }),
    [],
  );
  assert.deepEqual(
    judgeExamples(props, { head: run(500), oracle: run(100), seed: 1 }),
    [],
  );
  const none = parseObservation([[hello, configure, configure]], "t");
  assert.deepEqual(
    judgeExamples(props, { head: none, oracle: run(100), seed: 1 }).map((f) =>
      f.rule
    ),
    ["property.examples_not_executed"],
  );
  assert.deepEqual(
    judgeExamples(props, { head: none, oracle: none, seed: 1 }),
    [],
  );
});

Deno.test("judgeSeedUse() wants the forced seed and ledger rows with the injected seed and trials", async (t) => {
  const props = [{ id: "p", nodeId: "t.py::test_p" }];
  const base = {
    kind: "fresh" as const,
    seed: 9,
    trials: 200,
    hypothesisSeeded: true,
    expectLedger: false,
    ledger: [],
  };
  await t.step("forced seed", () => {
    const o = parseObservation(
      [[hello, configure, seed("t.py::test_p", "forced", "9")]],
      "t",
    );
    assert.deepEqual(
      judgeSeedUse(props, { ...base, observation: o, baseline: o }),
      [],
    );
  });
  for (
    const [source, s] of [["explicit", "0"], ["derandomize", null], [
      "forced",
      "8",
    ]] as const
  ) {
    await t.step(`${source} ${s}`, () => {
      const o = parseObservation(
        [[hello, configure, seed("t.py::test_p", source, s)]],
        "t",
      );
      const baseline = parseObservation(
        [[hello, configure, seed("t.py::test_p", "forced", "9")]],
        "t",
      );
      assert.deepEqual(
        judgeSeedUse(props, { ...base, observation: o, baseline }).map((f) =>
          f.rule
        ),
        ["seed.not_used"],
      );
      // The base's test did the same: not the pull request's doing.
      if (source === "forced") return;
      assert.deepEqual(
        judgeSeedUse(props, { ...base, observation: o, baseline: o }),
        [],
      );
    });
  }
  const o = parseObservation([[hello, configure, configure]], "t");
  const ledger = (rows: { seed: number; trials: number; ok: boolean }[]) =>
    judgeSeedUse(props, {
      ...base,
      observation: o,
      expectLedger: true,
      ledger: rows,
    }).map((f) => f.rule);
  await t.step("ledger rows", () => {
    assert.deepEqual(ledger([{ seed: 9, trials: 200, ok: true }]), []);
    assert.deepEqual(ledger([{ seed: 9, trials: 3, ok: false }]), []);
    assert.deepEqual(ledger([]), ["seed.not_used"]);
    assert.deepEqual(ledger([{ seed: 9, trials: 5, ok: true }]), [
      "seed.not_used",
    ]);
    assert.deepEqual(ledger([{ seed: 4, trials: 200, ok: true }]), [
      "seed.not_used",
    ]);
  });
});
