import assert from "node:assert/strict";
import {
  type CaseSpec,
  junitXml,
  type Script,
  ScriptedSandbox,
} from "./_scripted_sandbox.ts";
import type { SandboxResult } from "../sandbox/sandbox.ts";
import { installObserver } from "./observer.ts";
import { TestRunnerMissingError } from "./run_pytest.ts";
import {
  type FreezeRef,
  MAX_FAILED_FINDINGS,
  runSuite,
  type RunSuiteOptions,
  type SuiteOutcome,
} from "./run_suite.ts";

interface Harness {
  sandbox: ScriptedSandbox;
  outcome: SuiteOutcome;
  freshDirs: string[];
  root: string;
}

/**
 * Run the suite with a scripted sandbox in fresh temporary directories; each
 * fresh work dir gets the test module files so reruns can locate them.
 */
async function suite(
  script: Script,
  extra: Partial<RunSuiteOptions> = {},
): Promise<Harness> {
  const root = await Deno.makeTempDir({ prefix: "pawl_run_suite_" });
  try {
    const workDir = `${root}/work`;
    const reportDir = `${root}/report`;
    await Deno.mkdir(workDir);
    await Deno.mkdir(reportDir);
    const freshDirs: string[] = [];
    const sandbox = new ScriptedSandbox(script);
    const outcome = await runSuite(sandbox, {
      workDir,
      reportDir,
      freshWorkDir: async () => {
        const dir = `${root}/fresh-${freshDirs.length}`;
        await Deno.mkdir(`${dir}/tests`, { recursive: true });
        await Deno.writeTextFile(`${dir}/tests/test_r.py`, "");
        freshDirs.push(dir);
        return dir;
      },
      ...extra,
    });
    return { sandbox, outcome, freshDirs, root };
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

/** A script answering run i with the i-th entry (the last one repeats). */
function runs(
  ...answers: { cases?: readonly CaseSpec[]; code?: number }[]
): Script {
  return async ({ index, reportPath }) => {
    const answer = answers[Math.min(index, answers.length - 1)] ?? {};
    if (answer.cases !== undefined && reportPath !== undefined) {
      await Deno.writeTextFile(reportPath, junitXml(answer.cases));
    }
    return { code: answer.code ?? 0 };
  };
}

const FLAKY = { classname: "tests.test_r", name: "test_report_render_flaky" };
const STEADY = { classname: "tests.test_r", name: "test_steady" };
const FREEZE: FreezeRef = {
  id: "test_report_render_flaky",
  test: "test_report_render_flaky",
  remainingReruns: 2,
};

Deno.test("runSuite() reports nothing for a green run", async () => {
  const { outcome } = await suite(runs({ cases: [STEADY, FLAKY] }));
  assert.deepEqual(outcome.findings, []);
  assert.deepEqual(outcome.summary, {
    total: 2,
    passed: 2,
    failed: 0,
    errors: 0,
    skipped: 0,
    xfailed: 0,
  });
  assert.equal(outcome.reported, true);
  assert.deepEqual(outcome.reruns, []);
});

Deno.test("runSuite() reports one tests.failed finding per failing test", async () => {
  const { outcome } = await suite(runs({
    code: 1,
    cases: [
      STEADY,
      {
        classname: "tests.test_a.TestK",
        name: "test_m[2]",
        outcome: "failed",
        message: "assert 2 != 2\nmore detail",
      },
      {
        classname: "tests.test_a",
        name: "test_fixture",
        outcome: "error",
        message: 'failed on setup with "RuntimeError: boom"',
      },
      { classname: "tests.test_a", name: "test_skip", outcome: "skipped" },
      { classname: "tests.test_a", name: "test_xf", outcome: "xfailed" },
    ],
  }));
  assert.deepEqual(
    outcome.findings.map((f) => f.failure?.test),
    ["tests/test_a.py::TestK::test_m[2]", "tests/test_a.py::test_fixture"],
  );
  assert.deepEqual(outcome.findings[0]?.failure, {
    test: "tests/test_a.py::TestK::test_m[2]",
    exception: "AssertionError: assert 2 != 2",
    traceback: ["assert 2 != 2", "more detail"],
    reproduce:
      "PYTHONHASHSEED=0 python3 -m pytest -q -p no:cacheprovider 'tests/test_a.py::TestK::test_m[2]'",
  });
  assert.deepEqual(outcome.findings.map(({ failure: _, ...f }) => f), [
    {
      layer: "tests",
      rule: "tests.failed",
      message: 'Test "tests/test_a.py::TestK::test_m[2]" failed: assert 2 != 2',
      path: "tests/test_a.py",
      blocking: true,
    },
    {
      layer: "tests",
      rule: "tests.failed",
      message:
        'Test "tests/test_a.py::test_fixture" errored: failed on setup with "RuntimeError: boom"',
      path: "tests/test_a.py",
      blocking: true,
    },
  ]);
  assert.deepEqual(outcome.summary, {
    total: 5,
    passed: 1,
    failed: 1,
    errors: 1,
    skipped: 1,
    xfailed: 1,
  });
});

Deno.test("runSuite() locates failing tests the report gives no line for through testLine", async () => {
  const asked: string[] = [];
  const { outcome } = await suite(
    runs({
      code: 1,
      cases: [
        STEADY,
        {
          classname: "tests.test_a.TestK",
          name: "test_m[2]",
          outcome: "failed",
          message: "assert 2 != 2",
        },
        { ...FLAKY, outcome: "failed", message: "flaky" },
        { classname: "tests.test_a", name: "test_gone", outcome: "failed" },
      ],
    }, { cases: [{ ...FLAKY, outcome: "failed", message: "flaky" }] }),
    {
      freezes: [FREEZE],
      testLine: (file, qualname) => {
        asked.push(`${file}::${qualname}`);
        const lines: Record<string, number> = {
          "tests/test_a.py::TestK.test_m": 7,
          "tests/test_r.py::test_report_render_flaky": 3,
        };
        return Promise.resolve(lines[`${file}::${qualname}`]);
      },
    },
  );
  assert.deepEqual(asked.sort(), [
    "tests/test_a.py::TestK.test_m",
    "tests/test_a.py::test_gone",
    "tests/test_r.py::test_report_render_flaky",
  ], "only failing tests are looked up");
  assert.deepEqual(
    outcome.findings.map((f) => [f.rule, f.path, f.line]),
    [
      ["tests.failed", "tests/test_a.py", undefined],
      ["tests.failed", "tests/test_a.py", 7],
      ["tests.frozen_failed", "tests/test_r.py", 3],
    ],
  );
});

Deno.test("runSuite() gives a frozen failing test its budgeted reruns", async (t) => {
  await t.step(
    "passing on the 2nd of 2 reruns is a non-blocking freeze.rerun_used",
    async () => {
      const { outcome, sandbox, freshDirs } = await suite(
        runs(
          {
            code: 1,
            cases: [STEADY, { ...FLAKY, outcome: "failed", message: "skew" }],
          },
          { code: 1, cases: [{ ...FLAKY, outcome: "failed" }] },
          { code: 0, cases: [FLAKY] },
        ),
        { freezes: [FREEZE] },
      );
      assert.deepEqual(outcome.reruns, [{
        freeze: "test_report_render_flaky",
        test: "test_report_render_flaky",
        selected: ["tests/test_r.py::test_report_render_flaky"],
        used: 2,
        allowed: 2,
        passed: true,
      }]);
      assert.equal(outcome.findings.length, 1);
      assert.equal(outcome.findings[0]?.rule, "freeze.rerun_used");
      assert.equal(outcome.findings[0]?.blocking, false);
      assert.match(outcome.findings[0]?.message ?? "", /rerun 2 of 2/);
      assert.equal(freshDirs.length, 2);
      for (const [i, dir] of freshDirs.entries()) {
        const rerun = sandbox.calls[i + 1];
        assert.equal(rerun?.cwd, dir, "each rerun runs in its own fresh tree");
        assert.equal(
          rerun?.argv.at(-1),
          "tests/test_r.py::test_report_render_flaky",
        );
      }
      assert.equal(outcome.summary.failed, 1, "the summary is the full run's");
    },
  );

  await t.step("never passing is a blocking tests.frozen_failed", async () => {
    const { outcome, sandbox } = await suite(
      runs({
        code: 1,
        cases: [{ ...FLAKY, outcome: "failed", message: "skew" }],
      }),
      { freezes: [FREEZE] },
    );
    assert.equal(sandbox.calls.length, 3);
    assert.deepEqual(outcome.findings.map((f) => [f.rule, f.blocking]), [
      ["tests.frozen_failed", true],
    ]);
    assert.match(
      outcome.findings[0]?.message ?? "",
      /did not pass in 2 of 2 reruns \(freeze "test_report_render_flaky"\): skew/,
    );
    assert.equal(outcome.reruns[0]?.used, 2);
    assert.equal(outcome.reruns[0]?.passed, false);
  });

  await t.step("a rerun that times out does not pass", async () => {
    let call = 0;
    const { outcome } = await suite(
      async ({ reportPath }) => {
        call++;
        await Deno.writeTextFile(
          reportPath as string,
          junitXml([{ ...FLAKY, outcome: call === 1 ? "failed" : "passed" }]),
        );
        return call === 1 ? { code: 1 } : { code: 0, timedOut: true };
      },
      { freezes: [{ ...FREEZE, remainingReruns: 1 }] },
    );
    assert.deepEqual(outcome.findings.map((f) => f.rule), [
      "tests.frozen_failed",
    ]);
  });

  for (
    const [name, rerun] of [
      [
        "a rerun that does not run the frozen test again",
        { code: 0, cases: [STEADY] },
      ],
      [
        "a rerun that reports the frozen test both passed and failed",
        { code: 1, cases: [FLAKY, { ...FLAKY, outcome: "failed" as const }] },
      ],
      [
        "a rerun that printed past its output limit",
        { code: 0, cases: [FLAKY], outputExceeded: true },
      ],
      [
        "a rerun that was interrupted",
        { code: 2, cases: [FLAKY] },
      ],
    ] as const
  ) {
    await t.step(`${name} does not pass`, async () => {
      const { outcome } = await suite(
        async ({ index, reportPath }) => {
          const answer = index === 0
            ? { code: 1, cases: [{ ...FLAKY, outcome: "failed" as const }] }
            : rerun;
          await Deno.writeTextFile(
            reportPath as string,
            junitXml(answer.cases),
          );
          return {
            code: answer.code,
            outputExceeded: "outputExceeded" in answer,
          };
        },
        { freezes: [{ ...FREEZE, remainingReruns: 1 }] },
      );
      assert.deepEqual(outcome.findings.map((f) => f.rule), [
        "tests.frozen_failed",
      ]);
      assert.equal(outcome.reruns[0]?.passed, false);
    });
  }

  await t.step("a freeze named by node id covers its test", async () => {
    const { outcome } = await suite(
      runs(
        { code: 1, cases: [{ ...FLAKY, outcome: "failed" }] },
        { code: 0, cases: [FLAKY] },
      ),
      {
        freezes: [{
          id: "PAY-4412",
          test: "tests/test_r.py::test_report_render_flaky",
          remainingReruns: 1,
        }],
      },
    );
    assert.deepEqual(outcome.findings.map((f) => f.rule), [
      "freeze.rerun_used",
    ]);
    assert.equal(outcome.reruns[0]?.freeze, "PAY-4412");
  });

  await t.step(
    "a budget of 0 gives no rerun and a tests.frozen_failed",
    async () => {
      const { outcome, sandbox, freshDirs } = await suite(
        runs({ code: 1, cases: [{ ...FLAKY, outcome: "failed" }] }),
        { freezes: [{ ...FREEZE, remainingReruns: 0 }] },
      );
      assert.equal(sandbox.calls.length, 1);
      assert.equal(freshDirs.length, 0);
      assert.deepEqual(outcome.findings.map((f) => f.rule), [
        "tests.frozen_failed",
      ]);
      assert.match(outcome.findings[0]?.message ?? "", /no reruns left/);
    },
  );

  await t.step(
    "an expired freeze gives no rerun and a tests.failed",
    async () => {
      const { outcome, sandbox } = await suite(
        runs({ code: 1, cases: [{ ...FLAKY, outcome: "failed" }] }),
        { freezes: [{ ...FREEZE, expired: true }] },
      );
      assert.equal(sandbox.calls.length, 1);
      assert.deepEqual(outcome.findings.map((f) => f.rule), ["tests.failed"]);
      assert.deepEqual(outcome.reruns, []);
    },
  );

  await t.step(
    "a freeze marked unexpired gives its reruns",
    async () => {
      const { outcome, sandbox } = await suite(
        runs({ code: 1, cases: [{ ...FLAKY, outcome: "failed" }] }, {
          code: 0,
          cases: [FLAKY],
        }),
        { freezes: [{ ...FREEZE, expired: false }] },
      );
      assert.equal(sandbox.calls.length, 2);
      assert.deepEqual(outcome.findings.map((f) => f.rule), [
        "freeze.rerun_used",
      ]);
    },
  );

  await t.step(
    "a freeze does not cover an unrelated failing test",
    async () => {
      const { outcome, sandbox } = await suite(
        runs({ code: 1, cases: [{ ...STEADY, outcome: "failed" }] }),
        { freezes: [FREEZE] },
      );
      assert.equal(sandbox.calls.length, 1);
      assert.deepEqual(outcome.findings.map((f) => f.rule), ["tests.failed"]);
    },
  );
});

Deno.test("runSuite() reports a run that did not finish normally", async (t) => {
  const table: [string, Script, string, RegExp][] = [
    [
      "a timeout",
      () => ({ code: null, signal: "SIGKILL", timedOut: true }),
      "tests.timeout",
      /^The test run was stopped at its time limit of 5 s \(\[tests\] timeout_seconds\)$/,
    ],
    [
      "too much output",
      () => ({ code: null, signal: "SIGKILL", outputExceeded: true }),
      "tests.output_exceeded",
      /output limit/,
    ],
    [
      "no report",
      () => ({ code: 1, outputTail: "Segmentation fault" }),
      "tests.no_report",
      /left no usable JUnit report: The test run wrote no report "junit-0\.xml": output ends with:\nSegmentation fault/,
    ],
    [
      "no tests collected (exit 5)",
      runs({ code: 5, cases: [] }),
      "tests.run_failed",
      /collected no tests \(exit code 5\)/,
    ],
    [
      "a usage error (exit 4)",
      runs({ code: 4, cases: [] }),
      "tests.run_failed",
      /usage error/,
    ],
    [
      "a failure exit with no failing test",
      runs({ code: 1, cases: [STEADY] }),
      "tests.run_failed",
      /reported failure but no failing test \(exit code 1\)/,
    ],
    [
      "a kill by signal",
      runs({ cases: [STEADY] }),
      "tests.run_failed",
      /^The test run ended abnormally \(killed by signal SIGSEGV\)$/,
    ],
  ];
  for (const [label, script, rule, message] of table) {
    await t.step(`${label} is ${rule}`, async () => {
      const wrapped: Script = label === "a kill by signal"
        ? async (call) => ({
          ...(await script(call)),
          code: null,
          signal: "SIGSEGV",
        })
        : script;
      const { outcome } = await suite(wrapped, {
        limits: { timeoutMs: 5000 },
      });
      assert.deepEqual(outcome.findings.map((f) => f.rule), [rule]);
      assert.match(outcome.findings[0]?.message ?? "", message);
      assert.equal(outcome.findings[0]?.blocking, true);
    });
  }

  await t.step(
    "a collection error is a tests.collection_error and a tests.run_failed",
    async () => {
      const { outcome } = await suite(runs({
        code: 2,
        cases: [{
          classname: "",
          name: "tests.test_broken",
          outcome: "error",
          message: "collection failure",
        }],
      }));
      assert.deepEqual(
        outcome.findings.map((f) => [f.rule, f.path, f.message]),
        [
          [
            "tests.collection_error",
            "tests/test_broken.py",
            'Collecting "tests/test_broken.py" failed:\ncollection failure',
          ],
          [
            "tests.run_failed",
            undefined,
            "The test run was interrupted (exit code 2)",
          ],
        ],
      );
    },
  );

  await t.step("a timed-out run's report is not trusted", async () => {
    const { outcome } = await suite(async ({ reportPath }) => {
      await Deno.writeTextFile(reportPath as string, junitXml([STEADY]));
      return { code: null, timedOut: true };
    });
    assert.equal(outcome.reported, false);
    assert.deepEqual(outcome.cases, []);
  });
});

Deno.test("runSuite() lets TestRunnerMissingError through (could not decide)", async () => {
  await assert.rejects(
    suite(() => ({ code: 127, outputTail: "python3: not found" })),
    TestRunnerMissingError,
  );
});

Deno.test("runSuite() returns the same outcome for the same inputs", async () => {
  const script: Script = async ({ command, reportPath }) => {
    await Deno.writeTextFile(
      reportPath as string,
      junitXml([
        {
          ...FLAKY,
          outcome: "failed",
          message: `AssertionError: ${
            command.env["HOME"]
          }/pytest-of-u/x differs`,
        },
        { classname: "tests.test_b", name: "test_z", outcome: "failed" },
        STEADY,
        { classname: "tests.test_a", name: "test_y", outcome: "error" },
      ]),
    );
    return {
      code: 2,
      outputTail: `FAILED ${command.cwd}/tests/test_b.py\n3 failed in ${
        (Math.random() * 10).toFixed(2)
      }s`,
    };
  };
  const first = await suite(script, { freezes: [FREEZE] });
  const second = await suite(script, { freezes: [FREEZE] });
  assert.notEqual(first.root, second.root);
  assert.deepEqual(first.outcome, second.outcome);
  const text = JSON.stringify(first.outcome);
  assert.ok(!text.includes(first.root), "no temporary path leaks");
  assert.match(text, /<reports>\/home-0\/pytest-of-u/);
  assert.match(text, /in <duration>/);
  assert.deepEqual(
    first.outcome.cases.map((c) => `${c.classname}::${c.name}`),
    [
      "tests.test_a::test_y",
      "tests.test_b::test_z",
      "tests.test_r::test_report_render_flaky",
      "tests.test_r::test_steady",
    ],
  );
});

/** `count` failing tests of one module, named in the order they sort. */
function manyFailing(count: number, classname = "tests.test_many") {
  return Array.from({ length: count }, (_, i) => ({
    classname,
    name: `test_n[${String(i).padStart(3, "0")}]`,
    outcome: "failed" as const,
  }));
}

Deno.test("runSuite() lists at most MAX_FAILED_FINDINGS failing tests one by one", async () => {
  const failing = manyFailing(MAX_FAILED_FINDINGS + 5);
  const { outcome } = await suite(runs({ code: 1, cases: failing }));
  assert.equal(outcome.findings.length, MAX_FAILED_FINDINGS + 1);
  assert.ok(outcome.findings.every((f) => f.rule === "tests.failed"));
  assert.ok(
    outcome.findings.some((f) =>
      f.message ===
        "5 more tests failed or errored (only the first 100 are listed)"
    ),
  );
  assert.equal(outcome.summary.failed, MAX_FAILED_FINDINGS + 5);
});

/** A report with the given raw `<testcase>` elements. */
function rawReport(...testcases: string[]): string {
  return `<?xml version="1.0" encoding="utf-8"?><testsuites name="pytest tests"><testsuite name="pytest" tests="${testcases.length}">${
    testcases.join("")
  }</testsuite></testsuites>`;
}

Deno.test("runSuite() asks testLine only for failed or errored tests the report gives no line for", async () => {
  const asked: string[] = [];
  const { outcome } = await suite(
    async ({ reportPath }) => {
      await Deno.writeTextFile(
        reportPath as string,
        rawReport(
          '<testcase classname="tests.test_a" name="test_lined" line="4" time="0.1"><failure message="m">t</failure></testcase>',
          '<testcase classname="tests.test_a" name="test_setup" time="0.1"><error message="e">t</error></testcase>',
          '<testcase classname="tests.test_a" name="test_ok" time="0.1" />',
        ),
      );
      return { code: 1 };
    },
    {
      testLine: (file, qualname) => {
        asked.push(`${file}::${qualname}`);
        return Promise.resolve(99);
      },
    },
  );
  assert.deepEqual(asked, ["tests/test_a.py::test_setup"]);
  assert.deepEqual(
    outcome.findings.map((f) => [f.failure?.test, f.line]),
    [
      ["tests/test_a.py::test_lined", 5],
      ["tests/test_a.py::test_setup", 99],
    ],
  );
});

Deno.test("runSuite() decides which failing tests a freeze covers and when its reruns pass", async (t) => {
  const M1 = { classname: "tests.test_r", name: "test_m[1]" };
  const M2 = { classname: "tests.test_r", name: "test_m[2]" };
  const K1 = { classname: "tests.test_r.TestK", name: "test_k[1]" };
  const table: {
    name: string;
    freeze: FreezeRef;
    failing: CaseSpec[];
    rerun: { cases?: CaseSpec[]; code: number };
    rule: string;
    selected: string[];
  }[] = [
    {
      name: "a freeze of a parametrized test's base name covers each case",
      freeze: { id: "F", test: "test_m", remainingReruns: 1 },
      failing: [M1],
      rerun: { cases: [M1], code: 0 },
      rule: "freeze.rerun_used",
      selected: ["tests/test_r.py::test_m[1]"],
    },
    {
      name: "a freeze of Class.base covers the class's parametrized cases",
      freeze: { id: "F", test: "TestK.test_k", remainingReruns: 1 },
      failing: [K1],
      rerun: { cases: [K1], code: 0 },
      rule: "freeze.rerun_used",
      selected: ["tests/test_r.py::TestK::test_k[1]"],
    },
    {
      name: "a freeze of Class.name[id] covers that parametrized case",
      freeze: { id: "F", test: "TestK.test_k[1]", remainingReruns: 1 },
      failing: [K1],
      rerun: { cases: [K1], code: 0 },
      rule: "freeze.rerun_used",
      selected: ["tests/test_r.py::TestK::test_k[1]"],
    },
    {
      name:
        "a freeze of a base name covers a case whose parameter id holds a bracket",
      freeze: { id: "F", test: "test_m", remainingReruns: 1 },
      failing: [{ classname: "tests.test_r", name: "test_m[a]b]" }],
      rerun: {
        cases: [{ classname: "tests.test_r", name: "test_m[a]b]" }],
        code: 0,
      },
      rule: "freeze.rerun_used",
      selected: ["tests/test_r.py::test_m[a]b]"],
    },
    {
      name: "a freeze's test reference is read without surrounding blanks",
      freeze: { id: "F", test: "  test_m[1] ", remainingReruns: 1 },
      failing: [M1],
      rerun: { cases: [M1], code: 0 },
      rule: "freeze.rerun_used",
      selected: ["tests/test_r.py::test_m[1]"],
    },
    {
      name: "a rerun passes only when every covered failing test passes",
      freeze: { id: "F", test: "test_m", remainingReruns: 1 },
      failing: [M1, M2],
      rerun: { cases: [M1, { ...M2, outcome: "failed" }], code: 1 },
      rule: "tests.frozen_failed",
      selected: ["tests/test_r.py::test_m[1]", "tests/test_r.py::test_m[2]"],
    },
    {
      name: "a test of the same name in another module does not stand in",
      freeze: { id: "F", test: "test_m[1]", remainingReruns: 1 },
      failing: [M1],
      rerun: { cases: [{ ...M1, classname: "tests.test_other" }], code: 0 },
      rule: "tests.frozen_failed",
      selected: ["tests/test_r.py::test_m[1]"],
    },
    {
      name: "a rerun that leaves no report does not pass",
      freeze: { id: "F", test: "test_m[1]", remainingReruns: 1 },
      failing: [M1],
      rerun: { code: 0 },
      rule: "tests.frozen_failed",
      selected: ["tests/test_r.py::test_m[1]"],
    },
    {
      name:
        "a rerun that exits 1 for another test passes when the frozen test passed",
      freeze: { id: "F", test: "test_m[1]", remainingReruns: 1 },
      failing: [M1],
      rerun: { cases: [M1, { ...STEADY, outcome: "failed" }], code: 1 },
      rule: "freeze.rerun_used",
      selected: ["tests/test_r.py::test_m[1]"],
    },
  ];
  for (const c of table) {
    await t.step(c.name, async () => {
      const { outcome } = await suite(
        runs(
          {
            code: 1,
            cases: c.failing.map((f) => ({ ...f, outcome: "failed" as const })),
          },
          c.rerun,
        ),
        { freezes: [c.freeze] },
      );
      assert.deepEqual(outcome.findings.map((f) => f.rule), [c.rule]);
      assert.deepEqual(outcome.reruns.map((r) => [r.used, r.selected]), [
        [1, c.selected],
      ]);
    });
  }
});

Deno.test("runSuite() stops rerunning a frozen test once a rerun passes", async () => {
  const { outcome, sandbox, freshDirs } = await suite(
    runs({ code: 1, cases: [{ ...FLAKY, outcome: "failed" }] }, {
      code: 0,
      cases: [FLAKY],
    }),
    { freezes: [{ ...FREEZE, remainingReruns: 3 }] },
  );
  assert.equal(sandbox.calls.length, 2);
  assert.equal(freshDirs.length, 1);
  assert.deepEqual(
    outcome.reruns.map((r) => [r.used, r.allowed, r.passed]),
    [[1, 3, true]],
  );
  assert.equal(
    outcome.findings[0]?.message,
    'Frozen test "tests/test_r.py::test_report_render_flaky" failed and passed on rerun 1 of 3 (freeze "test_report_render_flaky"): the contract\'s remaining_reruns should be lowered by 1',
  );
});

Deno.test("runSuite() words a frozen test's spent budget by what was allowed", async (t) => {
  for (
    const [remaining, allowed, message] of [
      [-2, 0, /freeze "F" has no reruns left: skew$/],
      [0, 0, /freeze "F" has no reruns left: skew$/],
      [1.7, 1, /did not pass in 1 of 1 rerun \(freeze "F"\): skew$/],
    ] as const
  ) {
    await t.step(`remaining_reruns ${remaining}`, async () => {
      const { outcome, sandbox } = await suite(
        runs({
          code: 1,
          cases: [{ ...FLAKY, outcome: "failed", message: "skew" }],
        }),
        { freezes: [{ ...FREEZE, id: "F", remainingReruns: remaining }] },
      );
      assert.equal(sandbox.calls.length, 1 + allowed);
      assert.deepEqual(outcome.reruns.map((r) => r.allowed), [allowed]);
      assert.deepEqual(outcome.findings.map((f) => [f.rule, f.blocking]), [
        ["tests.frozen_failed", true],
      ]);
      assert.match(outcome.findings[0]?.message ?? "", message);
    });
  }
});

Deno.test("runSuite() reports a failing test under a seed freeze as non-blocking, but never a collection error", async () => {
  const { outcome } = await suite(
    runs({
      code: 2,
      cases: [
        { ...FLAKY, outcome: "failed", message: "seed 7" },
        { ...STEADY, outcome: "failed" },
        {
          classname: "",
          name: "tests.test_broken",
          outcome: "error",
          message: "collection failure",
        },
      ],
    }),
    {
      nonBlocking: [
        "test_report_render_flaky",
        "tests.test_broken",
        "tests/test_broken.py",
      ],
    },
  );
  assert.deepEqual(
    outcome.findings.map((f) => [f.rule, f.path, f.blocking]),
    [
      ["seed.fresh_failed", "tests/test_r.py", false],
      ["tests.collection_error", "tests/test_broken.py", true],
      ["tests.failed", "tests/test_r.py", true],
      ["tests.run_failed", undefined, true],
    ],
  );
  assert.deepEqual(outcome.unfrozenFailures, [
    "tests/test_r.py::test_steady",
  ], "a collection error is no test's failure");
});

Deno.test("runSuite() lists exactly MAX_FAILED_FINDINGS failing tests without a count of more", async () => {
  const failing = manyFailing(MAX_FAILED_FINDINGS);
  const { outcome } = await suite(runs({ code: 1, cases: failing }));
  assert.equal(outcome.findings.length, MAX_FAILED_FINDINGS);
  assert.ok(outcome.findings.every((f) => f.failure !== undefined));
  assert.equal(outcome.unfrozenFailures?.length, MAX_FAILED_FINDINGS);
});

Deno.test("runSuite() quotes the output limit in the unit of its setting", async (t) => {
  for (
    const [bytes, text] of [
      [16 * 1024 * 1024, "of 16 MiB ([tests] max_output_mib)"],
      [1000, "of 1000 bytes ([tests] max_output_mib)"],
    ] as const
  ) {
    await t.step(text, async () => {
      const { outcome } = await suite(
        () => ({ code: null, signal: "SIGKILL", outputExceeded: true }),
        { limits: { maxOutputBytes: bytes } },
      );
      assert.ok(outcome.findings[0]?.message.includes(text));
    });
  }
});

/** Run `fn` with a temporary directory for an observer, removed after. */
async function withObserverRoot(
  fn: (root: string) => Promise<void>,
): Promise<void> {
  const root = await Deno.makeTempDir({ prefix: "pawl_run_suite_observer_" });
  try {
    await fn(root);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

/** A script that streams `events` to pawl's observer as the plugin would, then ends as `result` says. */
function observed(
  events: Record<string, unknown>[],
  result: Partial<SandboxResult>,
  cases?: readonly CaseSpec[],
): Script {
  return async ({ command, reportPath }) => {
    const conn = await Deno.connect({
      transport: "unix",
      path: command.env["PAWL_OBSERVER_SOCKET"] as string,
    });
    const lines = [
      { event: "hello", token: command.env["PAWL_OBSERVER_TOKEN"] },
      ...events,
    ].map((e) => `${JSON.stringify(e)}\n`).join("");
    const bytes = new TextEncoder().encode(lines);
    for (let n = 0; n < bytes.length;) {
      n += await conn.write(bytes.subarray(n));
    }
    conn.close();
    if (cases !== undefined && reportPath !== undefined) {
      await Deno.writeTextFile(reportPath, junitXml(cases));
    }
    return result;
  };
}

function report(nodeid: string, outcome: string, extra = {}) {
  return {
    event: "report",
    nodeid,
    when: "call",
    outcome,
    xfail: false,
    ...extra,
  };
}

Deno.test("runSuite() counts what the observer saw end when the run was stopped, and names the test still running", async () => {
  await withObserverRoot(async (root) => {
    const ids = ["a", "b", "c", "d"].map((n) => `tests/test_t.py::test_${n}`);
    const { outcome } = await suite(
      observed([
        { event: "collected", nodeids: ids },
        report(ids[0]!, "passed"),
        report(ids[1]!, "failed", { text: "AssertionError: b" }),
        report(ids[2]!, "passed"),
      ], { code: null, signal: "SIGKILL", timedOut: true }),
      { observer: await installObserver(root), limits: { timeoutMs: 9000 } },
    );
    assert.deepEqual(outcome.summary, {
      total: 3,
      passed: 2,
      failed: 1,
      errors: 0,
      skipped: 0,
      xfailed: 0,
    });
    assert.deepEqual(
      outcome.findings.map((f) => [f.rule, f.path, f.failure?.test]),
      [["tests.timeout", "tests/test_t.py", ids[3]]],
    );
    assert.equal(
      outcome.findings[0]?.message,
      `The test run was stopped at its time limit of 9 s ([tests] timeout_seconds) while "${
        ids[3]
      }" was running, after 2 tests had passed`,
    );
  });
});

Deno.test("runSuite() quotes the end of a long failure text the observer kept, over its beginning", async () => {
  await withObserverRoot(async (root) => {
    const id = "tests/test_r.py::test_report_render_flaky";
    const { outcome } = await suite(
      observed(
        [report(id, "failed", {
          text: "def test():\nAssertionError: the beginning",
          tail: "AssertionError: the end",
        })],
        { code: 1 },
        [{ ...FLAKY, outcome: "failed", message: "the report's" }],
      ),
      { observer: await installObserver(root) },
    );
    const failed = outcome.findings.filter((f) => f.rule === "tests.failed");
    assert.deepEqual(failed.map((f) => f.failure?.exception), [
      "AssertionError: the end",
    ]);
  });
});

Deno.test("runSuite() counts each ending the observer saw in a stopped run, and only passes as passed", async () => {
  await withObserverRoot(async (root) => {
    const ids = ["a", "b", "c", "d", "e", "f"].map((n) =>
      `tests/test_t.py::test_${n}`
    );
    const { outcome } = await suite(
      observed([
        { event: "collected", nodeids: ids },
        report(ids[0]!, "passed"),
        report(ids[1]!, "failed"),
        report(ids[2]!, "failed", { when: "setup" }),
        report(ids[3]!, "skipped", { when: "setup" }),
        report(ids[4]!, "skipped", { xfail: true }),
      ], { code: null, signal: "SIGKILL", timedOut: true }),
      { observer: await installObserver(root), limits: { timeoutMs: 9000 } },
    );
    assert.deepEqual(outcome.summary, {
      total: 5,
      passed: 1,
      failed: 1,
      errors: 1,
      skipped: 1,
      xfailed: 1,
    });
    assert.equal(
      outcome.findings[0]?.message,
      `The test run was stopped at its time limit of 9 s ([tests] timeout_seconds) while "${
        ids[5]
      }" was running, after 1 test had passed`,
    );
  });
});

Deno.test("runSuite() counts no passed tests in a stopped run whose observer never said hello", async () => {
  await withObserverRoot(async (root) => {
    const { outcome } = await suite(
      () => ({ code: null, signal: "SIGKILL", timedOut: true }),
      { observer: await installObserver(root), limits: { timeoutMs: 9000 } },
    );
    assert.equal(outcome.observation?.hello, false);
    assert.deepEqual(outcome.findings.map((f) => [f.rule, f.message]), [[
      "tests.timeout",
      "The test run was stopped at its time limit of 9 s ([tests] timeout_seconds)",
    ]]);
  });
});

Deno.test("runSuite() quotes the first lines of the traceback the observer streamed for a collection error", async () => {
  await withObserverRoot(async (root) => {
    const lines = Array.from({ length: 14 }, (_, i) => `line ${i + 1}`);
    const { outcome } = await suite(
      observed(
        [{
          event: "collect_error",
          nodeid: "tests/test_broken.py",
          text: `${lines[0]}\n\n${lines.slice(1).join("\n")}`,
        }],
        { code: 2 },
        [{
          classname: "",
          name: "tests.test_broken",
          outcome: "error",
          message: "collection failure",
        }],
      ),
      { observer: await installObserver(root) },
    );
    assert.deepEqual(
      outcome.findings.filter((f) => f.rule === "tests.collection_error")
        .map((f) => f.message),
      [
        `Collecting "tests/test_broken.py" failed:\n${
          lines.slice(0, 12).join("\n")
        }`,
      ],
    );
  });
});

Deno.test("runSuite() gives a frozen test that never passed its failure detail", async () => {
  const { outcome } = await suite(
    runs({
      code: 1,
      cases: [{ ...FLAKY, outcome: "failed", message: "skew" }],
    }),
    { freezes: [{ ...FREEZE, remainingReruns: 1 }] },
  );
  assert.deepEqual(
    outcome.findings.map((f) => [f.rule, f.failure?.test]),
    [["tests.frozen_failed", "tests/test_r.py::test_report_render_flaky"]],
  );
  assert.match(
    outcome.findings[0]?.failure?.reproduce ?? "",
    /'tests\/test_r\.py::test_report_render_flaky'$/,
  );
});

Deno.test("runSuite() quotes at most the last lines and characters of the output", async (t) => {
  const many = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`);
  const table: [string, string, string][] = [
    [
      "the last 15 lines of more",
      many.join("\n"),
      many.slice(-15).join("\n"),
    ],
    ["exactly 1500 characters whole", "x".repeat(1500), "x".repeat(1500)],
    ["lines without their trailing blanks", "a  \nb\t", "a\nb"],
    [
      "the last 1500 characters of more, after an ellipsis",
      `a${"x".repeat(1500)}`,
      `…${"x".repeat(1500)}`,
    ],
  ];
  for (const [name, output, quoted] of table) {
    await t.step(name, async () => {
      const { outcome } = await suite(() => ({
        code: 4,
        outputTail: output,
      }));
      assert.deepEqual(outcome.findings.map((f) => f.message), [
        `The test run (exit code 4) left no usable JUnit report: The test run wrote no report "junit-0.xml": output ends with:\n${quoted}`,
      ]);
    });
  }
});

Deno.test("runSuite() replaces run-specific addresses and durations in quoted output", async () => {
  const { outcome } = await suite(() => ({
    code: 4,
    outputTail:
      "<object at 0x7f3a2b1c9d00> 0xbeef12 0xff12\n1 failed in 3s\n2 failed in 62.50s (0:01:02)\n3 failed in 62.50s (0:01:02.50)\n4 failed in 36001s (10:00:01)",
  }));
  assert.match(
    outcome.findings[0]?.message ?? "",
    /output ends with:\n<object at 0x<address>> 0x<address> 0xff12\n1 failed in <duration>\n2 failed in <duration> \(<duration>\)\n3 failed in <duration> \(<duration>\)\n4 failed in <duration> \(<duration>\)$/,
  );
});

Deno.test("runSuite() names a report directory inside the tree as the report directory, and a tree inside the report directory as the tree", async () => {
  const root = await Deno.makeTempDir({ prefix: "pawl_run_suite_" });
  try {
    for (
      const [workDir, reportDir] of [
        [`${root}/work`, `${root}/work/.reports`],
        [`${root}/reports/tree`, `${root}/reports`],
      ] as const
    ) {
      await Deno.mkdir(workDir, { recursive: true });
      await Deno.mkdir(reportDir, { recursive: true });
      const outcome = await runSuite(
        new ScriptedSandbox(({ command }) => ({
          code: 4,
          outputTail: `${command.env["HOME"]}/x and ${workDir}/y`,
        })),
        { workDir, reportDir, freshWorkDir: () => Promise.resolve(workDir) },
      );
      assert.match(
        outcome.findings[0]?.message ?? "",
        /output ends with:\n<reports>\/home-0\/x and <tree>\/y$/,
        workDir,
      );
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("runSuite() orders cases of the same test by outcome before message", async () => {
  const { outcome } = await suite(runs({
    code: 1,
    cases: [
      { ...FLAKY, outcome: "failed", message: "a" },
      { ...FLAKY, outcome: "error", message: "b" },
    ],
  }));
  assert.deepEqual(outcome.cases.map((c) => c.outcome), ["error", "failed"]);
});

Deno.test("runSuite() sorts rerun records by freeze id", async () => {
  const A = { classname: "tests.test_r", name: "test_a" };
  const Z = { classname: "tests.test_r", name: "test_z" };
  const { outcome } = await suite(
    runs(
      {
        code: 1,
        cases: [{ ...A, outcome: "failed" }, { ...Z, outcome: "failed" }],
      },
      { code: 0, cases: [A, Z] },
    ),
    {
      freezes: [
        { id: "B", test: "test_a", remainingReruns: 1 },
        { id: "A", test: "test_z", remainingReruns: 1 },
      ],
    },
  );
  assert.deepEqual(outcome.reruns.map((r) => [r.freeze, r.test]), [
    ["A", "test_z"],
    ["B", "test_a"],
  ]);
});

Deno.test("runSuite() sorts unfrozen failures by node id, watched or not", async (t) => {
  const cases: CaseSpec[] = [
    { classname: "tests.test_q", name: "test_y", outcome: "failed" },
    { classname: "tests.test_q.TestK", name: "test_x", outcome: "failed" },
  ];
  for (const watched of [false, true]) {
    await t.step(watched ? "with the observer" : "without it", async () => {
      const root = await Deno.makeTempDir({ prefix: "pawl_run_suite_" });
      try {
        const { outcome } = watched
          ? await suite(observed([], { code: 1 }, cases), {
            observer: await installObserver(root),
          })
          : await suite(runs({ code: 1, cases }));
        assert.equal(outcome.observation !== undefined, watched);
        assert.deepEqual(outcome.unfrozenFailures, [
          "tests/test_q.py::TestK::test_x",
          "tests/test_q.py::test_y",
        ]);
      } finally {
        await Deno.remove(root, { recursive: true });
      }
    });
  }
});

Deno.test("runSuite() quotes no limit for a stopped run when none was set", async (t) => {
  const table: [string, Partial<SandboxResult>, string][] = [
    [
      "a timeout",
      { timedOut: true },
      "The test run was stopped at its time limit",
    ],
    [
      "too much output",
      { outputExceeded: true },
      "The test run was stopped for printing more than the output limit",
    ],
  ];
  for (const [name, result, message] of table) {
    await t.step(name, async () => {
      const { outcome } = await suite(() => ({
        code: null,
        signal: "SIGKILL",
        ...result,
      }));
      assert.deepEqual(outcome.findings.map((f) => f.message), [message]);
    });
  }
});

Deno.test("runSuite() reports a collection error without a traceback without quoting one", async () => {
  const { outcome } = await suite(runs({
    code: 2,
    cases: [{ classname: "", name: "tests.test_broken", outcome: "error" }],
  }));
  assert.deepEqual(
    outcome.findings.filter((f) => f.rule === "tests.collection_error")
      .map((f) => f.message),
    ['Collecting "tests/test_broken.py" failed'],
  );
});

Deno.test("runSuite() gives a failing test under a seed freeze its first message line and its line", async () => {
  const { outcome } = await suite(
    runs({
      code: 1,
      cases: [{ ...FLAKY, outcome: "failed", message: "seed 7\ndetail" }],
    }),
    {
      nonBlocking: ["test_report_render_flaky"],
      testLine: () => Promise.resolve(12),
    },
  );
  assert.deepEqual(
    outcome.findings.map((f) => [f.rule, f.line, f.message]),
    [[
      "seed.fresh_failed",
      12,
      'Test "tests/test_r.py::test_report_render_flaky" failed on this run\'s fresh seed: seed 7; it is under an unexpired seed freeze, so this does not block until the freeze expires',
    ]],
  );
});

Deno.test("runSuite() lets the freeze with the first id take a test two freezes cover", async () => {
  const { outcome } = await suite(
    runs({ code: 1, cases: [{ ...FLAKY, outcome: "failed" }] }, {
      code: 0,
      cases: [FLAKY],
    }),
    {
      freezes: [
        // In the contract's order, the later id comes first.
        { id: "Z", test: "test_report_render_flaky", remainingReruns: 1 },
        { id: "A", test: "test_report_render_flaky", remainingReruns: 1 },
      ],
    },
  );
  assert.deepEqual(outcome.reruns.map((r) => r.freeze), ["A"]);
});

Deno.test("runSuite() places a frozen group's finding at its first test", async () => {
  const M1 = { classname: "tests.test_r", name: "test_m[1]" };
  const M2 = { classname: "tests.test_r", name: "test_m[2]" };
  const { outcome } = await suite(
    runs({
      code: 1,
      cases: [
        { ...M2, outcome: "failed", message: "two" },
        { ...M1, outcome: "failed", message: "one" },
      ],
    }),
    { freezes: [{ id: "F", test: "test_m", remainingReruns: 1 }] },
  );
  assert.deepEqual(
    outcome.findings.map((f) => [f.rule, f.failure?.test]),
    [["tests.frozen_failed", "tests/test_r.py::test_m[1]"]],
  );
  assert.match(
    outcome.findings[0]?.message ?? "",
    /^Frozen test "tests\/test_r\.py::test_m\[1\]", "tests\/test_r\.py::test_m\[2\]" failed .*: one$/,
  );
});

Deno.test("runSuite() reruns a frozen test under the node id the fresh tree gives it", async () => {
  const SUITE = { classname: "tests.Suite", name: "test_x" };
  const fresh: string[] = [];
  const { outcome, sandbox } = await suite(
    runs({ code: 1, cases: [{ ...SUITE, outcome: "failed" }] }, {
      code: 0,
      cases: [SUITE],
    }),
    {
      freezes: [{ id: "F", test: "test_x", remainingReruns: 1 }],
      freshWorkDir: async () => {
        const dir = await Deno.makeTempDir({ prefix: "pawl_run_suite_fresh_" });
        await Deno.mkdir(`${dir}/tests`);
        await Deno.writeTextFile(`${dir}/tests/Suite.py`, "");
        fresh.push(dir);
        return dir;
      },
    },
  );
  for (const dir of fresh) await Deno.remove(dir, { recursive: true });
  assert.deepEqual(outcome.reruns.map((r) => [r.selected, r.passed]), [
    [["tests/Suite.py::test_x"], true],
  ]);
  assert.equal(sandbox.calls[1]?.argv.at(-1), "tests/Suite.py::test_x");
});

Deno.test("runSuite() orders findings of one rule by path before line", async () => {
  const lines: Record<string, number> = {
    "tests/test_a.py test_w": 70,
    "tests/test_a.py test_x": 50,
    "tests/test_b.py test_y": 5,
  };
  const { outcome } = await suite(
    runs({
      code: 1,
      cases: [
        { classname: "tests.test_a", name: "test_w", outcome: "failed" },
        { classname: "tests.test_a", name: "test_x", outcome: "failed" },
        { classname: "tests.test_b", name: "test_y", outcome: "failed" },
      ],
    }),
    {
      testLine: (file, name) => Promise.resolve(lines[`${file} ${name}`]),
    },
  );
  assert.deepEqual(outcome.findings.map((f) => [f.path, f.line]), [
    ["tests/test_a.py", 50],
    ["tests/test_a.py", 70],
    ["tests/test_b.py", 5],
  ]);
});

Deno.test("runSuite() scrubs the observer's failure texts and the cross-check's findings as it scrubs the report", async () => {
  await withObserverRoot(async (root) => {
    const id = "tests/test_r.py::test_report_render_flaky";
    const script: Script = async (call) => {
      const tree = call.command.cwd;
      return await observed(
        [
          { event: "configure" },
          report(id, "failed", {
            text: `${tree}/tests/test_r.py:3: AssertionError`,
            tail: `${tree}/tests/test_r.py:9: AssertionError`,
          }),
        ],
        { code: 1 },
        [
          { ...FLAKY, outcome: "failed" },
          { classname: "tests.test_r", name: "test_o[<O at 0x7f3a2b1c9d00>]" },
        ],
      )(call);
    };
    const { outcome } = await suite(script, {
      observer: await installObserver(root),
    });
    assert.deepEqual([...outcome.texts ?? []], [[
      id,
      "<tree>/tests/test_r.py:3: AssertionError",
    ]]);
    assert.deepEqual([...outcome.tails ?? []], [[
      id,
      "<tree>/tests/test_r.py:9: AssertionError",
    ]]);
    const tampered = outcome.findings.filter((f) =>
      f.rule === "harness.report_tampered"
    );
    assert.equal(tampered.length, 1);
    assert.match(tampered[0]?.message ?? "", /test_o\[<O at 0x<address>>\]/);
    assert.match(tampered[0]?.message ?? "", /the full suite/);
  });
});

Deno.test("runSuite() never lets a freeze cover a collection error", async () => {
  const { outcome, sandbox } = await suite(
    runs({
      code: 2,
      cases: [{
        classname: "",
        name: "tests.test_broken",
        outcome: "error",
        message: "collection failure",
      }],
    }),
    { freezes: [{ id: "F", test: "tests.test_broken", remainingReruns: 2 }] },
  );
  assert.equal(sandbox.calls.length, 1);
  assert.deepEqual(outcome.reruns, []);
  assert.deepEqual(outcome.findings.map((f) => f.rule), [
    "tests.collection_error",
    "tests.run_failed",
  ]);
});

Deno.test("runSuite() scrubs the tree as given and as resolved through a symlink", async () => {
  const root = await Deno.makeTempDir({ prefix: "pawl_run_suite_" });
  try {
    await Deno.mkdir(`${root}/work`);
    await Deno.mkdir(`${root}/report`);
    await Deno.symlink(`${root}/work`, `${root}/link`);
    const real = await Deno.realPath(`${root}/work`);
    const outcome = await runSuite(
      new ScriptedSandbox(() => ({
        code: 4,
        outputTail: `${root}/link/a and ${real}/b`,
      })),
      {
        workDir: `${root}/link`,
        reportDir: `${root}/report`,
        freshWorkDir: () => Promise.resolve(`${root}/link`),
      },
    );
    assert.match(
      outcome.findings[0]?.message ?? "",
      /output ends with:\n<tree>\/a and <tree>\/b$/,
    );
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("runSuite() gives the test a stopped run was running a command that reproduces it with the run's environment", async () => {
  await withObserverRoot(async (root) => {
    const id = "tests/test_t.py::test_a";
    const { outcome } = await suite(
      observed([{ event: "collected", nodeids: [id] }], {
        code: null,
        signal: "SIGKILL",
        timedOut: true,
      }),
      {
        observer: await installObserver(root),
        env: { CONTRACT_SEED: "7" },
      },
    );
    assert.equal(outcome.findings[0]?.failure?.test, id);
    assert.match(
      outcome.findings[0]?.failure?.reproduce ?? "",
      /CONTRACT_SEED=7 .*python3 -m pytest .*'tests\/test_t\.py::test_a'$/,
    );
  });
});

Deno.test("runSuite() never asks testLine about a collection error", async () => {
  const asked: string[] = [];
  const { outcome } = await suite(
    runs({
      code: 2,
      cases: [{
        classname: "",
        name: "tests.test_broken",
        outcome: "error",
        message: "collection failure",
      }],
    }),
    {
      testLine: (file, qualname) => {
        asked.push(`${file}::${qualname}`);
        return Promise.resolve(7);
      },
    },
  );
  assert.deepEqual(asked, []);
  assert.deepEqual(outcome.cases.map((c) => c.line), [undefined]);
});

Deno.test("runSuite() traces changed lines in the full run only, never in a rerun", async () => {
  await withObserverRoot(async (root) => {
    const observer = {
      ...await installObserver(root),
      lines: `${root}/lines.json`,
    };
    const { sandbox } = await suite(
      runs({ code: 1, cases: [{ ...FLAKY, outcome: "failed" }] }, {
        code: 0,
        cases: [FLAKY],
      }),
      { observer, traceLines: true, freezes: [FREEZE] },
    );
    assert.deepEqual(
      sandbox.calls.map((c) => c.env["PAWL_OBSERVER_LINES"]),
      [observer.lines, undefined],
    );
  });
});

Deno.test("runSuite() counts skipped tests and expected failures apart", async (t) => {
  const expected = {
    total: 3,
    passed: 0,
    failed: 0,
    errors: 0,
    skipped: 2,
    xfailed: 1,
  };
  await t.step("in the report of a finished run", async () => {
    const { outcome } = await suite(runs({
      cases: [
        { classname: "tests.test_a", name: "test_s1", outcome: "skipped" },
        { classname: "tests.test_a", name: "test_s2", outcome: "skipped" },
        { classname: "tests.test_a", name: "test_x", outcome: "xfailed" },
      ],
    }));
    assert.deepEqual(outcome.summary, expected);
  });
  await t.step("as the observer saw them end in a stopped run", async () => {
    await withObserverRoot(async (root) => {
      const ids = ["a", "b", "c", "d"].map((n) => `tests/test_t.py::test_${n}`);
      const { outcome } = await suite(
        observed([
          { event: "collected", nodeids: ids },
          report(ids[0]!, "skipped", { when: "setup" }),
          report(ids[1]!, "skipped", { when: "setup" }),
          report(ids[2]!, "skipped", { xfail: true }),
        ], { code: null, signal: "SIGKILL", timedOut: true }),
        { observer: await installObserver(root) },
      );
      assert.deepEqual(outcome.summary, expected);
    });
  });
});

Deno.test("runSuite() gives a stopped run's finding no path when the running test's id names no file", async () => {
  await withObserverRoot(async (root) => {
    const { outcome } = await suite(
      observed([
        { event: "collected", nodeids: ["::test_a"] },
      ], { code: null, signal: "SIGKILL", timedOut: true }),
      { observer: await installObserver(root) },
    );
    assert.deepEqual(
      outcome.findings.map((f) => [f.rule, f.path, f.failure?.test]),
      [["tests.timeout", undefined, "::test_a"]],
    );
  });
});

Deno.test("runSuite() scrubs a tree given with trailing slashes as the tree", async () => {
  const root = await Deno.makeTempDir({ prefix: "pawl_run_suite_" });
  try {
    await Deno.mkdir(`${root}/work`);
    await Deno.mkdir(`${root}/report`);
    const outcome = await runSuite(
      new ScriptedSandbox(() => ({ code: 4, outputTail: `${root}/work/a` })),
      {
        workDir: `${root}/work//`,
        reportDir: `${root}/report`,
        freshWorkDir: () => Promise.resolve(`${root}/work`),
      },
    );
    assert.match(
      outcome.findings[0]?.message ?? "",
      /output ends with:\n<tree>\/a$/,
    );
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("runSuite() never scrubs the root directory out of quoted output", async () => {
  const root = await Deno.makeTempDir({ prefix: "pawl_run_suite_" });
  try {
    await Deno.mkdir(`${root}/report`);
    const outcome = await runSuite(
      new ScriptedSandbox(() => ({ code: 4, outputTail: "see /usr/lib/x" })),
      {
        workDir: "/",
        reportDir: `${root}/report`,
        freshWorkDir: () => Promise.resolve("/"),
      },
    );
    assert.match(
      outcome.findings[0]?.message ?? "",
      /output ends with:\nsee \/usr\/lib\/x$/,
    );
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("runSuite() says a run that ended without an exit code or a signal was killed by an unknown signal", async () => {
  const { outcome } = await suite(() => ({ code: null, signal: null }));
  assert.deepEqual(outcome.findings.map((f) => [f.rule, f.message]), [[
    "tests.no_report",
    'The test run (killed by signal unknown) left no usable JUnit report: The test run wrote no report "junit-0.xml"',
  ]]);
});

Deno.test("runSuite() quotes a failure message's first line without the blanks that end it", async () => {
  const { outcome } = await suite(runs({
    code: 1,
    cases: [{
      ...STEADY,
      outcome: "failed",
      message: "assert 1 == 2   \nmore",
    }],
  }));
  assert.deepEqual(outcome.findings.map((f) => f.message), [
    'Test "tests/test_r.py::test_steady" failed: assert 1 == 2',
  ]);
});

Deno.test("runSuite() replaces only addresses that stand alone, not hex digits inside a word", async () => {
  const { outcome } = await suite(() => ({
    code: 4,
    outputTail: "key0x7f3a2b1c9d00 at 0x7f3a2b1c9d00",
  }));
  assert.match(
    outcome.findings[0]?.message ?? "",
    /output ends with:\nkey0x7f3a2b1c9d00 at 0x<address>$/,
  );
});

Deno.test("runSuite() scrubs the tree out of the traceback the observer streamed for a collection error", async () => {
  await withObserverRoot(async (root) => {
    const { outcome } = await suite(
      (call) =>
        observed(
          [{
            event: "collect_error",
            nodeid: "tests/test_broken.py",
            text: `File "${call.command.cwd}/tests/test_broken.py", line 1`,
          }],
          { code: 2 },
          [{
            classname: "",
            name: "tests.test_broken",
            outcome: "error",
            message: "collection failure",
          }],
        )(call),
      { observer: await installObserver(root) },
    );
    assert.deepEqual(
      outcome.findings.filter((f) => f.rule === "tests.collection_error")
        .map((f) => f.message),
      [
        'Collecting "tests/test_broken.py" failed:\nFile "<tree>/tests/test_broken.py", line 1',
      ],
    );
  });
});

Deno.test("runSuite() reproduces a failing test with the base's own test command", async () => {
  const { outcome } = await suite(
    runs({ code: 1, cases: [{ ...STEADY, outcome: "failed" }] }),
    { command: ["python3", "-m", "pytest", "--strict-markers"] },
  );
  assert.match(
    outcome.findings[0]?.failure?.reproduce ?? "",
    /python3 -m pytest --strict-markers 'tests\/test_r\.py::test_steady'$/,
  );
});

Deno.test("runSuite() counts nothing for a run that left no report, whatever the observer saw", async () => {
  await withObserverRoot(async (root) => {
    const id = "tests/test_t.py::test_a";
    const { outcome } = await suite(
      observed([
        { event: "collected", nodeids: [id] },
        report(id, "passed"),
      ], { code: 1 }),
      { observer: await installObserver(root) },
    );
    assert.deepEqual(outcome.findings.map((f) => f.rule), ["tests.no_report"]);
    assert.equal(outcome.observation?.outcomes.size, 1);
    assert.deepEqual(outcome.summary, {
      total: 0,
      passed: 0,
      failed: 0,
      errors: 0,
      skipped: 0,
      xfailed: 0,
    });
  });
});

Deno.test("runSuite() reports a run stopped at both limits as timed out", async () => {
  const { outcome } = await suite(
    () => ({
      code: null,
      signal: "SIGKILL",
      timedOut: true,
      outputExceeded: true,
    }),
    { limits: { timeoutMs: 5000, maxOutputBytes: 1024 * 1024 } },
  );
  assert.deepEqual(outcome.findings.map((f) => [f.rule, f.message]), [[
    "tests.timeout",
    "The test run was stopped at its time limit of 5 s ([tests] timeout_seconds)",
  ]]);
});

Deno.test("runSuite() quotes a collection error's traceback without the blanks that end its lines", async () => {
  const { outcome } = await suite(runs({
    code: 2,
    cases: [{
      classname: "",
      name: "tests.test_broken",
      outcome: "error",
      message: "Traceback:  \n   \nImportError: x\t",
    }],
  }));
  assert.deepEqual(
    outcome.findings.filter((f) => f.rule === "tests.collection_error")
      .map((f) => f.message),
    ['Collecting "tests/test_broken.py" failed:\nTraceback:\nImportError: x'],
  );
});

Deno.test("runSuite() lets an error reading a fresh tree other than a missing file through, rather than guess a rerun's node id", async () => {
  const K = { classname: "tests.test_r.TestK", name: "test_k" };
  const fresh = await Deno.makeTempDir({ prefix: "pawl_run_suite_fresh_" });
  try {
    await Deno.mkdir(`${fresh}/tests`);
    // A file where the candidate module tests/test_r/TestK.py needs a directory.
    await Deno.writeTextFile(`${fresh}/tests/test_r`, "");
    await assert.rejects(
      suite(runs({ code: 1, cases: [{ ...K, outcome: "failed" }] }), {
        freezes: [{ id: "F", test: "TestK.test_k", remainingReruns: 1 }],
        freshWorkDir: () => Promise.resolve(fresh),
      }),
      Deno.errors.NotADirectory,
    );
  } finally {
    await Deno.remove(fresh, { recursive: true });
  }
});

Deno.test("runSuite() sorts the cases of one module by test name", async () => {
  const { outcome } = await suite(runs({
    cases: [
      { classname: "tests.test_a", name: "test_b" },
      { classname: "tests.test_a", name: "test_a" },
    ],
  }));
  assert.deepEqual(outcome.cases.map((c) => c.name), ["test_a", "test_b"]);
});

Deno.test("runSuite() names the tests a freeze reran sorted by node id", async () => {
  const X = { classname: "tests.test_r", name: "test_x" };
  const KX = { classname: "tests.test_r.TestK", name: "test_x" };
  const { outcome } = await suite(
    runs({
      code: 1,
      cases: [{ ...X, outcome: "failed" }, { ...KX, outcome: "failed" }],
    }, { code: 0, cases: [X, KX] }),
    { freezes: [{ id: "F", test: "test_x", remainingReruns: 1 }] },
  );
  const selected = [
    "tests/test_r.py::TestK::test_x",
    "tests/test_r.py::test_x",
  ];
  assert.deepEqual(outcome.reruns.map((r) => r.selected), [selected]);
  assert.match(
    outcome.findings[0]?.message ?? "",
    /^Frozen test "tests\/test_r\.py::TestK::test_x", "tests\/test_r\.py::test_x" failed and passed/,
  );
});

Deno.test("runSuite() gives a stopped run no cases, no reruns, and no observation when nothing watched it", async () => {
  const { outcome } = await suite(
    () => ({ code: null, signal: "SIGKILL", timedOut: true }),
    { freezes: [FREEZE] },
  );
  assert.deepEqual(outcome.cases, []);
  assert.deepEqual(outcome.reruns, []);
  assert.equal(outcome.reported, false);
  assert.ok(!("observation" in outcome));
  assert.deepEqual(outcome.findings.map((f) => f.rule), ["tests.timeout"]);
});

Deno.test("runSuite() reruns a failing test a freeze covers under that freeze, even when a seed freeze lists it as non-blocking", async () => {
  const { outcome } = await suite(
    runs({ code: 1, cases: [{ ...FLAKY, outcome: "failed" }] }, {
      code: 0,
      cases: [FLAKY],
    }),
    { freezes: [FREEZE], nonBlocking: ["test_report_render_flaky"] },
  );
  assert.deepEqual(outcome.reruns.map((r) => [r.freeze, r.passed]), [
    [FREEZE.id, true],
  ]);
  assert.deepEqual(outcome.findings.map((f) => f.rule), ["freeze.rerun_used"]);
});

Deno.test("runSuite() keeps no line for a failing test whose line testLine does not know", async () => {
  const { outcome } = await suite(
    runs({ code: 1, cases: [{ ...STEADY, outcome: "failed" }] }),
    { testLine: () => Promise.resolve(undefined) },
  );
  assert.equal(outcome.cases.length, 1);
  assert.ok(!("line" in outcome.cases[0]!));
  assert.ok(!("line" in outcome.findings[0]!));
});

Deno.test("runSuite() words a failure without a message by the test alone", async (t) => {
  await t.step("a failing test", async () => {
    const { outcome } = await suite(
      runs({ code: 1, cases: [{ ...STEADY, outcome: "failed" }] }),
    );
    assert.deepEqual(outcome.findings.map((f) => f.message), [
      'Test "tests/test_r.py::test_steady" failed',
    ]);
  });
  await t.step("a frozen test with no reruns left", async () => {
    const { outcome } = await suite(
      runs({ code: 1, cases: [{ ...FLAKY, outcome: "failed" }] }),
      { freezes: [{ ...FREEZE, id: "F", remainingReruns: 0 }] },
    );
    assert.deepEqual(outcome.findings.map((f) => f.message), [
      'Frozen test "tests/test_r.py::test_report_render_flaky" failed and freeze "F" has no reruns left',
    ]);
  });
  await t.step("a test under a seed freeze", async () => {
    const { outcome } = await suite(
      runs({ code: 1, cases: [{ ...STEADY, outcome: "failed" }] }),
      { nonBlocking: ["test_steady"] },
    );
    assert.deepEqual(outcome.findings.map((f) => f.message), [
      'Test "tests/test_r.py::test_steady" failed on this run\'s fresh seed; it is under an unexpired seed freeze, so this does not block until the freeze expires',
    ]);
  });
});

Deno.test("runSuite() says a run that ended in pytest's internal error hit one", async () => {
  const { outcome } = await suite(runs({ code: 3, cases: [STEADY] }));
  assert.deepEqual(outcome.findings.map((f) => [f.rule, f.message]), [
    ["tests.run_failed", "The test run hit an internal error (exit code 3)"],
  ]);
});

Deno.test("runSuite() places a run stopped for its output at the test that was running, with a command that reproduces it", async () => {
  await withObserverRoot(async (root) => {
    const id = "tests/test_t.py::test_loud";
    const { outcome } = await suite(
      observed([
        { event: "collected", nodeids: [id] },
        { event: "start", nodeid: id },
      ], { code: null, signal: "SIGKILL", outputExceeded: true }),
      { observer: await installObserver(root) },
    );
    assert.deepEqual(
      outcome.findings.map((f) => [f.rule, f.path, f.failure?.test]),
      [["tests.output_exceeded", "tests/test_t.py", id]],
    );
    assert.match(outcome.findings[0]?.failure?.reproduce ?? "", /test_loud/);
  });
});

Deno.test("runSuite() reproduces a failing test without the test paths the base's command names in the tree", async () => {
  const tree = await Deno.makeTempDir({ prefix: "pawl_run_suite_tree_" });
  try {
    await Deno.mkdir(`${tree}/tests`);
    const { outcome } = await suite(
      runs({ code: 1, cases: [{ ...STEADY, outcome: "failed" }] }),
      { workDir: tree, command: ["python3", "-m", "pytest", "-q", "tests"] },
    );
    assert.equal(
      outcome.findings[0]?.failure?.reproduce,
      "PYTHONHASHSEED=0 python3 -m pytest -q 'tests/test_r.py::test_steady'",
    );
  } finally {
    await Deno.remove(tree, { recursive: true });
  }
});

Deno.test("runSuite() orders cases of the same test and outcome by message, one without a message first", async () => {
  const { outcome } = await suite(runs({
    code: 1,
    cases: [
      { ...FLAKY, outcome: "error", message: "b" },
      { ...FLAKY, outcome: "error", message: "AssertionError" },
      { ...FLAKY, outcome: "error" },
    ],
  }));
  assert.deepEqual(outcome.cases.map((c) => c.message), [
    undefined,
    "AssertionError",
    "b",
  ]);
});

Deno.test("runSuite() puts the count of failures left unlisted, which has no file, before the listed ones of its rule", async () => {
  const failing = manyFailing(MAX_FAILED_FINDINGS + 1, "Alpha.test_many");
  const { outcome } = await suite(runs({ code: 1, cases: failing }));
  assert.deepEqual(
    outcome.findings.slice(0, 2).map((f) => f.path),
    [undefined, "Alpha/test_many.py"],
  );
});

Deno.test("runSuite() scrubs a tree given through a symlink with a trailing slash as the tree", async () => {
  const root = await Deno.makeTempDir({ prefix: "pawl_run_suite_" });
  try {
    await Deno.mkdir(`${root}/work`);
    await Deno.mkdir(`${root}/report`);
    await Deno.symlink(`${root}/work`, `${root}/link`);
    const outcome = await runSuite(
      new ScriptedSandbox(() => ({ code: 4, outputTail: `${root}/link/a` })),
      {
        workDir: `${root}/link/`,
        reportDir: `${root}/report`,
        freshWorkDir: () => Promise.resolve(`${root}/link`),
      },
    );
    assert.match(outcome.findings[0]?.message ?? "", /<tree>\/a$/);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
