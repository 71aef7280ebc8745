import assert from "node:assert/strict";
import type { TestCaseResult } from "../run/parse_junit.ts";
import type { PytestRun } from "../run/run_pytest.ts";
import type { SandboxResult } from "../sandbox/sandbox.ts";
import { extractWitness, witnessSha256 } from "../seeds/extract_witness.ts";
import {
  describeOutcome,
  judgeProperties,
  judgeProperty,
  type PropertyContext,
} from "./judge_properties.ts";
import type { LocatedProperty } from "./locate_properties.ts";

const PROP: LocatedProperty & { nodeId: string } = {
  layout: "000",
  id: "parse_rejects_empty",
  module: "tests.properties.test_parse",
  name: "test_empty_input_raises",
  file: "tests/properties/test_parse.py",
  line: 7,
  nodeId: "tests/properties/test_parse.py::test_empty_input_raises",
};

const CONTEXT: PropertyContext = {
  seed: 42,
  trials: 80,
  ts: 1796040000,
  nonBlocking: new Set(),
};

function cases(
  outcome: TestCaseResult["outcome"],
  message?: string,
): TestCaseResult[] {
  return [{
    classname: PROP.module,
    name: PROP.name,
    outcome,
    ...(message === undefined ? {} : { message }),
  }];
}

function run(
  found: TestCaseResult[] | null,
  result: Partial<SandboxResult> = {},
): PytestRun {
  return {
    result: {
      code: 0,
      signal: null,
      timedOut: false,
      outputExceeded: false,
      outputHead: "",
      outputTail: "",
      outputBytes: 0,
      ...result,
    },
    cases: found,
  };
}

Deno.test("judgeProperty() passes a property only when it passed in the suite and on its own", () => {
  const judged = judgeProperty(PROP, {
    suite: cases("passed"),
    alone: run(cases("passed")),
  }, CONTEXT);
  assert.deepEqual(judged.result, {
    layout: "000",
    id: "parse_rejects_empty",
    outcome: "passed",
  });
  assert.equal(judged.finding, undefined);
  assert.deepEqual(judged.row, {
    seed: 42,
    trials: 80,
    ok: true,
    "witness_sha256": null,
    ts: 1796040000,
    layout: "000",
    id: "parse_rejects_empty",
    kind: "fresh",
  });
});

Deno.test("judgeProperty() rejects a property that failed in the suite, quoting the suite's outcome", () => {
  const judged = judgeProperty(PROP, {
    suite: cases("failed", "Falsifying example: parse('')"),
    alone: run(cases("passed")),
  }, CONTEXT);
  assert.equal(judged.result.outcome, "failed");
  assert.equal(judged.finding?.rule, "property.not_passed");
  assert.equal(
    judged.finding?.message,
    `Property "parse_rejects_empty" (${PROP.nodeId}) did not pass on seed 42: it failed:\nFalsifying example: parse('')`,
  );
  assert.equal(judged.finding?.path, PROP.file);
  assert.equal(judged.finding?.line, 7);
  assert.equal(judged.finding?.blocking, true);
  assert.equal(judged.row?.ok, false);
  assert.equal(
    judged.row?.witness_sha256,
    witnessSha256(extractWitness("Falsifying example: parse('')")),
  );
});

Deno.test("judgeProperty() distrusts a suite pass the property does not repeat on its own", async (t) => {
  const table: {
    name: string;
    alone: PytestRun | null;
    outcome: string;
    clause: string;
    reason?: string;
  }[] = [
    {
      name: "failed on its own",
      alone: run(cases("failed", "boom")),
      outcome: "failed",
      clause: "it failed",
      reason: ":\nboom",
    },
    {
      name: "not run on its own",
      alone: null,
      outcome: "not_collected",
      clause: "it was not collected or was deselected",
    },
    {
      name: "the run on its own hit its time limit",
      alone: run(cases("passed"), { timedOut: true }),
      outcome: "not_collected",
      clause: "it was not collected or was deselected",
    },
    {
      name: "the run on its own flooded its output",
      alone: run(cases("passed"), { outputExceeded: true }),
      outcome: "not_collected",
      clause: "it was not collected or was deselected",
    },
    {
      name: "skipped on its own",
      alone: run(cases("skipped")),
      outcome: "skipped",
      clause: "it was skipped",
    },
  ];
  for (const row of table) {
    await t.step(row.name, () => {
      const judged = judgeProperty(PROP, {
        suite: cases("passed"),
        alone: row.alone,
      }, CONTEXT);
      assert.equal(judged.result.outcome, row.outcome);
      assert.equal(
        judged.finding?.message,
        `Property "parse_rejects_empty" (${PROP.nodeId}) did not pass on seed 42: it passed in the full run but ${row.clause} when the properties ran on their own, so the full run's report cannot be trusted${
          row.reason ?? ""
        }`,
      );
      assert.equal(judged.row?.ok, false);
    });
  }
});

