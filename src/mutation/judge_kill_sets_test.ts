import assert from "node:assert/strict";
import fc from "fast-check";
import {
  byPlace,
  judgeKillSets,
  killedKeys,
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
    "a single report the observer disagreed with is passed on as it is",
    () => {
      const tampered = {
        layer: "harness" as const,
        rule: "harness.report_tampered" as const,
        message:
          "The JUnit report of the head's properties on mutant m1 does not match",
        blocking: true,
      };
      const j = judge([{
        ...result("m1", { "000/order": "killed" }, { "000/order": "unknown" }),
        findings: [tampered],
      }]);
      assert.deepEqual(j.findings, [tampered]);
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
        /does not match \(and 1 more run like it\)$/,
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
  await t.step("the one mutant the base kills, killed at the head", () => {
    assert.deepEqual(
      kept([
        result("m1", { "000/order": "killed" }, { "000/order": "killed" }),
      ]),
      { "000/order": 1 },
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

/** A mutant of `file` at offset `start` (line `line`), killed or not as told. */
function placed(
  id: string,
  file: string,
  line: number,
  start: number,
  end = start + 1,
): Mutant {
  return { ...mutant(id, "<="), file, line, start, end };
}

/** The mutant ids of a finding's diffs, in the order it shows them. */
function shownIds(message: string): string[] {
  return [...message.matchAll(/mutant (m\w+)\)/g)].map((m) => m[1] as string);
}

// Five mutants in three places of two files, listed out of place order.
const SCATTERED: Mutant[] = [
  placed("m5", "pkg/z.py", 1, 0),
  placed("m3", "pkg/m.py", 2, 26, 28),
  placed("m1", "pkg/a.py", 9, 40),
  placed("m4", "pkg/m.py", 2, 27),
  placed("m2", "pkg/m.py", 2, 26, 27),
];
const IN_PLACE_ORDER = ["m1", "m2", "m3", "m4", "m5"];

Deno.test("judgeKillSets() names a finding's mutants in file and place order, at most three", async (t) => {
  await t.step(
    "a weakening shows the first three diffs and counts the rest",
    () => {
      const j = judge(SCATTERED.map((m) => ({
        mutant: m,
        base: { "000/order": "killed" },
        head: { "000/order": "survived" },
        cached: false,
      })));
      const [f] = j.findings;
      assert.equal(f?.rule, "property.oracle_weakened");
      assert.deepEqual([f?.path, f?.line], ["pkg/a.py", 9]);
      assert.deepEqual(shownIds(f?.message ?? ""), ["m1", "m2", "m3"]);
      const lines = (f?.message ?? "").split("\n");
      assert.equal(lines.filter((l) => l.startsWith("--- pkg/")).length, 3);
      assert.match(f?.message ?? "", /catches 5 bugs the base's test/);
      assert.match(f?.message ?? "", /\n\(and 2 more\)$/);
      assert.equal(j.report.weakened, 5);
    },
  );
  await t.step("exactly three weakenings show all three and no count", () => {
    const j = judge(
      SCATTERED.slice(0, 3).map((m) => ({
        mutant: m,
        base: { "000/order": "killed" },
        head: { "000/order": "survived" },
        cached: false,
      })),
    );
    const message = j.findings[0]?.message ?? "";
    assert.deepEqual(shownIds(message), ["m1", "m3", "m5"]);
    assert.doesNotMatch(message, /more\)/);
    // The message ends with the last diff's added line.
    assert.match(message, /\n--- pkg\/z\.py:1\n.*\n-\n\+<=$/);
  });
  await t.step("one weakening is one bug", () => {
    const j = judge([{
      mutant: SCATTERED[0] as Mutant,
      base: { "000/order": "killed" },
      head: { "000/order": "survived" },
      cached: false,
    }]);
    assert.match(j.findings[0]?.message ?? "", /catches 1 bug the base's/);
  });
  await t.step("a missing head report names the first mutant by place", () => {
    const j = judge(SCATTERED.map((m) => ({
      mutant: m,
      base: { "000/order": "killed" },
      head: { "000/order": "unknown" },
      cached: false,
    })));
    const [f] = j.findings;
    assert.equal(f?.rule, "tests.no_report");
    assert.deepEqual([f?.path, f?.line], ["pkg/a.py", 9]);
    assert.match(
      f?.message ?? "",
      /on 5 mutants the base's test kills .* catches them \(first: pkg\/a\.py:9 /,
    );
  });
  await t.step("a missing head report on one mutant speaks of it", () => {
    const j = judge([{
      mutant: SCATTERED[0] as Mutant,
      base: { "000/order": "killed" },
      head: { "000/order": "unknown" },
      cached: false,
    }]);
    assert.match(j.findings[0]?.message ?? "", / catches it \(first: /);
  });
});

Deno.test("judgeKillSets() lists at most five gaps, first by place, and says when there are more", async (t) => {
  const gaps = (mutants: Mutant[]) =>
    judge(mutants.map((m) => ({
      mutant: m,
      base: { "000/order": "survived" },
      head: null,
      cached: false,
    }))).findings;
  await t.step("one gap survives", () => {
    const [f] = gaps([SCATTERED[0] as Mutant]);
    assert.match(f?.message ?? "", /^1 of 1 mutant survives every base/);
    assert.match(
      f?.message ?? "",
      /not blocking\): pkg\/z\.py:1 comparison "<" → "<="$/,
    );
  });
  await t.step("five gaps are all listed, in place order", () => {
    const [f] = gaps(SCATTERED);
    assert.deepEqual([f?.path, f?.line], ["pkg/a.py", 9]);
    assert.match(f?.message ?? "", /^5 of 5 mutants survive every base/);
    const listed = (f?.message ?? "").split("not blocking): ")[1] ?? "";
    assert.deepEqual(listed.split("; ").map((d) => d.split(" ")[0]), [
      "pkg/a.py:9",
      "pkg/m.py:2",
      "pkg/m.py:2",
      "pkg/m.py:2",
      "pkg/z.py:1",
    ]);
  });
  await t.step("a sixth gap is elided", () => {
    const [f] = gaps([...SCATTERED, placed("m6", "pkg/z.py", 3, 50)]);
    const listed = (f?.message ?? "").split("not blocking): ")[1] ?? "";
    assert.equal(listed.split("; ").length, 6);
    assert.match(listed, /pkg\/z\.py:1 [^;]*; …$/);
  });
});

Deno.test("killedKeys() names only the properties that failed, never a timeout or an untrusted run, in the run's order", () => {
  const outcomes: SideOutcomes = {
    "000/z": "killed",
    "000/slow": "timeout",
    "000/a": "killed",
    "000/kept": "survived",
    "000/lost": "unknown",
  };
  assert.deepEqual(killedKeys(outcomes), ["000/z", "000/a"]);
  assert.deepEqual(killedKeys({ "000/kept": "survived" }), []);
  assert.deepEqual(killedKeys({}), []);
});

Deno.test("byPlace() orders mutants by file, then start, then end, then id, whatever order they come in", async (t) => {
  await t.step("each key decides only when the ones before it tie", () => {
    const a = placed("m9", "pkg/a.py", 9, 90, 99);
    const cases: [string, Mutant, Mutant][] = [
      ["file first", a, placed("m0", "pkg/b.py", 1, 0, 1)],
      [
        "then start",
        placed("m9", "pkg/a.py", 1, 5, 99),
        placed("m0", "pkg/a.py", 1, 6, 7),
      ],
      [
        "then end",
        placed("m9", "pkg/a.py", 1, 5, 6),
        placed("m0", "pkg/a.py", 1, 5, 7),
      ],
      [
        "then id",
        placed("m0", "pkg/a.py", 1, 5, 6),
        placed("m1", "pkg/a.py", 1, 5, 6),
      ],
    ];
    for (const [name, first, second] of cases) {
      assert.ok(byPlace(first, second) < 0, name);
      assert.ok(byPlace(second, first) > 0, name);
    }
  });
  await t.step("sorting any permutation gives the same list", () => {
    fc.assert(fc.property(
      fc.shuffledSubarray(SCATTERED, { minLength: SCATTERED.length }),
      (shuffled) => {
        const ids = [...shuffled].sort(byPlace).map((m) => m.id);
        assert.deepEqual(ids, IN_PLACE_ORDER);
      },
    ));
  });
});
