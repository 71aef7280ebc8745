import assert from "node:assert/strict";
import { analyzePython } from "./analyze_python.ts";
import { loadPythonParser } from "./load_python_parser.ts";
import type {
  HypothesisSettings,
  PythonFunction,
  PythonModule,
} from "./python_module.ts";

const parser = await loadPythonParser();

/** Join lines with `\n`; a trailing newline is added. */
function lines(...rows: string[]): string {
  return rows.join("\n") + "\n";
}

function analyze(source: string): PythonModule {
  return analyzePython(parser, source);
}

function functionIn(source: string, qualname = "test_x"): PythonFunction {
  const fn = analyze(source).functions.get(qualname);
  assert.ok(fn !== undefined, `no function "${qualname}" in:\n${source}`);
  return fn;
}

/** A test module with the usual imports and one test whose body is `body`. */
function testWith(...body: string[]): string {
  return lines(
    "import pytest",
    "from hypothesis import given, settings, strategies as st",
    "def test_x(self, x, y, a, b):",
    ...body.map((row) => `    ${row}`),
  );
}

/** Body lines start at line 4 in {@linkcode testWith}. */
const BODY = 4;

Deno.test("analyzePython() flags bodies that cannot fail", async (t) => {
  const cases: [string, string[], { reason: string; line: number }][] = [
    ["a body without assertions", ["f(x)", "return x"], {
      reason: "no_assertion",
      line: 3,
    }],
    ["an empty docstring-only body", ['"""Nothing."""'], {
      reason: "no_assertion",
      line: 3,
    }],
    ["assert True", ["f(x)", "assert True"], {
      reason: "constant",
      line: BODY + 1,
    }],
    ["assert 1", ["assert 1"], { reason: "constant", line: BODY }],
    ["assert 1_000 and assert 0x10", ["assert 1_000", "assert 0x10"], {
      reason: "constant",
      line: BODY,
    }],
    ["assert -1.5", ["assert -1.5"], { reason: "constant", line: BODY }],
    ['assert "text"', ['assert "text"'], { reason: "constant", line: BODY }],
    ['assert b"x"', ['assert b"x"'], { reason: "constant", line: BODY }],
    ["assert not False", ["assert not False"], {
      reason: "constant",
      line: BODY,
    }],
    ["assert not None", ["assert not None"], {
      reason: "constant",
      line: BODY,
    }],
    ["assert (True)", ["assert (True)  # parenthesised"], {
      reason: "constant",
      line: BODY,
    }],
    ["assert of a non-empty tuple", ['assert (x == 1, "x is one")'], {
      reason: "constant",
      line: BODY,
    }],
    ["assert of a non-empty list", ["assert [0]"], {
      reason: "constant",
      line: BODY,
    }],
    ["assert True or <anything>", ["assert True or f(x)"], {
      reason: "constant",
      line: BODY,
    }],
    ["assert <anything> or 1", ["assert f(x) or 1"], {
      reason: "constant",
      line: BODY,
    }],
    ["assert ...", ["assert ..."], { reason: "constant", line: BODY }],
    ["self.assertTrue(True)", ["self.assertTrue(True)"], {
      reason: "constant",
      line: BODY,
    }],
    ["self.assertFalse(0)", ["self.assertFalse(0)"], {
      reason: "constant",
      line: BODY,
    }],
    ["self.assertIsNone(None)", ["self.assertIsNone(None)"], {
      reason: "constant",
      line: BODY,
    }],
    ["assert x == x", ["y = f(x)", "assert x == x"], {
      reason: "tautology",
      line: BODY + 1,
    }],
    ["assert x is x", ["assert x is x"], { reason: "tautology", line: BODY }],
    ["assert f(a) == f(a) with different spacing", ["assert f(a) == f( a )"], {
      reason: "tautology",
      line: BODY,
    }],
    ["a tautology with a message", ['assert x == x, "always"'], {
      reason: "tautology",
      line: BODY,
    }],
    ["a tautology across lines and comments", [
      "assert (f(a,  # first",
      "          b)",
      "        == f(a, b))",
    ], { reason: "tautology", line: BODY }],
    ["a tautology with redundant parentheses", ["assert (x) == x"], {
      reason: "tautology",
      line: BODY,
    }],
    ["a tautology with a backslash continuation", [
      "assert x.y[0] == \\",
      "    x.y[0]",
    ], {
      reason: "tautology",
      line: BODY,
    }],
    ["a tautology differing only in quote style", [`assert d["k"] == d['k']`], {
      reason: "tautology",
      line: BODY,
    }],
    ["a chained tautology", ["assert x == x <= x"], {
      reason: "tautology",
      line: BODY,
    }],
    ["self.assertEqual(x, x)", ["self.assertEqual(x, x)"], {
      reason: "tautology",
      line: BODY,
    }],
    [
      "self.assertEqual(f(x), f(x), msg)",
      ['self.assertEqual(f(x), f(x), "m")'],
      {
        reason: "tautology",
        line: BODY,
      },
    ],
    ["numpy's assert_array_equal(a, a)", [
      "np.testing.assert_array_equal(a, a)",
    ], {
      reason: "tautology",
      line: BODY,
    }],
    ["constants and tautologies mixed report the first", [
      "f(x)",
      "assert x == x",
      "assert True",
    ], { reason: "tautology", line: BODY + 1 }],
    ["assertions only inside a nested function", [
      "def check(v):",
      "    assert v == 1",
      "check(x)",
    ], { reason: "no_assertion", line: 3 }],
    ["assertions only inside a lambda", [
      "check = lambda: self.assertEqual(x, 1)",
      "check()",
    ], { reason: "no_assertion", line: 3 }],
    ["assertions only inside a nested class", [
      "class Helper:",
      "    def run(self):",
      "        assert x == 1",
    ], { reason: "no_assertion", line: 3 }],
  ];
  for (const [name, body, expected] of cases) {
    await t.step(`${name} is ${expected.reason}`, () => {
      assert.deepEqual(functionIn(testWith(...body)).vacuity, expected);
    });
  }
});

