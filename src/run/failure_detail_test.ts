import assert from "node:assert/strict";
import {
  failureDetail,
  MAX_DETAIL_CHARS,
  MAX_DETAIL_LINES,
} from "./failure_detail.ts";

/** pytest's report of a failed Hypothesis test, as the observer streams it. */
const HYPOTHESIS_REPORT = [
  "@given(st.integers())",
  ">   def test_p(x):",
  "",
  "tests/test_p.py:3: ",
  "../observer-51b7/lib/_pawl_observer_51b7.py:244: in execute_once",
  "    return original(self, *args, **kwargs)",
  "/usr/lib/python3/dist-packages/hypothesis/core.py:813: in run",
  "    return test(*args, **kwargs)",
  "_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ ",
  "",
  "x = 10",
  "",
  "    @given(st.integers())",
  "    def test_p(x):",
  ">       assert x < 10",
  "E       assert 10 < 10",
  "E       Falsifying example: test_p(",
  "E           x=10,",
  "E       )",
  "",
  "tests/test_p.py:4: AssertionError",
].join("\n");

Deno.test("failureDetail() reads what a failed test showed", async (t) => {
  const cases: {
    name: string;
    text: string;
    example?: string;
    exception?: string;
    tracebackEnd?: string;
    notInTraceback?: RegExp;
  }[] = [
    {
      name: "a Hypothesis failure as pytest reported it",
      text: HYPOTHESIS_REPORT,
      example: "test_p(\n    x=10,\n)",
      exception: "AssertionError: assert 10 < 10",
      tracebackEnd: "tests/test_p.py:4: AssertionError",
    },
    {
      name: "pawl's own frames left out",
      text: HYPOTHESIS_REPORT,
      notInTraceback: /_pawl_observer_|return original/,
    },
    {
      name: "the JUnit report's message",
      text: "assert 10 < 10\nFalsifying example: test_p(\n    x=10,\n)",
      example: "test_p(\n    x=10,\n)",
      exception: "AssertionError: assert 10 < 10",
    },
    {
      name: "pytest's --tb=line or --tb=no report",
      text:
        "E   assert 10 < 10\n    Falsifying example: test_p(\n        x=10,\n    )",
      example: "test_p(\n    x=10,\n)",
      exception: "AssertionError: assert 10 < 10",
    },
    {
      name: "pytest's --tb=native report",
      text:
        '  File "/t/test_p.py", line 4, in test_p\n    assert x < 10\nAssertionError: assert 10 < 10\nFalsifying example: test_p(\n    x=10,\n)',
      example: "test_p(\n    x=10,\n)",
      exception: "AssertionError: assert 10 < 10",
    },
    {
      name: "a raised exception without an example",
      text:
        '    def test_a():\n>       raise ValueError("boom")\nE       ValueError: boom\n\ntests/test_a.py:2: ValueError',
      exception: "ValueError: boom",
      tracebackEnd: "tests/test_a.py:2: ValueError",
    },
    {
      name: "a state machine's steps",
      text: [
        "E       AssertionError: balance went negative",
        "E       Falsifying example:",
        "E       state = Bank()",
        "E       state.withdraw(amount=1)",
        "E       state.teardown()",
        "",
        "tests/test_bank.py:9: AssertionError",
      ].join("\n"),
      example: "state = Bank()\nstate.withdraw(amount=1)\nstate.teardown()",
      exception: "AssertionError: balance went negative",
    },
    {
      name: "a native traceback",
      text:
        "Traceback (most recent call last):\n  File \"t.py\", line 2, in test_a\nKeyError: 'k'",
      exception: "KeyError: 'k'",
    },
  ];
  for (const c of cases) {
    await t.step(c.name, () => {
      const detail = failureDetail("t.py::t", c.text, "cmd");
      assert.equal(detail.test, "t.py::t");
      assert.equal(detail.reproduce, "cmd");
      if (c.notInTraceback !== undefined) {
        assert.doesNotMatch(detail.traceback!.join("\n"), c.notInTraceback);
        assert.ok(
          detail.traceback!.includes("    return test(*args, **kwargs)"),
        );
        return;
      }
      assert.equal(detail.example, c.example);
      assert.equal(detail.exception, c.exception);
      if (c.tracebackEnd !== undefined) {
        assert.equal(detail.traceback?.at(-1), c.tracebackEnd);
      }
    });
  }
});

