import assert from "node:assert/strict";
import type { PythonFunction } from "../python/python_module.ts";
import { hypothesisExamples, weakenedSettings } from "./weakened_settings.ts";

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
      "a variable in place of a list",
      suppress("too_slow"),
      { suppress_health_check: "CHECKS" },
      true,
    ],
    [
      "a list in place of a variable",
      { suppress_health_check: "CHECKS" },
      suppress("too_slow"),
      true,
    ],
    [
      "an empty list in place of a variable",
      { suppress_health_check: "CHECKS" },
      { suppress_health_check: "[]" },
      false,
    ],
    [
      "none suppressed any more, from a variable",
      { suppress_health_check: "CHECKS" },
      {},
      false,
    ],
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

/** A test with `@given` (or without) and `max_examples` as written. */
function examples(
  maxExamples: number | "dynamic" | undefined,
  usesHypothesis = true,
): PythonFunction {
  const fn = withKeywords({});
  fn.usesHypothesis = usesHypothesis;
  if (maxExamples === undefined) delete fn.settings;
  else if (maxExamples === "dynamic") {
    fn.settings = {
      line: 1,
      keywords: { max_examples: "N" },
      maxExamplesDynamic: true,
    };
  } else {
    fn.settings = {
      line: 1,
      keywords: { max_examples: String(maxExamples) },
      maxExamples,
    };
  }
  return fn;
}

Deno.test("hypothesisExamples() counts the examples a test runs as its source says", async (t) => {
  const cases: [string, PythonFunction, unknown][] = [
    [
      "a test without @given runs one",
      examples(500, false),
      {
        kind: "known",
        count: 1,
        description:
          "is not a Hypothesis test (no @given), so it runs one example,",
      },
    ],
    [
      "a max_examples literal",
      examples(7),
      { kind: "known", count: 7, description: "runs at most 7 examples" },
    ],
    [
      "no @settings: Hypothesis' default",
      examples(undefined),
      {
        kind: "known",
        count: 100,
        description: "runs Hypothesis' default of 100 examples",
      },
    ],
    ["a max_examples pawl cannot read", examples("dynamic"), {
      kind: "dynamic",
    }],
  ];
  for (const [name, fn, want] of cases) {
    await t.step(name, () => assert.deepEqual(hypothesisExamples(fn), want));
  }
});

Deno.test("weakenedSettings() takes fewer examples, and only fewer, as a weakening", async (t) => {
  const cases: [string, PythonFunction, PythonFunction, string[]][] = [
    ["lowered", examples(100), examples(10), [
      "lowered its example count from 100 to 10",
    ]],
    ["lowered by one", examples(100), examples(99), [
      "lowered its example count from 100 to 99",
    ]],
    ["kept", examples(100), examples(100), []],
    ["raised", examples(100), examples(101), []],
    ["the default written out", examples(undefined), examples(100), []],
    ["below the default from it", examples(undefined), examples(50), [
      "lowered its example count from 100 to 50",
    ]],
    ["@given dropped", examples(100), examples(100, false), [
      "lowered its example count from 100 to 1",
    ]],
    ["from a count pawl cannot read", examples("dynamic"), examples(1), []],
    ["to a count pawl cannot read", examples(100), examples("dynamic"), []],
  ];
  for (const [name, base, head, want] of cases) {
    await t.step(name, () => {
      // `max_examples` is judged by the count, never as a changed keyword.
      assert.deepEqual(weakenedSettings(head, base), want);
    });
  }
});