Deno.test("analyzePython() accepts bodies with a real assertion", async (t) => {
  const cases: [string, string[]][] = [
    ["assert x == y", ["assert x == y"]],
    ["assert x", ["assert x"]],
    ["assert not x", ["assert not x"]],
    ["assert f(a) == f(b)", ["assert f(a) == f(b)"]],
    ["assert x != x (it can fail)", ["assert x != x"]],
    ["assert x < x (it can fail)", ["assert x < x"]],
    ["assert False (it always fails)", [
      "try:",
      "    f()",
      "    assert False",
      "except E:",
      "    pass",
    ]],
    ["assert 0 (it always fails)", ["assert 0"]],
    ['assert "" (it always fails)', ['assert ""']],
    ["assert of an f-string", ['assert f"{x}"']],
    ["assert of a tuple splat", ["assert (*x,)"]],
    ["with pytest.raises", ["with pytest.raises(ValueError):", "    f(x)"]],
    ["pytest.raises as a call", ["pytest.raises(ValueError, f, x)"]],
    ["raises imported from pytest", [
      "from pytest import raises",
      "with raises(KeyError):",
      "    f()",
    ]],
    ["pytest.warns", ["with pytest.warns(UserWarning):", "    f()"]],
    ["pytest.deprecated_call", ["with pytest.deprecated_call():", "    f()"]],
    ["pytest.fail", ["if f(x):", '    pytest.fail("bad")']],
    ["raise AssertionError(...)", [
      "if f(x):",
      '    raise AssertionError("bad")',
    ]],
    ["a bare raise AssertionError", ["if f(x):", "    raise AssertionError"]],
    ["self.fail(...)", ["if f(x):", '    self.fail("bad")']],
    ["self.assertTrue(x)", ["self.assertTrue(x)"]],
    ["self.assertEqual(x, y)", ["self.assertEqual(x, y)"]],
    ["self.assertRaises", ["with self.assertRaises(ValueError):", "    f()"]],
    ["a mock assertion", ["m = f()", "m.assert_called_once_with(1)"]],
    ["a pandas helper", ["assert_frame_equal(a, b)"]],
    ["a constant next to a real assertion", [
      "assert True",
      "assert f(x) == 2",
    ]],
    ["a tautology next to a real assertion", [
      "assert x == x",
      "self.assertIn(x, y)",
    ]],
    ["an assertion in a loop", ["for v in x:", "    assert v > 0"]],
    ["an assertion in a comprehension call", [
      "[self.assertTrue(v) for v in x]",
    ]],
  ];
  for (const [name, body] of cases) {
    await t.step(`${name} is not vacuous`, () => {
      assert.equal(functionIn(testWith(...body)).vacuity, undefined);
    });
  }
});

