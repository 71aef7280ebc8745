/**
 * The warm engine's bookkeeping, phase by phase: which mutants end with a
 * result, which are left for the cold engine, which the budget cut and
 * which no test reaches, always in run order.
 */
import assert from "node:assert/strict";
import { finding } from "../core/finding.ts";
import type { SideOutcomes } from "./judge_kill_sets.ts";
import type { Mutant } from "./mutant.ts";
import type { WarmOutcome } from "./warm_child.ts";
import { WarmResults } from "./warm_results.ts";

function mutant(n: number): Mutant {
  return {
    id: `m${n}`,
    file: "pkg/m.py",
    function: "f",
    line: n,
    column: 1,
    endLine: n,
    endColumn: 2,
    start: 0,
    end: 1,
    original: "0",
    replacement: "1",
    operator: "constant",
  };
}

const [M1, M2, M3, M4] = [1, 2, 3, 4].map(mutant) as [
  Mutant,
  Mutant,
  Mutant,
  Mutant,
];

const NOTE = finding("harness.observer_missing", "the base's run");
const HEAD_NOTE = finding("harness.observer_missing", "the head's run");

function ran(
  outcomes: SideOutcomes,
  extra: { cached?: boolean; findings?: typeof NOTE[] } = {},
): WarmOutcome {
  return {
    kind: "ran",
    outcomes,
    findings: extra.findings ?? [],
    cached: extra.cached ?? false,
  };
}

/** What the accumulator reports, by mutant id. */
function ids(r: WarmResults) {
  const out = r.result();
  return {
    results: out.results.map((x) => x.mutant.id),
    unrun: out.unrun.map((m) => m.id),
    notCovered: out.notCovered.map((m) => m.id),
    leftovers: r.leftovers().map((m) => m.id),
  };
}

Deno.test("WarmResults leaves every mutant no phase spoke for to the cold engine, and counts it unrun until that engine speaks", () => {
  const r = new WarmResults([M1, M2]);
  assert.deepEqual(ids(r), {
    results: [],
    unrun: ["m1", "m2"],
    notCovered: [],
    leftovers: ["m1", "m2"],
  });
  r.cold([], [M2]);
  assert.deepEqual(ids(r), {
    results: [],
    unrun: ["m2"],
    notCovered: [],
    leftovers: [],
  });
});

Deno.test("WarmResults never leaves to the cold engine a mutant the budget cut", () => {
  const r = new WarmResults([M1, M2]);
  r.cut([M1]);
  assert.deepEqual(ids(r), {
    results: [],
    unrun: ["m1", "m2"],
    notCovered: [],
    leftovers: ["m2"],
  });
});

Deno.test("WarmResults.base() keeps each compiled mutant's outcomes of the passing properties, and returns the mutants a passing property killed", async (t) => {
  const passing = new Set(["a", "b"]);
  const cases: [string, WarmOutcome | undefined, {
    result?: SideOutcomes;
    killed?: string[];
    cold?: boolean;
    notCovered?: boolean;
  }][] = [
    ["no outcome: left to the cold engine", undefined, { cold: true }],
    ["to be run cold", { kind: "cold", why: "import" }, { cold: true }],
    ["no test reaches it", { kind: "notCovered" }, { notCovered: true }],
    [
      "killed by a passing property",
      ran({ a: "killed", b: "survived" }),
      { result: { a: "killed", b: "survived" }, killed: ["a"] },
    ],
    [
      "killed only by a property that failed on the unmutated code",
      ran({ a: "survived", c: "killed" }),
      { result: { a: "survived" } },
    ],
    [
      "killed by two",
      ran({ a: "killed", b: "killed" }),
      { result: { a: "killed", b: "killed" }, killed: ["a", "b"] },
    ],
    ["timed out", ran({ a: "timeout" }), { result: { a: "timeout" } }],
  ];
  for (const [name, outcome, want] of cases) {
    await t.step(name, () => {
      const r = new WarmResults([M1]);
      const outcomes = new Map(
        outcome === undefined ? [] : [[M1.id, outcome]],
      );
      const killed = r.base(outcomes, passing, [M1]);
      assert.deepEqual(
        [...killed].map(([m, keys]) => [m.id, [...keys]]),
        want.killed === undefined ? [] : [["m1", want.killed]],
      );
      const out = r.result();
      assert.deepEqual(
        out.results,
        want.result === undefined
          ? []
          : [{ mutant: M1, base: want.result, head: null, cached: false }],
      );
      assert.deepEqual(ids(r).leftovers, want.cold === true ? ["m1"] : []);
      assert.deepEqual(ids(r).notCovered, want.notCovered ? ["m1"] : []);
    });
  }
});

