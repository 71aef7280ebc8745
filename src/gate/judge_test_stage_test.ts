import assert from "node:assert/strict";
import type { Tree } from "../git/git.ts";
import { BaseProblemError } from "../run/check_base_collection.ts";
import { parseObservation } from "../run/observation.ts";
import type { TestCaseResult } from "../run/parse_junit.ts";
import type { PytestRun } from "../run/run_pytest.ts";
import type { SuiteOutcome } from "../run/run_suite.ts";
import { DEFAULT_SETTINGS } from "../settings/settings.ts";
import {
  calmRerunNeeded,
  headFailures,
  judgeTestStage,
  type StageJudgeInput,
} from "./judge_test_stage.ts";
import type { LocatedProperty } from "./locate_properties.ts";
import { planTestRuns } from "./plan_test_runs.ts";
import type { StageResult } from "./stage_plan.ts";

const PROP: LocatedProperty = {
  id: "p",
  module: "tests.test_p",
  name: "test_p",
  layout: "000",
  file: "tests/test_p.py",
  line: 3,
  nodeId: "tests/test_p.py::test_p",
};

const TREE: Tree = new Map([[
  "tests/test_p.py",
  { path: "tests/test_p.py", kind: "file", oid: "a", mode: "100644", size: 1 },
]]) as unknown as Tree;

const INPUT: StageJudgeInput = {
  commits: {
    base: "b".repeat(40),
    head: "h".repeat(40),
    baseTree: TREE,
    headTree: TREE,
  },
  settings: DEFAULT_SETTINGS,
  runs: planTestRuns(DEFAULT_SETTINGS, [], { seed: 7 }),
  located: [PROP],
  resolved: [PROP],
  atBase: [PROP],
  oracle: { isTestSide: (path) => path.startsWith("tests/") },
  rewrites: [],
  ts: 0,
  workRoot: "/w",
};

const PASSED: TestCaseResult = {
  classname: "tests.test_p",
  name: "test_p",
  outcome: "passed",
};
const FAILED: TestCaseResult = {
  ...PASSED,
  outcome: "failed",
  message: "AssertionError: assert 1 == 3",
};

function suite(cases: TestCaseResult[], reported = true): StageResult {
  const failed = cases.filter((c) => c.outcome === "failed").length;
  return {
    kind: "suite",
    lane: false,
    suite: {
      findings: [],
      cases,
      reported,
      summary: {
        total: cases.length,
        passed: cases.length - failed,
        failed,
        errors: 0,
        skipped: 0,
        xfailed: 0,
      },
      reruns: [],
      unfrozenFailures: failed > 0 ? [PROP.nodeId as string] : [],
    } satisfies SuiteOutcome,
  };
}

function pytest(cases: TestCaseResult[], lane = false): StageResult {
  const run: PytestRun = {
    result: {
      code: 0,
      signal: null,
      timedOut: false,
      outputExceeded: false,
      outputHead: "",
      outputTail: "",
      outputBytes: 0,
    },
    cases,
  };
  return { kind: "pytest", run, workDir: "/w/work-2", rows: [], lane };
}

Deno.test("judgeTestStage() judges the properties from the calm runs when the runs beside the suite were repeated", () => {
  const beside = new Map([
    ["suite", suite([PASSED])],
    ["alone", pytest([FAILED], true)],
  ]);
  assert.equal(calmRerunNeeded(beside, INPUT), true);
  // Not beside anything: never repeated.
  assert.equal(
    calmRerunNeeded(new Map([...beside, ["alone", pytest([FAILED])]]), INPUT),
    false,
  );
  // The calm runs are made one after another: the answer holds for the
  // second once the first was made.
  assert.equal(
    calmRerunNeeded(
      new Map([...beside, ["calm-alone", pytest([PASSED])]]),
      INPUT,
    ),
    true,
  );
  const before = judgeTestStage(beside, INPUT);
  assert.deepEqual(before.findings.map((f) => f.rule), ["property.not_passed"]);
  const calm = judgeTestStage(
    new Map([...beside, ["calm-alone", pytest([PASSED])]]),
    INPUT,
  );
  assert.deepEqual(calm.findings, []);
  assert.deepEqual(calm.report.properties, [
    { layout: "000", id: "p", outcome: "passed" },
  ]);
});