Deno.test("judgeProperty() reports a failure under an unexpired seed freeze without blocking", () => {
  const judged = judgeProperty(PROP, {
    suite: cases("failed"),
    alone: null,
  }, { ...CONTEXT, nonBlocking: new Set([PROP.nodeId as string]) });
  assert.equal(judged.finding?.rule, "seed.fresh_failed");
  assert.equal(judged.finding?.blocking, false);
  assert.match(
    judged.finding?.message ?? "",
    /fresh seed 42: it failed; it is under an unexpired seed freeze, so this does not block until the freeze expires$/,
  );
});

Deno.test("judgeProperty() records a property missing at head without a row or a finding", () => {
  const judged = judgeProperty(
    { ...PROP, nodeId: undefined, line: undefined },
    { suite: cases("passed"), alone: null },
    CONTEXT,
  );
  assert.deepEqual(judged, {
    result: { layout: "000", id: "parse_rejects_empty", outcome: "missing" },
  });
});

Deno.test("judgeProperties() sorts the results by layout and id and keeps findings in plan order", () => {
  const other: LocatedProperty = {
    ...PROP,
    layout: "002",
    id: "a_first",
    name: "test_other",
    nodeId: "tests/properties/test_parse.py::test_other",
  };
  const judged = judgeProperties([other, PROP], {
    suite: [],
    alone: null,
  }, CONTEXT);
  assert.deepEqual(
    judged.properties.map((p) => `${p.layout}/${p.id}`),
    ["000/parse_rejects_empty", "002/a_first"],
  );
  assert.deepEqual(judged.findings.map((f) => f.message.split(" (")[0]), [
    'Property "a_first"',
    'Property "parse_rejects_empty"',
  ]);
  assert.deepEqual(judged.ledger.map((r) => r.id), [
    "a_first",
    "parse_rejects_empty",
  ]);
});

Deno.test("describeOutcome() names every outcome but passed", () => {
  assert.equal(describeOutcome("xfailed"), "it was marked xfail");
  assert.equal(describeOutcome("error"), "it errored");
  assert.equal(describeOutcome("failed"), "it failed");
});

const SLOW =
  "hypothesis.errors.FailedHealthCheck: Data generation is extremely slow: Only produced 4 valid examples in 1.21 seconds. If you want to disable just this health check, add HealthCheck.too_slow to the suppress_health_check settings for this test.";

Deno.test("judgeProperty() names the health check, or the exception and the traceback's tail, of a failed property", async (t) => {
  const table = [
    {
      name: "a health check",
      suite: cases("failed", SLOW),
      texts: undefined,
      says: `it failed: Hypothesis' health check "too_slow" failed:\n${SLOW}`,
    },
    {
      name: "an exception, from the observer's text of the run",
      suite: cases("failed", "assert 3 == 4"),
      texts: new Map<string, string>([[
        PROP.nodeId,
        "    def test_x(blob):\n>       assert parse(blob) == 4\nE       assert 3 == 4\n\ntests/properties/test_parse.py:9: AssertionError",
      ]]),
      says:
        "it failed with AssertionError:\n    def test_x(blob):\n>       assert parse(blob) == 4\nE       assert 3 == 4\ntests/properties/test_parse.py:9: AssertionError",
    },
  ];
  for (const row of table) {
    await t.step(row.name, () => {
      const judged = judgeProperty(PROP, {
        suite: row.suite,
        alone: run(cases("passed")),
        ...(row.texts === undefined ? {} : { suiteTexts: row.texts }),
      }, CONTEXT);
      assert.equal(
        judged.finding?.message,
        `Property "parse_rejects_empty" (${PROP.nodeId}) did not pass on seed 42: ${row.says}`,
      );
      assert.notEqual(judged.reason, undefined);
    });
  }
});

Deno.test("judgeProperty() counts a health check of the full run only when the calm run on its own fails too", async (t) => {
  const table = [
    { name: "calm run passed", calm: true, alone: "passed", outcome: "passed" },
    { name: "no calm run", calm: false, alone: "passed", outcome: "failed" },
    { name: "calm run failed", calm: true, alone: "failed", outcome: "failed" },
  ] as const;
  for (const row of table) {
    await t.step(row.name, () => {
      const judged = judgeProperty(PROP, {
        suite: cases("failed", SLOW),
        alone: run(cases(row.alone, SLOW)),
        calmAlone: row.calm,
      }, CONTEXT);
      assert.equal(judged.result.outcome, row.outcome);
    });
  }
  await t.step("an assertion of the full run counts even so", () => {
    const judged = judgeProperty(PROP, {
      suite: cases("failed", "assert 1 == 2"),
      alone: run(cases("passed")),
      calmAlone: true,
    }, CONTEXT);
    assert.equal(judged.result.outcome, "failed");
  });
});

