import assert from "node:assert/strict";
import { finding } from "../core/finding.ts";
import type { TestCaseResult } from "../run/parse_junit.ts";
import type { PytestRun } from "../run/run_pytest.ts";
import type { PropertyRunsResult } from "../run/judge_property_runs.ts";
import { needsCalmRerun } from "./needs_calm_rerun.ts";

const ID = "tests/test_p.py::test_p";

function cases(
  outcome: TestCaseResult["outcome"],
  message?: string,
): TestCaseResult[] {
  return [{
    classname: "tests.test_p",
    name: "test_p",
    outcome,
    ...(message === undefined ? {} : { message }),
  }];
}

function run(
  found: TestCaseResult[] | null,
  stopped = false,
): PytestRun {
  return {
    result: {
      code: 0,
      signal: null,
      timedOut: stopped,
      outputExceeded: false,
      outputHead: "",
      outputTail: "",
      outputBytes: 0,
    },
    cases: found,
  };
}

function beside(
  head: PytestRun,
  extra: Partial<PropertyRunsResult> = {},
): PropertyRunsResult {
  return {
    head,
    oracle: null,
    findings: [],
    expectLedger: false,
    seedBaseline: null,
    oracleFailures: [],
    ...extra,
  };
}

const SLOW = "FailedHealthCheck: add HealthCheck.too_slow";

Deno.test("needsCalmRerun() repeats the runs beside the suite when anything in them, or a timing failure of the suite, did not pass", async (t) => {
  const table: {
    name: string;
    beside: PropertyRunsResult;
    suite: TestCaseResult[];
    rerun: boolean;
  }[] = [
    {
      name: "everything passed",
      beside: beside(run(cases("passed"))),
      suite: cases("passed"),
      rerun: false,
    },
    {
      name: "the property failed on its own",
      beside: beside(run(cases("failed", "boom"))),
      suite: cases("passed"),
      rerun: true,
    },
    {
      name: "the property was not in the run on its own",
      beside: beside(run([])),
      suite: cases("passed"),
      rerun: true,
    },
    {
      name: "the run on its own hit its time limit",
      beside: beside(run(cases("passed"), true)),
      suite: cases("passed"),
      rerun: true,
    },
    {
      name: "the run on its own left no report",
      beside: beside(run(null)),
      suite: cases("passed"),
      rerun: true,
    },
    {
      name: "the oracle left no report",
      beside: beside(run(cases("passed")), { oracle: run(null) }),
      suite: cases("passed"),
      rerun: true,
    },
    {
      name: "a blocking finding of the runs",
      beside: beside(run(cases("passed")), {
        findings: [finding("property.oracle_failed", "x")],
      }),
      suite: cases("passed"),
      rerun: true,
    },
    {
      name: "a health check failed the suite",
      beside: beside(run(cases("passed"))),
      suite: cases("failed", SLOW),
      rerun: true,
    },
    {
      name: "an assertion failed the suite: the calm run would not change it",
      beside: beside(run(cases("passed"))),
      suite: cases("failed", "assert 1 == 2"),
      rerun: false,
    },
  ];
  for (const row of table) {
    await t.step(row.name, () => {
      assert.equal(
        needsCalmRerun({ beside: row.beside, nodeIds: [ID], suite: row.suite }),
        row.rerun,
      );
    });
  }
});
