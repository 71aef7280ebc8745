import assert from "node:assert/strict";
import {
  describeFailure,
  failureKey,
  failureReason,
  isTimingFailure,
} from "./failure_reason.ts";

Deno.test("failureReason() reads the kind of failure pytest reported", async (t) => {
  const table = [
    {
      name: "a named health check",
      text:
        "hypothesis.errors.FailedHealthCheck: It looks like your strategy is filtering out a lot of data. add HealthCheck.filter_too_much to the suppress_health_check settings",
      key: "health check filter_too_much",
      timing: false,
    },
    {
      name: "the too_slow health check",
      text:
        "E   hypothesis.errors.FailedHealthCheck: Data generation is extremely slow\nE   add HealthCheck.too_slow to the suppress_health_check settings\n\ntests/t.py:10: FailedHealthCheck",
      key: "health check too_slow",
      timing: true,
    },
    {
      name: "a deadline",
      text:
        "E   hypothesis.errors.DeadlineExceeded: Test took 250.00ms, which exceeds the deadline of 200.00ms\n\ntests/t.py:4: DeadlineExceeded",
      key: "deadline",
      timing: true,
    },
    {
      name: "unreliable timings",
      text:
        "hypothesis.errors.Flaky: Hypothesis test_x(x=1) produces unreliable results: Falsified on the first call but did not on a subsequent one\nUnreliable test timings! On an initial run, this test took 300ms",
      key: "deadline",
      timing: true,
    },
    {
      name: "an assertion, by the traceback's last line",
      text:
        ">       assert x < 10\nE       assert 10 < 10\nE       Falsifying example: test_x(\nE           x=10,\nE       )\n\ntests/t.py:16: AssertionError",
      key: "exception AssertionError",
      timing: false,
    },
    {
      name: "a dotted exception in an E line",
      text: "E   payments.parser.ParseError: bad amount",
      key: "exception ParseError",
      timing: false,
    },
    {
      name: "a bare assert message",
      text: "assert 10 < 10\nFalsifying example: test_x(x=10)",
      key: "exception AssertionError",
      timing: false,
    },
    {
      name: "nothing recognisable",
      text: "boom",
      key: "exception ",
      timing: false,
    },
  ];
  for (const row of table) {
    await t.step(row.name, () => {
      const reason = failureReason(row.text);
      assert.equal(failureKey(reason), row.key);
      assert.equal(isTimingFailure(reason), row.timing);
    });
  }
});

Deno.test("failureReason() keeps the traceback's last lines, without pytest's separators", () => {
  const text = [
    "line 1",
    "_ _ _ _ _ _ _ _",
    ...Array.from({ length: 10 }, (_, i) => `frame ${i}`),
    "",
    "tests/t.py:3: AssertionError",
  ].join("\n");
  assert.equal(
    failureReason(text).tail,
    "frame 5\nframe 6\nframe 7\nframe 8\nframe 9\ntests/t.py:3: AssertionError",
  );
});

