import assert from "node:assert/strict";
import { freeze, freezeList, registry, sha } from "./_testing.ts";
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
