import assert from "node:assert/strict";
import { analyzePython } from "./analyze_python.ts";
import { loadPythonParser } from "./load_python_parser.ts";
import type { PythonFunction } from "./python_module.ts";

const parser = await loadPythonParser();

function lines(...rows: string[]): string {
  return rows.join("\n") + "\n";
}

function entry(source: string, name: string): PythonFunction {
  const fn = analyzePython(parser, source).functions.get(name);
  assert.ok(fn !== undefined, `no entry "${name}" in:\n${source}`);
  return fn;
}

const MACHINE = [
  "from hypothesis import settings, strategies as st",
  "from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule",
  "",
  "class Counter(RuleBasedStateMachine):",
  "    def __init__(self):",
  "        super().__init__()",
  "        self.n = 0",
  "",
  "    @rule(k=st.integers(0, 10))",
  "    def add(self, k):",
  "        self.n += k",
  "",
  "    @invariant()",
  "    def never_negative(self):",
  "        assert self.n >= 0",
  "",
];

Deno.test("analyzePython() reads a TestCase binding as a stateful test", () => {
  const fn = entry(
    lines(
      ...MACHINE,
      "Counter.TestCase.settings = settings(max_examples=30, stateful_step_count=7)",
      "TestCounter = Counter.TestCase",
    ),
    "TestCounter",
  );
  assert.equal(fn.usesHypothesis, true);
  assert.equal(fn.line, 18);
  assert.equal(fn.vacuity, undefined);
  assert.equal(fn.settings?.maxExamples, 30);
  assert.equal(fn.settings?.keywords["stateful_step_count"], "7");
  assert.ok(fn.source.startsWith("class Counter(RuleBasedStateMachine):"));
  assert.deepEqual(fn.stateful?.nodeName, "TestCounter::runTest");
  assert.deepEqual(fn.stateful?.binding, "assign");
  assert.deepEqual(
    fn.stateful?.steps.map((s) => [s.method, s.kinds, s.asserts]),
    [
      ["add", ["rule"], false],
      ["never_negative", ["invariant"], true],
    ],
  );
  assert.deepEqual(fn.decorators.map((d) => d.text), [
    "settings(max_examples=30, stateful_step_count=7)",
  ]);
});

Deno.test("analyzePython() finds the TestCase by the node id's spelling and by the machine's name", () => {
  const module = analyzePython(
    parser,
    lines(...MACHINE, "TestCounter = Counter.TestCase"),
  );
  const entry = module.functions.get("TestCounter");
  assert.ok(entry !== undefined);
  assert.equal(module.functions.get("TestCounter.runTest"), entry);
  assert.equal(module.functions.get("Counter"), entry);
  const two = analyzePython(
    parser,
    lines(...MACHINE, "TestA = Counter.TestCase", "TestB = Counter.TestCase"),
  );
  assert.equal(two.functions.get("Counter"), undefined);
});

Deno.test("analyzePython() takes the machine's settings in written order", async (t) => {
  const cases: [string, string[], number | undefined][] = [
    ["no settings: Hypothesis' default", [
      "TestCounter = Counter.TestCase",
    ], undefined],
    ["@settings on the machine", ["TestCounter = Counter.TestCase"], 12],
    ["an assignment after the decorator wins", [
      "TestCounter = Counter.TestCase",
      "TestCounter.settings = settings(max_examples=40)",
    ], 40],
  ];
  for (const [name, tail, expected] of cases) {
    await t.step(name, () => {
      const head = name.startsWith("no") ? MACHINE : [
        ...MACHINE.slice(0, 3),
        "@settings(max_examples=12)",
        ...MACHINE.slice(3),
      ];
      const fn = entry(lines(...head, ...tail), "TestCounter");
      assert.equal(fn.settings?.maxExamples, expected);
    });
  }
});

Deno.test("analyzePython() reads a class deriving from Machine.TestCase", () => {
  const fn = entry(
    lines(
      ...MACHINE,
      "import pytest",
      "@pytest.mark.skip",
      "class TestCounter(Counter.TestCase):",
      "    settings = settings(max_examples=9)",
    ),
    "TestCounter",
  );
  assert.equal(fn.stateful?.binding, "class");
  assert.equal(fn.settings?.maxExamples, 9);
  assert.deepEqual(fn.skips.map((s) => s.kind), ["skip"]);
});

Deno.test("analyzePython() merges a run_state_machine_as_test machine into its test", () => {
  const fn = entry(
    lines(
      ...MACHINE,
      "from hypothesis.stateful import run_state_machine_as_test",
      "def test_counter():",
      "    run_state_machine_as_test(Counter, settings=settings(max_examples=5))",
    ),
    "test_counter",
  );
  assert.equal(fn.usesHypothesis, true);
  assert.equal(fn.vacuity, undefined);
  assert.equal(fn.settings?.maxExamples, 5);
  assert.equal(fn.stateful?.nodeName, "test_counter");
});

Deno.test("analyzePython() flags a machine that cannot fail and counts preconditions", () => {
  const source = lines(
    ...MACHINE.map((row) =>
      row === "        assert self.n >= 0" ? "        pass" : row
    ).map((row) =>
      row === "    @rule(k=st.integers(0, 10))"
        ? "    @precondition(lambda self: self.n < 5)\n    @rule(k=st.integers(0, 10))"
        : row
    ),
    "TestCounter = Counter.TestCase",
  );
  const fn = entry(source, "TestCounter");
  assert.equal(fn.vacuity?.reason, "no_assertion");
  assert.equal(fn.assumes?.length, 1);
});

Deno.test("analyzePython() finds no stateful test without a machine", () => {
  const module = analyzePython(
    parser,
    lines(
      "import unittest",
      "class Other:",
      "    TestCase = unittest.TestCase",
      "TestOther = Other.TestCase",
    ),
  );
  assert.equal(module.functions.get("TestOther"), undefined);
});