Deno.test("WarmResults.base() carries a run's cache flag and findings, and reads only the compiled mutants", () => {
  const r = new WarmResults([M1, M2, M3]);
  r.base(
    new Map([
      [M1.id, ran({ a: "survived" }, { cached: true })],
      [M2.id, ran({ a: "killed" }, { findings: [NOTE] })],
      [M3.id, ran({ a: "killed" })],
    ]),
    new Set(["a"]),
    [M1, M2],
  );
  assert.deepEqual(r.result().results, [
    { mutant: M1, base: { a: "survived" }, head: null, cached: true },
    {
      mutant: M2,
      base: { a: "killed" },
      head: null,
      cached: false,
      findings: [NOTE],
    },
  ]);
  assert.deepEqual(ids(r).leftovers, ["m3"], "not compiled in: run cold");
});

Deno.test("WarmResults.head() adds the head's outcomes, and sends a lost head run back to the cold engine with its base run", async (t) => {
  const cases: [string, WarmOutcome | undefined, {
    head?: SideOutcomes | null;
    findings?: typeof NOTE[];
    cold?: boolean;
  }][] = [
    ["ran", ran({ a: "survived" }), { head: { a: "survived" } }],
    [
      "ran with a finding",
      ran({ a: "killed" }, { findings: [HEAD_NOTE] }),
      { head: { a: "killed" }, findings: [NOTE, HEAD_NOTE] },
    ],
    [
      "ran with a finding the base's run did not make",
      ran({ a: "killed" }, { findings: [HEAD_NOTE] }),
      { head: { a: "killed" }, findings: [HEAD_NOTE] },
    ],
    ["ran no property", ran({}), { head: null }],
    ["lost", { kind: "cold", why: "its driver went away" }, { cold: true }],
    ["no outcome", undefined, { cold: true }],
    ["not reached on the head", { kind: "notCovered" }, { cold: true }],
  ];
  for (const [name, outcome, want] of cases) {
    await t.step(name, () => {
      const r = new WarmResults([M1]);
      r.base(
        new Map([[
          M1.id,
          ran({ a: "killed" }, {
            findings: name === "ran with a finding" ? [NOTE] : [],
          }),
        ]]),
        new Set(["a"]),
        [M1],
      );
      r.head({
        jobs: [{ mutant: M1 }],
        outcomes: new Map(outcome === undefined ? [] : [[M1.id, outcome]]),
      });
      if (want.cold === true) {
        assert.deepEqual(ids(r), {
          results: [],
          unrun: ["m1"],
          notCovered: [],
          leftovers: ["m1"],
        });
        return;
      }
      assert.deepEqual(r.result().results, [{
        mutant: M1,
        base: { a: "killed" },
        head: want.head,
        cached: false,
        ...(want.findings === undefined ? {} : { findings: want.findings }),
      }]);
      assert.deepEqual(r.leftovers(), []);
    });
  }
});

Deno.test("WarmResults.head() does nothing without a head, and counts what the budget cut there as unrun, not as run on the base only", () => {
  const r = new WarmResults([M1, M2, M3]);
  r.base(
    new Map([M1, M2, M3].map((m) => [m.id, ran({ a: "killed" })])),
    new Set(["a"]),
    [M1, M2, M3],
  );
  r.head(null);
  assert.deepEqual(ids(r).results, ["m1", "m2", "m3"]);
  r.head({
    jobs: [{ mutant: M1 }, { mutant: M2 }],
    outcomes: new Map([
      [M1.id, ran({ a: "survived" })],
      [M2.id, ran({ a: "survived" })],
    ]),
    cut: [{ mutant: M2 }, { mutant: M3 }],
  });
  assert.deepEqual(ids(r), {
    results: ["m1"],
    unrun: ["m2", "m3"],
    notCovered: [],
    leftovers: [],
  });
  assert.deepEqual(r.result().results[0]?.head, { a: "survived" });
});

Deno.test("WarmResults.head() leaves a mutant with no base result alone", () => {
  const r = new WarmResults([M1]);
  r.head({
    jobs: [{ mutant: M1 }],
    outcomes: new Map([[M1.id, ran({ a: "survived" })]]),
  });
  assert.deepEqual(ids(r), {
    results: [],
    unrun: ["m1"],
    notCovered: [],
    leftovers: ["m1"],
  });
});

