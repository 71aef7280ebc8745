import assert from "node:assert/strict";
import { crossCheckReport } from "./cross_check_report.ts";
import { parseObservation } from "./observation.ts";
import type { TestCaseResult } from "./parse_junit.ts";

const hello = '{"event":"hello","token":"t"}';
const configure = '{"event":"configure"}';
const report = (nodeid: string, outcome: string, when = "call") =>
  JSON.stringify({ event: "report", nodeid, when, outcome, xfail: false });
const collectError = (nodeid: string) =>
  JSON.stringify({ event: "collect_error", nodeid, text: "ImportError" });
const passedA: TestCaseResult = {
  classname: "t",
  name: "test_a",
  outcome: "passed",
};
const errorCase = (name: string): TestCaseResult => ({
  classname: "",
  name,
  outcome: "error",
});

const rules = (lines: string[], cases: TestCaseResult[]) =>
  crossCheckReport(parseObservation([lines], "t"), cases, { run: "r" })
    .map((f) => f.rule);

Deno.test("crossCheckReport() trusts no report unless the observer both connected and was configured", async (t) => {
  const table: [string, string[], string[]][] = [
    ["connected and configured is checked", [
      hello,
      configure,
      report("t.py::test_a", "passed"),
    ], []],
    [
      "imported but never configured is a missing observer",
      [hello, report("t.py::test_a", "passed")],
      ["harness.observer_missing"],
    ],
    ["a stream without a hello is a missing observer", [
      configure,
      report("t.py::test_a", "passed"),
    ], [
      "harness.observer_missing",
    ]],
  ];
  for (const [label, lines, expected] of table) {
    await t.step(
      label,
      () => assert.deepEqual(rules(lines, [passedA]), expected),
    );
  }
  await t.step(
    "the finding says the plugin was disabled after being imported",
    () => {
      const [f] = crossCheckReport(
        parseObservation([[hello]], "t"),
        [passedA],
        { run: "r" },
      );
      assert.match(f?.message ?? "", /imported, then disabled/);
    },
  );
});

Deno.test("crossCheckReport() rejects a report that shows fewer collection errors than the run had", async (t) => {
  const stream = [
    hello,
    configure,
    report("t.py::test_a", "passed"),
    collectError("u.py"),
    collectError("v.py"),
  ];
  const table: [string, TestCaseResult[], string[]][] = [
    ["every collection error shown is clean", [
      passedA,
      errorCase("u"),
      errorCase("v"),
    ], []],
    ["one hidden is tampering", [passedA, errorCase("u")], [
      "harness.report_tampered",
    ]],
    ["all hidden is tampering", [passedA], ["harness.report_tampered"]],
  ];
  for (const [label, cases, expected] of table) {
    await t.step(label, () => assert.deepEqual(rules(stream, cases), expected));
  }
  await t.step("the finding counts both", () => {
    const [f] = crossCheckReport(parseObservation([stream], "t"), [passedA], {
      run: "r",
    });
    assert.match(
      f?.message ?? "",
      /2 files failed to collect while the tests ran, the report shows 0/,
    );
  });
});

Deno.test("crossCheckReport() accepts a failure and an error for one test only when the run saw both phases", async (t) => {
  const failedAndErrored: TestCaseResult[] = [
    { classname: "t", name: "test_a", outcome: "failed" },
    { classname: "t", name: "test_a", outcome: "error" },
  ];
  const table: [string, string[], string[]][] = [
    [
      "a failed call and an erroring teardown are two cases, not tampering",
      [
        hello,
        configure,
        report("t.py::test_a", "failed"),
        report("t.py::test_a", "failed", "teardown"),
      ],
      [],
    ],
    [
      "an error the run never saw is tampering",
      [hello, configure, report("t.py::test_a", "failed")],
      ["harness.report_tampered"],
    ],
    [
      "a failure the run never saw is tampering",
      [
        hello,
        configure,
        report("t.py::test_a", "passed"),
        report("t.py::test_a", "failed", "teardown"),
      ],
      ["harness.report_tampered"],
    ],
  ];
  for (const [label, lines, expected] of table) {
    await t.step(
      label,
      () => assert.deepEqual(rules(lines, failedAndErrored), expected),
    );
  }
});

Deno.test("crossCheckReport() lists at most maxListed disagreements and counts the rest", () => {
  const lines = [
    hello,
    configure,
    ...["a", "b", "c"].map((n) => report(`t.py::test_${n}`, "passed")),
  ];
  const [f] = crossCheckReport(parseObservation([lines], "t"), [], {
    run: "r",
    maxListed: 2,
  });
  assert.match(f?.message ?? "", /test_a.*test_b.*; and 1 more$/);
  assert.doesNotMatch(f?.message ?? "", /test_c/);
});