Deno.test("failureDetail() bounds what a hostile test prints and says it cut it", async (t) => {
  await t.step("a traceback of many lines keeps its last lines", () => {
    const text = Array.from({ length: 500 }, (_, i) => `line ${i}`).join("\n");
    const detail = failureDetail("t.py::t", text, "cmd");
    assert.equal(detail.traceback?.length, MAX_DETAIL_LINES + 1);
    assert.equal(detail.traceback?.[0], "[pawl cut 480 more lines here]");
    assert.equal(detail.traceback?.at(-1), "line 499");
  });
  await t.step("a huge example is cut at its start's characters", () => {
    const text = `E       Falsifying example: f(x='${
      "a".repeat(100_000)
    }')\n\nt.py:1: AssertionError`;
    const detail = failureDetail("t.py::t", text, "cmd");
    assert.ok(detail.example!.length <= MAX_DETAIL_CHARS + 60);
    assert.ok(detail.example!.startsWith("f(x='aaa"), detail.example);
    assert.match(
      detail.example!,
      /\[pawl kept only the first 2000 characters\]$/,
    );
    for (const line of detail.traceback ?? []) {
      assert.ok(line.length <= MAX_DETAIL_CHARS + 60);
    }
  });
  await t.step("control characters and ANSI escapes are removed", () => {
    const detail = failureDetail(
      "t.py::t",
      "E       ValueError: \x1b[31mred\x1b[0m\x07\r\nt.py:1: ValueError",
      "cmd",
    );
    assert.equal(detail.exception, "ValueError: [31mred[0m");
  });
});

Deno.test("failureDetail() reads the exception's type and lines as pytest marks them", async (t) => {
  const cases: [string, string[], string | undefined][] = [
    ["a dotted type from the location line loses its module", [
      "E       boom",
      "",
      "tests/test_a.py:2: pkg.errors.MyError",
    ], "MyError: boom"],
    ["a head already naming the type is not prefixed", [
      "E       MyError: boom",
      "",
      "tests/test_a.py:2: MyError",
    ], "MyError: boom"],
    ["a head naming another type is not prefixed", [
      "E       pkg.Other: boom",
      "",
      "tests/test_a.py:2: MyError",
    ], "pkg.Other: boom"],
    ["several marked lines, dedented together, with an empty mark inside", [
      "E         first",
      "E",
      "E           second",
      "not marked",
      "E       later block",
    ], "first\n\n  second"],
    ["one marked line ends its block too", [
      "E       first",
      "not marked",
      "E       later block",
    ], "first"],
    ["a line starting with E and a letter is not marked", [
      "Error here",
      "Eh",
    ], "Error here"],
    ["an assert in the first line without a location", [
      "E   assert 1 == 2",
    ], "AssertionError: assert 1 == 2"],
    ["an assert at the start of plain text", [
      "",
      "assert x",
      "more",
    ], "AssertionError: assert x"],
    ["a word starting with assert is no assert", [
      "asserted something",
    ], "asserted something"],
    ["the last raised line of unmarked text", [
      '  File "t.py", line 1',
      "ValueError: first",
      "During handling, another:",
      "hypothesis.errors.Flaky: second",
      "  indented KeyError: no",
    ], "hypothesis.errors.Flaky: second"],
    ["each kind of raised name", [
      "SystemExit: 1",
    ], "SystemExit: 1"],
    ["a failed pytest.fail", ["Failed: nope"], "Failed: nope"],
    ["a health check", ["FailedHealthCheck: slow"], "FailedHealthCheck: slow"],
    ["a deadline", ["DeadlineExceeded: 300ms"], "DeadlineExceeded: 300ms"],
    ["an unsatisfiable test", ["Unsatisfiable: none"], "Unsatisfiable: none"],
    ["only an example", ["Falsifying example: f(x=1)"], undefined],
    ["nothing", ["", "  "], undefined],
    ["the last location line gives the type", [
      "E   x",
      "",
      "a.py:1: OSError",
      "b.py:2: KeyError",
    ], "KeyError: x"],
    ["a location line must end with the type", [
      "t.py:3: KeyError raised",
    ], "t.py:3: KeyError raised"],
    ["a location line must start with the path", [
      "E   x",
      "",
      "see a.py:1: OSError",
    ], "x"],
    ["a location line's number may have several digits", [
      "E   x",
      "",
      "a.py:120: OSError",
    ], "OSError: x"],
    ["an unmarked line ends the marked block, whatever it holds", [
      "E   boom",
      "ONE MORE",
    ], "boom"],
    ["a head that is the type alone is not prefixed", [
      "E   KeyError",
      "",
      "t.py:2: KeyError",
    ], "KeyError"],
    ["a head that only ends with the type is prefixed", [
      "E   failed with MyError",
      "",
      "t.py:2: MyError",
    ], "MyError: failed with MyError"],
    ["a head that names a type further in is prefixed", [
      "E   boom at key: 1",
      "",
      "t.py:2: ValueError",
    ], "ValueError: boom at key: 1"],
    ["an example's header inside a marked line does not end the exception", [
      "E   ValueError: no Falsifying example: here",
      "E   second",
    ], "ValueError: no Falsifying example: here\nsecond"],
    ["an assert further in the first line is no assert", [
      "E   not an assert here",
    ], "not an assert here"],
    ["an example's header inside the first line of plain text is no example", [
      "x = 'Falsifying example: f()'",
    ], "x = 'Falsifying example: f()'"],
    ["only an example, with the location of its failure, is the type", [
      "Falsifying example: f(x=1)",
      "",
      "t.py:1: AssertionError",
    ], "AssertionError"],
  ];
  for (const [name, lines, exception] of cases) {
    await t.step(name, () => {
      assert.equal(
        failureDetail("t.py::t", lines.join("\n"), "cmd").exception,
        exception,
      );
    });
  }
});

