import assert from "node:assert/strict";
import fc from "fast-check";
import { enforcedContracts } from "./enforced_contracts.ts";
import {
  NO_CONTRACT_LINES,
  type SeedContract,
  type SeedContracts,
} from "./read_contracts.ts";

function contract(
  id: string,
  minTrials: number,
  target = "apply",
): SeedContract {
  return {
    id,
    function: `billing.ledger.${target}`,
    test: `tests/test_${target}.py::test_a`,
    minTrials,
  };
}

function contracts(...list: SeedContract[]): SeedContracts {
  return { version: 1, contracts: list, lines: NO_CONTRACT_LINES };
}

Deno.test("enforcedContracts() keeps every base contract at its base target and the larger min_trials, and adds the head's new ones", async (t) => {
  const cases: [string, SeedContracts | null, SeedContract[]][] = [
    ["the head file missing or invalid", null, [contract("c", 200)]],
    ["the head unchanged", contracts(contract("c", 200)), [contract("c", 200)]],
    ["min_trials raised", contracts(contract("c", 500)), [contract("c", 500)]],
    ["min_trials lowered", contracts(contract("c", 10)), [contract("c", 200)]],
    [
      "retargeted at another function and test",
      contracts(contract("c", 300, "other")),
      [contract("c", 300)],
    ],
    ["removed by the head", contracts(), [contract("c", 200)]],
    [
      "a contract added",
      contracts(contract("c", 200), contract("d", 5, "other")),
      [contract("c", 200), contract("d", 5, "other")],
    ],
  ];
  for (const [name, head, want] of cases) {
    await t.step(name, () => {
      assert.deepEqual(
        enforcedContracts(contracts(contract("c", 200)), head).contracts,
        want,
      );
    });
  }
});

Deno.test("enforcedContracts() takes the head file's lines, and none without a head file", () => {
  const lines: SeedContracts["lines"] = { key: () => 3, entry: () => 4 };
  const head = { ...contracts(contract("c", 1)), lines };
  assert.equal(
    enforcedContracts(contracts(contract("c", 1)), head).lines,
    lines,
  );
  assert.equal(
    enforcedContracts({ ...contracts(contract("c", 1)), lines }, null).lines,
    NO_CONTRACT_LINES,
  );
});

Deno.test("whatever the head says, the enforced contracts are never weaker than the base's", () => {
  const arbContract = fc.record({
    id: fc.constantFrom("a", "b", "c", "d"),
    target: fc.constantFrom("apply", "other"),
    minTrials: fc.integer({ min: 1, max: 1000 }),
  }).map(({ id, target, minTrials }) => contract(id, minTrials, target));
  const arbFile = fc.uniqueArray(arbContract, { selector: (c) => c.id })
    .map((list) => contracts(...list));
  fc.assert(
    fc.property(arbFile, fc.option(arbFile), (base, head) => {
      const enforced = enforcedContracts(base, head).contracts;
      for (const old of base.contracts) {
        const now = enforced.find((c) => c.id === old.id);
        assert.ok(now !== undefined);
        assert.equal(now.function, old.function);
        assert.equal(now.test, old.test);
        assert.ok(now.minTrials >= old.minTrials);
      }
      for (const added of head?.contracts ?? []) {
        assert.ok(enforced.some((c) => c.id === added.id));
      }
    }),
  );
});
