import assert from "node:assert/strict";
import type { EntryKind, Tree } from "../git/git.ts";
import { analyzePython } from "../python/analyze_python.ts";
import { loadPythonParser } from "../python/load_python_parser.ts";
import type { PythonModule } from "../python/python_module.ts";
import {
  checkRegisteredTests,
  type RegisteredTestsJudgement,
} from "./check_registered_tests.ts";

const parser = await loadPythonParser();
const MODULE = "tests/test_p.py";

const BASE = `from hypothesis import example, given, settings, strategies as st

NUMBERS = st.integers(min_value=0, max_value=100)


def helper(n):
    return n


@settings(max_examples=100, deadline=None)
@given(NUMBERS, st.lists(st.integers(), max_size=10))
@example(1, [])
def test_p(n, xs):
    assert helper(n) == n
`;

function side(files: Record<string, string>): {
  modules: Map<string, PythonModule>;
  tree: Tree;
} {
  const modules = new Map<string, PythonModule>();
  const tree = new Map();
  for (const [path, text] of Object.entries(files)) {
    modules.set(path, analyzePython(parser, text));
    tree.set(path, { path, kind: "file", oid: path, size: 1 });
  }
  return { modules, tree };
}

/** The judgement of the registered test `test_p` of MODULE, from `base` (BASE by default) to `head`. */
function judgement(
  head: Record<string, string>,
  options: { base?: Record<string, string>; layout?: string; name?: string } =
    {},
): RegisteredTestsJudgement {
  const base = side(options.base ?? { [MODULE]: BASE });
  const h = side(head);
  return checkRegisteredTests([{
    layout: options.layout ?? "000",
    id: "p",
    module: "tests.test_p",
    name: options.name ?? "test_p",
  }], {
    baseModules: base.modules,
    headModules: h.modules,
    baseTree: base.tree,
    headTree: h.tree,
    isTestSide: (path) => path.startsWith("tests/"),
  });
}

function judge(
  head: Record<string, string>,
  options: { base?: Record<string, string>; layout?: string; name?: string } =
    {},
): string[] {
  const found = judgement(head, options);
  return [
    ...found.findings.map((f) => `${f.rule}:${f.line}`),
    ...found.rewrites.map((r) => `rewrite:${r.line}`),
  ];
}

/** BASE with one replacement (which must apply). */
function with_(from: string, to: string): Record<string, string> {
  assert.ok(BASE.includes(from), from);
  return { [MODULE]: BASE.replace(from, to) };
}

Deno.test("checkRegisteredTests() accepts what cannot weaken the property", async (t) => {
  const cases: [string, Record<string, string>][] = [
    ["the base itself", { [MODULE]: BASE }],
    [
      "comments and layout",
      with_("@given(NUMBERS,", "# strategies\n@given(\n    NUMBERS,"),
    ],
    ["a wider bound", with_("max_value=100", "max_value=10**6")],
    ["a dropped lower bound", with_("min_value=0, ", "")],
    ["a larger max_size", with_("max_size=10", "max_size=50")],
    ["more examples", with_("max_examples=100", "max_examples=500")],
    [
      "another @example",
      with_("@example(1, [])", "@example(1, [])\n@example(2, [3])"),
    ],
    ["a new test beside it", {
      [MODULE]: `${BASE}\n\ndef test_other():\n    assert helper(2) == 2\n`,
    }],
    ["a dropped filter", {
      [MODULE]: BASE.replace(
        "max_value=100)",
        "max_value=100).filter(lambda n: n > 1)",
      ),
    }],
  ];
  for (const [name, head] of cases) {
    await t.step(name, () => {
      const base = name === "a dropped filter"
        ? { [MODULE]: head[MODULE]! }
        : undefined;
      const headFiles = name === "a dropped filter" ? { [MODULE]: BASE } : head;
      assert.deepEqual(
        judge(headFiles, base === undefined ? {} : { base }),
        [],
      );
    });
  }
});

Deno.test("checkRegisteredTests() rejects each way of weakening what pytest runs", async (t) => {
  const cases: [string, Record<string, string>, string][] = [
    [
      "a narrower bound",
      with_("max_value=100)", "max_value=10)"),
      "property.strategy_narrowed:3",
    ],
    [
      "st.just",
      with_("@given(NUMBERS,", "@given(st.just(3),"),
      "property.strategy_narrowed:11",
    ],
    [
      "a smaller max_size",
      with_("max_size=10", "max_size=1"),
      "property.strategy_narrowed:11",
    ],
    [
      "a filter",
      with_("@given(NUMBERS,", "@given(NUMBERS.filter(lambda n: n < 5),"),
      "property.strategy_narrowed:11",
    ],
    ["a shared strategy rebound later", {
      [MODULE]: `${BASE}\nNUMBERS = st.just(0)\n`,
    }, "property.strategy_narrowed:16"],
    [
      "settings through an alias",
      with_("@settings(max_examples=100, deadline=None)", "@_CI").valueOf() && {
        [MODULE]: BASE.replace(
          "@settings(max_examples=100, deadline=None)",
          "@_CI",
        ).replace("NUMBERS = ", "_CI = settings(max_examples=5)\nNUMBERS = "),
      },
      "property.settings_weakened:11",
    ],
    [
      "settings with a parent",
      with_(
        "@settings(max_examples=100, deadline=None)",
        "@settings(settings.get_profile('x'), deadline=None)",
      ),
      "property.settings_weakened:10",
    ],
    [
      "phases without generate (seed 002 has no settings rule of its own)",
      with_("deadline=None)", "deadline=None, phases=[Phase.explicit])"),
      "property.settings_weakened:10",
    ],
    [
      "a removed @example",
      with_("@example(1, [])\n", ""),
      "property.decorator_changed:10",
    ],
    [
      "a new decorator",
      with_("@settings(max_examples", "@lenient\n@settings(max_examples"),
      "property.decorator_changed:10",
    ],
    [
      "assume in the body",
      with_("    assert helper", "    assume(n > 50)\n    assert helper"),
      "property.assume_added:14",
    ],
    [
      "assume in a helper",
      with_("    return n\n", "    assume(n > 50)\n    return n\n"),
      "property.assume_added:7",
    ],
    [
      "an assignment after the def",
      { [MODULE]: `${BASE}\ntest_p = helper\n` },
      "property.rebound:16",
    ],
    ["an import after the def", {
      [MODULE]: `${BASE}\nfrom tests.weak import weak as test_p\n`,
    }, "property.rebound:16"],
    ["a globals() write", {
      [MODULE]: `${BASE}\nglobals()["test_p"] = helper\n`,
    }, "property.rebound:16"],
    ["a setattr on the module", {
      [MODULE]:
        `${BASE}\nimport sys\nsetattr(sys.modules[__name__], "test_p", helper)\n`,
    }, "property.rebound:17"],
    ["an unresolvable globals() update", {
      [MODULE]: `${BASE}\nglobals().update(WEAK)\n`,
    }, "property.rebound:16"],
    ["a del", { [MODULE]: `${BASE}\ndel test_p\n` }, "property.rebound:16"],
  ];
  for (const [name, head, want] of cases) {
    await t.step(name, () => {
      const layout = name.includes("seed 002") ? "002" : "000";
      const found = judge(head, { layout });
      assert.ok(
        found.includes(want),
        `${want} not in ${JSON.stringify(found)}`,
      );
    });
  }
});

Deno.test("checkRegisteredTests() follows strategies into other test-side modules", () => {
  const base = {
    [MODULE]:
      "from hypothesis import given\nfrom tests.strategies import ints\n\n@given(ints)\ndef test_p(n):\n    assert n == n + 0\n",
    "tests/strategies.py":
      "from hypothesis import strategies as st\nints = st.integers(0, 100)\n",
  };
  const narrowed = {
    ...base,
    "tests/strategies.py":
      "from hypothesis import strategies as st\nints = st.integers(0, 1)\n",
  };
  const widened = {
    ...base,
    "tests/strategies.py":
      "from hypothesis import strategies as st\nints = st.integers(-5, 1000)\n",
  };
  assert.deepEqual(judge(narrowed, { base }), ["property.strategy_narrowed:2"]);
  assert.deepEqual(judge(widened, { base }), []);
  const h = side(narrowed);
  const b = side(base);
  const found = checkRegisteredTests([{
    layout: "000",
    id: "p",
    module: "tests.test_p",
    name: "test_p",
  }], {
    baseModules: b.modules,
    headModules: h.modules,
    baseTree: b.tree,
    headTree: h.tree,
    isTestSide: (path) => path.startsWith("tests/"),
  });
  assert.deepEqual(
    found.findings.map((f) => [f.rule, f.path, f.line]),
    [["property.strategy_narrowed", "tests/strategies.py", 2]],
  );
});

Deno.test("checkRegisteredTests() judges a strategy reached through a helper or a constant by its width", async (t) => {
  const module = (top: string, given: string) =>
    `from hypothesis import given, strategies as st\n\n${top}\n\n@given(${given})\ndef test_p(s):\n    assert len(s) == len(s + "")\n`;
  const helper = (n: string) =>
    module(
      `def names():\n    """Names."""\n    return st.text(max_size=${n})`,
      "names()",
    );
  const constant = (n: string) =>
    module(
      `MAX_NAME = ${n}\n\ndef names():\n    return st.text(max_size=MAX_NAME)`,
      "names()",
    );
  const inline = (n: string) =>
    module(`MAX_NAME = ${n}`, "st.text(max_size=MAX_NAME)");
  const parameter = (n: string) =>
    module(
      `def names(size):\n    return st.text(min_size=1, max_size=size)`,
      `names(${n})`,
    );
  const imported = (n: string): Record<string, string> => ({
    [MODULE]:
      `from hypothesis import given\nfrom tests.strategies import names\n\n@given(names(${n}))\ndef test_p(s):\n    assert len(s) == len(s + "")\n`,
    "tests/strategies.py":
      `from hypothesis import strategies as st\n\n\ndef names(size):\n    return st.text(max_size=size)\n`,
  });
  const cases: [string, (n: string) => string | Record<string, string>][] = [
    ["a helper that returns the strategy", helper],
    ["a constant a helper's strategy reads", constant],
    ["a constant the @given strategy reads", inline],
    ["a helper's parameter", parameter],
    ["a helper of another test-side module", imported],
  ];
  for (const [name, write] of cases) {
    const files = (n: string) => {
      const written = write(n);
      return typeof written === "string" ? { [MODULE]: written } : written;
    };
    await t.step(`${name}: 5 to 6 is a widening`, () => {
      assert.deepEqual(judge(files("6"), { base: files("5") }), []);
    });
    await t.step(`${name}: 5 to 4 is a narrowing`, () => {
      const found = judge(files("4"), { base: files("5") });
      assert.equal(found.length, 1, JSON.stringify(found));
      assert.match(found[0] as string, /^property\.strategy_narrowed:/);
    });
  }
  await t.step(
    "a helper that does more than return is compared as written",
    () => {
      const base = {
        [MODULE]: module(
          `def names():\n    size = 5\n    return st.text(max_size=size)`,
          "names()",
        ),
      };
      const head = { [MODULE]: base[MODULE].replace("size = 5", "size = 6") };
      assert.deepEqual(judge(head, { base }), ["property.strategy_narrowed:3"]);
    },
  );
});

