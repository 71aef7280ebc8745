import assert from "node:assert/strict";
import fc from "fast-check";
import { freeze, freezeList, registry, sha } from "./_testing.ts";
import type { FreezeEntry } from "./read_freeze_list.ts";
import type { InvariantsContract } from "./invariants_contract.ts";
import { invariantsPlan } from "./invariants_plan.ts";
import type { FreezeList } from "./read_freeze_list.ts";

const FILE = "tests/test_billing.py";
const NOW = Date.parse("2026-07-01T12:00:00Z");

function contract(
  freezes: { base: FreezeList | undefined; head: FreezeList | null },
): InvariantsContract {
  return {
    registry: { base: undefined, head: null },
    lock: { base: undefined, head: null },
    freezes,
  };
}

Deno.test("invariantsPlan() deselects only the freezes that still hold", async (t) => {
  const dst = freeze("dst", FILE, "test_dst");
  const cases: [
    string,
    { base: FreezeList | undefined; head: FreezeList | null },
    string[],
  ][] = [
    ["a base freeze the head kept", {
      base: freezeList([dst]),
      head: freezeList([dst]),
    }, [
      `${FILE}::test_dst`,
    ]],
    ["a base freeze with an unusable head copy", {
      base: freezeList([dst]),
      head: null,
    }, [
      `${FILE}::test_dst`,
    ]],
    ["a base freeze the head removed", {
      base: freezeList([dst]),
      head: freezeList([]),
    }, []],
    ["a freeze the head adds", {
      base: freezeList([]),
      head: freezeList([dst]),
    }, []],
    [
      "a method freeze, as a pytest node id",
      { base: freezeList([freeze("m", FILE, "TestB.test_m")]), head: null },
      [`${FILE}::TestB::test_m`],
    ],
    [
      "an expired freeze",
      { base: freezeList([{ ...dst, expiresOn: "2026-06-30" }]), head: null },
      [],
    ],
    [
      "a freeze the head extended past its base expiry",
      {
        base: freezeList([{ ...dst, expiresOn: "2026-06-30" }]),
        head: freezeList([{ ...dst, expiresOn: "2027-01-01" }]),
      },
      [],
    ],
    [
      "a freeze the head hands to the agent",
      {
        base: freezeList([dst]),
        head: freezeList([{ ...dst, owner: "AGENT" }]),
      },
      [],
    ],
    [
      "a base freeze owned by the agent, even if the head hands it to a human",
      {
        base: freezeList([{ ...dst, owner: "agent" }]),
        head: freezeList([dst]),
      },
      [],
    ],
    [
      "a base freeze that names no test",
      {
        base: freezeList([{ ...dst, test: undefined, missing: ["path"] }]),
        head: null,
      },
      [],
    ],
    [
      "a base freeze with no readable expiry",
      {
        base: freezeList([{
          ...dst,
          expiresOn: undefined,
          missing: ["expires_on"],
        }]),
        head: null,
      },
      [],
    ],
    [
      "two freezes of the same test, once",
      {
        base: freezeList([dst, { ...dst, id: "dst2" }]),
        head: null,
      },
      [`${FILE}::test_dst`],
    ],
    [
      "a freeze the head moves keeps its base test",
      {
        base: freezeList([dst]),
        head: freezeList([freeze("dst", FILE, "test_other")]),
      },
      [`${FILE}::test_dst`],
    ],
  ];
  for (const [name, freezes, deselect] of cases) {
    await t.step(name, () => {
      assert.deepEqual(
        invariantsPlan(contract(freezes), { now: NOW }).deselect,
        deselect,
      );
    });
  }
});

Deno.test("invariantsPlan() runs every base property at its base target, then the head's additions", () => {
  const p = {
    id: "p",
    module: "tests.test_p",
    function: "test_p",
    sourceSha256: sha("a"),
  };
  const plan = invariantsPlan({
    registry: {
      base: registry([p]),
      head: registry([{ ...p, function: "test_moved" }, {
        ...p,
        id: "q",
        function: "test_q",
      }]),
    },
    lock: { base: undefined, head: null },
    freezes: { base: undefined, head: null },
  }, { now: NOW });
  assert.deepEqual(plan.properties, [
    { id: "p", module: "tests.test_p", name: "test_p" },
    { id: "q", module: "tests.test_p", name: "test_q" },
  ]);
});