Deno.test("judgeProperty() gives a failed property's finding what the test showed, from the run where it failed", async (t) => {
  const suiteText =
    "E       assert 0 == 1\nE       Falsifying example: test_empty_input_raises(\nE           s='',\nE       )\n\ntests/properties/test_parse.py:9: AssertionError";
  const reproduce = (nodeId: string) => `pytest '${nodeId}'`;
  await t.step("failed in the suite", () => {
    const judged = judgeProperty(PROP, {
      suite: cases("failed", "assert 0 == 1"),
      alone: run(cases("passed")),
      suiteTexts: new Map([[PROP.nodeId, suiteText]]),
    }, { ...CONTEXT, reproduce });
    assert.deepEqual(judged.finding?.failure, {
      test: PROP.nodeId,
      example: "test_empty_input_raises(\n    s='',\n)",
      exception: "AssertionError: assert 0 == 1",
      traceback: [
        "E       assert 0 == 1",
        "E       Falsifying example: test_empty_input_raises(",
        "E           s='',",
        "E       )",
        "tests/properties/test_parse.py:9: AssertionError",
      ],
      reproduce: `pytest '${PROP.nodeId}'`,
    });
  });
  await t.step("failed only on its own, under a seed freeze", () => {
    const judged = judgeProperty(PROP, {
      suite: cases("passed"),
      alone: run(cases("error", "ValueError: boom")),
    }, { ...CONTEXT, reproduce, nonBlocking: new Set([PROP.nodeId]) });
    assert.equal(judged.finding?.rule, "seed.fresh_failed");
    assert.equal(judged.finding?.failure?.exception, "ValueError: boom");
  });
  await t.step("not collected: no failure to show", () => {
    const judged = judgeProperty(PROP, {
      suite: [],
      alone: run([]),
    }, { ...CONTEXT, reproduce });
    assert.equal(judged.finding?.failure, undefined);
  });
  await t.step("the decision is the same with or without it", () => {
    const evidence = {
      suite: cases("failed", "assert 0 == 1"),
      alone: run(cases("passed")),
      suiteTexts: new Map([[PROP.nodeId, suiteText]]),
    };
    const { failure: _, message: brief, ...withDetail } = judgeProperty(
      PROP,
      evidence,
      { ...CONTEXT, reproduce },
    ).finding!;
    const { message: whole, ...withoutDetail } = judgeProperty(
      PROP,
      evidence,
      CONTEXT,
    ).finding!;
    assert.deepEqual(withDetail, withoutDetail);
    // The message says why in one line when the detail holds the rest.
    assert.equal(
      brief,
      `Property "parse_rejects_empty" (${PROP.nodeId}) did not pass on seed 42: it failed with AssertionError: assert 0 == 1`,
    );
    assert.ok(
      whole.startsWith(`${brief.slice(0, -" assert 0 == 1".length)}\n`),
      whole,
    );
  });
});

Deno.test("judgeProperties() makes the properties a stopped full run never reported one finding", async (t) => {
  const props = ["a", "b", "c"].map((id): LocatedProperty => ({
    ...PROP,
    id,
    name: `test_${id}`,
    nodeId: `tests/properties/test_parse.py::test_${id}`,
  }));
  const evidence = { suite: [], alone: run(null, { timedOut: true }) };
  await t.step("stopped at the time limit", () => {
    const judged = judgeProperties(props, {
      ...evidence,
      suiteStopped: "tests.timeout",
    }, CONTEXT);
    assert.deepEqual(judged.findings.map((f) => [f.rule, f.blocking]), [
      ["property.not_passed", true],
    ]);
    assert.equal(
      judged.findings[0]?.message,
      '3 registered properties could not be judged because the full test run was stopped before it reported them (see the tests.timeout finding): "a", "b" and "c"; fix what stopped the run and check again',
    );
    // Each property still failed, for the verdict and the base's judgement.
    assert.equal(judged.failures.length, 3);
    assert.deepEqual(
      judged.properties.map((p) => p.outcome),
      ["not_collected", "not_collected", "not_collected"],
    );
  });
  await t.step("without a stop, one finding each", () => {
    assert.equal(judgeProperties(props, evidence, CONTEXT).findings.length, 3);
  });
});
