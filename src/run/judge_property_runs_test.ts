import assert from "node:assert/strict";
import type { Finding } from "../core/finding.ts";
import {
  judgePropertyRuns,
  type JudgePropertyRunsOptions,
  type PropertyRun,
  replaySeedFindings,
} from "./judge_property_runs.ts";
import type { LedgerEvidence } from "./judge_seed_use.ts";
import { parseObservation } from "./observation.ts";
import type { TestCaseResult } from "./parse_junit.ts";

const NODE = "tests/test_p.py::test_p";
const PROPERTY = { id: "p", nodeId: NODE, path: "tests/test_p.py", line: 4 };
const PASSED: TestCaseResult = {
  classname: "tests.test_p",
  name: "test_p",
  outcome: "passed",
};

interface RunShape {
  events?: Record<string, unknown>[];
  cases?: TestCaseResult[] | null;
  reportProblem?: string;
  timedOut?: boolean;
  outputExceeded?: boolean;
  observed?: boolean;
  rows?: LedgerEvidence[];
  workDir?: string;
}

/** A property run whose observer streamed `events` and whose report has `cases`. */
function run(shape: RunShape = {}): PropertyRun {
  const events = shape.events ?? [];
  const cases = shape.cases === undefined ? [PASSED] : shape.cases;
  const reported = cases ?? [];
  return {
    workDir: shape.workDir ?? "/w",
    rows: shape.rows ?? [],
    run: {
      result: {
        code: 0,
        signal: null,
        timedOut: shape.timedOut ?? false,
        outputExceeded: shape.outputExceeded ?? false,
        outputHead: "",
        outputTail: "",
        outputBytes: 0,
      },
      cases,
      ...(shape.reportProblem === undefined
        ? {}
        : { reportProblem: shape.reportProblem }),
      ...(shape.observed === false ? {} : {
        observation: parseObservation([[
          '{"event":"hello","token":"t"}',
          '{"event":"configure"}',
          ...reported.filter((c) => c.classname !== "").map((c) =>
            JSON.stringify({
              event: "report",
              nodeid: `${c.classname.replaceAll(".", "/")}.py::${c.name}`,
              when: "call",
              outcome: c.outcome === "error" ? "failed" : c.outcome,
              xfail: false,
            })
          ),
          ...events.map((e) => JSON.stringify(e)),
        ]], "t"),
      }),
    },
  };
}

const OPTIONS: JudgePropertyRunsOptions = {
  properties: [PROPERTY],
  seed: 7,
  trials: 50,
  hypothesisSeeded: true,
  isTestSide: (path) => path.startsWith("tests/"),
  unchanged: (path) => path === "pkg/same.py",
};

const rules = (findings: readonly Finding[]) => findings.map((f) => f.rule);

const oracleMessage = (oracle: PropertyRun, options = OPTIONS) => {
  const result = judgePropertyRuns(run(), oracle, options);
  assert.equal(result.oracleFailures.length, 1);
  return result.oracleFailures[0]?.finding.message;
};

const failedP = (message?: string): TestCaseResult => ({
  ...PASSED,
  outcome: "failed",
  ...(message === undefined ? {} : { message }),
});