Deno.test("checkRegisteredTests() judges a seed-002 contract test's module code and helpers", async (t) => {
  const base = `import os

TRIALS = int(os.environ.get("CONTRACT_TRIALS", "200"))
SEED = int(os.environ.get("CONTRACT_SEED", "0"))


def holds(x):
    return x == x + 0


def test_p():
    for i in range(TRIALS):
        if not holds(SEED + i):
            raise AssertionError(i)
`;
  const cases: [string, string, string[]][] = [
    [
      "a new unrelated test",
      `${base}\n\ndef test_more():\n    assert holds(1)\n`,
      [],
    ],
    ["a capped trial count", base.replace('"200"))', '"200")) // 100'), [
      "property.contract_code_changed:3",
    ]],
    [
      "the seed from another variable",
      base.replace("CONTRACT_SEED", "OTHER_SEED"),
      ["property.contract_code_changed:4"],
    ],
    ["a weakened helper", base.replace("return x == x + 0", "return True"), [
      "property.contract_code_changed:7",
    ]],
    [
      "a new helper the test relies on instead",
      base.replace(
        "\n\ndef test_p():",
        "\n\ndef lenient(x):\n    return True\n\n\ndef test_p():",
      ).replace("if not holds(", "if not lenient("),
      ["property.contract_code_changed:11"],
    ],
    [
      "module code that rewrites the environment",
      `import os\nos.environ["CONTRACT_TRIALS"] = "1"\n${
        base.slice("import os\n".length)
      }`,
      ["property.contract_code_changed:2"],
    ],
  ];
  for (const [name, head, want] of cases) {
    await t.step(name, () => {
      assert.deepEqual(
        judge({ [MODULE]: head }, { base: { [MODULE]: base }, layout: "002" }),
        want,
      );
    });
  }
});

Deno.test("checkRegisteredTests() judges new Hypothesis profiles in the test-side tree", () => {
  const base = { [MODULE]: BASE, "tests/__init__.py": "" };
  const weak = {
    ...base,
    "tests/__init__.py":
      'from hypothesis import settings\nsettings.register_profile("ci", max_examples=2)\nsettings.load_profile("ci")\n',
  };
  const strong = {
    ...base,
    "tests/__init__.py":
      'from hypothesis import settings\nsettings.register_profile("thorough", max_examples=1000)\n',
  };
  assert.deepEqual(judge(weak, { base }), [
    "property.settings_weakened:2",
    "property.settings_weakened:3",
  ]);
  assert.deepEqual(judge(strong, { base }), []);
});

Deno.test("checkRegisteredTests() leaves direct @settings and skip marks to the layouts' own rules", () => {
  assert.deepEqual(judge(with_("max_examples=100", "max_examples=5")), []);
  assert.deepEqual(
    judge(
      with_(
        "@settings(max_examples",
        "@pytest.mark.skip\n@settings(max_examples",
      ),
    ),
    [],
  );
  assert.deepEqual(
    judge(with_("max_examples=100", "max_examples=5"), { layout: "002" }),
    [
      "property.settings_weakened:10",
    ],
  );
});

Deno.test("checkRegisteredTests() takes a change to a test with more than one @settings as a weakening of its settings", async (t) => {
  const two = with_(
    "@settings(max_examples=100, deadline=None)",
    "@settings(max_examples=100, deadline=None)\n@settings(max_examples=500)",
  );
  await t.step("the same two are no change", () => {
    assert.deepEqual(judge(two, { base: two, layout: "002" }), []);
  });
  await t.step("dropping one of the base's two is a change", () => {
    assert.deepEqual(judge({ [MODULE]: BASE }, { base: two, layout: "002" }), [
      "property.settings_weakened:10",
    ]);
  });
  await t.step("adding a second is a change", () => {
    assert.deepEqual(judge(two, { layout: "002" }), [
      "property.settings_weakened:10",
    ]);
  });
});

Deno.test("checkRegisteredTests() registers a profile as strong only from 100 examples up", async (t) => {
  const base = { [MODULE]: BASE, "tests/__init__.py": "" };
  for (
    const [examples, want] of [
      [99, ["property.settings_weakened:2"]],
      [50, ["property.settings_weakened:2"]],
      [100, []],
    ] as const
  ) {
    await t.step(`max_examples=${examples}`, () => {
      const head = {
        ...base,
        "tests/__init__.py":
          `from hypothesis import settings\nsettings.register_profile("p", max_examples=${examples})\n`,
      };
      assert.deepEqual(judge(head, { base }), want);
    });
  }
});

Deno.test("checkRegisteredTests() blames the pull request only for rebindings the base does not already make", () => {
  const rebound = `${BASE}\ntest_p = helper\n`;
  assert.deepEqual(
    judge({ [MODULE]: rebound }, { base: { [MODULE]: rebound } }),
    [],
  );
  assert.deepEqual(
    judge({ [MODULE]: `${rebound}test_p = helper\n` }, {
      base: { [MODULE]: rebound },
    }),
    ["property.rebound:16"],
  );
});

Deno.test("checkRegisteredTests() takes a seed-002 contract test's changed example database as a change of its settings", () => {
  const base = with_(
    "@settings(max_examples=100, deadline=None)",
    "@settings(max_examples=100, deadline=None, database=None)",
  );
  const other = with_(
    "@settings(max_examples=100, deadline=None)",
    '@settings(max_examples=100, deadline=None, database=DirectoryBasedExampleDatabase("x"))',
  );
  assert.deepEqual(judge(base, { base: other, layout: "002" }), []);
  assert.deepEqual(judge(other, { base, layout: "002" }), [
    "property.settings_weakened:10",
  ]);
});

Deno.test("checkRegisteredTests() searches every helper a test calls, past a name already searched", () => {
  const base = `from hypothesis import given, strategies as st


def check(n):
    assert n >= 0


def walk(n):
    # Names the strategies module the test's decorator names too.
    return 0 if st else n


@given(st.integers(min_value=0))
def test_p(n):
    check(n)
    assert walk(n) == 0
`;
  const head = base.replace("    assert n >= 0\n", "    pass\n");
  assert.deepEqual(
    judge({ [MODULE]: head }, { base: { [MODULE]: base } }),
    ["property.assertion_removed:14"],
  );
});

Deno.test("checkRegisteredTests() registers a profile with a parent as not strong, whatever its examples", () => {
  const base = { [MODULE]: BASE, "tests/__init__.py": "" };
  const head = {
    ...base,
    "tests/__init__.py":
      'from hypothesis import settings\nsettings.register_profile("p", settings.get_profile("default"), max_examples=500)\n',
  };
  assert.deepEqual(judge(head, { base }), ["property.settings_weakened:2"]);
});

Deno.test("checkRegisteredTests() finds a seed-002 contract test's removed module code", () => {
  const base =
    `import os\n\nTRIALS = int(os.environ.get("CONTRACT_TRIALS", "200"))\nprint("loaded")\n\n\ndef test_p():\n    for i in range(TRIALS):\n        assert i >= 0\n`;
  const head = base.replace('print("loaded")\n', "");
  assert.deepEqual(
    judge({ [MODULE]: head }, { base: { [MODULE]: base }, layout: "002" }),
    ["property.contract_code_changed:1"],
  );
});

Deno.test("checkRegisteredTests() judges a test registered twice once", () => {
  const base = side({ [MODULE]: BASE });
  const head = side({
    [MODULE]: BASE.replace("max_value=100)", "max_value=10)"),
  });
  const test = {
    layout: "000",
    id: "p",
    module: "tests.test_p",
    name: "test_p",
  };
  const found = checkRegisteredTests([test, { ...test }], {
    baseModules: base.modules,
    headModules: head.modules,
    baseTree: base.tree,
    headTree: head.tree,
    isTestSide: (path) => path.startsWith("tests/"),
  });
  assert.deepEqual(found.findings.map((f) => f.rule), [
    "property.strategy_narrowed",
  ]);
});

Deno.test("checkRegisteredTests() takes a star import after the def as a rebinding, and one before it as overridden", () => {
  assert.deepEqual(
    judge({ [MODULE]: `${BASE}\nfrom tests.weak import *\n` }),
    ["property.rebound:16"],
  );
  assert.deepEqual(
    judge({ [MODULE]: `from tests.weak import *\n${BASE}` }),
    [],
  );
});

Deno.test("checkRegisteredTests() judges a test registered in two layouts under each layout's rules", () => {
  const base = side({ [MODULE]: BASE });
  const head = side({ [MODULE]: `${BASE}\nprint("loaded")\n` });
  const test = {
    layout: "000",
    id: "p",
    module: "tests.test_p",
    name: "test_p",
  };
  const found = checkRegisteredTests([test, { ...test, layout: "002" }], {
    baseModules: base.modules,
    headModules: head.modules,
    baseTree: base.tree,
    headTree: head.tree,
    isTestSide: (path) => path.startsWith("tests/"),
  });
  assert.deepEqual(found.findings.map((f) => `${f.rule}:${f.line}`), [
    "property.contract_code_changed:16",
  ]);
});

Deno.test("checkRegisteredTests() judges a test only where the head defines it, and a new one only for its bindings", async (t) => {
  const without = { [MODULE]: "from hypothesis import given\n\nX = 1\n" };
  await t.step("a test the head no longer defines", () => {
    assert.deepEqual(judge(without), []);
  });
  await t.step("a test new at the head", () => {
    assert.deepEqual(judge({ [MODULE]: BASE }, { base: without }), []);
  });
  await t.step("a test new at the head that is rebound", () => {
    assert.deepEqual(
      judge({ [MODULE]: `${BASE}\ntest_p = helper\n` }, { base: without }),
      ["property.rebound:16"],
    );
  });
});

