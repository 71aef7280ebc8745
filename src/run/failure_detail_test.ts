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