Deno.test("judgePropertyRuns() wants the base's test of each property to pass on the head's code", async (t) => {
  const prefix = `The base's test of property "p" (${NODE}) `;
  const table: [string, RunShape, string][] = [
    [
      "a failure quotes its first line",
      { cases: [failedP("  assert 1 == 2  \nmore")] },
      "failed: assert 1 == 2",
    ],
    ["a failure without a message says only that", {
      cases: [failedP()],
    }, "failed"],
    ["an error says it errored", {
      cases: [{ ...PASSED, outcome: "error", message: "" }],
    }, "errored"],
    ["a skip says it was skipped", {
      cases: [{ ...PASSED, outcome: "skipped" }],
    }, "skipped"],
    ["a test missing from the report was not collected", {
      cases: [],
    }, "was not collected (not in the report)"],
    ["a run without a report says why", {
      cases: null,
      reportProblem: "the report is empty",
    }, "was not collected (the report is empty)"],
    ["a run without a report or a reason says no report", {
      cases: null,
    }, "was not collected (no report)"],
    ["a run at its time limit says so", {
      cases: [PASSED],
      timedOut: true,
    }, "hit its time limit"],
    ["a run over its output cap says so", {
      cases: [PASSED],
      outputExceeded: true,
    }, "flooded its output cap"],
    [
      "a collection error the observer streamed for the file is quoted, first twelve lines",
      {
        cases: [],
        events: [{
          event: "collect_error",
          nodeid: "tests/test_p.py",
          text: [...Array(14).keys()].map((i) => `line ${i}  `).join("\n\n"),
        }],
      },
      `cannot be collected against the head's code (an API the contract relies on may have been removed):\n${
        [...Array(12).keys()].map((i) => `line ${i}`).join("\n")
      }`,
    ],
    [
      "a collection error of the whole session counts for every file",
      {
        cases: [],
        events: [{ event: "collect_error", nodeid: "", text: "boom" }],
      },
      "cannot be collected against the head's code (an API the contract relies on may have been removed):\nboom",
    ],
    [
      "a collection error the report names by module is quoted",
      {
        cases: [{
          classname: "",
          name: "tests.test_p",
          outcome: "error",
          message: "ImportError",
        }],
      },
      "cannot be collected against the head's code (an API the contract relies on may have been removed):\nImportError",
    ],
    [
      "a collection error the report names by path is quoted",
      {
        cases: [{
          classname: "",
          name: "tests/test_p.py",
          outcome: "error",
          message: "ImportError",
        }],
      },
      "cannot be collected against the head's code (an API the contract relies on may have been removed):\nImportError",
    ],
  ];
  for (const [label, shape, why] of table) {
    await t.step(label, () => {
      assert.equal(oracleMessage(run(shape)), `${prefix}${why}`);
    });
  }
  await t.step(
    "another module's collection error in the report is not this property's",
    () => {
      const oracle = run({
        cases: [{
          classname: "",
          name: "tests.test_q",
          outcome: "error",
          message: "ImportError",
        }],
      });
      assert.equal(
        oracleMessage(oracle),
        `${prefix}was not collected (not in the report)`,
      );
    },
  );
  await t.step(
    "a failing test named like its top-level module is a failure, not a collection error",
    () => {
      const top = { id: "t", nodeId: "test_p.py::test_p" };
      const oracle = run({
        cases: [{
          classname: "test_p",
          name: "test_p",
          outcome: "failed",
          message: "assert 1 == 2",
        }],
      });
      assert.equal(
        oracleMessage(oracle, { ...OPTIONS, properties: [top] }),
        `The base's test of property "t" (test_p.py::test_p) failed: assert 1 == 2`,
      );
    },
  );
  await t.step(
    "a parametrized test quotes its failing case, not a passing one",
    () => {
      const oracle = run({
        cases: [
          { ...PASSED, name: "test_p[0]" },
          { ...failedP("assert 0 < -1"), name: "test_p[1]" },
        ],
      });
      assert.equal(oracleMessage(oracle), `${prefix}failed: assert 0 < -1`);
    },
  );
  await t.step(
    "a test under a directory whose name holds .py is found by its module",
    () => {
      const nodeId = "tests/v2.pytest/test_p.py::test_p";
      const result = judgePropertyRuns(
        run(),
        run({ cases: [{ ...PASSED, classname: "tests.v2.pytest.test_p" }] }),
        { ...OPTIONS, properties: [{ id: "p", nodeId }] },
      );
      assert.deepEqual(result.oracleFailures, []);
    },
  );
  await t.step("another file's collection error is not this property's", () => {
    const oracle = run({
      cases: [],
      events: [{
        event: "collect_error",
        nodeid: "tests/test_q.py",
        text: "x",
      }],
    });
    assert.equal(
      oracleMessage(oracle),
      `${prefix}was not collected (not in the report)`,
    );
  });
  await t.step("a passing base test gives nothing", () => {
    const result = judgePropertyRuns(run(), run(), OPTIONS);
    assert.deepEqual(result.oracleFailures, []);
    assert.deepEqual(result.findings, []);
  });
  await t.step("the finding is the oracle's and is among the findings", () => {
    const result = judgePropertyRuns(run(), run({ cases: [failedP()] }), {
      ...OPTIONS,
      properties: [{ id: "q", nodeId: "tests/test_q.py::test_q" }],
      oracleProperties: [PROPERTY],
    });
    const [failure] = result.oracleFailures;
    assert.equal(failure?.property, PROPERTY);
    assert.equal(failure?.outcome, "failed");
    assert.deepEqual(failure?.finding.rule, "property.oracle_failed");
    assert.equal(failure?.finding.path, "tests/test_p.py");
    assert.equal(failure?.finding.line, 4);
    assert.ok(result.findings.includes(failure!.finding));
  });
  await t.step("a property without a path is placed in its test's file", () => {
    const result = judgePropertyRuns(run(), run({ cases: [failedP()] }), {
      ...OPTIONS,
      properties: [{ id: "p", nodeId: NODE }],
    });
    assert.equal(result.oracleFailures[0]?.finding.path, "tests/test_p.py");
  });
  await t.step("a collection error makes the outcome not collected", () => {
    const result = judgePropertyRuns(
      run(),
      run({
        cases: [failedP("x")],
        events: [{ event: "collect_error", nodeid: "", text: "boom" }],
      }),
      OPTIONS,
    );
    assert.equal(result.oracleFailures[0]?.outcome, "not_collected");
  });
  await t.step("a property in a class is found by its class", () => {
    const inClass = { id: "c", nodeId: "tests/test_p.py::TestP::test_p" };
    const cases = [{ ...PASSED, classname: "tests.test_p.TestP" }];
    const result = judgePropertyRuns(run({ cases }), run({ cases }), {
      ...OPTIONS,
      properties: [inClass],
    });
    assert.deepEqual(result.oracleFailures, []);
  });
  await t.step("an error quotes its first line too", () => {
    assert.equal(
      oracleMessage(run({
        cases: [{
          ...PASSED,
          outcome: "error",
          message: "fixture 'db' not found",
        }],
      })),
      `${prefix}errored: fixture 'db' not found`,
    );
  });
  await t.step("no oracle run means no oracle findings", () => {
    const result = judgePropertyRuns(run({ cases: [] }), null, OPTIONS);
    assert.deepEqual(result.oracleFailures, []);
    assert.equal(result.oracle, null);
    assert.equal(result.seedBaseline, null);
    assert.equal(result.expectLedger, false);
  });
});

