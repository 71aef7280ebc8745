import assert from "node:assert/strict";
import {
  judgeKillSets,
  type KillProperty,
  type MutantResult,
  type MutationCounts,
  type SideOutcomes,
} from "./judge_kill_sets.ts";
import type { Mutant } from "./mutant.ts";

const TEXT = "def f(a, b):\n    return a < b\n";
const COUNTS: MutationCounts = {
  reach: "import analysis",
  sampleSeed: 1,
  runSeed: 2,
  generated: 9,
  selected: 3,
  touched: 1,
  cutByCap: 6,
  cutByBudget: 0,
};
const PROPS: KillProperty[] = [
  { key: "000/order", id: "order", layout: "000" },
  { key: "000/other", id: "other", layout: "000" },
];

function mutant(id: string, replacement: string): Mutant {
  return {
    id,
    file: "pkg/m.py",
    function: "f",
    line: 2,
    column: 14,
    endLine: 2,
    endColumn: 15,
    start: 26,
    end: 27,
    original: "<",
    replacement,
    operator: "comparison",
  };
}

function result(
  id: string,
  base: SideOutcomes,
  head: SideOutcomes | null,
): MutantResult {
  return { mutant: mutant(id, "<="), base, head, cached: false };
}

function judge(results: MutantResult[]) {
  return judgeKillSets(results, {
    properties: PROPS,
    texts: new Map([["pkg/m.py", TEXT]]),
    counts: COUNTS,
  });
}

Deno.test("judgeKillSets() rejects a mutant the base's property kills and the head's lets survive", () => {
  const j = judge([
    result("m1", { "000/order": "killed", "000/other": "survived" }, {
      "000/order": "survived",
      "000/other": "survived",
    }),
  ]);
  assert.equal(j.findings.length, 1);
  const [f] = j.findings;
  assert.equal(f?.rule, "property.oracle_weakened");
  assert.equal(f?.blocking, true);
  assert.equal(f?.path, "pkg/m.py");
  assert.equal(f?.line, 2);
  assert.match(f?.message ?? "", /Property "order"/);
  assert.match(f?.message ?? "", /\+ {4}return a <= b/);
  assert.equal(j.report.weakened, 1);
  assert.equal(j.report.killed, 1);
});

Deno.test("judgeKillSets() does not blame the head for what the base never caught or the head still catches", async (t) => {
  const cases: [
    string,
    MutantResult,
    { killed: number; survived: number; timedOut: number },
  ][] = [
    [
      "killed at both",
      result("m1", { "000/order": "killed" }, { "000/order": "killed" }),
      { killed: 1, survived: 0, timedOut: 0 },
    ],
    [
      "a timeout at the head counts as killed",
      result("m1", { "000/order": "killed" }, { "000/order": "timeout" }),
      { killed: 1, survived: 0, timedOut: 0 },
    ],
    [
      "survived at the base is a gap, not the head's fault",
      result("m1", { "000/order": "survived" }, {
        "000/order": "survived",
      }),
      { killed: 0, survived: 1, timedOut: 0 },
    ],
    [
      "a property the head no longer has is another rule's",
      result("m1", { "000/order": "killed" }, {}),
      { killed: 1, survived: 0, timedOut: 0 },
    ],
    [
      "a timeout at the base is no proof of a weakening",
      result("m1", { "000/order": "timeout" }, { "000/order": "survived" }),
      { killed: 0, survived: 0, timedOut: 1 },
    ],
    [
      "head not run (same test side)",
      result("m1", { "000/order": "timeout" }, null),
      { killed: 0, survived: 0, timedOut: 1 },
    ],
  ];
  for (const [name, r, counts] of cases) {
    await t.step(name, () => {
      const j = judge([r]);
      assert.ok(!j.findings.some((f) => f.blocking), name);
      assert.equal(j.report.weakened, 0);
      assert.deepEqual(
        {
          killed: j.report.killed,
          survived: j.report.survived,
          timedOut: j.report.timedOut,
        },
        counts,
      );
    });
  }
});

