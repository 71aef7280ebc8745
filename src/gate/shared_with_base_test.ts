import assert from "node:assert/strict";
import { failureReason } from "../run/failure_reason.ts";
import type { TestCaseResult } from "../run/parse_junit.ts";
import { type HeadFailure, sharedWithBase } from "./shared_with_base.ts";

const ID = "tests/test_a.py::test_x";
const ASSERTION = "E   assert 1 == 2\n\ntests/test_a.py:3: AssertionError";
const PARSE =
  "E   payments.parser.ParseError: bad\n\ntests/test_a.py:3: ParseError";

function at(
  outcome: TestCaseResult["outcome"],
  message?: string,
): TestCaseResult[] {
  return [{
    classname: "tests.test_a",
    name: "test_x",
    outcome,
    ...(message === undefined ? {} : { message }),
  }];
}

function failed(text: string): HeadFailure {
  return { nodeId: ID, outcome: "failed", reason: failureReason(text) };
}

Deno.test("sharedWithBase() shares a failure only when the base fails the same way", async (t) => {
  const table: {
    name: string;
    head: HeadFailure[];
    base: TestCaseResult[] | null;
    stopped?: boolean;
    shared: boolean;
  }[] = [
    {
      name: "the same exception type",
      head: [failed(ASSERTION)],
      base: at("failed", ASSERTION.replace("1 == 2", "5 == 2")),
      shared: true,
    },
    {
      name: "another exception type",
      head: [failed(ASSERTION)],
      base: at("failed", PARSE),
      shared: false,
    },
    {
      name: "passes at the base",
      head: [failed(ASSERTION)],
      base: at("passed"),
      shared: false,
    },
    {
      name: "errors at the base where it failed at the head",
      head: [failed(ASSERTION)],
      base: at("error", ASSERTION),
      shared: false,
    },
    {
      name: "not collected at both",
      head: [{ nodeId: ID, outcome: "not_collected" }],
      base: [],
      shared: true,
    },
    {
      name: "not collected at the head, collected at the base",
      head: [{ nodeId: ID, outcome: "not_collected" }],
      base: at("passed"),
      shared: false,
    },
    {
      name: "the same health check",
      head: [failed("FailedHealthCheck: slow. HealthCheck.too_slow")],
      base: at("failed", "FailedHealthCheck: slow! HealthCheck.too_slow"),
      shared: true,
    },
    {
      name: "another health check",
      head: [failed("FailedHealthCheck: slow. HealthCheck.too_slow")],
      base: at("failed", "FailedHealthCheck: HealthCheck.filter_too_much"),
      shared: false,
    },
    {
      name: "a base run without a report",
      head: [failed(ASSERTION)],
      base: null,
      shared: false,
    },
    {
      name: "a base run that hit its limits",
      head: [failed(ASSERTION)],
      base: at("failed", ASSERTION),
      stopped: true,
      shared: false,
    },
    {
      name: "two head failures of one test, the base sharing one",
      head: [failed(ASSERTION), failed(PARSE)],
      base: at("failed", ASSERTION),
      shared: false,
    },
    {
      name: "two head failures of one test, the base sharing both",
      head: [failed(ASSERTION), failed(ASSERTION)],
      base: at("failed", ASSERTION),
      shared: true,
    },
  ];
  for (const row of table) {
    await t.step(row.name, () => {
      const shared = sharedWithBase(row.head, {
        cases: row.base,
        ...(row.stopped === undefined ? {} : { stopped: row.stopped }),
      });
      assert.equal(shared.has(ID), row.shared);
    });
  }
});

Deno.test("sharedWithBase() says what the base said", () => {
  const shared = sharedWithBase([failed(ASSERTION)], {
    cases: at("failed", ASSERTION),
  });
  assert.equal(
    shared.get(ID),
    "it fails there too with AssertionError:\nE   assert 1 == 2\ntests/test_a.py:3: AssertionError",
  );
});