Deno.test("checkRegisteredTests() finds a registered module in a package's __init__.py or an executable file, never through a symlink or a submodule", async (t) => {
  const narrowed = BASE.replace("max_value=100)", "max_value=10)");
  const at = (path: string, kind: EntryKind, text: string) => ({
    modules: side({ [path]: text }).modules,
    tree: new Map([[path, { path, kind, oid: path, size: 1 }]]),
  });
  const cases: [string, string, EntryKind, string[]][] = [
    ["a package", "tests/test_p/__init__.py", "file", [
      "property.strategy_narrowed:3",
    ]],
    ["an executable file", MODULE, "executable", [
      "property.strategy_narrowed:3",
    ]],
    ["a symlink", MODULE, "symlink", []],
    ["a submodule", MODULE, "submodule", []],
  ];
  for (const [name, path, kind, want] of cases) {
    await t.step(name, () => {
      const base = at(path, kind, BASE);
      const head = at(path, kind, narrowed);
      const found = checkRegisteredTests([{
        layout: "000",
        id: "p",
        module: "tests.test_p",
        name: "test_p",
      }], {
        baseModules: base.modules,
        headModules: head.modules,
        baseTree: base.tree,
        headTree: head.tree,
        isTestSide: (p) => p.startsWith("tests/"),
      });
      assert.deepEqual(found.findings.map((f) => `${f.rule}:${f.line}`), want);
    });
  }
});

Deno.test("checkRegisteredTests() finds what pytest collects rebound wherever the rebinding is written", async (t) => {
  const method = `from hypothesis import given, strategies as st


class TestC:
    @given(st.integers())
    def test_x(self, n):
        assert n == n + 0
`;
  const nested = `from hypothesis import given, strategies as st


class TestO:
    class TestC:
        @given(st.integers())
        def test_x(self, n):
            assert n == n + 0
`;
  const cases: [string, string, Record<string, string>, string[]][] = [
    ["the class of a test method rebound", "TestC.test_x", {
      [MODULE]: `${method}\n\nTestC = None\n`,
    }, ["property.rebound:10"]],
    ["a method rebound in its class", "TestC.test_x", {
      [MODULE]: `${method}\n    test_x = None\n`,
    }, ["property.rebound:9"]],
    [
      "a global statement in a function written before the test",
      "test_p",
      {
        [MODULE]: BASE.replace(
          "\n\n@settings",
          "\n\ndef swap():\n    global test_p\n    test_p = helper\n\n\n@settings",
        ),
      },
      ["property.rebound:11"],
    ],
    ["the outer class of a nested test class rebound", "TestO.TestC.test_x", {
      [MODULE]: `${nested}\n\nTestO = None\n`,
    }, ["property.rebound:11"]],
    ["a nested test class rebound in its outer class", "TestO.TestC.test_x", {
      [MODULE]: `${nested}\n    TestC = None\n`,
    }, ["property.rebound:10"]],
    ["a globals() update written before the test", "test_p", {
      [MODULE]: BASE.replace(
        "\n\n@settings",
        "\n\nglobals().update(W)\n\n\n@settings",
      ),
    }, ["property.rebound:10"]],
  ];
  for (const [name, test, head, want] of cases) {
    await t.step(name, () => {
      const base = {
        [MODULE]: test === "test_p"
          ? BASE
          : test.startsWith("TestO.")
          ? nested
          : method,
      };
      assert.deepEqual(
        judge(head, { base, name: test }).filter((f) =>
          f.startsWith("property.rebound")
        ),
        want,
      );
    });
  }
});

Deno.test("checkRegisteredTests() takes any change to the number of @given decorators, or to a test with two, as a narrowing", async (t) => {
  const given = "@given(NUMBERS, st.lists(st.integers(), max_size=10))";
  const two = with_(
    given,
    `${given}\n@given(NUMBERS, st.lists(st.integers()))`,
  );
  const cases: [
    string,
    Record<string, string>,
    Record<string, string>,
    string[],
  ][] = [
    ["a dropped @given", { [MODULE]: BASE }, with_(`${given}\n`, ""), [
      "property.strategy_narrowed:12",
    ]],
    ["an added @given", { [MODULE]: BASE }, two, [
      "property.strategy_narrowed:11",
    ]],
    ["the same two", two, two, []],
    [
      "two, one of them widened",
      two,
      { [MODULE]: two[MODULE]!.replace("max_size=10", "max_size=20") },
      ["property.strategy_narrowed:11"],
    ],
  ];
  for (const [name, base, head, want] of cases) {
    await t.step(name, () => {
      assert.deepEqual(
        judge(head, { base }).filter((f) => f.startsWith("property.strategy")),
        want,
      );
    });
  }
});

/** Each finding as a user reads it: rule, place and message. */
function messages(
  head: Record<string, string>,
  options: { base?: Record<string, string>; layout?: string; name?: string } =
    {},
): string[] {
  return judgement(head, options).findings.map((f) =>
    `${f.rule} ${f.path}:${f.line}: ${f.message}`
  );
}

const METHOD = `from hypothesis import given, strategies as st


class TestC:
    @given(st.integers())
    def test_x(self, n):
        assert n == n + 0
`;

const MACHINE = `from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, rule, run_state_machine_as_test


class Stack(RuleBasedStateMachine):
    @rule(x=st.integers(min_value=0, max_value=100))
    def push(self, x):
        assert x >= 0
`;

Deno.test("checkRegisteredTests() says what rebinds the name pytest collects, where, and after which binding", async (t) => {
  const rebound = (what: string) =>
    `property.rebound tests/test_p.py:${what}; pytest collects the last binding of the name, so keep the def as its only binding`;
  const testP = 'Property "p" test "test_p" is not what pytest runs: ';
  const testX = 'Property "p" test "TestC.test_x" is not what pytest runs: ';
  const runner = `${MACHINE}

class TestC:
    def test_x(self):
        run_state_machine_as_test(Stack)
`;
  const testCase = `${MACHINE}

TestStack = Stack.TestCase
`;
  const runs = `import pytest
${MACHINE}

@pytest.mark.slow
def test_y():
    run_state_machine_as_test(Stack)
`;
  const cases: [string, string, string, string, string][] = [
    [
      "an assignment",
      "test_p",
      BASE,
      `${BASE}\ntest_p = helper\n`,
      `16: ${testP}"test_p" is rebound by an assignment at line 16, after the def at line 10`,
    ],
    [
      "a class",
      "test_p",
      BASE,
      `${BASE}\nclass test_p:\n    pass\n`,
      `16: ${testP}"test_p" is rebound by a class at line 16, after the def at line 10`,
    ],
    [
      "an import",
      "test_p",
      BASE,
      `${BASE}\nfrom tests.weak import weak as test_p\n`,
      `16: ${testP}"test_p" is rebound by an import at line 16, after the def at line 10`,
    ],
    [
      "a del",
      "test_p",
      BASE,
      `${BASE}\ndel test_p\n`,
      `16: ${testP}"test_p" is rebound by a del statement at line 16, after the def at line 10`,
    ],
    [
      "a setattr on the module",
      "test_p",
      BASE,
      `${BASE}\nimport sys\nsetattr(sys.modules[__name__], "test_p", helper)\n`,
      `17: ${testP}"test_p" is rebound through globals, setattr or a global statement at line 17`,
    ],
    [
      "a global statement",
      "test_p",
      BASE,
      BASE.replace(
        "\n\n@settings",
        "\n\ndef swap():\n    global test_p\n    test_p = helper\n\n\n@settings",
      ),
      `11: ${testP}"test_p" is rebound through globals, setattr or a global statement at line 11`,
    ],
    [
      "a globals() update",
      "test_p",
      BASE,
      `${BASE}\nglobals().update(WEAK)\n`,
      `16: ${testP}"globals().update(...)" at line 16 writes module globals pawl cannot resolve`,
    ],
    [
      "a star import after the def",
      "test_p",
      BASE,
      `${BASE}\nfrom tests.weak import *\n`,
      `16: ${testP}"from tests.weak import *" at line 16 writes module globals pawl cannot resolve`,
    ],
    [
      "the class of a test method, by a def",
      "TestC.test_x",
      METHOD,
      `${METHOD}\n\ndef TestC():\n    pass\n`,
      `10: ${testX}"TestC" is rebound by a def at line 10, after the class at line 4`,
    ],
    [
      "the class of a test method, by an assignment",
      "TestC.test_x",
      METHOD,
      `${METHOD}\n\nTestC = None\n`,
      `10: ${testX}"TestC" is rebound by an assignment at line 10, after the class at line 4`,
    ],
    [
      "a test method, in its class",
      "TestC.test_x",
      METHOD,
      `${METHOD}\n    test_x = None\n`,
      `9: ${testX}"TestC.test_x" is rebound by an assignment at line 9, after the def at line 5`,
    ],
    [
      "the class of a test method that runs a state machine",
      "TestC.test_x",
      runner,
      `${runner}\n\nTestC = None\n`,
      `16: ${testX}"TestC" is rebound by an assignment at line 16, after the class at line 11`,
    ],
    [
      "a decorated test function that runs a state machine",
      "test_y",
      runs,
      `${runs}\ntest_y = None\n`,
      `16: Property "p" test "test_y" is not what pytest runs: "test_y" is rebound by an assignment at line 16, after the def at line 12`,
    ],
    [
      "a state machine's TestCase, registered under the machine's name",
      "Stack",
      testCase,
      `${testCase}TestStack = None\n`,
      `12: Property "p" test "Stack" is not what pytest runs: "TestStack" is rebound by an assignment at line 12, after the assign at line 11`,
    ],
    [
      "a state machine's TestCase",
      "TestStack",
      testCase,
      `${testCase}TestStack = None\n`,
      `12: Property "p" test "TestStack" is not what pytest runs: "TestStack" is rebound by an assignment at line 12, after the assign at line 11`,
    ],
  ];
  for (const [name, test, base, head, want] of cases) {
    await t.step(name, () => {
      assert.deepEqual(
        messages({ [MODULE]: head }, { base: { [MODULE]: base }, name: test }),
        [rebound(want)],
      );
    });
  }
});

Deno.test("checkRegisteredTests() takes only a binding after the test's own as rebinding it", async (t) => {
  const cases: [string, string, Record<string, string>, string][] = [
    [
      "an assignment before the def",
      "test_p",
      { [MODULE]: BASE },
      `test_p = None\n${BASE}`,
    ],
    [
      "an assignment before a test method's class",
      "TestC.test_x",
      {},
      `TestC = None\n${METHOD}`,
    ],
    [
      "a test method new at the head",
      "TestC.test_x",
      { [MODULE]: "X = 1\n" },
      METHOD,
    ],
    [
      "another name the test's name begins with",
      "test_p",
      { [MODULE]: BASE },
      `${BASE}\ntest_ = None\n`,
    ],
  ];
  for (const [name, test, base, head] of cases) {
    await t.step(name, () => {
      assert.deepEqual(messages({ [MODULE]: head }, { base, name: test }), []);
    });
  }
});

Deno.test("checkRegisteredTests() judges the rebindings of a test whose module the base does not have", () => {
  assert.deepEqual(judge({ [MODULE]: BASE }, { base: {} }), []);
  assert.deepEqual(
    judge({ [MODULE]: `${BASE}\ntest_p = helper\n` }, { base: {} }),
    [
      "property.rebound:16",
    ],
  );
});

