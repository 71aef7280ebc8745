import assert from "node:assert/strict";
import {
  judgeSeedUse,
  type LedgerEvidence,
  type SeededRun,
} from "./judge_seed_use.ts";
import { parseObservation } from "./observation.ts";

const NODE = "t.py::test_p";
const TEST = { id: "p", nodeId: NODE, path: "t.py", line: 3 };

/** What the observer saw: `seeds` as [node id, source, seed]. */
function observed(...seeds: [string, string, string | null][]) {
  return parseObservation([[
    '{"event":"hello","token":"t"}',
    ...seeds.map(([nodeid, source, seed]) =>
      JSON.stringify({ event: "seed", nodeid, source, seed })
    ),
  ]], "t");
}

const RUN: SeededRun = {
  kind: "fresh",
  seed: 9,
  trials: 200,
  hypothesisSeeded: true,
  observation: observed(),
  ledger: [],
  expectLedger: false,
};

Deno.test("judgeSeedUse() holds a test to the forced seed only where the base's test drew from it", async (t) => {
  const forced9 = observed([NODE, "forced", "9"]);
  const table: [string, Partial<SeededRun>, string[]][] = [
    ["the forced seed is used", {
      observation: forced9,
      baseline: forced9,
    }, []],
    ["another forced seed is not", {
      observation: observed([NODE, "forced", "8"]),
      baseline: forced9,
    }, [
      'Test "t.py::test_p" (p) did not run on this run\'s fresh seed 9: Hypothesis drew its examples from seed 8',
    ]],
    ["an explicit @seed is not", {
      observation: observed([NODE, "explicit", "0"]),
      baseline: forced9,
    }, [
      'Test "t.py::test_p" (p) did not run on this run\'s fresh seed 9: Hypothesis drew its examples from an explicit @seed(0)',
    ]],
    ["an explicit @seed of the same number is not", {
      observation: observed([NODE, "explicit", "9"]),
      baseline: forced9,
    }, [
      'Test "t.py::test_p" (p) did not run on this run\'s fresh seed 9: Hypothesis drew its examples from an explicit @seed(9)',
    ]],
    ["derandomize is not", {
      observation: observed([NODE, "derandomize", null]),
      baseline: forced9,
    }, [
      'Test "t.py::test_p" (p) did not run on this run\'s fresh seed 9: Hypothesis drew its examples from derandomize=True',
    ]],
    ["a random seed is not", {
      observation: observed([NODE, "random", "123"]),
      baseline: forced9,
    }, [
      'Test "t.py::test_p" (p) did not run on this run\'s fresh seed 9: Hypothesis drew its examples from a random seed of its own',
    ]],
    ["a frozen seed's replay says so", {
      kind: "replay",
      observation: observed([NODE, "random", "123"]),
      baseline: forced9,
    }, [
      'Test "t.py::test_p" (p) did not run on frozen seed 9: Hypothesis drew its examples from a random seed of its own',
    ]],
    ["one parametrization off the seed is enough", {
      observation: observed([`${NODE}[1]`, "forced", "9"], [
        `${NODE}[2]`,
        "explicit",
        "4",
      ]),
      baseline: forced9,
    }, [
      'Test "t.py::test_p" (p) did not run on this run\'s fresh seed 9: Hypothesis drew its examples from an explicit @seed(4)',
    ]],
    ["a parametrized base that drew from the forced seed holds the test", {
      observation: observed([NODE, "random", "1"]),
      baseline: observed([`${NODE}[a]`, "forced", "9"]),
    }, [
      'Test "t.py::test_p" (p) did not run on this run\'s fresh seed 9: Hypothesis drew its examples from a random seed of its own',
    ]],
    ["another test's seed is not this test's", {
      observation: observed(["t.py::test_pq", "random", "1"]),
      baseline: observed(["t.py::test_pq", "forced", "9"], [
        NODE,
        "forced",
        "9",
      ]),
    }, []],
    ["a base that used an @seed of its own excuses the test", {
      observation: observed([NODE, "explicit", "0"]),
      baseline: observed([NODE, "forced", "9"], [NODE, "explicit", "0"]),
    }, []],
    ["a base that never ran Hypothesis holds nothing", {
      observation: observed([NODE, "explicit", "0"]),
      baseline: observed(),
    }, []],
    ["no baseline holds nothing", {
      observation: observed([NODE, "explicit", "0"]),
    }, []],
    ["a run pawl did not seed is not held to it", {
      hypothesisSeeded: false,
      observation: observed([NODE, "explicit", "0"]),
      baseline: forced9,
    }, []],
  ];
  for (const [label, run, messages] of table) {
    await t.step(label, () => {
      const found = judgeSeedUse([TEST], { ...RUN, ...run });
      assert.deepEqual(found.map((f) => f.message), messages);
      for (const f of found) {
        assert.equal(f.rule, "seed.not_used");
        assert.equal(f.path, "t.py");
        assert.equal(f.line, 3);
      }
    });
  }
});