Deno.test("invariantsPlan() returns a freeze's test to the gate at the instant it expires", async (t) => {
  // A date lasts through that UTC day: `2026-07-01` expires at the next midnight.
  const dst = freeze("dst", FILE, "test_dst", { expiresOn: "2026-07-01" });
  const expiry = Date.parse("2026-07-02T00:00:00Z");
  const cases: [string, number, string[]][] = [
    ["one millisecond before the expiry it is deselected", expiry - 1, [
      `${FILE}::test_dst`,
    ]],
    ["at the expiry it runs", expiry, []],
    ["after the expiry it runs", expiry + 1, []],
  ];
  for (const [name, now, deselect] of cases) {
    await t.step(name, () => {
      const plan = invariantsPlan(
        contract({ base: freezeList([dst]), head: null }),
        { now },
      );
      assert.deepEqual(plan.deselect, deselect);
    });
  }
});

Deno.test("invariantsPlan() runs a property both sides register once", () => {
  const p = {
    id: "p",
    module: "tests.test_p",
    function: "test_p",
    sourceSha256: sha("a"),
  };
  const plan = invariantsPlan({
    registry: { base: registry([p]), head: registry([p]) },
    lock: { base: undefined, head: null },
    freezes: { base: undefined, head: null },
  }, { now: NOW });
  assert.deepEqual(plan.properties, [
    { id: "p", module: "tests.test_p", name: "test_p" },
  ]);
});

Deno.test("invariantsPlan() runs the properties of whichever side has a registry", async (t) => {
  const p = {
    id: "p",
    module: "tests.test_p",
    function: "test_p",
    sourceSha256: sha("a"),
  };
  const planned = [{ id: "p", module: "tests.test_p", name: "test_p" }];
  const cases: [string, InvariantsContract["registry"], typeof planned][] = [
    ["no registry on either side: none", { base: undefined, head: null }, []],
    ["only the base's, when the head's is unusable", {
      base: registry([p]),
      head: null,
    }, planned],
    ["only the head's, when the base has none", {
      base: undefined,
      head: registry([p]),
    }, planned],
  ];
  for (const [name, sides, properties] of cases) {
    await t.step(name, () => {
      const plan = invariantsPlan({
        registry: sides,
        lock: { base: undefined, head: null },
        freezes: { base: undefined, head: null },
      }, { now: NOW });
      assert.deepEqual(plan.properties, properties);
    });
  }
});

Deno.test("invariantsPlan() never deselects more as time passes, nor a test the base list does not freeze", () => {
  const DAY = 86_400_000;
  const dateArb = fc.integer({ min: 0, max: 60 }).map((n) =>
    new Date(Date.parse("2026-06-01T00:00:00Z") + n * DAY).toISOString()
      .slice(0, 10)
  );
  const entryArb = fc.record({
    // Few ids and tests, so base and head often share and move freezes.
    id: fc.constantFrom("a", "b"),
    name: fc.constantFrom("test_a", "TestC.test_c"),
    expiresOn: fc.option(dateArb, { nil: undefined, freq: 5 }),
    owner: fc.constantFrom("human", "human", "human", "agent"),
  }).map(({ id, name, expiresOn, owner }): FreezeEntry =>
    freeze(id, FILE, name, { expiresOn, owner })
  );
  const listArb = fc.uniqueArray(entryArb, {
    selector: (f) => f.id,
    maxLength: 3,
  }).map((entries) => freezeList(entries));
  const nowArb = fc.integer({ min: 0, max: 70 * DAY }).map((ms) =>
    Date.parse("2026-06-01T00:00:00Z") + ms
  );
  fc.assert(
    fc.property(
      fc.option(listArb, { nil: undefined }),
      fc.option(listArb, { nil: null }),
      nowArb,
      nowArb,
      (base, head, t1, t2) => {
        const [earlier, later] = t1 <= t2 ? [t1, t2] : [t2, t1];
        const plan = (now: number) =>
          invariantsPlan(contract({ base, head }), { now }).deselect;
        const then = new Set(plan(earlier));
        for (const id of plan(later)) assert.ok(then.has(id));
        const frozen = new Set(
          (base?.freezes ?? []).map((f) => f.test?.nodeId),
        );
        for (const id of then) assert.ok(frozen.has(id));
      },
    ),
    { numRuns: 300 },
  );
});