Deno.test("checkRegisteredTests() reads an analysis that records no dynamic writes as one with none", () => {
  const base = side({ [MODULE]: BASE });
  const head = side({ [MODULE]: `${BASE}\ntest_p = helper\n` });
  const { dynamicWrites: _, ...unwritten } = head.modules.get(MODULE)!;
  const found = checkRegisteredTests([{
    layout: "000",
    id: "p",
    module: "tests.test_p",
    name: "test_p",
  }], {
    baseModules: base.modules,
    headModules: new Map([[MODULE, unwritten]]),
    baseTree: base.tree,
    headTree: head.tree,
    isTestSide: (path) => path.startsWith("tests/"),
  });
  assert.deepEqual(found.findings.map((f) => `${f.rule}:${f.line}`), [
    "property.rebound:16",
  ]);
});

Deno.test("checkRegisteredTests() looks past a module path in the tree that has no analysis", () => {
  const narrowed = BASE.replace("max_value=100)", "max_value=10)");
  const base = side({ [MODULE]: BASE });
  const head = side({ [MODULE]: narrowed });
  const init = "tests/test_p/__init__.py";
  const tree = (t: Tree): Tree =>
    new Map([...t, [init, { path: init, kind: "file", oid: init, size: 1 }]]);
  const found = checkRegisteredTests([{
    layout: "000",
    id: "p",
    module: "tests.test_p",
    name: "test_p",
  }], {
    baseModules: base.modules,
    headModules: head.modules,
    baseTree: tree(base.tree),
    headTree: tree(head.tree),
    isTestSide: (path) => path.startsWith("tests/"),
  });
  assert.deepEqual(found.findings.map((f) => `${f.rule}:${f.path}:${f.line}`), [
    "property.strategy_narrowed:tests/test_p.py:3",
  ]);
});

Deno.test("checkRegisteredTests() reports a rewritten assertion under the property's key in the mutation runs", () => {
  const base = BASE.replace("assert helper(n) == n", "assert str(n).isdigit()");
  const head = base.replace(
    "assert str(n).isdigit()",
    "assert repr(n).isdigit()",
  );
  const found = checkRegisteredTests([{
    layout: "003",
    id: "p",
    module: "tests.test_p",
    name: "test_p",
  }], {
    baseModules: side({ [MODULE]: base }).modules,
    headModules: side({ [MODULE]: head }).modules,
    baseTree: side({ [MODULE]: base }).tree,
    headTree: side({ [MODULE]: head }).tree,
    isTestSide: (path) => path.startsWith("tests/"),
  });
  assert.deepEqual(found.findings, []);
  assert.deepEqual(found.rewrites.map((r) => [r.key, r.path, r.line]), [
    ["003/p", MODULE, 13],
  ]);
});

Deno.test("checkRegisteredTests() says how a test's @given changed", async (t) => {
  const given = "@given(NUMBERS, st.lists(st.integers(), max_size=10))";
  const none = with_(`${given}\n`, "");
  const two = with_(
    given,
    `${given}\n@given(NUMBERS, st.lists(st.integers()))`,
  );
  const changed = (from: number, to: number) =>
    `property.strategy_narrowed tests/test_p.py:11: Property "p" test "test_p" changed its @given decorators from ${from} to ${to}: restore the base's`;
  const cases: [
    string,
    Record<string, string>,
    Record<string, string>,
    string,
  ][] = [
    [
      "a narrower strategy",
      { [MODULE]: BASE },
      with_("max_value=100)", "max_value=10)"),
      `property.strategy_narrowed tests/test_p.py:3: Property "p" test "test_p" draws from strategies pawl cannot show are at least as wide as the base's: max_value narrowed from 100 to 10; restore the base strategies or widen them`,
    ],
    ["a second @given", { [MODULE]: BASE }, two, changed(1, 2)],
    ["one of two @given dropped", two, { [MODULE]: BASE }, changed(2, 1)],
    ["an @given added", none, { [MODULE]: BASE }, changed(0, 1)],
  ];
  for (const [name, base, head, want] of cases) {
    await t.step(name, () => {
      assert.deepEqual(
        messages(head, { base }).filter((f) =>
          f.startsWith("property.strategy")
        ),
        [want],
      );
    });
  }
});

Deno.test("checkRegisteredTests() knows Hypothesis's decorators by their bare names when a star import brings them", async (t) => {
  const star = with_(
    "from hypothesis import example, given, settings, strategies as st",
    "from hypothesis import *\nfrom hypothesis import strategies as st",
  );
  const edited = (from: string, to: string) => ({
    [MODULE]: star[MODULE]!.replace(from, to),
  });
  const cases: [string, Record<string, string>, string[]][] = [
    ["a narrower @given", edited("max_value=100)", "max_value=10)"), [
      "property.strategy_narrowed:4",
    ]],
    [
      "more examples in a direct @settings",
      edited("max_examples=100", "max_examples=500"),
      [],
    ],
    [
      "another @example",
      edited("@example(1, [])", "@example(1, [])\n@example(2, [3])"),
      [],
    ],
  ];
  for (const [name, head, want] of cases) {
    await t.step(name, () => {
      assert.deepEqual(judge(head, { base: star }), want);
    });
  }
});

Deno.test("checkRegisteredTests() takes a harmless settings keyword as no weakening of a seed-002 contract test", async (t) => {
  const settings = "deadline=None)";
  for (
    const changed of [
      "deadline=1000)",
      "deadline=None, verbosity=Verbosity.quiet)",
      "deadline=None, print_blob=True)",
      "deadline=None, report_multiple_bugs=False)",
    ]
  ) {
    await t.step(changed, () => {
      assert.deepEqual(judge(with_(settings, changed), { layout: "002" }), []);
    });
  }
});

Deno.test("checkRegisteredTests() takes a decorator whose dotted name only ends like unittest's skip as another decorator", () => {
  assert.deepEqual(
    judge(
      with_(
        "@settings(max_examples",
        "@compat.unittest.skip\n@settings(max_examples",
      ),
    ),
    ["property.decorator_changed:10"],
  );
});

Deno.test("checkRegisteredTests() follows at most eight aliases to an @given, and takes a longer chain as another decorator", async (t) => {
  const chain = (links: number, max: number) => {
    const aliases = Array.from(
      { length: links - 1 },
      (_, i) => `_G${i + 2} = _G${i + 1}\n`,
    ).join("");
    return {
      [MODULE]:
        `from hypothesis import given, strategies as st\n\n_G1 = given(st.integers(max_value=${max}))\n${aliases}\n\n@_G${links}\ndef test_p(n):\n    assert n <= 10**6\n`,
    };
  };
  await t.step("eight aliases", () => {
    assert.deepEqual(judge(chain(8, 1), { base: chain(8, 10) }), [
      "property.strategy_narrowed:3",
    ]);
  });
  await t.step("nine aliases", () => {
    assert.deepEqual(judge(chain(9, 1), { base: chain(9, 10) }), [
      "property.decorator_changed:14",
      "property.decorator_changed:15",
    ]);
  });
});

Deno.test("checkRegisteredTests() counts each copy of an @example or another decorator, and leaves a removed skip mark to the skip rules", async (t) => {
  const twice = with_("@example(1, [])", "@example(1, [])\n@example(1, [])");
  await t.step("one of two identical examples removed", () => {
    assert.deepEqual(judge({ [MODULE]: BASE }, { base: twice }), [
      "property.decorator_changed:10",
    ]);
  });
  await t.step("both kept", () => {
    assert.deepEqual(judge(twice, { base: twice }), []);
  });
  await t.step("a second copy of a decorator added", () => {
    const lenient = with_(
      "@settings(max_examples",
      "@lenient\n@settings(max_examples",
    );
    assert.deepEqual(
      judge({
        [MODULE]: lenient[MODULE]!.replace("@lenient", "@lenient\n@lenient"),
      }, {
        base: lenient,
      }),
      ["property.decorator_changed:11"],
    );
  });
  await t.step("a skip mark removed", () => {
    const skipped = with_(
      "@settings(max_examples",
      "@pytest.mark.skip\n@settings(max_examples",
    );
    assert.deepEqual(judge({ [MODULE]: BASE }, { base: skipped }), []);
  });
});

Deno.test("checkRegisteredTests() follows a seed-002 test's settings through their parent settings", async (t) => {
  const settingsLine = "@settings(max_examples=100, deadline=None)";
  const cases: [string, string, string, string[]][] = [
    [
      "a parent with more examples",
      "_STRONG = settings(max_examples=500)",
      "@settings(_STRONG, deadline=None)",
      [],
    ],
    [
      "a parent with fewer examples",
      "_WEAK = settings(max_examples=5)",
      "@settings(_WEAK, deadline=None)",
      ["property.settings_weakened:11"],
    ],
    [
      "a grandparent with fewer examples, through an alias",
      "_BASE = settings(max_examples=5)\n_ALIAS = _BASE\n_MIDDLE = settings(_ALIAS, deadline=None)",
      "@settings(_MIDDLE, deadline=None)",
      ["property.settings_weakened:13"],
    ],
    [
      "a grandparent with more examples, through an alias",
      "_BASE = settings(max_examples=500)\n_ALIAS = _BASE\n_MIDDLE = settings(_ALIAS, deadline=None)",
      "@settings(_MIDDLE, deadline=None)",
      [],
    ],
    [
      "a parent pawl cannot resolve",
      "",
      "@settings(UNKNOWN, deadline=None)",
      ["property.settings_weakened:11"],
    ],
    [
      "a parent that is a function",
      "def _parent():\n    return settings()",
      "@settings(_parent, deadline=None)",
      ["property.settings_weakened:12"],
    ],
  ];
  for (const [name, top, written, want] of cases) {
    await t.step(name, () => {
      const head = BASE.replace(settingsLine, written).replace(
        "NUMBERS = ",
        `${top}\nNUMBERS = `,
      );
      assert.deepEqual(
        judge({ [MODULE]: head }, { layout: "002" }).filter((f) =>
          f.startsWith("property.settings")
        ),
        want,
      );
    });
  }
});