Deno.test("analyzePython() reads Hypothesis decorators", async (t) => {
  const cases: [
    string,
    string[],
    { usesHypothesis: boolean; settings?: HypothesisSettings | undefined },
  ][] = [
    ["no decorators", [], { usesHypothesis: false, settings: undefined }],
    [
      "@given with @settings(max_examples=40, deadline=None)",
      ["@settings(max_examples=40, deadline=None)", "@given(st.integers())"],
      {
        usesHypothesis: true,
        settings: {
          line: 3,
          maxExamples: 40,
          keywords: { max_examples: "40", deadline: "None" },
        },
      },
    ],
    ["an underscored literal", ["@settings(max_examples=1_000)"], {
      usesHypothesis: false,
      settings: {
        line: 3,
        maxExamples: 1000,
        keywords: { max_examples: "1_000" },
      },
    }],
    [
      "a hexadecimal literal in parentheses",
      ["@settings(max_examples=(0x10))"],
      {
        usesHypothesis: false,
        settings: {
          line: 3,
          maxExamples: 16,
          keywords: { max_examples: "(0x10)" },
        },
      },
    ],
    ["a name", [
      "@hypothesis.settings(max_examples=N)",
      "@hypothesis.given(st.text())",
    ], {
      usesHypothesis: true,
      settings: {
        line: 3,
        maxExamplesDynamic: true,
        keywords: { max_examples: "N" },
      },
    }],
    ["an expression", [
      "@settings(max_examples=N * 2,",
      "          deadline=timedelta(ms=5))",
    ], {
      usesHypothesis: false,
      settings: {
        line: 3,
        maxExamplesDynamic: true,
        keywords: { max_examples: "N * 2", deadline: "timedelta(ms=5)" },
      },
    }],
    ["no max_examples", ["@settings(deadline=None)"], {
      usesHypothesis: false,
      settings: { line: 3, keywords: { deadline: "None" } },
    }],
    ["a parent settings object", ["@settings(CI_PROFILE, deadline=None)"], {
      usesHypothesis: false,
      settings: {
        line: 3,
        maxExamplesDynamic: true,
        keywords: { deadline: "None" },
      },
    }],
    ["a ** splat", ["@settings(**OPTIONS)"], {
      usesHypothesis: false,
      settings: { line: 3, maxExamplesDynamic: true, keywords: {} },
    }],
    ["imports under other names", ["@s(max_examples=3)", "@g(st.none())"], {
      usesHypothesis: true,
      settings: { line: 3, maxExamples: 3, keywords: { max_examples: "3" } },
    }],
    ["a bare @given", ["@given"], {
      usesHypothesis: true,
      settings: undefined,
    }],
    ["parametrize only", ['@pytest.mark.parametrize("x", [1])'], {
      usesHypothesis: false,
      settings: undefined,
    }],
  ];
  for (const [name, decorators, expected] of cases) {
    await t.step(`${name} gives ${JSON.stringify(expected)}`, () => {
      const fn = functionIn(lines(
        "import hypothesis",
        "from hypothesis import given as g, settings as s",
        ...decorators,
        "def test_x(x):",
        "    assert f(x) > 0",
      ));
      assert.equal(fn.usesHypothesis, expected.usesHypothesis);
      assert.deepEqual(fn.settings, expected.settings);
    });
  }
});

Deno.test("analyzePython() records decorators as written, outermost first", () => {
  const fn = functionIn(lines(
    "import pytest",
    "@pytest.mark.parametrize(",
    '    "x", [1, 2])  # note',
    "@ slow",
    "async def test_x(x):",
    "    assert x",
  ));
  assert.deepEqual(fn.decorators.map(({ text, line }) => ({ text, line })), [
    { text: 'pytest.mark.parametrize(\n    "x", [1, 2])', line: 2 },
    { text: "slow", line: 4 },
  ]);
  assert.deepEqual(fn.decorators[1]?.expr, {
    type: "name",
    line: 4,
    text: "slow",
  });
  assert.equal(fn.line, 5);
  assert.ok(fn.source.startsWith("async def test_x"));
});

