import assert from "node:assert/strict";
import { finding } from "../core/finding.ts";
import type { TestPlan } from "../layouts/dialect.ts";
import type { Observation } from "../run/observation.ts";
import type { SuiteOutcome } from "../run/run_suite.ts";
import { DEFAULT_SETTINGS } from "../settings/settings.ts";
import type { LocatedProperty } from "./locate_properties.ts";
import { planTestRuns } from "./plan_test_runs.ts";
import { planTestStage, type PlanTestStageInput } from "./plan_test_stage.ts";
import type { StageResult, StageResults } from "./stage_plan.ts";

const EMPTY: TestPlan = {
  properties: [],
  reruns: [],
  deselect: [],
  replays: [],
  nonBlocking: [],
};

const PROP: LocatedProperty = {
  id: "p",
  module: "tests.test_p",
  name: "test_p",
  layout: "000",
  file: "tests/test_p.py",
  line: 3,
  nodeId: "tests/test_p.py::test_p",
};

const RUNS = planTestRuns(DEFAULT_SETTINGS, [{
  layout: "000",
  plan: {
    ...EMPTY,
    replays: [{ id: "f", test: PROP.nodeId as string, seed: 9, witness: "" }],
  },
}], { seed: 7 });

function input(extra: Partial<PlanTestStageInput> = {}): PlanTestStageInput {
  return {
    properties: [PROP],
    atBase: [PROP],
    oracleDiffers: true,
    observed: true,
    staticReject: false,
    mutation: false,
    base: "b".repeat(40),
    baseHas: () => true,
    calmRerun: () => true,
    failures: () => [PROP.nodeId as string],
    isolation: { tier: "uid", network: "isolated" },
    ...extra,
  };
}

function suite(
  extra: Partial<SuiteOutcome> = {},
  hello = true,
): StageResult {
  return {
    kind: "suite",
    lane: false,
    suite: {
      findings: [],
      cases: [],
      reported: true,
      summary: {
        total: 0,
        passed: 0,
        failed: 0,
        errors: 0,
        skipped: 0,
        xfailed: 0,
      },
      reruns: [],
      ...extra,
      ...(hello ? { observation: { hello } as unknown as Observation } : {}),
    },
  };
}

/** The ids of the runs `results` would make, in order. */
function running(
  plan: ReturnType<typeof planTestStage>,
  results: StageResults,
): string[] {
  return plan.filter((r) => r.when?.(results) ?? true).map((r) => r.id);
}

Deno.test("planTestStage() plans the suite, the properties beside it, the repeats their results call for, and the replays", () => {
  const plan = planTestStage(RUNS, input());
  assert.deepEqual(plan.map((r) => r.id), [
    "suite",
    "observer-at-base",
    "suite-at-base",
    "collection-at-base",
    "alone",
    "oracle",
    "calm-alone",
    "calm-oracle",
    "failures-at-base",
    "replay-1",
  ]);
  // Only the properties' first runs may go beside the suite.
  assert.deepEqual(plan.filter((r) => r.spare).map((r) => r.id), [
    "alone",
    "oracle",
  ]);
  // The planned copies, the first ones exported ahead.
  assert.deepEqual(
    plan.flatMap((r) => r.copy === undefined ? [] : [[r.id, r.copy, r.ahead]]),
    [
      ["suite", "work-1", true],
      ["alone", "work-2", true],
      ["oracle", "work-3", true],
      ["replay-1", "work-4", undefined],
    ],
  );
});

Deno.test("planTestStage() makes each follow-up run only when the earlier results call for it", async (t) => {
  const unreported = suite({ reported: false });
  const unobserved = suite({}, false);
  const collection = suite({
    findings: [
      finding("tests.collection_error", "cannot collect", {
        path: "tests/test_x.py",
      }),
    ],
  });
  const table: {
    name: string;
    input?: Partial<PlanTestStageInput>;
    results: [string, StageResult][];
    runs: string[];
  }[] = [
    {
      name:
        "a suite that reported: the properties, their repeats, the failures at the base",
      results: [["suite", suite()]],
      runs: [
        "suite",
        "alone",
        "oracle",
        "calm-alone",
        "calm-oracle",
        "failures-at-base",
        "replay-1",
      ],
    },
    {
      name:
        "no report: the suite again at the base, and only the replays after",
      results: [["suite", unreported]],
      runs: ["suite", "suite-at-base", "replay-1"],
    },
    {
      name: "the observer never loaded: loaded at the base",
      results: [["suite", { ...unobserved }]],
      runs: [
        "suite",
        "observer-at-base",
        "alone",
        "oracle",
        "calm-alone",
        "calm-oracle",
        "failures-at-base",
        "replay-1",
      ],
    },
    {
      name: "a collection error of a file the base has: collected at the base",
      input: { calmRerun: () => false, failures: () => [] },
      results: [["suite", collection]],
      runs: ["suite", "collection-at-base", "alone", "oracle", "replay-1"],
    },
    {
      name: "a static reject: nothing is repeated at the base",
      input: { staticReject: true, calmRerun: () => false },
      results: [["suite", unreported]],
      runs: ["suite", "replay-1"],
    },
  ];
  for (const row of table) {
    await t.step(row.name, () => {
      const plan = planTestStage(RUNS, input(row.input));
      assert.deepEqual(running(plan, new Map(row.results)), row.runs);
    });
  }
});