Deno.test("checkRegisteredTests() compares a seed-002 test's settings keyword by keyword, with Hypothesis's defaults", async (t) => {
  const settingsLine = "@settings(max_examples=100, deadline=None)";
  const cases: [string, string, string, string[]][] = [
    [
      "settings removed where the base asks for more examples",
      "@settings(max_examples=500)",
      "",
      [
        "property.settings_weakened:12",
      ],
    ],
    [
      "settings removed that ask for the default",
      "@settings(max_examples=100)",
      "",
      [],
    ],
    ["settings added with fewer examples", "", "@settings(max_examples=50)", [
      "property.settings_weakened:10",
    ]],
    [
      "the default examples lowered",
      "@settings(deadline=None)",
      "@settings(max_examples=50)",
      [
        "property.settings_weakened:10",
      ],
    ],
    [
      "the default examples raised",
      "@settings(deadline=None)",
      "@settings(max_examples=101)",
      [],
    ],
    [
      "examples dropped back to the default",
      "@settings(max_examples=150)",
      "@settings(deadline=None)",
      [
        "property.settings_weakened:10",
      ],
    ],
    [
      "examples pawl cannot count",
      "@settings(max_examples=100)",
      "@settings(max_examples=N)",
      [
        "property.settings_weakened:10",
      ],
    ],
    [
      "base examples pawl cannot count",
      "@settings(max_examples=N)",
      "@settings(max_examples=100)",
      [
        "property.settings_weakened:10",
      ],
    ],
    [
      "the default examples written out",
      "@settings(deadline=None)",
      "@settings(max_examples=100)",
      [],
    ],
    [
      "an example database dropped",
      '@settings(database=DirectoryBasedExampleDatabase("x"))',
      "@settings(deadline=None)",
      [],
    ],
    [
      "a changed deadline",
      "@settings(deadline=None)",
      "@settings(deadline=1000)",
      [],
    ],
    [
      "a changed verbosity",
      "@settings(deadline=None)",
      "@settings(deadline=None, verbosity=Verbosity.quiet)",
      [],
    ],
    [
      "base settings pawl cannot resolve",
      "@settings(UNKNOWN)",
      "@settings(max_examples=500)",
      [
        "property.settings_weakened:10",
      ],
    ],
    [
      "a keyword pawl does not know",
      "@settings(deadline=None)",
      "@settings(deadline=None, backend='crosshair')",
      [
        "property.settings_weakened:10",
      ],
    ],
    [
      "a keyword pawl does not know dropped",
      "@settings(deadline=None, backend='crosshair')",
      "@settings(deadline=None)",
      [
        "property.settings_weakened:10",
      ],
    ],
    [
      "the step count dropped back to the default from above it",
      "@settings(stateful_step_count=500)",
      "@settings(deadline=None)",
      [
        "property.settings_weakened:10",
      ],
    ],
    [
      "derandomize turned on",
      "@settings(deadline=None)",
      "@settings(derandomize=True)",
      [
        "property.settings_weakened:10",
      ],
    ],
    [
      "derandomize turned off",
      "@settings(derandomize=True)",
      "@settings(derandomize=False)",
      [],
    ],
    [
      "finding phases added",
      "@settings(phases=[Phase.explicit, Phase.generate])",
      "@settings(phases=[Phase.explicit, Phase.reuse, Phase.generate, Phase.target])",
      [],
    ],
    [
      "a health check no longer suppressed",
      "@settings(suppress_health_check=[HealthCheck.too_slow])",
      "@settings(suppress_health_check=[])",
      [],
    ],
    [
      "one of two suppressed health checks kept",
      "@settings(suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])",
      "@settings(suppress_health_check=[HealthCheck.too_slow])",
      [],
    ],
    [
      "a health check suppressed",
      "@settings(deadline=None)",
      "@settings(suppress_health_check=[HealthCheck.too_slow])",
      ["property.settings_weakened:10"],
    ],
    [
      "the step count lowered",
      "@settings(stateful_step_count=50)",
      "@settings(stateful_step_count=5)",
      [
        "property.settings_weakened:10",
      ],
    ],
    [
      "the step count raised",
      "@settings(stateful_step_count=50)",
      "@settings(stateful_step_count=500)",
      [],
    ],
  ];
  for (const [name, base, head, want] of cases) {
    await t.step(name, () => {
      const text = (written: string) =>
        BASE.replace(`${settingsLine}\n`, written === "" ? "" : `${written}\n`)
          .replace(
            "import example,",
            "import HealthCheck, Phase, Verbosity, example,",
          );
      assert.deepEqual(
        judge({ [MODULE]: text(head) }, {
          base: { [MODULE]: text(base) },
          layout: "002",
        }).filter((f) => f.startsWith("property.settings")),
        want,
      );
    });
  }
});

/** Each finding as a user reads it: its rule, line and message. */
function findingMessages(
  head: Record<string, string>,
  options: { base?: Record<string, string>; layout?: string } = {},
): string[] {
  return judgement(head, options).findings.map((f) =>
    `${f.rule}:${f.line}: ${f.message}`
  );
}

Deno.test("checkRegisteredTests() says which setting or decorator changed, where, and how to restore it", async (t) => {
  const settingsLine = "@settings(max_examples=100, deadline=None)";
  const settings = (written: string) => with_(settingsLine, written);
  const label = 'Property "p" test "test_p"';
  const weaker = (line: number, why: string) =>
    `property.settings_weakened:${line}: ${label} has weaker Hypothesis settings: ${why}; restore the base settings`;
  const bare = {
    [MODULE]: BASE.replace(`${settingsLine}\n`, "").replace(
      "@given(NUMBERS, st.lists(st.integers(), max_size=10))\n@example(1, [])\n",
      "",
    ),
  };
  const cases: [
    string,
    Record<string, string>,
    Record<string, string>,
    string,
    string[],
  ][] = [
    [
      "fewer examples",
      { [MODULE]: BASE },
      settings("@settings(max_examples=50)"),
      "002",
      [weaker(10, "max_examples lowered from 100 to 50")],
    ],
    [
      "head settings pawl cannot resolve",
      { [MODULE]: BASE },
      settings("@settings(UNKNOWN)"),
      "002",
      [weaker(10, "@settings(UNKNOWN) cannot be resolved to literal settings")],
    ],
    [
      "base settings pawl cannot resolve",
      settings("@settings(UNKNOWN)"),
      { [MODULE]: BASE },
      "002",
      [
        weaker(
          10,
          "the base's settings could not be resolved, so the change cannot be shown to strengthen",
        ),
      ],
    ],
    [
      "examples pawl cannot count, from the default",
      settings("@settings(deadline=None)"),
      settings("@settings(max_examples=N)"),
      "002",
      [
        weaker(
          10,
          "max_examples changed from the default to N, which pawl cannot compare",
        ),
      ],
    ],
    [
      "examples pawl cannot count, back to the default",
      settings("@settings(max_examples=N)"),
      settings("@settings(deadline=None)"),
      "002",
      [
        weaker(
          10,
          "max_examples changed from N to the default, which pawl cannot compare",
        ),
      ],
    ],
    [
      "a keyword pawl does not know, added",
      settings("@settings(deadline=None)"),
      settings("@settings(backend='x')"),
      "002",
      [weaker(10, 'backend changed from the default to "x"')],
    ],
    [
      "a keyword pawl does not know, dropped",
      settings("@settings(backend='x')"),
      settings("@settings(deadline=None)"),
      "002",
      [weaker(10, 'backend changed from "x" to the default')],
    ],
    [
      "two keywords changed: the first in alphabetical order",
      settings("@settings(max_examples=100)"),
      settings("@settings(max_examples=50, backend='x')"),
      "002",
      [weaker(10, 'backend changed from the default to "x"')],
    ],
    [
      "one of two @settings changed",
      settings(`${settingsLine}\n@settings(max_examples=500)`),
      settings(`${settingsLine}\n@settings(max_examples=50)`),
      "002",
      [weaker(10, "more than one @settings decorator changed")],
    ],
    [
      "an @example removed",
      { [MODULE]: BASE },
      with_("@example(1, [])\n", ""),
      "000",
      [
        `property.decorator_changed:10: ${label} lost its @example(1, []) (base line 12): explicit examples may be added, never removed`,
      ],
    ],
    [
      "an @example removed with every other decorator",
      { [MODULE]: BASE },
      bare,
      "000",
      [
        `property.strategy_narrowed:10: ${label} changed its @given decorators from 1 to 0: restore the base's`,
        `property.decorator_changed:10: ${label} lost its @example(1, []) (base line 12): explicit examples may be added, never removed`,
      ],
    ],
    [
      "another decorator swapped for a new one",
      settings(`@lenient\n${settingsLine}`),
      settings(`@strict\n${settingsLine}`),
      "000",
      [
        `property.decorator_changed:10: ${label} has a decorator @strict the base does not have (or changed its definition): a decorator can replace the test, so it is human-owned`,
        `property.decorator_changed:14: ${label} lost its decorator @lenient (base line 10): restore it`,
      ],
    ],
  ];
  for (const [name, base, head, layout, want] of cases) {
    await t.step(name, () => {
      assert.deepEqual(findingMessages(head, { base, layout }), want);
    });
  }
});

Deno.test("checkRegisteredTests() takes a seed-002 test's settings written the same on both sides as unchanged, even where pawl cannot resolve them", async (t) => {
  const settingsLine = "@settings(max_examples=100, deadline=None)";
  const cases: [string, string, string][] = [
    [
      "the same unresolvable settings",
      "@settings(UNKNOWN)",
      "@settings(UNKNOWN)",
    ],
    [
      "a keyword pawl does not know, kept, beside a harmless change",
      "@settings(backend='x', deadline=None)",
      "@settings(backend='x', deadline=1000)",
    ],
  ];
  for (const [name, base, head] of cases) {
    await t.step(name, () => {
      assert.deepEqual(
        judge(with_(settingsLine, head), {
          base: with_(settingsLine, base),
          layout: "002",
        }),
        [],
      );
    });
  }
});

Deno.test("checkRegisteredTests() follows a seed-002 test's parent settings only through settings() calls, a bounded number of steps", async (t) => {
  const settingsLine = "@settings(max_examples=100, deadline=None)";
  const parents = (n: number) =>
    [
      "_P0 = settings(max_examples=500)",
      ...Array.from(
        { length: n },
        (_, i) => `_P${i + 1} = settings(_P${i})`,
      ),
    ].join("\n");
  const aliases = (n: number) =>
    [
      "_A0 = settings(max_examples=500)",
      ...Array.from({ length: n }, (_, i) => `_A${i + 1} = _A${i}`),
    ].join("\n");
  const cases: [string, string, string, string[]][] = [
    [
      "a parent made by calling a function",
      "def _parent():\n    return settings()",
      "@settings(_parent(), deadline=None)",
      ["property.settings_weakened:12"],
    ],
    [
      "a parent computed from the settings class",
      "",
      "@settings(settings or None, deadline=None)",
      ["property.settings_weakened:11"],
    ],
    [
      "parents that name each other",
      "_A = settings(_B)\n_B = settings(_A)",
      "@settings(_A, deadline=None)",
      ["property.settings_weakened:12"],
    ],
    [
      "eight generations of parents",
      parents(7),
      "@settings(_P7, deadline=None)",
      [],
    ],
    [
      "nine generations of parents",
      parents(8),
      "@settings(_P8, deadline=None)",
      ["property.settings_weakened:19"],
    ],
    [
      "a parent reached through seven aliases",
      aliases(7),
      "@settings(_A7, deadline=None)",
      [],
    ],
    [
      "a parent reached through eight aliases",
      aliases(8),
      "@settings(_A8, deadline=None)",
      ["property.settings_weakened:19"],
    ],
  ];
  for (const [name, top, written, want] of cases) {
    await t.step(name, () => {
      const head = BASE.replace(settingsLine, written).replace(
        "NUMBERS = ",
        `${top}\nNUMBERS = `,
      );
      assert.deepEqual(
        judge({ [MODULE]: head }, { layout: "002" }).filter((f) =>
          f.startsWith("property.settings")
        ),
        want,
      );
    });
  }
});