Deno.test("WarmResults reports every phase's results in run order, the cold engine's among them", () => {
  const r = new WarmResults([M1, M2, M3, M4]);
  r.base(
    new Map([
      [M4.id, ran({ a: "survived" })],
      [M2.id, { kind: "notCovered" }],
      [M3.id, ran({ a: "killed" })],
    ]),
    new Set(["a"]),
    [M4, M3, M2, M1],
  );
  r.cut([M3]);
  assert.deepEqual(r.leftovers().map((m) => m.id), ["m1"]);
  r.cold(
    [{ mutant: M1, base: { a: "killed" }, head: null, cached: false }],
    [],
  );
  assert.deepEqual(ids(r), {
    results: ["m1", "m4"],
    unrun: ["m3"],
    notCovered: ["m2"],
    leftovers: [],
  });
});

/** An accumulator whose base killed M1 to M4 with a and b (c survived), then the head's warm outcomes of those `head` names. */
function withHead(head: Record<string, SideOutcomes | undefined>) {
  const r = new WarmResults([M1, M2, M3, M4]);
  const base = { a: "killed", b: "killed", c: "survived" } as const;
  r.base(
    new Map([M1, M2, M3, M4].map((m) => [m.id, ran(base)])),
    new Set(["a", "b", "c"]),
    [M1, M2, M3, M4],
  );
  r.head({
    jobs: [M1, M2, M3, M4].filter((m) => m.id in head).map((mutant) => ({
      mutant,
    })),
    outcomes: new Map(
      Object.entries(head).flatMap(([id, o]) =>
        o === undefined ? [] : [[id, ran(o)]]
      ),
    ),
  });
  return r;
}

Deno.test("WarmResults.headClaims() claims, in run order, each head kill or timeout of a mutant the same base property killed, and nothing the head let survive", () => {
  const r = withHead({
    m1: { a: "killed", b: "survived" },
    m2: { a: "timeout", b: "killed" },
    m3: { a: "survived", b: "unknown" },
    m4: { c: "killed" },
  });
  assert.deepEqual(
    r.headClaims().map((c) => [c.mutant.id, [...c.keys].sort()]),
    [["m1", ["a"]], ["m2", ["a", "b"]]],
  );
});

Deno.test("WarmResults.confirmed() puts the cold outcomes in place of the claimed warm ones and keeps the rest", () => {
  const r = withHead({
    m1: { a: "killed", b: "survived" },
    m2: { a: "timeout", b: "killed" },
  });
  const claims = r.headClaims();
  r.confirmed(
    claims,
    new Map([["m1", { a: "survived" }], ["m2", { a: "killed", b: "unknown" }]]),
  );
  assert.deepEqual(
    r.result().results.map((x) => [x.mutant.id, x.head]),
    [
      ["m1", { a: "survived", b: "survived" }],
      ["m2", { a: "killed", b: "unknown" }],
      ["m3", null],
      ["m4", null],
    ],
  );
});

Deno.test("WarmResults.confirmed() counts a claim the budget left unconfirmed as unrun, unless a base killer the head let survive already tells against it", () => {
  const r = withHead({
    m1: { a: "killed", b: "survived" },
    m2: { a: "killed", b: "killed" },
    m3: { a: "killed", c: "survived" },
  });
  r.confirmed(r.headClaims(), new Map());
  const out = r.result();
  assert.deepEqual(
    out.results.map((x) => [x.mutant.id, x.head]),
    [["m1", { b: "survived" }], ["m4", null]],
  );
  assert.deepEqual(out.unrun.map((m) => m.id), ["m2", "m3"]);
  assert.deepEqual(r.leftovers(), []);
});

Deno.test("WarmResults.headClaims() passes over a mutant with no result: cut, or left for the cold engine", () => {
  const r = new WarmResults([M1, M2, M3]);
  r.base(new Map([[M1.id, ran({ a: "killed" })]]), new Set(["a"]), [M1, M2]);
  r.cut([M3]);
  r.head({
    jobs: [{ mutant: M1 }],
    outcomes: new Map([[M1.id, ran({ a: "killed" })]]),
  });
  assert.deepEqual(
    r.headClaims().map((c) => [c.mutant.id, [...c.keys]]),
    [["m1", ["a"]]],
  );
});
