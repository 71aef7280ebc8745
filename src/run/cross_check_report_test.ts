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
  const table: [string, string[], string[], TestCaseResult[]?][] = [
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
      "a third outcome beside them is tampering",
      [
        hello,
        configure,
        report("t.py::test_a", "failed"),
        report("t.py::test_a", "failed", "teardown"),
      ],
      ["harness.report_tampered"],
      [{ classname: "t", name: "test_a", outcome: "passed" }],
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
  for (const [label, lines, expected, more = []] of table) {
    await t.step(
      label,
      () =>
        assert.deepEqual(
          rules(lines, [...failedAndErrored, ...more]),
          expected,
        ),
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

Deno.test("crossCheckReport() names each disagreement, tests in node id order", async (t) => {
  const made = (nodeid: string, outcome: string) =>
    JSON.stringify({ event: "made", nodeid, when: "call", outcome });
  const message = (lines: string[], cases: TestCaseResult[]) => {
    const found = crossCheckReport(parseObservation([lines], "t"), cases, {
      run: "the suite",
    });
    assert.equal(found.length, 1);
    assert.equal(found[0]?.rule, "harness.report_tampered");
    const prefix =
      "The JUnit report of the suite does not match what pawl's observer saw while the tests ran: ";
    assert.ok(found[0]?.message.startsWith(prefix), found[0]?.message);
    return found[0]?.message.slice(prefix.length);
  };
  const table: [string, string[], TestCaseResult[], string][] = [
    [
      "a test that ran but is missing from the report",
      [hello, configure, report("t.py::test_b", "failed")],
      [],
      '"t.py::test_b" ran (failed) but is missing from the report',
    ],
    [
      "a test the report gives two outcomes",
      [hello, configure, report("t.py::test_a", "passed")],
      [passedA, { ...passedA, outcome: "skipped" }],
      'the report gives "t.py::test_a" 2 different outcomes (passed, skipped)',
    ],
    [
      "a test the report gives two outcomes, named in order whatever order the report gives them",
      [hello, configure, report("t.py::test_a", "passed")],
      [{ ...passedA, outcome: "skipped" }, passedA],
      'the report gives "t.py::test_a" 2 different outcomes (passed, skipped)',
    ],
    [
      "a test whose reported outcome is not the one it had",
      [hello, configure, report("t.py::test_a", "failed")],
      [passedA],
      'the report says "t.py::test_a" passed, but it failed while the tests ran',
    ],
    [
      "a test the report lists that never ran",
      [hello, configure],
      [passedA],
      'the report lists "t" "test_a" (passed), which never ran',
    ],
    [
      "a rewritten outcome",
      [
        hello,
        configure,
        made("t.py::test_a", "failed"),
        report("t.py::test_a", "passed"),
      ],
      [passedA],
      'the call report of "t.py::test_a" was made "failed" and logged "passed" (a hook rewrote the outcome)',
    ],
    [
      "a stream problem first, then the tests in node id order",
      [
        hello,
        configure,
        "garbage",
        report("t.py::test_c", "passed"),
        report("t.py::test_b", "passed"),
      ],
      [
        { classname: "t", name: "test_z", outcome: "passed" },
        { classname: "t", name: "test_y", outcome: "passed" },
      ],
      'the observer stream has a line pawl cannot read: "garbage"; "t.py::test_b" ran (passed) but is missing from the report; "t.py::test_c" ran (passed) but is missing from the report; the report lists "t" "test_y" (passed), which never ran; the report lists "t" "test_z" (passed), which never ran',
    ],
  ];
  for (const [label, lines, cases, expected] of table) {
    await t.step(label, () => assert.equal(message(lines, cases), expected));
  }
  await t.step("a test reported under its address agrees", () => {
    assert.deepEqual(
      rules([hello, configure, report("t.py::test_a", "passed")], [passedA]),
      [],
    );
  });
  await t.step("as many collection errors as the run had agree", () => {
    assert.deepEqual(
      rules([hello, configure, collectError("u.py")], [errorCase("u")]),
      [],
    );
  });
  await t.step("twenty disagreements are listed whole by default", () => {
    const names = [...Array(21).keys()].map((i) =>
      `t.py::test_${String(i).padStart(2, "0")}`
    );
    const twenty = message(
      [hello, configure, ...names.slice(0, 20).map((n) => report(n, "passed"))],
      [],
    );
    assert.doesNotMatch(twenty ?? "", /more$/);
    const more = message(
      [hello, configure, ...names.map((n) => report(n, "passed"))],
      [],
    );
    assert.match(more ?? "", /test_19.*; and 1 more$/);
  });
});

Deno.test("crossCheckReport() says why it takes the observer for missing", async (t) => {
  const table: [string, string[][], string][] = [
    ["nothing connected", [], "nothing connected to its stream"],
    [
      "the stream's first problem",
      [['{"event":"hello","token":"x"}']],
      "the first connection to the observer stream did not identify itself with this run's token",
    ],
    [
      "imported but not configured",
      [[hello]],
      "it was imported, then disabled before the session began",
    ],
  ];
  for (const [label, connections, why] of table) {
    await t.step(label, () => {
      const [f] = crossCheckReport(
        parseObservation(connections, "t"),
        [passedA, errorCase("u")],
        { run: "the suite" },
      );
      assert.equal(
        f?.message,
        `pawl's observer plugin did not report from the suite although the run left a JUnit report with 2 cases: ${why}; the plugin was disabled (e.g. "-p no:…" in addopts), shadowed or cut off, so the report cannot be trusted`,
      );
    });
  }
});
