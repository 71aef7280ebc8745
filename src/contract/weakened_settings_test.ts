import assert from "node:assert/strict";
import type { PythonFunction } from "../python/python_module.ts";
import { weakenedSettings } from "./weakened_settings.ts";

/** A Hypothesis test run with 100 examples and the `@settings` keywords given. */
function withKeywords(keywords: Record<string, string>): PythonFunction {
  return {
    name: "test_a",
    qualname: "test_a",
    line: 2,
    endLine: 3,
    source: "",
    decorators: [],
    usesHypothesis: true,
    skips: [],
    exampleAssertions: 0,
    settings: {
      line: 1,
      keywords: { max_examples: "100", ...keywords },
      maxExamples: 100,
    },
  };
}

/** Whether `head`'s settings weaken `base`'s. */
function weakens(
  base: Record<string, string>,
  head: Record<string, string>,
): boolean {
  return weakenedSettings(withKeywords(head), withKeywords(base)).length > 0;
}

Deno.test("weakenedSettings() takes derandomize turned on, in any spelling, as a weakening", async (t) => {
  const cases: [
    string,
    Record<string, string>,
    Record<string, string>,
    boolean,
  ][] = [
    ["written as True", {}, { derandomize: "True" }, true],
    ["written as 1", {}, { derandomize: "1" }, true],
    ["written through a variable", {}, { derandomize: "DERANDOMIZE" }, true],
    ["written as an expression", {}, { derandomize: "not CI" }, true],
    ["turned from False to a variable", { derandomize: "False" }, {
      derandomize: "DERANDOMIZE",
    }, true],
    ["written as False", {}, { derandomize: "False" }, false],
    ["turned off", { derandomize: "True" }, { derandomize: "False" }, false],
    ["removed", { derandomize: "True" }, {}, false],
    ["kept on", { derandomize: "True" }, { derandomize: "True" }, false],
  ];
  for (const [name, base, head, want] of cases) {
    await t.step(name, () => assert.equal(weakens(base, head), want));
  }
});

Deno.test("weakenedSettings() takes any health check newly suppressed as a weakening, even when another is no longer", async (t) => {
  const suppress = (...checks: string[]) => ({
    suppress_health_check: `[${
      checks.map((c) => `HealthCheck.${c}`).join(", ")
    }]`,
  });
  const cases: [
    string,
    Record<string, string>,
    Record<string, string>,
    boolean,
  ][] = [
    ["one suppressed from none", {}, suppress("too_slow"), true],
    [
      "one swapped for another",
      suppress("too_slow"),
      suppress("filter_too_much"),
      true,
    ],
    [
      "two swapped for one other",
      suppress("too_slow", "data_too_large"),
      suppress("filter_too_much"),
      true,
    ],
    [
      "one added to those suppressed",
      suppress("too_slow"),
      suppress("too_slow", "filter_too_much"),
      true,
    ],
    [
      "the same, in another order",
      suppress("too_slow", "filter_too_much"),
      suppress("filter_too_much", "too_slow"),
      false,
    ],
    [
      "one no longer suppressed",
      suppress("too_slow", "filter_too_much"),
      suppress("too_slow"),
      false,
    ],
    ["none suppressed any more", suppress("too_slow"), {}, false],
    [
      "a list that is not of HealthCheck members",
      suppress("too_slow"),
      { suppress_health_check: "list(HealthCheck)" },
      true,
    ],
  ];
  for (const [name, base, head, want] of cases) {
    await t.step(name, () => assert.equal(weakens(base, head), want));
  }
});