Deno.test("checkRegisteredTests() follows a seed-002 test's parent settings into another test-side module on each side", () => {
  const module = (settings: string) =>
    BASE.replace(
      "@settings(max_examples=100, deadline=None)",
      settings,
    ).replace(
      "strategies as st\n",
      "strategies as st\nfrom tests.profiles import THOROUGH\n",
    );
  const profiles = (examples: number) =>
    `from hypothesis import settings\nTHOROUGH = settings(max_examples=${examples})\n`;
  const base = {
    [MODULE]: module("@settings(THOROUGH, deadline=None)"),
    "tests/profiles.py": profiles(500),
  };
  const settingsFindings = (head: Record<string, string>) =>
    judge(head, { base, layout: "002" }).filter((f) =>
      f.startsWith("property.settings")
    );
  assert.deepEqual(
    settingsFindings({ ...base, "tests/profiles.py": profiles(5) }),
    ["property.settings_weakened:11"],
  );
  assert.deepEqual(
    settingsFindings({
      ...base,
      [MODULE]: module("@settings(max_examples=500, deadline=None)"),
    }),
    [],
  );
});

Deno.test("checkRegisteredTests() points a new assume() at the last one written, in the test or a helper", () => {
  const head = BASE.replace(
    "    return n\n",
    "    assume(n > 50)\n    return n\n",
  )
    .replace("    assert helper", "    assume(n < 90)\n    assert helper");
  assert.deepEqual(judge({ [MODULE]: head }), ["property.assume_added:15"]);
});

Deno.test("checkRegisteredTests() follows a renamed @given parameter, never a renamed fixture", async (t) => {
  const base = `from hypothesis import given, strategies as st


@given(st.integers())
def test_p(limit, n):
    assert n <= limit or n > limit
`;
  const keyword = base.replace(
    "@given(st.integers())",
    "@given(n=st.integers())",
  ).replace("(limit, n)", "(n, limit)");
  const cases: [string, string, string, string[]][] = [
    [
      "the parameter @given fills renamed",
      base,
      base.replaceAll("n <= limit or n > limit", "m <= limit or m > limit")
        .replace("(limit, n)", "(limit, m)"),
      [],
    ],
    ["the fixture renamed", base, base.replaceAll("limit", "bound"), [
      "rewrite:5",
    ]],
    [
      "the fixture renamed beside a parameter @given fills by keyword",
      keyword,
      keyword.replaceAll("limit", "bound"),
      ["rewrite:5"],
    ],
    [
      "a parameter beside a splat of strategies renamed",
      base.replace("@given(st.integers())", "@given(st.integers(), *EXTRA)")
        .replace("\n\n\n@given", "\nEXTRA = ()\n\n\n@given"),
      base.replace("@given(st.integers())", "@given(st.integers(), *EXTRA)")
        .replace("\n\n\n@given", "\nEXTRA = ()\n\n\n@given")
        .replaceAll("n <= limit or n > limit", "m <= limit or m > limit")
        .replace("(limit, n)", "(limit, m)"),
      ["rewrite:6"],
    ],
    [
      "a test that no longer asserts anything (property.vacuous judges it)",
      base,
      base.replace("assert n <= limit or n > limit", "print(n)"),
      [],
    ],
  ];
  for (const [name, before, after, want] of cases) {
    await t.step(name, () => {
      assert.deepEqual(
        judge({ [MODULE]: after }, { base: { [MODULE]: before } }),
        want,
      );
    });
  }
});

Deno.test("checkRegisteredTests() counts an assume() in a helper once, however many helpers reach it", () => {
  const base = `from hypothesis import assume, given, strategies as st


def check(n):
    return n


def left(n):
    return check(n)


def right(n):
    return check(n)


@given(st.integers())
def test_p(n):
    assume(n > 0)
    assert left(n) == right(n)
`;
  const head = base.replace(
    "    return n\n",
    "    assume(n > 0)\n    return n\n",
  )
    .replace("    assume(n > 0)\n    assert", "    assert");
  assert.deepEqual(judge({ [MODULE]: head }, { base: { [MODULE]: base } }), []);
});

/** Each finding as `rule:line message`, each rewrite as `rewrite:line what`. */
function judgedMessages(
  head: Record<string, string>,
  options: { base?: Record<string, string>; layout?: string } = {},
): string[] {
  const found = judgement(head, options);
  return [
    ...found.findings.map((f) => `${f.rule}:${f.line} ${f.message}`),
    ...found.rewrites.map((r) => `rewrite:${r.line} ${r.what}`),
  ];
}

Deno.test("checkRegisteredTests() says in each finding what changed, in which test, why it weakens and where", async (t) => {
  const checked = `from hypothesis import given, strategies as st


def check(n):
    assert n >= 0
    assert n < 10**9


@given(st.integers(min_value=0))
def test_p(n):
    assert n * 1 >= 0
    check(n)
    assert str(n).isdigit()
`;
  const machine = `from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule, run_state_machine_as_test


class Stack(RuleBasedStateMachine):
    @rule(x=st.integers())
    def push(self, x):
        assert x >= 0 or x < 0

    @invariant()
    def bounded(self):
        pass


def test_p():
    run_state_machine_as_test(Stack)
`;
  const cases: [
    string,
    Record<string, string>,
    Record<string, string>,
    string[],
  ][] = [
    [
      "an assume() added to the test",
      { [MODULE]: BASE },
      with_(
        "    assert helper(n) == n",
        "    assume(n > 1)\n    assert helper(n) == n",
      ),
      [
        'property.assume_added:14 Property "p" test "test_p" filters its inputs with 1 assume()/reject() call where the base has 0: an assumption can discard exactly the inputs that fail; fix the code instead',
      ],
    ],
    [
      "two assume() calls added",
      { [MODULE]: BASE },
      with_(
        "    assert helper(n) == n",
        "    assume(n > 1)\n    assume(n < 99)\n    assert helper(n) == n",
      ),
      [
        'property.assume_added:15 Property "p" test "test_p" filters its inputs with 2 assume()/reject() calls where the base has 0: an assumption can discard exactly the inputs that fail; fix the code instead',
      ],
    ],
    ["assertions dropped from the test and a helper", { [MODULE]: checked }, {
      [MODULE]: checked.replace(
        "    assert n >= 0\n    assert n < 10**9\n",
        "    pass\n",
      )
        .replace("    assert n * 1 >= 0\n", ""),
    }, [
      `property.assertion_removed:9 Property "p" test "test_p" no longer makes 3 of the base's assertions (base tests/test_p.py line(s) 5, 6, 11), in the test, its state machine's steps or the helpers they call: an assertion may be added, renamed or made stronger, never dropped or weakened; restore it, or change it on the base branch`,
    ]],
    ["an assertion rewritten and nothing dropped", { [MODULE]: checked }, {
      [MODULE]: checked.replace("str(n)", "repr(n)"),
    }, [
      `rewrite:10 Property "p" test "test_p" rewrites 1 of the base's assertions in a way their form does not show is at least as strong (base tests/test_p.py line(s) 13, now line(s) 13)`,
    ]],
    ["a test that no longer runs its state machine", { [MODULE]: machine }, {
      [MODULE]: machine.replace(
        "    run_state_machine_as_test(Stack)",
        "    assert 1 + 1 == 2",
      ),
    }, [
      'property.decorator_changed:15 Property "p" test "test_p" lost the state machine step Stack.push (@rule, base line 7): rules, invariants and initializers may be added, never removed',
      'property.decorator_changed:15 Property "p" test "test_p" lost the state machine step Stack.bounded (@invariant, base line 11): rules, invariants and initializers may be added, never removed',
      `rewrite:15 Property "p" test "test_p" rewrites 1 of the base's assertions in a way their form does not show is at least as strong (base tests/test_p.py line(s) 8, now line(s) 16)`,
    ]],
  ];
  for (const [name, base, head, want] of cases) {
    await t.step(name, () => {
      assert.deepEqual(judgedMessages(head, { base }), want);
    });
  }
});

Deno.test("checkRegisteredTests() follows a renamed local in each function on its own", () => {
  const base = `from hypothesis import given, strategies as st


def check(n):
    x = n + 1
    assert x > n


@given(st.integers())
def test_p(n):
    x = n * 2
    assert x == n + n
    check(n)
`;
  const head = base.replace(
    "    x = n + 1\n    assert x > n",
    "    y = n + 1\n    assert y > n",
  );
  assert.notEqual(head, base);
  assert.deepEqual(judge({ [MODULE]: head }, { base: { [MODULE]: base } }), []);
});

Deno.test("checkRegisteredTests() finds the parameters @given fills wherever it sits among the decorators, bare names too", async (t) => {
  const base = `from hypothesis import given, settings, strategies as st

LOW = st.integers(max_value=0)
HIGH = st.integers(min_value=1)


@settings(deadline=None)
@given(LOW, HIGH)
def test_p(a, b):
    assert a < b
`;
  const cases: [string, string, string[]][] = [
    [
      "both parameters renamed",
      base.replace(
        "(a, b):\n    assert a < b",
        "(lo, hi):\n    assert lo < hi",
      ),
      [],
    ],
    [
      "the parameters swapped",
      base.replace("(a, b):", "(b, a):"),
      ["rewrite:9"],
    ],
  ];
  for (const [name, head, want] of cases) {
    await t.step(name, () => {
      assert.deepEqual(
        judge({ [MODULE]: head }, { base: { [MODULE]: base } }),
        want,
      );
    });
  }
});

Deno.test("checkRegisteredTests() judges the def a helper's name is last bound to, not one it rebinds", () => {
  const base = `from hypothesis import given, strategies as st


def check(n):
    assert n >= 0


def bounded(n):
    assert n < 10**9


check = bounded


@given(st.integers(min_value=0))
def test_p(n):
    check(n)
    assert n + 1 > n
`;
  assert.deepEqual(
    judge({ [MODULE]: base.replace("    assert n >= 0\n", "    pass\n") }, {
      base: { [MODULE]: base },
    }),
    [],
  );
  assert.deepEqual(
    judge({ [MODULE]: base.replace("    assert n < 10**9\n", "    pass\n") }, {
      base: { [MODULE]: base },
    }),
    ["property.assertion_removed:16"],
  );
});