Deno.test("analyzePython() finds skips and xfails", async (t) => {
  const cases: [string, string, { kind: string; line: number }[]][] = [
    ["no marks", lines("def test_x():", "    assert f()"), []],
    [
      "@pytest.mark.skip",
      lines(
        "import pytest",
        "@pytest.mark.skip",
        "def test_x():",
        "    assert f()",
      ),
      [{ kind: "skip", line: 2 }],
    ],
    [
      "@pytest.mark.skip(reason=...)",
      lines(
        "import pytest",
        '@pytest.mark.skip(reason="x")',
        "def test_x():",
        "    assert f()",
      ),
      [{ kind: "skip", line: 2 }],
    ],
    [
      "@pytest.mark.skipif and @pytest.mark.xfail",
      lines(
        "import pytest",
        '@pytest.mark.skipif(sys.platform == "win32", reason="")',
        "@pytest.mark.xfail(strict=True)",
        "def test_x():",
        "    assert f()",
      ),
      [{ kind: "skipif", line: 2 }, { kind: "xfail", line: 3 }],
    ],
    [
      "@mark.skip after from pytest import mark",
      lines(
        "from pytest import mark",
        "@mark.skip",
        "def test_x():",
        "    assert f()",
      ),
      [{ kind: "skip", line: 2 }],
    ],
    [
      "@pt.mark.xfail after import pytest as pt",
      lines(
        "import pytest as pt",
        "@pt.mark.xfail",
        "def test_x():",
        "    assert f()",
      ),
      [{ kind: "xfail", line: 2 }],
    ],
    [
      "a mark kept in a module-level name",
      lines(
        "import pytest",
        'windows_only = pytest.mark.skipif(os.name != "nt", reason="")',
        "@windows_only",
        "def test_x():",
        "    assert f()",
      ),
      [{ kind: "skipif", line: 3 }],
    ],
    [
      "an xfail on one parametrized case",
      lines(
        "import pytest",
        '@pytest.mark.parametrize("v", [1, pytest.param(2, marks=pytest.mark.xfail)])',
        "def test_x(v):",
        "    assert f(v)",
      ),
      [{ kind: "xfail", line: 2 }],
    ],
    [
      "a skip on the enclosing class",
      lines(
        "import pytest",
        "@pytest.mark.skip",
        "class TestX:",
        "    def test_x(self):",
        "        assert f()",
      ),
      [{ kind: "skip", line: 2 }],
    ],
    [
      "pytestmark in the class body",
      lines(
        "import pytest",
        "class TestX:",
        "    pytestmark = pytest.mark.xfail",
        "    def test_x(self):",
        "        assert f()",
      ),
      [{ kind: "xfail", line: 3 }],
    ],
    [
      "a list in module-level pytestmark",
      lines(
        "import pytest",
        "pytestmark = [pytest.mark.slow, pytest.mark.skipif(True, reason='')]",
        "def test_x():",
        "    assert f()",
      ),
      [{ kind: "skipif", line: 2 }],
    ],
    [
      "pytest.skip, pytest.xfail and pytest.importorskip in the body",
      lines(
        "import pytest",
        "def test_x():",
        "    np = pytest.importorskip('numpy')",
        "    if np.x:",
        "        pytest.skip('no')",
        "    pytest.xfail('known')",
        "    assert f()",
      ),
      [{ kind: "importorskip", line: 3 }, { kind: "skip", line: 5 }, {
        kind: "xfail",
        line: 6,
      }],
    ],
    [
      "skip imported from pytest and called",
      lines(
        "from pytest import skip",
        "def test_x():",
        "    skip('no')",
        "    assert f()",
      ),
      [{ kind: "skip", line: 3 }],
    ],
    [
      "a module-level importorskip",
      lines(
        "import pytest",
        "np = pytest.importorskip('numpy')",
        "def test_x():",
        "    assert f()",
      ),
      [{ kind: "importorskip", line: 2 }],
    ],
    [
      "a module-level skip(allow_module_level=True)",
      lines(
        "import pytest",
        "if sys.platform == 'win32':",
        "    pytest.skip('posix only', allow_module_level=True)",
        "def test_x():",
        "    assert f()",
      ),
      [{ kind: "skip", line: 3 }],
    ],
    [
      "a marker applied at run time",
      lines(
        "import pytest",
        "def test_x(request):",
        "    request.applymarker(pytest.mark.xfail)",
        "    assert f()",
      ),
      [{ kind: "xfail", line: 3 }],
    ],
    [
      "unittest skip decorators and skipTest",
      lines(
        "import unittest",
        "@unittest.skipIf(True, 'x')",
        "class TestX(unittest.TestCase):",
        "    @unittest.expectedFailure",
        "    def test_x(self):",
        "        self.skipTest('later')",
        "        raise unittest.SkipTest('never')",
      ),
      [
        { kind: "skipif", line: 2 },
        { kind: "xfail", line: 4 },
        { kind: "skip", line: 6 },
        { kind: "skip", line: 7 },
      ],
    ],
    [
      "marks that do not skip, a skip name that is only imported, and a parameter called skip",
      lines(
        "import pytest",
        "from pytest import skip",
        "slow_skip = pytest.mark.skipif(True, reason='')",
        "@pytest.mark.slow",
        '@pytest.mark.parametrize("skip", [True])',
        "def test_x(skip):",
        '    """pytest.mark.skip in a docstring."""',
        "    # pytest.skip() in a comment",
        "    if skip:",
        "        return",
        "    assert f(skip=skip)",
      ),
      [],
    ],
  ];
  for (const [name, source, expected] of cases) {
    await t.step(
      `${name} gives ${JSON.stringify(expected.map((skip) => skip.kind))}`,
      () => {
        const module = analyze(source);
        const fn = module.functions.get("test_x") ??
          module.functions.get("TestX.test_x");
        assert.ok(fn !== undefined);
        assert.deepEqual(fn.skips, expected);
      },
    );
  }
});

