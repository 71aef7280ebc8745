import assert from "node:assert/strict";
import fc from "fast-check";
import { evaluateProperty, type PropertyOutcome } from "./evaluate_property.ts";
import type { TestCaseResult, TestOutcome } from "./parse_junit.ts";

const PROPERTY = { module: "tests.properties.test_parse", name: "test_x" };

function cases(...outcomes: TestOutcome[]): TestCaseResult[] {
  return outcomes.map((outcome, i) => ({
    classname: PROPERTY.module,
    name: outcomes.length === 1 ? "test_x" : `test_x[${i}]`,
    outcome,
  }));
}

Deno.test("evaluateProperty() passes a property only when every case of it passed", async (t) => {
  const table: [string, TestCaseResult[], PropertyOutcome][] = [
    ["a single passing case passes", cases("passed"), "passed"],
    ["every parameter passing passes", cases("passed", "passed"), "passed"],
    ["an absent test was not collected", [], "not_collected"],
    [
      "a test of the same name in another module does not count",
      [{ classname: "tests.other", name: "test_x", outcome: "passed" }],
      "not_collected",
    ],
    [
      "a longer name with the same prefix does not count",
      [{ classname: PROPERTY.module, name: "test_x_other", outcome: "passed" }],
      "not_collected",
    ],
    ["a skipped case is skipped", cases("skipped"), "skipped"],
    ["an xfailed case is xfailed", cases("xfailed"), "xfailed"],
    [
      "one failed parameter fails",
      cases("passed", "failed", "passed"),
      "failed",
    ],
    ["an error is an error", cases("error"), "error"],
    [
      "one skipped parameter among passes is skipped",
      cases("passed", "skipped"),
      "skipped",
    ],
    ["a failure outranks an error", cases("error", "failed"), "failed"],
    ["an xfail outranks a skip", cases("skipped", "xfailed"), "xfailed"],
    ["an error outranks an xfail", cases("xfailed", "error"), "error"],
  ];
  for (const [label, results, expected] of table) {
    await t.step(label, () => {
      assert.equal(evaluateProperty(results, PROPERTY), expected);
    });
  }
});

Deno.test("evaluateProperty() judges a property by its worst case, whatever the order of its parametrizations", () => {
  const worstFirst: TestOutcome[] = [
    "failed",
    "error",
    "xfailed",
    "skipped",
    "passed",
  ];
  const outcome = fc.constantFrom(...worstFirst);
  fc.assert(
    fc.property(fc.array(outcome, { minLength: 1, maxLength: 6 }), (all) => {
      const judged = evaluateProperty(cases(...all), PROPERTY);
      const worst = Math.min(...all.map((o) => worstFirst.indexOf(o)));
      assert.equal(judged, worstFirst[worst]);
      assert.equal(
        evaluateProperty(cases(...[...all].reverse()), PROPERTY),
        judged,
      );
      assert.equal(judged === "passed", all.every((o) => o === "passed"));
    }),
  );
});