Deno.test("weakenedSettings() judges each other @settings keyword by what it does to the search", async (t) => {
  const phases = (...names: string[]) => ({
    phases: `[${names.map((p) => `Phase.${p}`).join(", ")}]`,
  });
  const finding = ["explicit", "reuse", "generate", "target"];
  const cases: [
    string,
    Record<string, string>,
    Record<string, string>,
    boolean,
  ][] = [
    ...[
      "deadline",
      "verbosity",
      "print_blob",
      "report_multiple_bugs",
      "database",
    ]
      .map((
        keyword,
      ): [string, Record<string, string>, Record<string, string>, boolean] => [
        `${keyword} changed`,
        { [keyword]: "A" },
        { [keyword]: "B" },
        false,
      ]),
    ["a keyword only respaced", { backend: "x" }, { backend: " x " }, false],
    ["an unknown keyword added", {}, { backend: '"crosshair"' }, true],
    ["an unknown keyword changed", { parent: "A" }, { parent: "B" }, true],
    ["an unknown keyword removed", { parent: "A" }, {}, true],
    [
      "a finding phase dropped",
      phases(...finding),
      phases("explicit", "reuse", "target"),
      true,
    ],
    ["each finding phase dropped from the default", {}, phases("shrink"), true],
    [
      "generate dropped from the default",
      {},
      phases("explicit", "reuse", "target", "shrink"),
      true,
    ],
    [
      "explicit dropped",
      phases(...finding),
      phases("reuse", "generate", "target"),
      true,
    ],
    [
      "target dropped",
      phases(...finding),
      phases("explicit", "reuse", "generate"),
      true,
    ],
    [
      "only shrink and explain dropped",
      phases(...finding, "shrink", "explain"),
      phases(...finding),
      false,
    ],
    ["the default written out", {}, phases(...finding), false],
    [
      "the phases in another order",
      phases("generate", "explicit"),
      phases("explicit", "generate"),
      false,
    ],
    [
      "a phase added back",
      phases("generate"),
      phases("generate", "explicit"),
      false,
    ],
    ["phases removed, back to the default", phases("generate"), {}, false],
    ["phases a variable", phases(...finding), { phases: "PHASES" }, true],
    [
      "phases from a variable to every finding phase",
      { phases: "PHASES" },
      phases(...finding),
      false,
    ],
    [
      "phases from a variable to a list without one finding phase",
      { phases: "PHASES" },
      phases("explicit", "reuse", "generate"),
      true,
    ],
    [
      "phases from a variable back to the default",
      { phases: "PHASES" },
      {},
      false,
    ],
    ["phases of another enum", phases(...finding), {
      phases: "[Other.generate]",
    }, true],
    ["stateful_step_count lowered", { stateful_step_count: "20" }, {
      stateful_step_count: "19",
    }, true],
    ["stateful_step_count raised", { stateful_step_count: "20" }, {
      stateful_step_count: "21",
    }, false],
    ["stateful_step_count below the default from it", {}, {
      stateful_step_count: "49",
    }, true],
    ["stateful_step_count at the default from it", {}, {
      stateful_step_count: "50",
    }, false],
    [
      "stateful_step_count removed from above the default",
      { stateful_step_count: "51" },
      {},
      true,
    ],
    [
      "stateful_step_count removed from below the default",
      { stateful_step_count: "49" },
      {},
      false,
    ],
    [
      "stateful_step_count with underscores, raised",
      { stateful_step_count: "900" },
      { stateful_step_count: "1_000" },
      false,
    ],
    ["stateful_step_count an expression", { stateful_step_count: "20" }, {
      stateful_step_count: "STEPS * 10",
    }, true],
    ["stateful_step_count a number and more", { stateful_step_count: "20" }, {
      stateful_step_count: "10 ** 3",
    }, true],
    ["stateful_step_count a variable", { stateful_step_count: "20" }, {
      stateful_step_count: "STEPS",
    }, true],
    ["stateful_step_count from a variable", { stateful_step_count: "STEPS" }, {
      stateful_step_count: "500",
    }, true],
  ];
  for (const [name, base, head, want] of cases) {
    await t.step(name, () => assert.equal(weakens(base, head), want));
  }
});

Deno.test("weakenedSettings() says what each weakening keyword changed, in the keywords' order", () => {
  assert.deepEqual(
    weakenedSettings(
      withKeywords({ stateful_step_count: "5", backend: '"x"' }),
      withKeywords({ stateful_step_count: "10" }),
    ),
    [
      'changed backend from the default to "\\"x\\"", which can hide failures',
      'changed stateful_step_count from "10" to "5", which can hide failures',
    ],
  );
});