Deno.test("failureReason() names the exception from the most telling line of the report", async (t) => {
  const table: [string, string, string][] = [
    [
      "the last located line wins over an earlier one and over E lines",
      "E   KeyError: 'a'\nsrc/a.py:3: KeyError\nE   ValueError: b\ntests/t.py:9: pkg.errors.ParseError",
      "ParseError",
    ],
    [
      "a located line needs a name alone after the line number",
      "E   ValueError: b\ntests/t.py:9: in test_x",
      "ValueError",
    ],
    [
      "a located line needs a path before the number",
      "E   ValueError: b\n:9: KeyError",
      "ValueError",
    ],
    [
      "a location quoted inside a line does not count",
      "E   ValueError: raised at tests/t.py:9: KeyError",
      "ValueError",
    ],
    [
      "a located line with blanks after it still counts",
      "E   ValueError: b\ntests/t.py:9: KeyError   ",
      "KeyError",
    ],
    [
      "an E line counts only from the line's start",
      "boom\nNOTE  ValueError: b",
      "",
    ],
    [
      "a leading name counts only from the first line's start",
      "while handling KeyError: bad",
      "",
    ],
    [
      "the last E line wins over an earlier one",
      "E   KeyError: 'a'\nmore\nE   TypeError: b",
      "TypeError",
    ],
    [
      "an E line whose name is no exception's does not count",
      "E   assert 1 == 2\nE   Whatever: x",
      "",
    ],
    [
      "an E line of a Hypothesis check counts",
      "E   hypothesis.errors.FailedHealthCheck",
      "",
    ],
    [
      "an exception's name leading the report counts",
      "pkg.ImportFailed: no module\nmore",
      "ImportFailed",
    ],
    [
      "a name leading a later line does not",
      "boom\nValueError: x",
      "",
    ],
    [
      "a leading name without a colon does not",
      "ValueError happened",
      "",
    ],
    [
      "an assert later in the report is no bare assert",
      "boom\nassert 1 == 2",
      "",
    ],
    [
      "a word merely starting with assert is none",
      "assertion held\n",
      "",
    ],
    [
      "blank lines before the first do not hide it",
      "\n\n  \nassert x",
      "AssertionError",
    ],
  ];
  for (const [label, text, type] of table) {
    await t.step(label, () => {
      const reason = failureReason(text);
      if (reason.kind === "health_check") {
        assert.equal(type, "");
        return;
      }
      assert.equal(reason.kind, "exception");
      assert.equal(reason.kind === "exception" && reason.type, type);
    });
  }
});

Deno.test("failureReason() tells health checks and deadlines by their names only", async (t) => {
  const table: [string, string, string][] = [
    [
      "a health check without a name",
      "FailedHealthCheck: slow",
      "health check unknown",
    ],
    [
      "a name inside a longer word is none",
      "NotFailedHealthCheckX: x",
      "exception ",
    ],
    [
      "a deadline inside a longer word is none",
      "MyDeadlineExceededX",
      "exception ",
    ],
    ["a deadline word alone is one", "raised DeadlineExceeded", "deadline"],
    [
      "the health check's name is HealthCheck's, not FailedHealthCheck's",
      "FailedHealthCheck.args: x; add HealthCheck.too_slow",
      "health check too_slow",
    ],
  ];
  for (const [label, text, key] of table) {
    await t.step(
      label,
      () => assert.equal(failureKey(failureReason(text)), key),
    );
  }
  await t.step(
    "only the too_slow health check depends on the machine's speed",
    () => {
      assert.equal(
        isTimingFailure(
          failureReason("FailedHealthCheck HealthCheck.data_too_large"),
        ),
        false,
      );
    },
  );
});

Deno.test("failureReason() drops only pytest's separator lines from the tail, not lines that merely start or end like one", () => {
  const text = [
    "_ keep the start",
    "keep the end _ _",
    "_ _ _ _ _",
    "tests/t.py:3: AssertionError",
  ].join("\n");
  assert.equal(
    failureReason(text).tail,
    "_ keep the start\nkeep the end _ _\ntests/t.py:3: AssertionError",
  );
});

Deno.test("failureReason() cuts a long tail at its last characters", () => {
  const long = "x".repeat(700);
  assert.equal(failureReason(long).tail, `…${"x".repeat(600)}`);
  assert.equal(failureReason("y".repeat(600)).tail, "y".repeat(600));
  assert.equal(
    failureReason("a  \n_ _ _\n  _ _ _ _  \n b\n").tail,
    "a\n b",
  );
});

Deno.test("describeFailure() puts the reason after the clause", async (t) => {
  const table: [string, string, string][] = [
    [
      "a health check",
      "FailedHealthCheck: HealthCheck.too_slow",
      `it failed: Hypothesis' health check "too_slow" failed:\nFailedHealthCheck: HealthCheck.too_slow`,
    ],
    [
      "a deadline",
      "DeadlineExceeded",
      "it failed: an example exceeded Hypothesis' deadline:\nDeadlineExceeded",
    ],
    [
      "an exception",
      "tests/t.py:3: KeyError",
      "it failed with KeyError:\ntests/t.py:3: KeyError",
    ],
    ["an unnamed exception", "boom", "it failed:\nboom"],
    ["nothing at all", "", "it failed"],
  ];
  for (const [label, text, expected] of table) {
    await t.step(label, () => {
      assert.equal(describeFailure("it failed", failureReason(text)), expected);
    });
  }
});
