import assert from "node:assert/strict";
import type { Tree } from "../git/git.ts";
import { analyzePython } from "../python/analyze_python.ts";
import { loadPythonParser } from "../python/load_python_parser.ts";
import type { PythonModule } from "../python/python_module.ts";
import { checkRegisteredTests } from "./check_registered_tests.ts";

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

function judge(
  head: Record<string, string>,
  options: { base?: Record<string, string>; layout?: string; name?: string } =
    {},
): string[] {
  const base = side(options.base ?? { [MODULE]: BASE });
  const h = side(head);
  const found = checkRegisteredTests([{
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