Deno.test("judgePropertyRuns() gives a failed oracle the reason and detail its failure text shows", async (t) => {
  const reproduce = (id: string) => `pytest '${id}'`;
  const text = "E   assert 1 == 2\n\ntests/test_p.py:5: AssertionError";
  await t.step("the streamed text is preferred to the report's message", () => {
    const oracle = run({
      cases: [failedP("ValueError: no")],
      events: [{
        event: "report",
        nodeid: NODE,
        when: "call",
        outcome: "failed",
        xfail: false,
        text,
        tail: "E   assert 3 == 4\n\ntests/test_p.py:5: KeyError",
      }],
    });
    const [failure] = judgePropertyRuns(run(), oracle, {
      ...OPTIONS,
      oracleReproduce: reproduce,
    }).oracleFailures;
    assert.equal(failure?.reason?.kind, "exception");
    assert.equal(
      failure?.reason?.kind === "exception" && failure.reason.type,
      "AssertionError",
    );
    assert.equal(failure?.finding.failure?.test, NODE);
    assert.equal(failure?.finding.failure?.reproduce, `pytest '${NODE}'`);
    assert.equal(
      failure?.finding.failure?.exception,
      "KeyError: assert 3 == 4",
    );
  });
  await t.step("the report's message serves when nothing was streamed", () => {
    const [failure] = judgePropertyRuns(
      run(),
      run({ cases: [failedP(text)], observed: false }),
      { ...OPTIONS, oracleReproduce: reproduce },
    ).oracleFailures;
    assert.equal(
      failure?.reason?.kind === "exception" && failure.reason.type,
      "AssertionError",
    );
    assert.equal(
      failure?.finding.failure?.exception,
      "AssertionError: assert 1 == 2",
    );
  });
  await t.step("without a reproducing command there is no detail", () => {
    const [failure] = judgePropertyRuns(
      run(),
      run({ cases: [failedP(text)] }),
      OPTIONS,
    ).oracleFailures;
    assert.ok(failure?.reason !== undefined);
    assert.equal(failure?.finding.failure, undefined);
  });
  await t.step(
    "an error carries its reason and detail as a failure does",
    () => {
      const [failure] = judgePropertyRuns(
        run(),
        run({ cases: [{ ...PASSED, outcome: "error", message: text }] }),
        { ...OPTIONS, oracleReproduce: reproduce },
      ).oracleFailures;
      assert.equal(failure?.outcome, "error");
      assert.equal(
        failure?.reason?.kind === "exception" && failure.reason.type,
        "AssertionError",
      );
      assert.equal(failure?.finding.failure?.test, NODE);
    },
  );
  await t.step("a failure without any text has no reason", () => {
    const [failure] = judgePropertyRuns(
      run(),
      run({ cases: [failedP()] }),
      { ...OPTIONS, oracleReproduce: reproduce },
    ).oracleFailures;
    assert.equal(failure?.reason, undefined);
    assert.equal(failure?.finding.failure, undefined);
  });
  await t.step("a skip has no reason, even with a message", () => {
    const [failure] = judgePropertyRuns(
      run(),
      run({ cases: [{ ...PASSED, outcome: "skipped", message: "later" }] }),
      { ...OPTIONS, oracleReproduce: reproduce },
    ).oracleFailures;
    assert.equal(failure?.reason, undefined);
  });
});