Deno.test("analyzePython() applies module pytestmark to every function", () => {
  const module = analyze(lines(
    "import pytest",
    "pytestmark = pytest.mark.skip",
    "def test_a():",
    "    assert f()",
    "class TestB:",
    "    def test_b(self):",
    "        assert f()",
  ));
  assert.deepEqual(module.functions.get("test_a")?.skips, [{
    kind: "skip",
    line: 2,
  }]);
  assert.deepEqual(module.functions.get("TestB.test_b")?.skips, [{
    kind: "skip",
    line: 2,
  }]);
});

Deno.test("analyzePython() counts example-style assertions", async (t) => {
  const cases: [string, string[], number][] = [
    ["assert f(1) == 2", ["assert f(1) == 2"], 1],
    ["a literal on the left", ["assert 2 == f(1)"], 1],
    ["a negative float", ["assert f(x) == -2.5"], 1],
    [
      "a container of literals",
      ['assert f(x) == [1, "a", None, (True, b"x")]'],
      1,
    ],
    ["a dict of literals", ['assert f(x) == {"a": {1, 2}}'], 1],
    ["is None", ["assert f(x) is None"], 1],
    ["self.assertEqual with a literal", ["self.assertEqual(f(1), 2)"], 1],
    ["assertEqual with the literal first", ['self.assertEqual("a", f(1))'], 1],
    ["self.assertAlmostEqual with a literal", [
      "self.assertAlmostEqual(f(1), 0.5)",
    ], 1],
    ["numpy's assert_array_equal with a literal", [
      "np.testing.assert_array_equal(a, [1, 2])",
    ], 1],
    ["several", [
      "assert f(1) == 2",
      "x = 3",
      "self.assertEqual(g(), ())",
      "assert h() == 'h'",
    ], 3],
    ["two expressions", ["assert f(x) == g(x)"], 0],
    ["a container holding a name", ["assert f(x) == [y]"], 0],
    ["an f-string with a field", ['assert f(x) == f"{y}"'], 0],
    ["an ordering", ["assert f(x) > 1"], 0],
    ["a chained comparison", ["assert 0 < f(x) == 1"], 0],
    ["assertGreater with a literal", ["self.assertGreater(x, 1)"], 0],
    ["assertNotEqual with a literal", ["self.assertNotEqual(x, 1)"], 0],
    ["assertEqual of two names", ["self.assertEqual(a, b)"], 0],
    ["an example inside a nested function", [
      "def inner():",
      "    assert f(1) == 2",
    ], 0],
  ];
  for (const [name, body, expected] of cases) {
    await t.step(`${name} counts ${expected}`, () => {
      assert.equal(functionIn(testWith(...body)).exampleAssertions, expected);
    });
  }
});

