import assert from "node:assert/strict";
import type { Tree } from "../git/git.ts";
import { analyzePython } from "../python/analyze_python.ts";
import { loadPythonParser } from "../python/load_python_parser.ts";
import type { PythonModule } from "../python/python_module.ts";
import { checkRegisteredTests } from "./check_registered_tests.ts";

const parser = await loadPythonParser();
const MODULE = "tests/test_machine.py";

const BASE = `from hypothesis import settings, strategies as st
from hypothesis.stateful import Bundle, RuleBasedStateMachine, invariant, rule

FAST = settings(max_examples=40, stateful_step_count=20)


class Stack(RuleBasedStateMachine):
    items = Bundle("items")

    def __init__(self):
        super().__init__()
        self.model = []

    @rule(target=items, x=st.integers(min_value=0, max_value=100))
    def push(self, x):
        self.model.append(x)
        return x

    @rule()
    def pop(self):
        if self.model:
            assert self.model.pop() >= 0

    @invariant()
    def bounded(self):
        assert len(self.model) <= 1000


Stack.TestCase.settings = settings(max_examples=40, stateful_step_count=20)
TestStack = Stack.TestCase
`;

function side(
  text: string,
): { modules: Map<string, PythonModule>; tree: Tree } {
  return {
    modules: new Map([[MODULE, analyzePython(parser, text)]]),
    tree: new Map([[MODULE, {
      path: MODULE,
      kind: "file",
      oid: "1",
      size: 1,
    }]]),
  };
}

function judge(head: string, layout = "000", name = "TestStack"): string[] {
  const base = side(BASE);
  const h = side(head);
  const found = checkRegisteredTests([{
    layout,
    id: "stack",
    module: "tests.test_machine",
    name,
  }], {
    baseModules: base.modules,
    headModules: h.modules,
    baseTree: base.tree,
    headTree: h.tree,
    isTestSide: (path) => path.startsWith("tests/"),
  });
  return [
    ...found.findings.map((f) => f.rule),
    ...found.rewrites.map(() => "rewrite"),
  ];
}

function edited(from: string, to: string): string {
  assert.ok(BASE.includes(from), from);
  return BASE.replace(from, to);
}

Deno.test("checkRegisteredTests() accepts a state machine that got no weaker", async (t) => {
  const cases: [string, string][] = [
    ["the base itself", BASE],
    ["a wider rule strategy", edited("max_value=100", "max_value=10**6")],
    [
      "a new rule",
      edited(
        "    @invariant()",
        "    @rule()\n    def peek(self):\n        assert self.model[-1:] == self.model[-1:] or True\n\n    @invariant()",
      ),
    ],
    [
      "more examples",
      edited(
        "Stack.TestCase.settings = settings(max_examples=40,",
        "Stack.TestCase.settings = settings(max_examples=400,",
      ),
    ],
  ];
  for (const [name, head] of cases) {
    await t.step(name, () => assert.deepEqual(judge(head), []));
  }
});

Deno.test("checkRegisteredTests() rejects a weakened state machine", async (t) => {
  const cases: [string, string, string[]][] = [
    [
      "an invariant removed",
      edited(
        "    @invariant()\n    def bounded(self):\n        assert len(self.model) <= 1000\n",
        "",
      ),
      ["property.assertion_removed", "property.decorator_changed"],
    ],
    [
      "a rule's decorator removed",
      edited("    @rule()\n    def pop", "    def pop"),
      ["property.assertion_removed", "property.decorator_changed"],
    ],
    [
      "a narrowed rule strategy",
      edited("max_value=100", "max_value=3"),
      ["property.strategy_narrowed"],
    ],
    [
      "a rule's Bundle target changed",
      edited(
        'items = Bundle("items")',
        'items = Bundle("items")\n    spare = Bundle("spare")',
      )
        .replace("@rule(target=items,", "@rule(target=spare,"),
      ["property.strategy_narrowed"],
    ],
    [
      "a precondition added",
      edited(
        "    @rule()\n    def pop",
        "    @precondition(lambda self: False)\n    @rule()\n    def pop",
      ).replace("invariant, rule", "invariant, precondition, rule"),
      ["property.assume_added", "property.assume_added"],
    ],
    [
      "an invariant that no longer asserts",
      edited("assert len(self.model) <= 1000", "len(self.model)"),
      ["property.assertion_removed", "property.vacuous"],
    ],
    [
      "the settings through an alias that lowers the step count",
      edited(
        "Stack.TestCase.settings = settings(max_examples=40, stateful_step_count=20)",
        "Stack.TestCase.settings = settings(FAST, stateful_step_count=2)",
      ),
      ["property.settings_weakened"],
    ],
    [
      "an invariant's assertion loosened",
      edited(
        "assert len(self.model) <= 1000",
        "assert len(self.model) <= 10 ** 9",
      ),
      ["property.assertion_removed"],
    ],
    [
      "the TestCase rebound",
      BASE + "TestStack = None\n",
      ["property.rebound"],
    ],
  ];
  for (const [name, head, expected] of cases) {
    await t.step(name, () => assert.deepEqual(judge(head).sort(), expected));
  }
});

Deno.test("checkRegisteredTests() finds a state machine by its node id spelling", () => {
  assert.deepEqual(
    judge(edited("max_value=100", "max_value=3"), "002", "TestStack.runTest"),
    // Seed 002 also holds the helpers a contract test relies on.
    ["property.strategy_narrowed", "property.contract_code_changed"],
  );
});

Deno.test("checkRegisteredTests() reads a decorated TestCase subclass as one binding", () => {
  const subclass = BASE.replace(
    "TestStack = Stack.TestCase\n",
    "import pytest\n\n\nclass TestStack(Stack.TestCase):\n    pass\n",
  );
  assert.notEqual(subclass, BASE);
  const base = side(subclass);
  const head = side(
    subclass.replace(
      "\nclass TestStack",
      "\n@pytest.mark.slow\nclass TestStack",
    ),
  );
  const found = checkRegisteredTests([{
    layout: "000",
    id: "stack",
    module: "tests.test_machine",
    name: "TestStack",
  }], {
    baseModules: base.modules,
    headModules: head.modules,
    baseTree: base.tree,
    headTree: head.tree,
    isTestSide: (path) => path.startsWith("tests/"),
  }).findings;
  assert.deepEqual(
    found.filter((f) => f.rule === "property.rebound").map((f) => f.message),
    [],
  );
});

Deno.test("checkRegisteredTests() says a rule's strategy changed where it is defined, not in the decorator", () => {
  const named = BASE.replace(
    "FAST = settings(",
    "VALUES = st.integers(min_value=0, max_value=100)\nFAST = settings(",
  ).replace(
    "x=st.integers(min_value=0, max_value=100)",
    "x=VALUES",
  );
  assert.notEqual(named, BASE);
  const base = side(named);
  const head = side(
    named.replace("max_value=100)\nFAST", "max_value=3)\nFAST"),
  );
  const found = checkRegisteredTests([{
    layout: "000",
    id: "stack",
    module: "tests.test_machine",
    name: "TestStack",
  }], {
    baseModules: base.modules,
    headModules: head.modules,
    baseTree: base.tree,
    headTree: head.tree,
    isTestSide: (path) => path.startsWith("tests/"),
  }).findings;
  assert.deepEqual(found.map((f) => f.rule), ["property.strategy_narrowed"]);
  assert.match(
    found[0]!.message,
    /keeps its @rule\(target=items, x=VALUES\), but what it names changed: /,
  );
});
