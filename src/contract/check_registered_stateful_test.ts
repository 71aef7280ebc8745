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

Deno.test("checkRegisteredTests() says which state machine step changed, how, and where", async (t) => {
  const guarded = edited(
    "    @rule()\n    def pop",
    "    @precondition(lambda self: len(self.model) > 0)\n    @rule()\n    def pop",
  ).replace("invariant, rule", "invariant, precondition, rule");
  const withTeardown = edited(
    "    @invariant()",
    "    def teardown(self):\n        self.model.clear()\n\n    @invariant()",
  );
  const pop =
    "    def pop(self):\n        if self.model:\n            assert self.model.pop() >= 0\n\n";
  const test = 'Property "stack" test "TestStack"';
  const dropped = (line: number) =>
    `property.assertion_removed:25: ${test} no longer makes 1 of the base's assertions (base tests/test_machine.py line(s) ${line}), in the test, its state machine's steps or the helpers they call: an assertion may be added, renamed or made stronger, never dropped or weakened; restore it, or change it on the base branch`;
  const cases: [string, string, string, string[]][] = [
    ["a rule removed", BASE, edited(`    @rule()\n${pop}`, ""), [
      `property.decorator_changed:25: ${test} lost the state machine step Stack.pop (@rule, base line 20): rules, invariants and initializers may be added, never removed`,
      dropped(22),
    ]],
    [
      "a guarded rule removed",
      guarded,
      guarded.replace(
        `    @precondition(lambda self: len(self.model) > 0)\n    @rule()\n${pop}`,
        "",
      ),
      [
        `property.decorator_changed:25: ${test} lost the state machine step Stack.pop (@precondition @rule, base line 21): rules, invariants and initializers may be added, never removed`,
        dropped(23),
      ],
    ],
    ["a teardown removed", withTeardown, BASE, [
      `property.decorator_changed:30: ${test} lost the state machine step Stack.teardown (teardown, base line 24): rules, invariants and initializers may be added, never removed`,
    ]],
    [
      "a precondition removed",
      guarded,
      guarded.replace(
        "    @precondition(lambda self: len(self.model) > 0)\n",
        "",
      ),
      [
        `property.decorator_changed:20: ${test}: the state machine step Stack.pop lost its @precondition(lambda self: len(self.model) > 0) (base line 19): restore it`,
      ],
    ],
    [
      "a rule's strategy narrowed",
      BASE,
      edited("max_value=100", "max_value=3"),
      [
        `property.strategy_narrowed:14: ${test}: the state machine step Stack.push changed its @rule(target=items, x=st.integers(min_value=0, max_value=100)) to @rule(target=items, x=st.integers(min_value=0, max_value=3)): max_value narrowed from 100 to 3; restore the base's`,
      ],
    ],
    [
      "a precondition changed",
      guarded,
      guarded.replace("len(self.model) > 0", "len(self.model) > 1"),
      [
        `property.decorator_changed:19: ${test}: the state machine step Stack.pop changed its @precondition(lambda self: len(self.model) > 0) to @precondition(lambda self: len(self.model) > 1): 1 is not 0; restore the base's`,
      ],
    ],
    ["a precondition added", BASE, guarded, [
      `property.assume_added:19: ${test} filters its inputs with 1 assume()/reject() call where the base has 0: an assumption can discard exactly the inputs that fail; fix the code instead`,
      `property.assume_added:19: ${test}: the state machine step Stack.pop gained @precondition(lambda self: len(self.model) > 0): a precondition can keep the step from ever running on the inputs that fail; fix the code instead`,
    ]],
    [
      "an invariant that no longer asserts",
      BASE,
      edited("assert len(self.model) <= 1000", "len(self.model)"),
      [
        `property.vacuous:25: ${test}: the state machine step Stack.bounded no longer asserts anything that can fail (the base's does): restore its assertion`,
        dropped(26).replace(":25:", ":30:"),
      ],
    ],
    [
      "an @invariant added to a rule",
      BASE,
      edited(
        "    @rule()\n    def pop",
        "    @invariant()\n    @rule()\n    def pop",
      ),
      [],
    ],
  ];
  for (const [name, base, head, want] of cases) {
    await t.step(name, () => {
      assert.deepEqual(
        checkedSides(side(base), side(head)).findings.map((f) =>
          `${f.rule}:${f.line}: ${f.message}`
        ),
        want,
      );
    });
  }
});

Deno.test("checkRegisteredTests() compares a state machine step's preconditions exactly, never by width", () => {
  const guarded = edited(
    "    @rule()\n    def pop",
    "    @precondition(lambda self: len(self.model) > 0)\n    @rule()\n    def pop",
  ).replace("invariant, rule", "invariant, precondition, rule");
  const widened = guarded.replace(
    "@precondition(lambda self: len(self.model) > 0)",
    "@precondition((lambda self: len(self.model) > 0) | (lambda self: True))",
  );
  assert.deepEqual(
    checkedSides(side(guarded), side(widened)).findings.map((f) =>
      `${f.rule}:${f.line}`
    ),
    ["property.decorator_changed:19"],
  );
});

Deno.test("checkRegisteredTests() compares a state machine step's decorators by their text when the analysis records no expression", async (t) => {
  /** The analysis of `text` with no expression on any step's decorator. */
  const bare = (text: string) => {
    const sides = side(text);
    for (const fn of sides.modules.get(MODULE)!.functions.values()) {
      for (const step of fn.stateful?.steps ?? []) {
        for (const decorator of step.decorators) delete decorator.expr;
      }
    }
    return sides;
  };
  await t.step("the same decorators", () => {
    assert.deepEqual(checkedSides(bare(BASE), bare(BASE)).findings, []);
  });
  await t.step("a rule's strategy rewritten", () => {
    assert.deepEqual(
      checkedSides(bare(BASE), bare(edited("max_value=100", "max_value=3")))
        .findings.map((f) => `${f.rule}:${f.line}: ${f.message}`),
      [
        `property.strategy_narrowed:14: Property "stack" test "TestStack": the state machine step Stack.push changed its @rule(target=items, x=st.integers(min_value=0, max_value=100)) to @rule(target=items, x=st.integers(min_value=0, max_value=3)): it is too large to compare; restore the base's`,
      ],
    );
  });
});