Deno.test("judgeKillSets() counts gaps in one advisory finding beside the weakenings", () => {
  const j = judge([
    result("m1", { "000/order": "killed" }, { "000/order": "survived" }),
    result("m2", { "000/order": "survived" }, null),
    result("m3", { "000/order": "survived" }, null),
  ]);
  const weakened = j.findings.filter((f) =>
    f.rule === "property.oracle_weakened"
  );
  assert.equal(weakened.length, 1);
  const gaps = j.findings.filter((f) => f.rule === "property.mutants_survived");
  assert.equal(gaps.length, 1);
  assert.equal(gaps[0]?.blocking, false);
  assert.match(gaps[0]?.message ?? "", /^2 of 3 mutants survive/);
  assert.deepEqual(
    { ...j.report },
    {
      ...COUNTS,
      ran: 3,
      killed: 1,
      survived: 2,
      timedOut: 0,
      unknown: 0,
      weakened: 1,
    },
  );
});

Deno.test("judgeKillSets() never counts a run without a trusted report as a kill or a survival", async (t) => {
  await t.step("at the base: counted unknown, not a gap", () => {
    const j = judge([result("m1", { "000/order": "unknown" }, null)]);
    assert.equal(j.report.unknown, 1);
    assert.equal(j.report.killed, 0);
    assert.equal(j.report.survived, 0);
    assert.deepEqual(j.findings, []);
  });
  await t.step(
    "at the head, for a mutant the base kills: it blocks instead of hiding a weakening",
    () => {
      const j = judge([
        result("m1", { "000/order": "killed" }, { "000/order": "unknown" }),
      ]);
      assert.equal(j.report.weakened, 0);
      assert.deepEqual(j.findings.map((f) => [f.rule, f.blocking]), [[
        "tests.no_report",
        true,
      ]]);
      assert.match(
        j.findings[0]?.message ?? "",
        /^Property "order" \(layout agent-contract\): the head's run on 1 mutant the base's test kills left no usable report/,
      );
    },
  );
  await t.step(
    "a report the observer disagreed with blocks, once per rule",
    () => {
      const tampered = {
        layer: "harness" as const,
        rule: "harness.report_tampered" as const,
        message:
          "The JUnit report of the head's properties on mutant m1 does not match",
        blocking: true,
      };
      const j = judge([
        {
          ...result("m1", { "000/order": "killed" }, {
            "000/order": "unknown",
          }),
          findings: [tampered],
        },
        {
          ...result("m2", { "000/order": "killed" }, {
            "000/order": "unknown",
          }),
          findings: [{ ...tampered, message: "another" }],
        },
      ]);
      assert.deepEqual(j.findings.map((f) => f.rule), [
        "harness.report_tampered",
      ]);
      assert.match(
        j.findings[0]?.message ?? "",
        /does not match \(and 1 more mutant run like it\)$/,
      );
      assert.equal(j.findings[0]?.blocking, true);
    },
  );
});

Deno.test("judgeKillSets() keeps a property's kills only when its head test kills every mutant its base test kills", async (t) => {
  const kept = (results: MutantResult[]) =>
    Object.fromEntries(judge(results).keptKills);
  await t.step("every one killed (or timed out) at the head", () => {
    assert.deepEqual(
      kept([
        result("m1", { "000/order": "killed" }, { "000/order": "killed" }),
        result("m2", { "000/order": "killed" }, { "000/order": "timeout" }),
        result("m3", { "000/order": "survived" }, null),
      ]),
      { "000/order": 2 },
    );
  });
  const cases: [string, MutantResult[]][] = [
    ["one the base kills survives at the head", [
      result("m1", { "000/order": "killed" }, { "000/order": "killed" }),
      result("m2", { "000/order": "killed" }, { "000/order": "survived" }),
    ]],
    ["one the base kills has no usable report at the head", [
      result("m1", { "000/order": "killed" }, { "000/order": "unknown" }),
    ]],
    ["the head's test did not run on it", [
      result("m1", { "000/order": "killed" }, {}),
    ]],
    ["the base kills none: no evidence", [
      result("m1", { "000/order": "survived" }, null),
    ]],
    ["a base timeout is no kill to keep", [
      result("m1", { "000/order": "timeout" }, { "000/order": "killed" }),
    ]],
  ];
  for (const [name, results] of cases) {
    await t.step(name, () => assert.deepEqual(kept(results), {}));
  }
  await t.step("a run whose report pawl could not trust keeps nothing", () => {
    const j = judgeKillSets([
      result("m1", { "000/order": "killed" }, { "000/order": "killed" }),
    ], {
      properties: PROPS,
      texts: new Map([["pkg/m.py", TEXT]]),
      counts: COUNTS,
      baselineFindings: [{
        layer: "harness",
        rule: "harness.report_tampered",
        message: "The baseline's report does not match",
        blocking: true,
      }],
    });
    assert.equal(j.keptKills.size, 0);
  });
});