Deno.test("judgeTestStage() attributes a failure the base shares to the base, and cannot decide when nothing else blocks", async (t) => {
  const failing = new Map([
    ["suite", suite([FAILED])],
    ["alone", pytest([FAILED])],
  ]);
  assert.deepEqual(
    headFailures(failing, INPUT).map((f) => [f.nodeId, f.outcome]),
    [
      [PROP.nodeId, "failed"],
      [PROP.nodeId, "failed"],
    ],
  );
  await t.step("the base passes it: the pull request's", () => {
    const judged = judgeTestStage(
      new Map([...failing, ["failures-at-base", pytest([PASSED])]]),
      INPUT,
    );
    assert.deepEqual(
      judged.findings.filter((f) => f.blocking).map((f) => f.rule).sort(),
      ["property.not_passed"],
    );
  });
  await t.step("the base fails it the same way: could not decide", () => {
    assert.throws(
      () =>
        judgeTestStage(
          new Map([...failing, ["failures-at-base", pytest([FAILED])]]),
          INPUT,
        ),
      (error) =>
        error instanceof BaseProblemError &&
        error.message.includes(PROP.nodeId as string),
    );
  });
  await t.step("never repeated there: the pull request's", () => {
    assert.ok(judgeTestStage(failing, INPUT).findings.some((f) => f.blocking));
  });
});

Deno.test("judgeTestStage() blames a missing observer on the pull request once the base's tree loads it", () => {
  const unreported = new Map([["suite", suite([], false)]]);
  const rules = (results: Map<string, StageResult>) =>
    judgeTestStage(results, INPUT).findings.map((f) => f.rule);
  assert.ok(!rules(unreported).includes("harness.observer_missing"));
  assert.ok(
    rules(
      new Map([...unreported, [
        "observer-at-base",
        { kind: "checked", lane: false },
      ]]),
    ).includes("harness.observer_missing"),
  );
});

/** A passing property run in `workDir` whose observer saw the code at `site` discard `count` examples. */
function observed(workDir: string, count: number, site: string): StageResult {
  const made = pytest([PASSED]);
  if (made.kind !== "pytest") throw new Error("unreachable");
  const lines = [
    '{"event":"hello","token":"t"}',
    `{"event":"examples","nodeid":"${PROP.nodeId}","valid":100,"invalid":${count},"overrun":0,"interesting":0}`,
    ...(count === 0 ? [] : [
      `{"event":"discards","nodeid":"${PROP.nodeId}","sites":[{"file":"${workDir}/${site}","line":5,"count":${count}}]}`,
    ]),
  ];
  return {
    ...made,
    workDir,
    run: { ...made.run, observation: parseObservation([lines], "t") },
  };
}

Deno.test("judgeTestStage() compares the base's tests on the base's code with the oracle's run, or the properties' own when there is none", () => {
  const base = observed("/w/work-3", 0, "");
  const discarding = observed("/w/work-2", 40, "src/p.py");
  const clean = observed("/w/work-1", 0, "");
  // The other checks of these sketched streams are not this test's.
  const rules = (results: [string, StageResult][]) =>
    judgeTestStage(new Map([["suite", suite([PASSED])], ...results]), INPUT)
      .findings.map((f) => f.rule).filter((r) => r.includes("_by_code"));
  assert.deepEqual(
    rules([["alone", discarding], ["code-at-base", base]]),
    ["property.examples_discarded_by_code"],
  );
  assert.deepEqual(
    rules([["alone", discarding], ["oracle", clean], ["code-at-base", base]]),
    [],
  );
  assert.deepEqual(
    rules([["alone", clean], ["oracle", discarding], ["code-at-base", base]]),
    ["property.examples_discarded_by_code"],
  );
  // Without the base's code's run nothing is compared.
  assert.deepEqual(rules([["alone", discarding]]), []);
});
