import assert from "node:assert/strict";
import {
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