Deno.test("judgePropertyRuns() cross-checks each run's report unless the run was cut short", async (t) => {
  const lying: RunShape = { cases: [failedP()], observed: false };
  const tampered = (): RunShape => ({
    cases: [PASSED],
    events: [{
      event: "report",
      nodeid: "tests/test_x.py::test_x",
      when: "call",
      outcome: "passed",
      xfail: false,
    }],
  });
  const table: [string, RunShape, RunShape | null, string[]][] = [
    ["an honest head alone is clean", {}, null, []],
    ["a head whose report disagrees is tampered", tampered(), null, [
      "harness.report_tampered",
    ]],
    ["an oracle whose report disagrees is tampered", {}, tampered(), [
      "harness.report_tampered",
    ]],
    [
      "a head cut at its time limit is not checked",
      {
        ...tampered(),
        timedOut: true,
      },
      null,
      [],
    ],
    [
      "a head over its output cap is not checked",
      {
        ...tampered(),
        outputExceeded: true,
      },
      null,
      [],
    ],
    [
      "a head without a report is not checked",
      {
        ...tampered(),
        cases: null,
      },
      null,
      [],
    ],
    ["a head without an observation is not checked", lying, null, []],
  ];
  for (const [label, head, oracle, expected] of table) {
    await t.step(label, () => {
      const result = judgePropertyRuns(
        run(head),
        oracle === null ? null : run(oracle),
        { ...OPTIONS, hypothesisSeeded: false },
      );
      assert.deepEqual(
        rules(result.findings).filter((r) => r.startsWith("harness.")),
        expected,
      );
    });
  }
  await t.step("the finding names which run disagreed", () => {
    const messages = (head: RunShape, oracle: RunShape) =>
      judgePropertyRuns(run(head), run(oracle), OPTIONS).findings
        .filter((f) => f.rule === "harness.report_tampered")
        .map((f) => f.message);
    const [atHead] = messages(tampered(), {});
    assert.match(atHead ?? "", /of the registered properties' own run does/);
    const [atOracle] = messages({}, tampered());
    assert.match(atOracle ?? "", /of the base's oracle run does/);
  });
});

Deno.test("judgePropertyRuns() flags a settings profile loaded from changed code outside the test side", async (t) => {
  const load = (file: string, name = "ci") => ({
    event: "profile",
    name,
    file,
  });
  const table: [string, string, string[]][] = [
    ["changed code of the package", "/w/pkg/conf.py", ["pkg/conf.py"]],
    ["a test-side file", "/w/tests/conftest.py", []],
    ["an unchanged file", "/w/pkg/same.py", []],
    ["a file outside the copy", "/usr/lib/site.py", []],
    [
      "a file of a sibling directory named like the copy",
      "/w2/pkg/conf.py",
      [],
    ],
  ];
  for (const [label, file, expected] of table) {
    await t.step(label, () => {
      const result = judgePropertyRuns(
        run({ events: [load(file)], workDir: "/w/" }),
        null,
        OPTIONS,
      );
      assert.deepEqual(
        result.findings.map((f) => f.path),
        expected,
      );
    });
  }
  await t.step("a copy's path given with several trailing slashes", () => {
    const result = judgePropertyRuns(
      run({ events: [load("/w/pkg/conf.py")], workDir: "/w//" }),
      null,
      OPTIONS,
    );
    assert.deepEqual(result.findings.map((f) => f.path), ["pkg/conf.py"]);
  });
  await t.step("one finding per file, naming the profile", () => {
    const result = judgePropertyRuns(
      run({
        events: [load("/w/pkg/conf.py", "fast"), load("/w/pkg/conf.py")],
      }),
      run({ events: [load("/w/pkg/other.py")] }),
      OPTIONS,
    );
    assert.deepEqual(rules(result.findings), [
      "harness.hypothesis_reconfigured",
      "harness.hypothesis_reconfigured",
    ]);
    assert.equal(
      result.findings[0]?.message,
      '"pkg/conf.py" loads the Hypothesis settings profile "fast" while the tests run: code outside the test side decides how many examples every property tries',
    );
    assert.equal(result.findings[1]?.path, "pkg/other.py");
  });
});

Deno.test("judgePropertyRuns() compares example counts only when both runs were observed", async (t) => {
  const examples = (valid: number) => ({
    event: "examples",
    nodeid: NODE,
    valid,
    invalid: 0,
    overrun: 0,
    interesting: 0,
  });
  const table: [string, RunShape, RunShape, string[]][] = [
    ["fewer at head", { events: [examples(2)] }, {
      events: [examples(100)],
    }, ["property.examples_not_executed"]],
    ["as many at head", { events: [examples(100)] }, {
      events: [examples(100)],
    }, []],
    [
      "an unobserved head",
      { observed: false },
      { events: [examples(100)] },
      [],
    ],
  ];
  for (const [label, head, oracle, expected] of table) {
    await t.step(label, () => {
      const result = judgePropertyRuns(run(head), run(oracle), {
        ...OPTIONS,
        hypothesisSeeded: false,
      });
      assert.deepEqual(rules(result.findings), expected);
    });
  }
  await t.step("the oracle's properties are the ones compared", () => {
    const result = judgePropertyRuns(
      run({ events: [examples(2)] }),
      run({ events: [examples(100)] }),
      { ...OPTIONS, hypothesisSeeded: false, oracleProperties: [] },
    );
    assert.deepEqual(rules(result.findings), []);
  });
});

Deno.test("judgePropertyRuns() judges the head's seed use against the base's oracle", async (t) => {
  const forced = (seed: string) => ({
    event: "seed",
    nodeid: NODE,
    source: "forced",
    seed,
  });
  const row = (trials: number): LedgerEvidence => ({
    seed: 7,
    trials,
    ok: true,
  });
  await t.step("a head that ignores the forced seed the base used", () => {
    const result = judgePropertyRuns(
      run({ events: [forced("9")] }),
      run({ events: [forced("7")] }),
      OPTIONS,
    );
    assert.deepEqual(rules(result.findings), ["seed.not_used"]);
    assert.match(result.findings[0]?.message ?? "", /this run's fresh seed 7/);
    assert.equal(result.seedBaseline, result.oracle?.observation);
  });
  const table: [string, RunShape, RunShape, string[]][] = [
    ["a head on the forced seed is clean", { events: [forced("7")] }, {
      events: [forced("7")],
    }, []],
    [
      "a head cut at its time limit is not judged",
      {
        events: [forced("9")],
        timedOut: true,
      },
      { events: [forced("7")] },
      [],
    ],
    [
      "a head over its output cap is not judged",
      {
        events: [forced("9")],
        outputExceeded: true,
      },
      { events: [forced("7")] },
      [],
    ],
    [
      "an oracle cut at its time limit is no baseline",
      {
        events: [forced("9")],
      },
      { events: [forced("7")], timedOut: true },
      [],
    ],
    [
      "an oracle over its output cap is no baseline",
      {
        events: [forced("9")],
      },
      { events: [forced("7")], outputExceeded: true },
      [],
    ],
  ];
  for (const [label, head, oracle, expected] of table) {
    await t.step(label, () => {
      const result = judgePropertyRuns(run(head), run(oracle), OPTIONS);
      assert.deepEqual(
        rules(result.findings).filter((r) => r.startsWith("seed.")),
        expected,
      );
    });
  }
  await t.step("an unobserved head is not judged", () => {
    const result = judgePropertyRuns(
      run({ observed: false }),
      run({ events: [forced("7")], rows: [row(50)] }),
      OPTIONS,
    );
    assert.equal(result.expectLedger, true);
    assert.deepEqual(rules(result.findings), []);
  });
  await t.step("an oracle cut short gives no baseline", () => {
    const result = judgePropertyRuns(
      run(),
      run({ timedOut: true, rows: [row(50)] }),
      OPTIONS,
    );
    assert.equal(result.seedBaseline, null);
    assert.equal(result.expectLedger, false);
  });
  const ledger: [
    string,
    LedgerEvidence[],
    LedgerEvidence[],
    boolean,
    string[],
  ][] = [
    [
      "a base that writes proper rows expects them at head",
      [row(50)],
      [
        row(50),
      ],
      true,
      [],
    ],
    ["and a head without rows gives no evidence", [row(50)], [], true, [
      "seed.not_used",
    ]],
    ["a base that writes no rows expects none", [], [], false, []],
    [
      "a base whose rows lack the injected trials expects none",
      [row(3)],
      [
        row(3),
      ],
      false,
      [],
    ],
  ];
  for (const [label, atBase, atHead, expect, expected] of ledger) {
    await t.step(label, () => {
      const result = judgePropertyRuns(
        run({ rows: atHead }),
        run({ rows: atBase }),
        { ...OPTIONS, hypothesisSeeded: false },
      );
      assert.equal(result.expectLedger, expect);
      assert.deepEqual(rules(result.findings), expected);
    });
  }
  await t.step(
    "a base without rows expects none, even with no property to judge",
    () => {
      const result = judgePropertyRuns(run(), run(), {
        ...OPTIONS,
        oracleProperties: [],
      });
      assert.equal(result.expectLedger, false);
    },
  );
  await t.step("the base's rows are judged as if no seed were forced", () => {
    const result = judgePropertyRuns(
      run({ rows: [], events: [forced("7")] }),
      run({ rows: [row(50)], events: [forced("9")] }),
      OPTIONS,
    );
    assert.equal(result.expectLedger, true);
  });
});

Deno.test("replaySeedFindings() judges a frozen seed's replay unless it was cut short", async (t) => {
  const replay = {
    id: "p",
    nodeId: NODE,
    seed: 11,
    trials: 20,
    hypothesisSeeded: false,
    expectLedger: true,
    baseline: null,
  };
  const table: [string, RunShape, LedgerEvidence[], string[]][] = [
    ["rows with the frozen seed and trials are evidence", {}, [{
      seed: 11,
      trials: 20,
      ok: true,
    }], []],
    ["no rows are no evidence", {}, [], ["seed.not_used"]],
    ["a replay at its time limit is not judged", { timedOut: true }, [], []],
    [
      "a replay over its output cap is not judged",
      {
        outputExceeded: true,
      },
      [],
      [],
    ],
    ["an unobserved replay is not judged", { observed: false }, [], []],
  ];
  for (const [label, shape, rows, expected] of table) {
    await t.step(label, () => {
      assert.deepEqual(
        rules(replaySeedFindings(run(shape).run, rows, replay)),
        expected,
      );
    });
  }
  await t.step("a replay whose report disagrees is tampered", () => {
    const tampered = { ...run().run, cases: [] };
    const rows = [{ seed: 11, trials: 20, ok: true }];
    const findings = replaySeedFindings(tampered, rows, replay);
    assert.deepEqual(rules(findings), ["harness.report_tampered"]);
    assert.match(findings[0]?.message ?? "", /of the replay of frozen seed 11/);
  });
  await t.step("the finding names the replay and the property's file", () => {
    const [f] = replaySeedFindings(run().run, [], replay);
    assert.equal(f?.path, "tests/test_p.py");
    assert.match(f?.message ?? "", /frozen seed 11 with 20 trials/);
  });
  await t.step("the replay is held to the baseline's forced seed", () => {
    const seeded = (seed: string) =>
      run({
        events: [{ event: "seed", nodeid: NODE, source: "forced", seed }],
      }).run;
    const baseline = seeded("11").observation ?? null;
    const judged = (seed: string) =>
      rules(replaySeedFindings(seeded(seed), [], {
        ...replay,
        expectLedger: false,
        hypothesisSeeded: true,
        baseline,
      }));
    assert.deepEqual(judged("11"), []);
    assert.deepEqual(judged("12"), ["seed.not_used"]);
    assert.deepEqual(
      rules(replaySeedFindings(seeded("12"), [], {
        ...replay,
        expectLedger: false,
        hypothesisSeeded: true,
      })),
      [],
    );
  });
});
