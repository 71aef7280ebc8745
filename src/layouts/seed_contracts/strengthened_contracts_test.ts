import assert from "node:assert/strict";
import type { PythonModule } from "../../python/python_module.ts";
import { pyFunction, type PyFunctionOptions, pyModule } from "./_testing.ts";
import {
  NO_CONTRACT_LINES,
  type SeedContract,
  type SeedContracts,
} from "./read_contracts.ts";
import {
  type ContractStrengthening,
  strengthenedContracts,
} from "./strengthened_contracts.ts";

const FILE = "tests/contracts/test_ledger.py";

const APPLY: SeedContract = {
  id: "apply",
  function: "billing.ledger.apply",
  test: `${FILE}::test_apply`,
  minTrials: 200,
};

function contracts(...list: SeedContract[]): SeedContracts {
  return { version: 1, contracts: list, lines: NO_CONTRACT_LINES };
}

function modules(
  fns: Record<string, PyFunctionOptions>,
): Map<string, PythonModule> {
  return new Map([[
    FILE,
    pyModule(
      ...Object.entries(fns).map(([name, o]) => pyFunction(name, o)),
    ),
  ]]);
}

const SAME = modules({ test_apply: {} });
const EDITED = modules({
  test_apply: { source: "def test_apply():\n    assert holds(y)" },
});

interface Case {
  base?: SeedContracts;
  head: SeedContracts | null;
  baseModules?: Map<string, PythonModule>;
  headModules?: Map<string, PythonModule>;
}

function judge(c: Case): ContractStrengthening[] {
  return strengthenedContracts(c.base ?? contracts(APPLY), c.head, {
    baseModules: c.baseModules ?? SAME,
    headModules: c.headModules ?? SAME,
  });
}

Deno.test("strengthenedContracts() counts an added contract only when its public test can fail", async (t) => {
  const added: SeedContract = {
    id: "dash",
    function: "billing.ledger.reject_dash",
    test: `${FILE}::test_dash`,
    minTrials: 10,
  };
  const cases: [string, Case, ContractStrengthening[]][] = [
    [
      "a public contract whose test is defined",
      {
        head: contracts(APPLY, added),
        headModules: modules({ test_apply: {}, test_dash: {} }),
      },
      [{ kind: "added", id: "dash" }],
    ],
    [
      "a contract on a private function",
      {
        head: contracts(APPLY, { ...added, function: "billing.ledger._dash" }),
        headModules: modules({ test_apply: {}, test_dash: {} }),
      },
      [],
    ],
    [
      "a contract whose test is not defined at head",
      { head: contracts(APPLY, added) },
      [],
    ],
    [
      "a contract whose test cannot fail",
      {
        head: contracts(APPLY, added),
        headModules: modules({
          test_apply: {},
          test_dash: { vacuity: { reason: "no_assertion", line: 10 } },
        }),
      },
      [],
    ],
    ["a head that cannot be read", { head: null }, []],
  ];
  for (const [name, c, expected] of cases) {
    await t.step(name, () => assert.deepEqual(judge(c), expected));
  }
});

Deno.test("strengthenedContracts() counts a raised budget, never an equal or lower one", async (t) => {
  const cases: [string, number, ContractStrengthening[]][] = [
    ["one trial more", 201, [{
      kind: "trials_raised",
      id: "apply",
      from: 200,
      to: 201,
    }]],
    ["the same budget", 200, []],
    ["one trial fewer", 199, []],
  ];
  for (const [name, minTrials, expected] of cases) {
    await t.step(name, () => {
      assert.deepEqual(
        judge({ head: contracts({ ...APPLY, minTrials }) }),
        expected,
      );
    });
  }
});

Deno.test("strengthenedContracts() counts a contract test that changed and can fail, on the same function and test", async (t) => {
  const changed: ContractStrengthening[] = [{
    kind: "test_changed",
    id: "apply",
  }];
  const cases: [string, Case, ContractStrengthening[]][] = [
    [
      "an edited test",
      { head: contracts(APPLY), headModules: EDITED },
      changed,
    ],
    [
      "a test the base did not define",
      {
        head: contracts(APPLY),
        baseModules: new Map(),
      },
      changed,
    ],
    ["an unchanged test", { head: contracts(APPLY) }, []],
    [
      "an edited test that cannot fail",
      {
        head: contracts(APPLY),
        headModules: modules({
          test_apply: {
            source: "def test_apply():\n    pass",
            vacuity: { reason: "no_assertion", line: 10 },
          },
        }),
      },
      [],
    ],
    [
      "a test removed at head",
      { head: contracts(APPLY), headModules: new Map() },
      [],
    ],
    [
      "an edited test of a contract moved to another function",
      {
        head: contracts({ ...APPLY, function: "billing.ledger.apply_all" }),
        headModules: EDITED,
      },
      [],
    ],
    [
      "a contract moved to another test the base did not have",
      {
        head: contracts({ ...APPLY, test: `${FILE}::test_other` }),
        headModules: modules({ test_apply: {}, test_other: {} }),
      },
      [],
    ],
    [
      "an edited test with a raised budget counts both",
      {
        head: contracts({ ...APPLY, minTrials: 300 }),
        headModules: EDITED,
      },
      [
        { kind: "trials_raised", id: "apply", from: 200, to: 300 },
        { kind: "test_changed", id: "apply" },
      ],
    ],
  ];
  for (const [name, c, expected] of cases) {
    await t.step(name, () => assert.deepEqual(judge(c), expected));
  }
});