Deno.test("judgeSeedUse() wants ledger rows carrying the injected seed and trials when the base writes them", async (t) => {
  const row = (
    seed: number | null,
    trials: number | null,
    ok: boolean | null = true,
  ): LedgerEvidence => ({ seed, trials, ok });
  const prefix =
    'The seeded run of "t.py::test_p" on this run\'s fresh seed 9 with 200 trials shows no evidence the test used them: ';
  const table: [string, Partial<SeededRun>, string | undefined][] = [
    ["rows with the seed and trials are evidence", {
      ledger: [row(9, 200)],
    }, undefined],
    ["a failing row may stop short of the trials", {
      ledger: [row(9, 3, false)],
    }, undefined],
    ["a row whose outcome is unknown may stop short too", {
      ledger: [row(9, 3, null)],
    }, undefined],
    ["no row", { ledger: [] }, "the contract test wrote no seed-ledger row"],
    ["a row of another seed", {
      ledger: [row(9, 200), row(4, 200)],
    }, "a seed-ledger row carries seed 4"],
    ["a row without a seed", {
      ledger: [row(null, 200)],
    }, "a seed-ledger row carries seed null"],
    ["a passing row with fewer trials", {
      ledger: [row(9, 5)],
    }, "a seed-ledger row reports 5 trials where 200 were injected"],
    ["a row with more trials than injected", {
      ledger: [row(9, 201, false)],
    }, "a seed-ledger row reports 201 trials where 200 were injected"],
    ["a row without a trial count", {
      ledger: [row(9, null, false)],
    }, "a seed-ledger row reports no trial count where 200 were injected"],
    [
      "a ledger pawl did not read, after good rows",
      {
        ledger: [row(9, 200), {
          ...row(null, null, null),
          unread: "seed_ledger.jsonl is not a regular file",
        }],
      },
      "seed_ledger.jsonl is not a regular file, so pawl read none of its rows",
    ],
    ["a base that writes no rows expects none", {
      expectLedger: false,
      ledger: [],
    }, undefined],
    ["a base that writes no rows expects none, even from a ledger not read", {
      expectLedger: false,
      ledger: [{ ...row(null, null, null), unread: "too large" }],
    }, undefined],
  ];
  for (const [label, run, problem] of table) {
    await t.step(label, () => {
      const found = judgeSeedUse([TEST], {
        ...RUN,
        expectLedger: true,
        ...run,
      });
      assert.deepEqual(
        found.map((f) => f.message),
        problem === undefined ? [] : [`${prefix}${problem}`],
      );
    });
  }
  await t.step("without injected trials any trial count is evidence", () => {
    const found = judgeSeedUse([TEST], {
      ...RUN,
      trials: null,
      expectLedger: true,
      ledger: [row(9, null), row(9, 5000)],
    });
    assert.deepEqual(found, []);
    const none = judgeSeedUse([TEST], {
      ...RUN,
      trials: null,
      expectLedger: true,
    });
    assert.deepEqual(none.map((f) => f.message), [
      'The seeded run of "t.py::test_p" on this run\'s fresh seed 9 shows no evidence the test used them: the contract test wrote no seed-ledger row',
    ]);
  });
  await t.step("one trial is counted in the singular", () => {
    const [f] = judgeSeedUse([TEST], {
      ...RUN,
      trials: 1,
      expectLedger: true,
      ledger: [row(9, 2, false)],
    });
    assert.equal(
      f?.message,
      'The seeded run of "t.py::test_p" on this run\'s fresh seed 9 with 1 trial shows no evidence the test used them: a seed-ledger row reports 2 trials where 1 was injected',
    );
  });
  await t.step("every test is named, the finding placed at the first", () => {
    const [f, ...rest] = judgeSeedUse([TEST, {
      id: "q",
      nodeId: "u.py::test_q",
      path: "u.py",
      line: 8,
    }], { ...RUN, expectLedger: true, kind: "replay" });
    assert.deepEqual(rest, []);
    assert.equal(
      f?.message,
      'The seeded run of "t.py::test_p", "u.py::test_q" on frozen seed 9 with 200 trials shows no evidence the test used them: the contract test wrote no seed-ledger row',
    );
    assert.equal(f?.path, "t.py");
    assert.equal(f?.line, 3);
  });
  await t.step("no tests, no ledger finding", () => {
    assert.deepEqual(judgeSeedUse([], { ...RUN, expectLedger: true }), []);
  });
});
