import assert from "node:assert/strict";
import { analyzePython } from "../../python/analyze_python.ts";
import { loadPythonParser } from "../../python/load_python_parser.ts";
import { checkProperties } from "./check_properties.ts";
import { NO_LINES } from "./read_agent_contract.ts";

const parser = await loadPythonParser();
const FILE = "tests/test_machine.py";

const BASE = `from hypothesis import settings, strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule


class Counter(RuleBasedStateMachine):
    n = 0

    @rule(k=st.integers(0, 3))
    def add(self, k):
        self.n += k

    @invariant()
    def non_negative(self):
        assert self.n >= 0


Counter.TestCase.settings = settings(max_examples=80, stateful_step_count=40)
TestCounter = Counter.TestCase
`;

function judge(head: string, minExamples = 80): string[] {
  const modules = (text: string) =>
    new Map([[FILE, analyzePython(parser, text)]]);
  return checkProperties({
    version: 1,
    fixtures: [],
    freezes: [],
    maxActiveFreezes: 0,
    lines: NO_LINES,
    properties: [{
      id: "counter",
      module: "tests.test_machine",
      name: "TestCounter",
      minExamples,
    }],
  }, {
    modules: modules(head),
    baseModules: modules(BASE),
    path: "tests/agent_contract.yaml",
  }).map((f) => f.rule);
}

Deno.test("checkProperties() judges a state machine's TestCase settings", async (t) => {
  const cases: [string, string, string[]][] = [
    ["the base", BASE, []],
    [
      "more steps",
      BASE.replace("stateful_step_count=40", "stateful_step_count=90"),
      [],
    ],
    [
      "max_examples lowered below the contract",
      BASE.replace("max_examples=80", "max_examples=8"),
      ["property.examples_below_contract", "property.examples_lowered"],
    ],
    [
      "stateful_step_count lowered",
      BASE.replace("stateful_step_count=40", "stateful_step_count=4"),
      ["property.examples_lowered"],
    ],
    [
      "@settings on the machine class lowering the count",
      BASE.replace("class Counter", "@settings(max_examples=5)\nclass Counter")
        .replace(/Counter\.TestCase\.settings = [^\n]*\n/, ""),
      // stateful_step_count falls back to the default 50, above 40.
      ["property.examples_below_contract", "property.examples_lowered"],
    ],
    [
      "an invariant that cannot fail leaves a machine that cannot fail",
      BASE.replace("assert self.n >= 0", "self.n"),
      ["property.vacuous"],
    ],
  ];
  for (const [name, head, expected] of cases) {
    await t.step(
      name,
      () => assert.deepEqual(judge(head).sort(), expected.sort()),
    );
  }
});

Deno.test("checkProperties() says a wrapped TestCase is bound but unreadable, not missing", () => {
  const head = BASE.replace(
    "TestCounter = Counter.TestCase\n",
    'import pytest\nTestCounter = pytest.mark.skip(reason="slow")(Counter.TestCase)\n',
  );
  assert.notEqual(head, BASE);
  const modules = (text: string) =>
    new Map([[FILE, analyzePython(parser, text)]]);
  const found = checkProperties({
    version: 1,
    fixtures: [],
    freezes: [],
    maxActiveFreezes: 0,
    lines: NO_LINES,
    properties: [{
      id: "counter",
      module: "tests.test_machine",
      name: "TestCounter",
      minExamples: 80,
    }],
  }, {
    modules: modules(head),
    baseModules: modules(BASE),
    path: "tests/agent_contract.yaml",
  });
  assert.deepEqual(found.map((f) => f.rule), ["property.test_missing"]);
  assert.match(
    found[0]!.message,
    /is bound at line 19 to something pawl cannot read as a test/,
  );
  assert.match(
    found[0]!.message,
    /pytest\.mark\.skip\(\.\.\.\)\(Machine\.TestCase\)/,
  );
});