Deno.test("analyzePython() finds the module-level pytest_plugins assignment", async (t) => {
  const cases: [string, string, number | undefined][] = [
    ["none", lines("def test_x():", "    assert f()"), undefined],
    [
      "a plain assignment",
      lines("import pytest", "", 'pytest_plugins = ["a.b"]'),
      3,
    ],
    ["an annotated assignment", lines('pytest_plugins: list[str] = ["a"]'), 1],
    ["an augmented assignment", lines("x = 1", 'pytest_plugins += ["b"]'), 2],
    ["a tuple target", lines('pytest_plugins, other = ["a"], 1'), 1],
    [
      "inside a module-level if",
      lines("if CI:", '    pytest_plugins = ("ci",)'),
      2,
    ],
    [
      "the first of two",
      lines('pytest_plugins = ["a"]', 'pytest_plugins = ["b"]'),
      1,
    ],
    [
      "only inside a function",
      lines("def f():", '    pytest_plugins = ["a"]'),
      undefined,
    ],
    [
      "only inside a class",
      lines("class C:", '    pytest_plugins = ["a"]'),
      undefined,
    ],
    [
      "only compared, not assigned",
      lines('if pytest_plugins == ["a"]:', "    pass"),
      undefined,
    ],
  ];
  for (const [name, source, expected] of cases) {
    await t.step(`${name} gives ${expected}`, () => {
      assert.equal(analyze(source).pytestPluginsLine, expected);
    });
  }
});

Deno.test("analyzePython() names methods by class and skips nested and conditional functions", () => {
  const module = analyze(lines(
    "def test_top():",
    "    def helper():",
    "        pass",
    "class TestOuter:",
    "    def test_m(self):",
    "        pass",
    "    class TestInner:",
    "        async def test_n(self):",
    "            pass",
    "if CI:",
    "    def test_conditional():",
    "        pass",
  ));
  assert.deepEqual([...module.functions.keys()], [
    "test_top",
    "TestOuter.test_m",
    "TestOuter.TestInner.test_n",
  ]);
  const method = module.functions.get("TestOuter.test_m");
  assert.equal(method?.name, "test_m");
  assert.equal(method?.line, 5);
  assert.equal(method?.endLine, 6);
});

Deno.test("analyzePython() keeps the last of two same-named definitions", () => {
  const module = analyze(lines(
    "def test_x():",
    "    assert f() == 1",
    "def test_x():",
    "    assert True",
  ));
  const fn = module.functions.get("test_x");
  assert.equal(fn?.line, 3);
  assert.deepEqual(fn?.shadowedLines, [1]);
  assert.deepEqual(fn?.vacuity, { reason: "constant", line: 4 });
  assert.equal(
    analyze(lines("def test_y():", "    pass")).functions.get("test_y")
      ?.shadowedLines,
    undefined,
  );
});

Deno.test("analyzePython() reports the first syntax error and keeps what parsed", async (t) => {
  const cases: [
    string,
    string,
    { line: number; column: number } | undefined,
    string[],
  ][] = [
    ["a clean file", lines("def test_ok():", "    assert f()"), undefined, [
      "test_ok",
    ]],
    [
      "a broken signature after a good test",
      lines(
        "def test_ok():",
        "    assert f() == 1",
        "",
        "def test_broken(:",
        "    pass",
      ),
      { line: 4, column: 17 },
      ["test_ok"],
    ],
    [
      "an unclosed bracket",
      lines("def test_ok():", "    assert f() == 1", "x = [1, 2"),
      { line: 3, column: 1 },
      ["test_ok"],
    ],
  ];
  for (const [name, source, error, names] of cases) {
    await t.step(`${name} gives ${JSON.stringify(error)}`, () => {
      const module = analyze(source);
      assert.deepEqual(module.syntaxError, error);
      for (const qualname of names) {
        assert.ok(module.functions.has(qualname), qualname);
      }
    });
  }
});

