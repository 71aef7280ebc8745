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

/** The registered state machine `name` checked from `base` to `head`. */
function checkedSides(
  base: ReturnType<typeof side>,
  head: ReturnType<typeof side>,
  layout = "000",
  name = "TestStack",
) {
  return checkRegisteredTests([{
    layout,
    id: "stack",
    module: "tests.test_machine",
    name,
  }], {
    baseModules: base.modules,
    headModules: head.modules,
    baseTree: base.tree,
    headTree: head.tree,
    isTestSide: (path) => path.startsWith("tests/"),
  });
}

function judge(head: string, layout = "000", name = "TestStack"): string[] {
  const found = checkedSides(side(BASE), side(head), layout, name);
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
  const found = checkedSides(base, head).findings;
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
  const found = checkedSides(base, head).findings;
  assert.deepEqual(found.map((f) => f.rule), ["property.strategy_narrowed"]);
  assert.match(
    found[0]!.message,
    /keeps its @rule\(target=items, x=VALUES\), but what it names changed: /,
  );
});

Deno.test("checkRegisteredTests() takes a state machine's TestCase binding new at the head as what pytest runs", () => {
  const base = side("from hypothesis import settings\n");
  const head = side(BASE);
  const judged = (text: string) =>
    checkRegisteredTests([{
      layout: "000",
      id: "stack",
      module: "tests.test_machine",
      name: "TestStack",
    }], {
      baseModules: base.modules,
      headModules: side(text).modules,
      baseTree: base.tree,
      headTree: head.tree,
      isTestSide: (path) => path.startsWith("tests/"),
    }).findings.map((f) => `${f.rule}:${f.line}`);
  assert.deepEqual(judged(BASE), []);
  assert.deepEqual(judged(`${BASE}TestStack = None\n`), [
    "property.rebound:31",
  ]);
});

Deno.test("checkRegisteredTests() finds an assertion dropped from a helper a state machine's step calls", () => {
  const withHelper = BASE.replace(
    "FAST = settings(",
    "def check(x):\n    assert x >= 0\n\n\nFAST = settings(",
  ).replace("self.model.append(x)", "check(x)\n        self.model.append(x)");
  assert.notEqual(withHelper, BASE);
  const base = side(withHelper);
  const head = side(withHelper.replace("    assert x >= 0\n", "    pass\n"));
  const found = checkedSides(base, head).findings;
  assert.deepEqual(found.map((f) => f.rule), ["property.assertion_removed"]);
  assert.match(
    found[0]!.message,
    /no longer makes 1 of the base's assertions \(base tests\/test_machine\.py line\(s\) 5\)/,
  );
});

Deno.test("checkRegisteredTests() finds an assertion dropped from a step a state machine inherits", () => {
  const inherited = BASE.replace(
    "Stack.TestCase.settings = settings(max_examples=40, stateful_step_count=20)\nTestStack = Stack.TestCase",
    "class LoggedStack(Stack):\n    pass\n\n\nTestStack = LoggedStack.TestCase",
  );
  assert.notEqual(inherited, BASE);
  const base = side(inherited);
  const head = side(
    inherited.replace(
      "assert self.model.pop() >= 0",
      "self.model.pop()",
    ),
  );
  const found = checkedSides(base, head).findings;
  assert.deepEqual(found.map((f) => f.rule), [
    "property.vacuous",
    "property.assertion_removed",
  ]);
});

Deno.test("checkRegisteredTests() takes only a state machine step's new preconditions as added", async (t) => {
  const guarded = edited(
    "    @rule()\n    def pop",
    "    @precondition(lambda self: len(self.model) > 0)\n    @rule()\n    def pop",
  ).replace("invariant, rule", "invariant, precondition, rule");
  const judged = (before: string, after: string) => {
    const base = side(before);
    const head = side(after);
    return checkRegisteredTests([{
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
    }).findings.map((f) => `${f.rule}:${f.line}`);
  };
  await t.step("the same precondition kept", () => {
    assert.deepEqual(judged(guarded, guarded), []);
  });
  await t.step("a second precondition added", () => {
    assert.deepEqual(
      judged(
        guarded,
        guarded.replace(
          "    @rule()\n    def pop",
          "    @precondition(lambda self: len(self.model) > 1)\n    @rule()\n    def pop",
        ),
      ),
      ["property.assume_added:20", "property.assume_added:20"],
    );
  });
});

Deno.test("checkRegisteredTests() judges an initializer's strategies by their width, as a rule's", async (t) => {
  const started = edited(
    "    @rule()\n    def pop",
    "    @initialize(x=st.integers(min_value=0, max_value=50))\n    def start(self, x):\n        self.model.append(x)\n\n    @rule()\n    def pop",
  ).replace("invariant, rule", "initialize, invariant, rule");
  const judged = (after: string) => {
    const base = side(started);
    const head = side(after);
    return checkRegisteredTests([{
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
    }).findings.map((f) => f.rule);
  };
  await t.step("widened", () => {
    assert.deepEqual(
      judged(started.replace("max_value=50", "max_value=500")),
      [],
    );
  });
  await t.step("narrowed", () => {
    assert.deepEqual(judged(started.replace("max_value=50", "max_value=5")), [
      "property.strategy_narrowed",
    ]);
  });
});