Deno.test("failureDetail() reads the example up to what follows it", async (t) => {
  const cases: [string, string[], string | undefined][] = [
    ...[
      "Explanation:",
      "You can reproduce this example",
      "Highest target score: 3",
      "Unreliable test timings!",
      "Traceback (most recent call last):",
      "Falsifying example: g(y=2)",
    ].map((after): [string, string[], string] => [
      `"${after}" ends a marked example`,
      ["E   Falsifying example: f(", "E       x=1,", "E   )", `E   ${after}`],
      "f(\n    x=1,\n)",
    ]),
    ["an unmarked line ends a marked example", [
      "E   Falsifying example: f(x=1)",
      "more",
    ], "f(x=1)"],
    ["a blank line ends an unmarked example", [
      "Falsifying example: f(",
      "    x=1,",
      ")",
      "",
      "x",
    ], "f(\n    x=1,\n)"],
    ["an indented unmarked example is dedented by its header", [
      "    Falsifying example: f(",
      "        x=1,",
      "      y=2,",
      "    )",
    ], "f(\n    x=1,\n  y=2,\n)"],
    ["an empty header and nothing after it", [
      "E   Falsifying example:",
      "",
    ], undefined],
    ["a header inside a line is not one", [
      "x = 'Falsifying example: f()'",
    ], undefined],
    ["words that end an example, inside one of its lines, do not", [
      "E   Falsifying example: f(",
      "E       s='Traceback here',",
      "E   )",
    ], "f(\n    s='Traceback here',\n)"],
    ["a line that ends an example ends it at any indentation", [
      "E   Falsifying example: f(x=1)",
      "E         Explanation:",
    ], "f(x=1)"],
    ["an unmarked line after a marked example ends it, whatever it holds", [
      "E   Falsifying example: f(x=1)",
      "ONE MORE",
    ], "f(x=1)"],
  ];
  for (const [name, lines, example] of cases) {
    await t.step(name, () => {
      assert.equal(
        failureDetail("t.py::t", lines.join("\n"), "cmd").example,
        example,
      );
    });
  }
});

Deno.test("failureDetail() keeps the traceback's lines without blanks, separators or pawl's frames", () => {
  const detail = failureDetail(
    "t.py::t",
    [
      "first\r",
      "\tindented by a tab",
      "",
      "_ _ _ _ _",
      "_ _ _ _ _ _",
      "lib/_pawl_observer_x.py:9: in run",
      "    pawl's source",
      "        more of it",
      "after: _ _",
      "  x",
      "   _ _ _",
      "_ _ x",
      "_",
      "lone\rreturn",
    ].join("\n"),
    "cmd",
  );
  assert.deepEqual(detail.traceback, [
    "first",
    "    indented by a tab",
    "after: _ _",
    "  x",
    "_ _ x",
    "_",
    "lone",
    "return",
  ]);
});

Deno.test("failureDetail() keeps an indented first line of the traceback", () => {
  assert.deepEqual(
    failureDetail("t.py::t", '  File "t.py", line 1\nboom', "cmd").traceback,
    ['  File "t.py", line 1', "boom"],
  );
});

Deno.test("failureDetail() says how much it cut, in lines or characters", async (t) => {
  await t.step("one line over is one line cut", () => {
    const lines = Array.from(
      { length: MAX_DETAIL_LINES + 1 },
      (_, i) => `E   l${i}`,
    );
    const detail = failureDetail("t.py::t", lines.join("\n"), "cmd");
    assert.equal(
      detail.exception,
      [
        ...lines.slice(0, MAX_DETAIL_LINES).map((l) => l.slice(4)),
        "[pawl cut 1 more line here]",
      ]
        .join("\n"),
    );
  });
  await t.step("exactly the limit is not cut", () => {
    const lines = Array.from({ length: MAX_DETAIL_LINES }, (_, i) => `l${i}`);
    const detail = failureDetail("t.py::t", lines.join("\n"), "cmd");
    assert.deepEqual(detail.traceback, lines);
  });
  await t.step(
    "a long traceback keeps its last characters and says so first",
    () => {
      const text = `${"a".repeat(MAX_DETAIL_CHARS)}\n${"b".repeat(10)}`;
      const detail = failureDetail("t.py::t", text, "cmd");
      assert.deepEqual(detail.traceback, [
        `[pawl kept only the last ${MAX_DETAIL_CHARS} characters]`,
        "a".repeat(MAX_DETAIL_CHARS - 11),
        "b".repeat(10),
      ]);
    },
  );
  await t.step("text of exactly the limit's characters is kept whole", () => {
    const text = "a".repeat(MAX_DETAIL_CHARS);
    const detail = failureDetail("t.py::t", text, "cmd");
    assert.deepEqual(detail.traceback, [text]);
  });
  await t.step("a failure without text has only its test and command", () => {
    assert.deepEqual(failureDetail("t.py::t", "", "cmd"), {
      test: "t.py::t",
      reproduce: "cmd",
    });
  });
});
