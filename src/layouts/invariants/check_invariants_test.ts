import assert from "node:assert/strict";
import {
  freezeList,
  lock,
  registry,
  ruleIds,
  sha,
  treeOf,
} from "./_testing.ts";
import {
  checkInvariants,
  type CheckInvariantsInput,
} from "./check_invariants.ts";
import type { InvariantsContract } from "./invariants_contract.ts";

const NOW = Date.parse("2026-07-01T12:00:00Z");

function input(
  parts: Partial<CheckInvariantsInput> = {},
): CheckInvariantsInput {
  return {
    now: NOW,
    baseTree: new Map(),
    headTree: new Map(),
    headModules: new Map(),
    baseModules: new Map(),
    digests: new Map(),
    allowFixtureRotate: false,
    ...parts,
  };
}

const NOTHING: InvariantsContract = {
  registry: { base: undefined, head: null },
  lock: { base: undefined, head: null },
  freezes: { base: undefined, head: null },
};

Deno.test("checkInvariants() judges each of seed 003's three files", async (t) => {
  const cases: [string, InvariantsContract, string[]][] = [
    ["no files, no findings", NOTHING, []],
    ["the property registry", {
      ...NOTHING,
      registry: {
        base: registry([]),
        head: registry([], { allowAgentAdditions: true }),
      },
    }, ["property.policy_loosened"]],
    ["the fixture lock", {
      ...NOTHING,
      lock: { base: lock({}), head: lock({}, true) },
    }, ["fixture.policy_loosened"]],
    ["the freeze list", {
      ...NOTHING,
      freezes: {
        base: freezeList([]),
        head: freezeList([], { maxFrozen: 9 }),
      },
    }, ["freeze.cap_raised"]],
    ["all three at once", {
      registry: {
        base: registry([]),
        head: registry([], { allowAgentAdditions: true }),
      },
      lock: { base: lock({}), head: lock({}, true) },
      freezes: {
        base: freezeList([]),
        head: freezeList([], { maxFrozen: 9 }),
      },
    }, [
      "property.policy_loosened",
      "fixture.policy_loosened",
      "freeze.cap_raised",
    ]],
  ];
  for (const [name, contract, rules] of cases) {
    await t.step(name, () => {
      assert.deepEqual(
        checkInvariants(contract, input()).map((f) => f.rule),
        rules,
      );
    });
  }
});

Deno.test("checkInvariants() holds locked files to the base's fixture roots when it names them", async (t) => {
  const file = "testdata/invoice.json";
  const locked: InvariantsContract = {
    ...NOTHING,
    lock: {
      base: lock({ [file]: sha("a") }),
      head: lock({ [file]: sha("a") }),
    },
  };
  const cases: [string, string[] | undefined, string[]][] = [
    ["anywhere in the repository without roots", undefined, []],
    ["inside the named roots", ["testdata"], []],
    ["outside the named roots", ["tests/fixtures"], ["fixture.path_unsafe"]],
  ];
  for (const [name, fixtureRoots, rules] of cases) {
    await t.step(name, () => {
      const findings = checkInvariants(
        locked,
        input({
          headTree: treeOf({ [file]: "file" }),
          digests: new Map([[file, sha("a")]]),
          fixtureRoots,
        }),
      );
      assert.deepEqual(ruleIds(findings), rules);
    });
  }
});

Deno.test("checkInvariants() lets only a human's rotation flag rotate a fixture", async (t) => {
  const file = "testdata/invoice.json";
  const rotated: InvariantsContract = {
    ...NOTHING,
    lock: {
      base: lock({ [file]: sha("a") }),
      head: lock({ [file]: sha("b") }),
    },
  };
  const cases: [string, boolean, string[]][] = [
    ["without the flag a re-hashed fixture is refused", false, [
      "fixture.digest_changed",
    ]],
    ["with the flag it is a rotation", true, ["~fixture.rotated"]],
  ];
  for (const [name, allowFixtureRotate, rules] of cases) {
    await t.step(name, () => {
      const findings = checkInvariants(
        rotated,
        input({
          headTree: treeOf({ [file]: "file" }),
          digests: new Map([[file, sha("b")]]),
          allowFixtureRotate,
        }),
      );
      assert.deepEqual(ruleIds(findings), rules);
    });
  }
});