Deno.test("planTestStage() runs the base's oracle only when its tree differs and the base has a property's test", () => {
  for (const extra of [{ oracleDiffers: false }, { atBase: [] }]) {
    const ids = planTestStage(RUNS, input(extra)).map((r) => r.id);
    assert.ok(!ids.includes("oracle") && !ids.includes("calm-oracle"));
    assert.ok(ids.includes("alone"));
  }
  const none = planTestStage(RUNS, input({ properties: [], atBase: [] }));
  assert.ok(!none.some((r) => r.id.includes("alone")));
  const mutation = planTestStage(RUNS, input({ mutation: true }));
  assert.equal(
    mutation.findIndex((r) => r.id === "mutation"),
    mutation.findIndex((r) => r.id === "failures-at-base") - 1,
  );
});

Deno.test("planTestStage() runs the base's tests on the base's code only when the code under test changed and nothing already rejects", async (t) => {
  const table: {
    name: string;
    extra: Partial<PlanTestStageInput>;
    planned: boolean;
  }[] = [
    { name: "the code changed", extra: { codeChanged: true }, planned: true },
    {
      name: "the code changed and the test side is the base's",
      extra: { codeChanged: true, oracleDiffers: false },
      planned: true,
    },
    { name: "only the test side changed", extra: {}, planned: false },
    {
      name: "a static rule already rejects",
      extra: { codeChanged: true, staticReject: true },
      planned: false,
    },
    {
      name: "the base has none of the properties' tests",
      extra: { codeChanged: true, atBase: [] },
      planned: false,
    },
    {
      name: "no observer watches the runs",
      extra: { codeChanged: true, observed: false },
      planned: false,
    },
  ];
  for (const row of table) {
    await t.step(row.name, () => {
      const plan = planTestStage(RUNS, input(row.extra));
      const run = plan.find((r) => r.id === "code-at-base");
      assert.equal(run !== undefined, row.planned);
      // The asserts' passes are counted on the runs compared, and only then.
      for (const r of plan) {
        const compared = /^(calm-)?(alone|oracle)$|^code-at-base$/.test(r.id);
        assert.equal(r.countAsserts === true, compared && row.planned, r.id);
      }
      if (run === undefined) return;
      assert.equal(run.tree, "base");
      assert.equal(run.spare, true);
      assert.deepEqual(run.select, [PROP.nodeId]);
      // The same command, environment and seed as the properties' own run.
      assert.equal(run.run, RUNS.alone);
      assert.equal(run.when?.(new Map([["suite", suite()]])), true);
      assert.equal(
        run.when?.(new Map([["suite", suite({ reported: false })]])),
        false,
      );
    });
  }
});

Deno.test("planTestStage() records and replays the calls into the code only when asked, and asks the base only about a difference", async (t) => {
  const recorded = (calls: number): StageResult => ({
    kind: "calls-recorded",
    lane: false,
    recording: {
      roots: [],
      importRan: [],
      complete: true,
      calls: Array.from({ length: calls }, () => ({
        fn: ["m", "f"] as const,
        at: null,
        args: "",
        shown: null,
        out: null,
        ran: [],
      })),
    },
  });
  const quiet = { calmRerun: () => false, failures: () => [] };
  const calls = (ids: string[]) => ids.filter((id) => id.startsWith("calls-"));
  const table: {
    name: string;
    input: Partial<PlanTestStageInput>;
    results: [string, StageResult][];
    runs: string[];
  }[] = [
    {
      name: "not asked (no code changed, or a static reject): none",
      input: { ...quiet },
      results: [["suite", suite()], ["calls-record", recorded(2)]],
      runs: [],
    },
    {
      name: "asked, nothing recorded: the record alone",
      input: { ...quiet, recordCalls: true },
      results: [["suite", suite()], ["calls-record", recorded(0)]],
      runs: ["calls-record"],
    },
    {
      name: "asked, no difference: the record and the head's replay",
      input: { ...quiet, recordCalls: true, callsDiffer: () => false },
      results: [["suite", suite()], ["calls-record", recorded(2)]],
      runs: ["calls-record", "calls-replay"],
    },
    {
      name: "asked, a difference: the base's code is replayed too",
      input: { ...quiet, recordCalls: true, callsDiffer: () => true },
      results: [["suite", suite()], ["calls-record", recorded(2)]],
      runs: ["calls-record", "calls-replay", "calls-replay-base"],
    },
  ];
  for (const row of table) {
    await t.step(row.name, () => {
      const plan = planTestStage(RUNS, input(row.input));
      assert.deepEqual(calls(running(plan, new Map(row.results))), row.runs);
    });
  }
  await t.step(
    "the record runs the base's oracle when the test side differs, else the head",
    () => {
      const trees = (extra: Partial<PlanTestStageInput>) =>
        planTestStage(RUNS, input({ recordCalls: true, ...extra }))
          .find((r) => r.id === "calls-record")?.tree;
      assert.equal(trees({}), "oracle");
      assert.equal(trees({ oracleDiffers: false }), "head");
    },
  );
});