Deno.test("checkRegisteredTests() judges a test whose helper is defined in a try block", () => {
  const base = `from hypothesis import given, strategies as st

try:
    def check(n):
        assert n >= 0
except ImportError:
    pass


@given(st.integers(min_value=0))
def test_p(n):
    check(n)
    assert n < 10**9
`;
  assert.deepEqual(
    judge({ [MODULE]: base }, { base: { [MODULE]: base } }),
    [],
  );
});

Deno.test("checkRegisteredTests() reads an analysis that records no definitions as one with no helpers", () => {
  const text = `from hypothesis import given, strategies as st


def helper(n):
    return n


@given(st.integers())
def test_p(n):
    assert helper(n) == n
`;
  const base = side({ [MODULE]: text });
  const head = side({ [MODULE]: text });
  const { definitions: _, ...undefined_ } = head.modules.get(MODULE)!;
  const found = checkRegisteredTests([{
    layout: "000",
    id: "p",
    module: "tests.test_p",
    name: "test_p",
  }], {
    baseModules: base.modules,
    headModules: new Map([[MODULE, undefined_]]),
    baseTree: base.tree,
    headTree: head.tree,
    isTestSide: (path) => path.startsWith("tests/"),
  });
  assert.deepEqual(found.findings, []);
});

Deno.test("checkRegisteredTests() takes a state machine's TestCase rewritten as a function that runs it as making the same assertions", () => {
  const machine = `from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, rule, run_state_machine_as_test


class Stack(RuleBasedStateMachine):
    @rule(x=st.integers())
    def push(self, x):
        assert x >= 0 or x < 0
`;
  assert.deepEqual(
    judge({
      [MODULE]:
        `${machine}\n\ndef test_p():\n    run_state_machine_as_test(Stack)\n`,
    }, { base: { [MODULE]: `${machine}\n\ntest_p = Stack.TestCase\n` } }),
    [],
  );
});

Deno.test("checkRegisteredTests() takes an attribute of a Hypothesis enum member in a seed-002 test's settings as a value it cannot read", () => {
  const text = (written: string) =>
    BASE.replace("@settings(max_examples=100, deadline=None)", written)
      .replace("import example,", "import HealthCheck, example,");
  const base = text("@settings(suppress_health_check=[HealthCheck.too_slow])");
  assert.deepEqual(
    judge({ [MODULE]: base }, { base: { [MODULE]: base }, layout: "002" }),
    [],
  );
  assert.deepEqual(
    judge({
      [MODULE]: text(
        "@settings(suppress_health_check=[HealthCheck.too_slow.value])",
      ),
    }, { base: { [MODULE]: base }, layout: "002" }),
    ["property.settings_weakened:10"],
  );
});

Deno.test("checkRegisteredTests() takes a seed-002 contract test's environment reads as a set", () => {
  const base = `import os


def test_p():
    trials = int(os.environ.get("CONTRACT_TRIALS", "200"))
    seed = int(os.environ.get("CONTRACT_SEED", "0"))
    for i in range(trials):
        assert seed + i >= i
`;
  const swapped = base.replace(
    '    trials = int(os.environ.get("CONTRACT_TRIALS", "200"))\n    seed = int(os.environ.get("CONTRACT_SEED", "0"))\n',
    '    seed = int(os.environ.get("CONTRACT_SEED", "0"))\n    trials = int(os.environ.get("CONTRACT_TRIALS", "200"))\n',
  );
  assert.notEqual(swapped, base);
  assert.deepEqual(
    judge({ [MODULE]: swapped }, { base: { [MODULE]: base }, layout: "002" }),
    [],
  );
  assert.deepEqual(
    judge({ [MODULE]: swapped.replace("CONTRACT_SEED", "OTHER_SEED") }, {
      base: { [MODULE]: base },
      layout: "002",
    }),
    ["property.contract_code_changed:4"],
  );
});

Deno.test("checkRegisteredTests() reports a seed-002 contract test's first change to its module code only", async (t) => {
  const base = `import os

TRIALS = int(os.environ.get("CONTRACT_TRIALS", "200"))
print("loaded")


def holds(x):
    return x == x + 0


def test_p():
    for i in range(TRIALS):
        assert holds(i)
`;
  const cases: [string, string, string[]][] = [
    [
      "two new statements",
      base.replace(
        'print("loaded")\n',
        'print("loaded")\nprint("a")\nprint("b")\n',
      ),
      ["property.contract_code_changed:5"],
    ],
    [
      "a statement run twice",
      base.replace('print("loaded")\n', 'print("loaded")\nprint("loaded")\n'),
      ["property.contract_code_changed:5"],
    ],
    [
      "a statement removed and a helper weakened",
      base.replace('print("loaded")\n', "").replace(
        "return x == x + 0",
        "return True",
      ),
      ["property.contract_code_changed:1"],
    ],
  ];
  for (const [name, head, want] of cases) {
    await t.step(name, () => {
      assert.deepEqual(
        judge({ [MODULE]: head }, { base: { [MODULE]: base }, layout: "002" }),
        want,
      );
    });
  }
});

Deno.test("checkRegisteredTests() reports the first helper a seed-002 contract test relies on that changed", () => {
  const base = `def holds(x):
    return x == x + 0


def bounded(x):
    return x < 10**9


def test_p():
    for i in range(200):
        assert holds(i) and bounded(i)
`;
  const head = base.replace("return x == x + 0", "return True").replace(
    "return x < 10**9",
    "return True",
  );
  assert.deepEqual(
    judge({ [MODULE]: head }, { base: { [MODULE]: base }, layout: "002" }),
    ["property.contract_code_changed:1"],
  );
});

Deno.test("checkRegisteredTests() judges Hypothesis profiles on the test side only, each call counted", async (t) => {
  const weak =
    'from hypothesis import settings\nsettings.register_profile("ci", max_examples=2)\n';
  const cases: [
    string,
    Record<string, string>,
    Record<string, string>,
    string[],
  ][] = [
    ["a weak profile outside the test side", {}, { "src/app.py": weak }, []],
    ["a weak profile the base registers too", { "tests/conftest.py": weak }, {
      "tests/conftest.py": weak,
    }, []],
    ["a new profile that only sets harmless settings and many examples", {}, {
      "tests/conftest.py":
        'from hypothesis import settings\nsettings.register_profile("slow", max_examples=500, deadline=None, print_blob=True)\n',
    }, []],
    ["a new profile that turns on derandomize", {}, {
      "tests/conftest.py":
        'from hypothesis import settings\nsettings.register_profile("slow", max_examples=500, derandomize=True)\n',
    }, ["property.settings_weakened:2"]],
    ["a weak profile registered a second time", { "tests/conftest.py": weak }, {
      "tests/conftest.py":
        `${weak}settings.register_profile("ci", max_examples=2)\n`,
    }, ["property.settings_weakened:3"]],
  ];
  for (const [name, base, head, want] of cases) {
    await t.step(name, () => {
      assert.deepEqual(
        judge({ [MODULE]: BASE, ...head }, {
          base: { [MODULE]: BASE, ...base },
        }),
        want,
      );
    });
  }
});

Deno.test("checkRegisteredTests() says what changed in a seed-002 contract test's code, and where", async (t) => {
  const seeded = `import os

TRIALS = int(os.environ.get("CONTRACT_TRIALS", "200"))
print("loaded")


def holds(x):
    return x == x + 0


def test_p():
    for i in range(TRIALS):
        assert holds(i)
`;
  const reads = `import os


def test_p():
    trials = int(os.environ.get("CONTRACT_TRIALS", "200"))
    seed = int(os.environ.get("CONTRACT_SEED", "0"))
    for i in range(trials):
        assert seed + i >= i
`;
  const test = 'Property "p" test "test_p"';
  const cases: [string, string, string, string[]][] = [
    [
      "the seed read from another variable",
      reads,
      reads.replace(
        '    trials = int(os.environ.get("CONTRACT_TRIALS", "200"))\n    seed = int(os.environ.get("CONTRACT_SEED", "0"))\n',
        '    seed = int(os.environ.get("OTHER_SEED", "0"))\n    trials = int(os.environ.get("CONTRACT_TRIALS", "200"))\n',
      ),
      [`property.contract_code_changed:4: ${test} reads the environment variables [CONTRACT_TRIALS,OTHER_SEED] where the base reads [CONTRACT_SEED,CONTRACT_TRIALS]: the seed and trial count pawl injects must reach the test unchanged`],
    ],
    [
      "module code changed",
      seeded,
      seeded.replace('print("loaded")', 'print("ready")'),
      [`property.contract_code_changed:4: ${test}: module-level code at line 4 is new or changed, and it runs before the contract test; restore the base's`],
    ],
    ["module code removed", seeded, seeded.replace('print("loaded")\n', ""), [
      `property.contract_code_changed:1: ${test}: module-level code the base runs before the contract test was removed; restore it`,
    ]],
    [
      "a weakened helper",
      seeded,
      seeded.replace("return x == x + 0", "return True"),
      [`property.contract_code_changed:7: ${test} relies on "holds", which changed: the definition of "holds" changed; a helper or constant a contract test uses is part of the contract`],
    ],
    [
      "a helper that no longer resolves",
      seeded,
      seeded.replace("def holds(x):\n    return x == x + 0\n\n\n", ""),
      [`property.contract_code_changed:7: ${test} relies on "holds", which changed: "holds" no longer resolves; a helper or constant a contract test uses is part of the contract`],
    ],
  ];
  for (const [name, base, head, want] of cases) {
    await t.step(name, () => {
      const b = side({ [MODULE]: base });
      const h = side({ [MODULE]: head });
      const found = checkRegisteredTests([{
        layout: "002",
        id: "p",
        module: "tests.test_p",
        name: "test_p",
      }], {
        baseModules: b.modules,
        headModules: h.modules,
        baseTree: b.tree,
        headTree: h.tree,
        isTestSide: (path) => path.startsWith("tests/"),
      });
      assert.deepEqual(
        found.findings.map((f) => `${f.rule}:${f.line}: ${f.message}`),
        want,
      );
    });
  }
});