Deno.test("analyzePython() does not count assertions whose failure is swallowed", async (t) => {
  const cases: [string, string[], "vacuous" | "real"][] = [
    ["except AssertionError: pass", [
      "try:",
      "    assert f(x)",
      "except AssertionError:",
      "    pass",
    ], "vacuous"],
    ["except Exception", [
      "try:",
      "    assert f(x)",
      "except Exception as e:",
      "    print(e)",
    ], "vacuous"],
    [
      "a bare except",
      ["try:", "    assert f(x)", "except:", "    pass"],
      "vacuous",
    ],
    ["a tuple with BaseException", [
      "try:",
      "    assert f(x)",
      "except (ValueError, BaseException):",
      "    pass",
    ], "vacuous"],
    ["a finally that returns", [
      "try:",
      "    assert f(x)",
      "finally:",
      "    return",
    ], "vacuous"],
    ["contextlib.suppress", [
      "import contextlib",
      "with contextlib.suppress(AssertionError):",
      "    assert f(x)",
    ], "vacuous"],
    ["pytest.raises(AssertionError)", [
      "with pytest.raises(AssertionError):",
      "    assert f(x)",
    ], "vacuous"],
    ["a handler that re-raises", [
      "try:",
      "    assert f(x)",
      "except AssertionError:",
      "    log()",
      "    raise",
    ], "real"],
    ["a handler that fails the test", [
      "try:",
      "    assert f(x)",
      "except AssertionError as e:",
      "    pytest.fail(str(e))",
    ], "real"],
    ["a narrower handler", [
      "try:",
      "    assert f(x)",
      "except ValueError:",
      "    pass",
    ], "real"],
    ["an assertion in the else clause", [
      "try:",
      "    y = f(x)",
      "except Exception:",
      "    return",
      "else:",
      "    assert y",
    ], "real"],
    ["pytest.raises(ValueError)", [
      "with pytest.raises(ValueError):",
      "    f(x)",
    ], "real"],
    ["raise self.failureException", [
      "if f(x):",
      "    raise self.failureException('no')",
    ], "real"],
    ["self.fail", ["if f(x):", "    self.fail('no')"], "real"],
  ];
  for (const [name, body, want] of cases) {
    await t.step(name, () => {
      const fn = functionIn(testWith(...body));
      assert.equal(fn.vacuity === undefined ? "real" : "vacuous", want);
    });
  }
});

Deno.test("analyzePython() records every binding of module-level names", () => {
  const mod = analyze(lines(
    "from hypothesis import given",
    "def test_a():",
    "    assert f()",
    "test_a = other",
    "from m import weak as test_b",
    'globals()["test_c"] = 1',
    "globals().update(names)",
    "class TestK:",
    "    def test_m(self):",
    "        assert f()",
    "    test_m = None",
  ));
  assert.deepEqual(mod.bindings?.get("test_a"), [
    { kind: "def", line: 2 },
    { kind: "assign", line: 4 },
  ]);
  assert.deepEqual(mod.bindings?.get("test_b"), [{ kind: "import", line: 5 }]);
  assert.deepEqual(mod.bindings?.get("test_c"), [{ kind: "assign", line: 6 }]);
  assert.deepEqual(mod.bindings?.get("TestK.test_m"), [
    { kind: "def", line: 9 },
    { kind: "assign", line: 11 },
  ]);
  assert.deepEqual(mod.dynamicWrites, [{
    line: 7,
    detail: "globals().update(...)",
  }]);
  assert.deepEqual(mod.definitions?.get("test_b")?.from, {
    module: "m",
    name: "weak",
  });
});

Deno.test("analyzePython() keeps tokens without comments and docstrings", () => {
  const a = analyze('"""Doc."""\n# comment\nX = 1  # trailing\n');
  const b = analyze("X = 1\n");
  assert.deepEqual(a.tokens?.texts, b.tokens?.texts);
  assert.deepEqual(a.tokens?.lines, [3, 3, 3]);
  const f = analyze('f"{x()}"\n');
  assert.ok(
    (f.tokens?.texts.length ?? 0) > 0,
    "an f-string statement runs code",
  );
});

Deno.test("analyzePython() finds probes for the test harness", () => {
  const mod = analyze(lines(
    "import sys, os",
    "import _pytest.config",
    'if "pytest" in sys.modules: pass',
    'os.environ.get("PYTEST_CURRENT_TEST")',
    "frame = sys._getframe(1)",
    'REPORT = "junit.xml"',
    'IN_TEST = frame.f_code.co_filename.endswith("_test.py")',
  ));
  assert.deepEqual(mod.probes?.map((p) => `${p.kind}:${p.line}`), [
    "import:2",
    "module_name:3",
    "env:4",
    "report:6",
    "stack:7",
  ]);
});
