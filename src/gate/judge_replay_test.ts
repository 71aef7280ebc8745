import assert from "node:assert/strict";
import type { PlannedReplay } from "../layouts/dialect.ts";
import type { TestCaseResult } from "../run/parse_junit.ts";
import type { PytestRun } from "../run/run_pytest.ts";
import type { SandboxResult } from "../sandbox/sandbox.ts";
import { witnessSha256 } from "../seeds/extract_witness.ts";
import { judgeReplay, type ReplayContext } from "./judge_replay.ts";

const REPLAY: PlannedReplay = {
  id: "apply_seed_freeze",
  test: "tests/contracts/test_apply.py::test_apply_contract",
  seed: 1725781203,
  witness: "INV-00334-",
};

const CONTEXT: ReplayContext = { layout: "002", trials: 20, ts: 1796040000 };

function run(
  cases: TestCaseResult[] | null,
  result: Partial<SandboxResult> = {},
): PytestRun {
  return {
    result: {
      code: 0,
      signal: null,
      timedOut: false,
      outputExceeded: false,
      outputHead: "",
      outputTail: "",
      outputBytes: 0,
      ...result,
    },
    cases,
  };
}

function replayCase(
  outcome: TestCaseResult["outcome"],
  message?: string,
): TestCaseResult {
  return {
    classname: "tests.contracts.test_apply",
    name: "test_apply_contract",
    outcome,
    ...(message === undefined ? {} : { message }),
  };
}

Deno.test("judgeReplay() holds a frozen seed whose test passed", () => {
  const judged = judgeReplay(run([replayCase("passed")]), REPLAY, CONTEXT);
  assert.deepEqual(judged, {
    record: {
      freeze: "apply_seed_freeze",
      test: REPLAY.test,
      seed: 1725781203,
      passed: true,
    },
    row: {
      seed: 1725781203,
      trials: 20,
      ok: true,
      "witness_sha256": null,
      ts: 1796040000,
      layout: "002",
      id: "apply_seed_freeze",
      kind: "replay",
    },
  });
});

Deno.test("judgeReplay() fails a frozen seed that does not hold, saying why", async (t) => {
  const table = [
    {
      name: "time limit",
      run: run(null, { timedOut: true }),
      detail: "the replay hit its time limit",
      witness: "timeout",
    },
    {
      name: "output cap",
      run: run([replayCase("passed")], { outputExceeded: true }),
      detail: "the replay flooded its output cap",
      witness: "output",
    },
    {
      name: "not collected",
      run: run([]),
      detail: "the test was not collected (missing, renamed or deselected)",
      witness: "not collected",
    },
    {
      name: "failed",
      run: run([replayCase("failed", "AssertionError: INV-00334-")]),
      detail: 'failed, witness "AssertionError: INV-00334-"',
      witness: "AssertionError: INV-00334-",
    },
  ];
  for (const row of table) {
    await t.step(row.name, () => {
      const judged = judgeReplay(row.run, REPLAY, CONTEXT);
      assert.equal(judged.record.passed, false);
      assert.equal(judged.row.ok, false);
      assert.equal(judged.row.witness_sha256, witnessSha256(row.witness));
      assert.equal(judged.finding?.rule, "seed.replay_failed");
      assert.equal(judged.finding?.path, "tests/contracts/test_apply.py");
      assert.equal(
        judged.finding?.message,
        `Test "${REPLAY.test}" does not hold on frozen seed 1725781203 (freeze "apply_seed_freeze", recorded witness INV-00334-): ${row.detail}`,
      );
    });
  }
});

Deno.test("judgeReplay() gives a failed replay's finding what the test showed and how to reproduce it", async (t) => {
  const reproduce =
    `CONTRACT_SEED=1725781203 python3 -m pytest '${REPLAY.test}'`;
  await t.step("a failure, read from the observer's text", () => {
    const judged = judgeReplay(
      run([
        replayCase("failed", "AssertionError: seed=1 witness='INV-00334-'"),
      ]),
      REPLAY,
      {
        ...CONTEXT,
        reproduce,
        texts: new Map([[
          REPLAY.test,
          "E       AssertionError: seed=1 witness='INV-00334-'\n\ntests/contracts/test_apply.py:9: AssertionError",
        ]]),
      },
    );
    assert.deepEqual(judged.finding?.failure, {
      test: REPLAY.test,
      exception: "AssertionError: seed=1 witness='INV-00334-'",
      traceback: [
        "E       AssertionError: seed=1 witness='INV-00334-'",
        "tests/contracts/test_apply.py:9: AssertionError",
      ],
      reproduce,
    });
  });
  await t.step("a timeout: the test and the command", () => {
    const judged = judgeReplay(run(null, { timedOut: true }), REPLAY, {
      ...CONTEXT,
      reproduce,
    });
    assert.deepEqual(judged.finding?.failure, { test: REPLAY.test, reproduce });
  });
  await t.step("the same decision without it", () => {
    const failing = run([replayCase("failed", "boom")]);
    const { failure: _, ...withDetail } = judgeReplay(failing, REPLAY, {
      ...CONTEXT,
      reproduce,
    }).finding!;
    assert.deepEqual(withDetail, judgeReplay(failing, REPLAY, CONTEXT).finding);
  });
});