Deno.test("checkRegisteredTests() says which file loads or registers a new Hypothesis profile, and where", async (t) => {
  const settings = "from hypothesis import settings\n";
  const cases: [string, string, string[]][] = [
    [
      "a weak profile registered",
      'settings.register_profile("ci", max_examples=2)\n',
      [
        'property.settings_weakened:2: "tests/conftest.py" registers a Hypothesis profile the base does not register this way (hypothesis.settings.register_profile("ci",max_examples=2)): a profile changes the settings of every test, so it is human-owned',
      ],
    ],
    ["a profile loaded", 'settings.load_profile("ci")\n', [
      'property.settings_weakened:2: "tests/conftest.py" loads a Hypothesis profile the base does not load this way (hypothesis.settings.load_profile("ci")): a profile changes the settings of every test, so it is human-owned',
    ]],
    [
      "examples from a name",
      'N = 500\nsettings.register_profile("ci", max_examples=N)\n',
      [
        'property.settings_weakened:3: "tests/conftest.py" registers a Hypothesis profile the base does not register this way (hypothesis.settings.register_profile("ci",max_examples=N)): a profile changes the settings of every test, so it is human-owned',
      ],
    ],
  ];
  for (const [name, calls, want] of cases) {
    await t.step(name, () => {
      const base = side({ [MODULE]: BASE });
      const head = side({
        [MODULE]: BASE,
        "tests/conftest.py": `${settings}${calls}`,
      });
      const found = checkRegisteredTests([{
        layout: "000",
        id: "p",
        module: "tests.test_p",
        name: "test_p",
      }], {
        baseModules: base.modules,
        headModules: head.modules,
        baseTree: base.tree,
        headTree: head.tree,
        isTestSide: (path) => path.startsWith("tests/"),
      });
      assert.deepEqual(
        found.findings.map((f) => `${f.rule}:${f.line}: ${f.message}`),
        want,
      );
    });
  }
});

Deno.test("checkRegisteredTests() reads an analysis that records no module code or profile calls as one with none", () => {
  const base = `print("loaded")


def test_p():
    assert 1 + 1 == 2
`;
  const conftest =
    'from hypothesis import settings\nsettings.register_profile("ci", max_examples=2)\n';
  const b = side({ [MODULE]: base });
  const h = side({ [MODULE]: base, "tests/conftest.py": conftest });
  const bare = (modules: Map<string, PythonModule>) =>
    new Map(
      [...modules].map((
        [path, { moduleCode: _, profileCalls: __, ...rest }],
      ) => [path, rest]),
    );
  const found = checkRegisteredTests([{
    layout: "002",
    id: "p",
    module: "tests.test_p",
    name: "test_p",
  }], {
    baseModules: bare(b.modules),
    headModules: bare(h.modules),
    baseTree: b.tree,
    headTree: h.tree,
    isTestSide: (path) => path.startsWith("tests/"),
  });
  assert.deepEqual(found.findings, []);
});

Deno.test("checkRegisteredTests() reads an analysis that records no bindings as one with nothing rebound", () => {
  const base = side({ [MODULE]: BASE });
  const head = side({ [MODULE]: `${BASE}\ntest_p = helper\n` });
  const { bindings: _, ...unbound } = head.modules.get(MODULE)!;
  const found = checkRegisteredTests([{
    layout: "000",
    id: "p",
    module: "tests.test_p",
    name: "test_p",
  }], {
    baseModules: base.modules,
    headModules: new Map([[MODULE, unbound]]),
    baseTree: base.tree,
    headTree: head.tree,
    isTestSide: (path) => path.startsWith("tests/"),
  });
  assert.deepEqual(found.findings, []);
});

Deno.test("checkRegisteredTests() follows a helper the test calls through a module-level alias", async (t) => {
  const base = `from hypothesis import assume, given, strategies as st


def check(n):
    assert n >= 0


def double(n):
    return n * 2


ok = check


@given(st.integers(min_value=0))
def test_p(n):
    ok(n)
    assert double(n) == n + n
`;
  await t.step("an assertion dropped from the helper", () => {
    assert.deepEqual(
      judge({ [MODULE]: base.replace("    assert n >= 0\n", "    pass\n") }, {
        base: { [MODULE]: base },
      }),
      ["property.assertion_removed:16"],
    );
  });
  await t.step("an assume() added to the helper", () => {
    assert.deepEqual(
      judge({
        [MODULE]: base.replace(
          "    assert n >= 0\n",
          "    assume(n > 5)\n    assert n >= 0\n",
        ),
      }, { base: { [MODULE]: base } }),
      ["property.assume_added:5"],
    );
  });
});

Deno.test("checkRegisteredTests() judges each registered test of one module", () => {
  const two = `${BASE}

@given(st.integers(max_value=100))
def test_q(n):
    assert n <= 100
`;
  const base = side({ [MODULE]: two });
  const head = side({
    [MODULE]: two.replace("integers(max_value=100)", "integers(max_value=10)"),
  });
  const found = checkRegisteredTests([
    { layout: "000", id: "p", module: "tests.test_p", name: "test_p" },
    { layout: "000", id: "q", module: "tests.test_p", name: "test_q" },
  ], {
    baseModules: base.modules,
    headModules: head.modules,
    baseTree: base.tree,
    headTree: head.tree,
    isTestSide: (path) => path.startsWith("tests/"),
  });
  assert.deepEqual(found.findings.map((f) => `${f.rule}:${f.line}`), [
    "property.strategy_narrowed:17",
  ]);
});

Deno.test("checkRegisteredTests() takes only pytest's and unittest's own skip marks as skip marks", async (t) => {
  const cases: [string, string][] = [
    ["a mark of another module named like pytest's", "@helpers.mark.skip"],
    [
      "a custom mark whose name starts like a skip mark",
      "@pytest.mark.skip_slow",
    ],
    ["a unittest decorator whose name starts like a skip", "@unittest.skipped"],
  ];
  for (const [name, decorator] of cases) {
    await t.step(name, () => {
      assert.deepEqual(
        judge(
          with_(
            "@settings(max_examples",
            `${decorator}\n@settings(max_examples`,
          ),
        ),
        ["property.decorator_changed:10"],
      );
    });
  }
});

Deno.test("checkRegisteredTests() follows an @given through a chain of module-level aliases", () => {
  const base = `from hypothesis import given, strategies as st

NARROW = given(st.integers(max_value=10))
CHECKED = NARROW
STRATEGY = CHECKED


@STRATEGY
def test_p(n):
    assert n <= 10**6
`;
  assert.deepEqual(
    judge({ [MODULE]: base.replace("max_value=10)", "max_value=100)") }, {
      base: { [MODULE]: base },
    }),
    [],
  );
  assert.deepEqual(
    judge({ [MODULE]: base.replace("max_value=10)", "max_value=1)") }, {
      base: { [MODULE]: base },
    }),
    ["property.strategy_narrowed:3"],
  );
});

Deno.test("checkRegisteredTests() judges a package's __init__.py over a module file of the same name, as Python imports it", () => {
  const narrowed = BASE.replace("max_value=100)", "max_value=10)");
  const other = "def test_p():\n    assert True\n";
  const found = judge(
    { "tests/test_p/__init__.py": narrowed, [MODULE]: other },
    { base: { "tests/test_p/__init__.py": BASE, [MODULE]: other } },
  );
  assert.deepEqual(found, ["property.strategy_narrowed:3"]);
});

Deno.test("checkRegisteredTests() exempts only a star import before the def, not a dynamic write that mentions one", () => {
  const write =
    'import sys\nsetattr(sys.modules[__name__], "test_" + "from here", helper)\n';
  assert.deepEqual(
    judge({
      [MODULE]: BASE.replace("\n\ndef helper", `\n${write}\ndef helper`),
    }),
    ["property.rebound:6"],
  );
});

Deno.test("checkRegisteredTests() compares a helper's assertions up to a renaming of its parameters that keeps each in its slot", async (t) => {
  const base = `from hypothesis import given, strategies as st


def check(lo, hi):
    assert lo <= hi


@given(st.integers(min_value=0))
def test_p(n):
    check(0, n)
    assert n >= 0
`;
  const cases: [string, string, string[]][] = [
    [
      "both parameters renamed",
      base.replace(
        "(lo, hi):\n    assert lo <= hi",
        "(a, b):\n    assert a <= b",
      ),
      [],
    ],
    [
      "the parameters swapped in the signature",
      base.replace("def check(lo, hi)", "def check(hi, lo)"),
      ["rewrite:9"],
    ],
    [
      "the parameters swapped in the assertion",
      base.replace("assert lo <= hi", "assert hi <= lo"),
      ["rewrite:9"],
    ],
  ];
  for (const [name, head, want] of cases) {
    await t.step(name, () => {
      assert.deepEqual(
        judge({ [MODULE]: head }, { base: { [MODULE]: base } }),
        want,
      );
    });
  }
});

Deno.test("checkRegisteredTests() names every dropped, weakened and rewritten assertion in one finding", () => {
  const base = `from hypothesis import given, strategies as st


@given(st.integers(min_value=0))
def test_p(n):
    assert n >= 0
    assert n < 10**9
    assert str(n).isdigit()
`;
  const head = base.replace("    assert n >= 0\n", "")
    .replace("assert n < 10**9", "assert n < 10**12")
    .replace("assert str(n).isdigit()", "assert repr(n).isdigit()");
  const found = checkRegisteredTests([{
    layout: "000",
    id: "p",
    module: "tests.test_p",
    name: "test_p",
  }], {
    baseModules: side({ [MODULE]: base }).modules,
    headModules: side({ [MODULE]: head }).modules,
    baseTree: side({ [MODULE]: base }).tree,
    headTree: side({ [MODULE]: head }).tree,
    isTestSide: (path) => path.startsWith("tests/"),
  });
  assert.deepEqual(found.rewrites, []);
  assert.deepEqual(found.findings.map((f) => `${f.rule}:${f.line}`), [
    "property.assertion_removed:5",
  ]);
  assert.match(
    found.findings[0]!.message,
    /^Property "p" test "test_p" no longer makes 1 of the base's assertions \(.*\); weakens 1 of the base's assertions \(.*\); rewrites 1 of the base's assertions in a way their form does not show is at least as strong \(.*\), in the test/,
  );
});

Deno.test("checkRegisteredTests() leaves a skip mark to the skip rules however it is written", async (t) => {
  const cases: [string, string, string][] = [
    ["with a reason", "", '@pytest.mark.skip(reason="flaky")'],
    ["with a condition", "", '@pytest.mark.skipif(True, reason="slow")'],
    ["through an alias", "slow = pytest.mark.skip\n", "@slow"],
  ];
  for (const [name, alias, decorator] of cases) {
    await t.step(name, () => {
      const head = BASE.replace(
        "from hypothesis import",
        `import pytest\n${alias}from hypothesis import`,
      ).replace(
        "@settings(max_examples",
        `${decorator}\n@settings(max_examples`,
      );
      assert.deepEqual(judge({ [MODULE]: head }), []);
    });
  }
});

Deno.test("checkRegisteredTests() reports a lost decorator at the head's def", () => {
  const head = `import pytest\n${BASE}`;
  const base = head.replace(
    "@settings(max_examples",
    "@pytest.mark.slow\n@settings(max_examples",
  );
  assert.deepEqual(judge({ [MODULE]: head }, { base: { [MODULE]: base } }), [
    "property.decorator_changed:14",
  ]);
});
