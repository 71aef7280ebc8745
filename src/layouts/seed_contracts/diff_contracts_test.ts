import assert from "node:assert/strict";
import fc from "fast-check";
import { diffContracts } from "./diff_contracts.ts";
import {
  NO_CONTRACT_LINES,
  readContracts,
  type SeedContract,
  type SeedContractLines,
  type SeedContracts,
} from "./read_contracts.ts";

const PATH = "ci/contracts.yml";

const APPLY: SeedContract = {
  id: "ledger.apply.idempotent",
  function: "billing.ledger.apply",
  test: "tests/contracts/test_ledger.py::test_apply",
  minTrials: 200,
};

/** `contracts` as a file read back, so findings carry its lines. */
function yml(...contracts: SeedContract[]): SeedContracts {
  const rows = contracts.map((c) =>
    `  - id: ${c.id}\n    function: ${c.function}\n    test: ${c.test}\n    min_trials: ${c.minTrials}\n`
  );
  return readContracts(`version: 1\ncontracts:\n${rows.join("")}`);
}

/** `contracts` with hand-made `lines`. */
function built(
  lines: SeedContractLines,
  ...contracts: SeedContract[]
): SeedContracts {
  return { version: 1, contracts, lines };
}

function diff(base: SeedContracts, head: SeedContracts) {
  return diffContracts(base, head, { path: PATH })
    .map((f) => [f.rule, f.path, f.line]);
}

Deno.test("diffContracts() rejects each way the head weakens a base contract, at the line it changed", async (t) => {
  const cases: [
    string,
    SeedContracts,
    [string, string, number | undefined][],
  ][] = [
    ["an unchanged contract", yml(APPLY), []],
    ["a raised min_trials", yml({ ...APPLY, minTrials: 201 }), []],
    [
      "a min_trials lowered by one",
      yml({ ...APPLY, minTrials: 199 }),
      [["property.min_trials_lowered", PATH, 6]],
    ],
    [
      "another function",
      yml({ ...APPLY, function: "billing.ledger.apply_all" }),
      [["property.retargeted", PATH, 4]],
    ],
    [
      "another test",
      yml({ ...APPLY, test: "tests/contracts/test_ledger.py::test_other" }),
      [["property.retargeted", PATH, 5]],
    ],
    [
      "another function, another test and fewer trials at once",
      yml({
        ...APPLY,
        function: "billing.ledger.apply_all",
        test: "tests/contracts/test_ledger.py::test_other",
        minTrials: 1,
      }),
      [
        ["property.retargeted", PATH, 4],
        ["property.retargeted", PATH, 5],
        ["property.min_trials_lowered", PATH, 6],
      ],
    ],
    [
      "a removed contract points at the contracts key",
      yml(),
      [["property.removed", PATH, 2]],
    ],
    [
      "a renamed contract is a removal",
      yml({ ...APPLY, id: "ledger.apply.same" }),
      [["property.removed", PATH, 2]],
    ],
  ];
  for (const [name, head, expected] of cases) {
    await t.step(
      name,
      () => assert.deepEqual(diff(yml(APPLY), head), expected),
    );
  }
});

Deno.test("diffContracts() says which contract changed and what it was and became", async (t) => {
  const cases: [string, SeedContracts, RegExp][] = [
    [
      "a lowered min_trials names both budgets",
      yml({ ...APPLY, minTrials: 20 }),
      /^Contract "ledger\.apply\.idempotent" min_trials was lowered from 200 to 20: restore the budget$/,
    ],
    [
      "another function names both functions",
      yml({ ...APPLY, function: "billing.ledger.apply_all" }),
      /^Contract "ledger\.apply\.idempotent" now covers function "billing\.ledger\.apply_all" instead of "billing\.ledger\.apply": restore the function$/,
    ],
    [
      "another test names both tests",
      yml({ ...APPLY, test: "tests/t.py::test_b" }),
      /^Contract "ledger\.apply\.idempotent" now runs test "tests\/t\.py::test_b" instead of "tests\/contracts\/test_ledger\.py::test_apply": restore the test$/,
    ],
    [
      "a removed contract names it",
      yml(),
      /^Contract "ledger\.apply\.idempotent" was removed or renamed away: restore it/,
    ],
  ];
  for (const [name, head, message] of cases) {
    await t.step(name, () => {
      const [found] = diffContracts(yml(APPLY), head, { path: PATH });
      assert.match(found?.message ?? "", message);
    });
  }
});

Deno.test("diffContracts() falls back to the nearest line it knows", async (t) => {
  const entryOnly: SeedContractLines = {
    key: (name) => (name === "version" ? 1 : undefined),
    entry: (id, key) => (key === undefined && id === APPLY.id ? 3 : undefined),
  };
  await t.step(
    "a change without a line of its key points at the contract",
    () => {
      assert.deepEqual(
        diff(
          built(NO_CONTRACT_LINES, APPLY),
          built(entryOnly, { ...APPLY, minTrials: 2 }),
        ),
        [["property.min_trials_lowered", PATH, 3]],
      );
    },
  );
  await t.step(
    "a removal without a contracts key points at the version",
    () => {
      assert.deepEqual(
        diff(built(NO_CONTRACT_LINES, APPLY), built(entryOnly)),
        [["property.removed", PATH, 1]],
      );
    },
  );
  await t.step("findings point at the head's lines, never the base's", () => {
    const baseLines: SeedContractLines = { key: () => 90, entry: () => 91 };
    assert.deepEqual(
      diff(
        built(baseLines, APPLY),
        built(entryOnly, { ...APPLY, minTrials: 2 }),
      ),
      [["property.min_trials_lowered", PATH, 3]],
    );
  });
});

Deno.test("diffContracts() rejects a contract the pull request adds on a private function only", async (t) => {
  const helper: SeedContract = {
    id: "ledger.helper",
    function: "billing.ledger._apply_one",
    test: "tests/contracts/test_ledger.py::test_helper",
    minTrials: 10,
  };
  const cases: [
    string,
    SeedContracts,
    SeedContracts,
    [string, string, number | undefined][],
  ][] = [
    [
      "a private function added",
      yml(APPLY),
      yml(APPLY, helper),
      [["property.private_contract", PATH, 8]],
    ],
    [
      "a function in a private module added",
      yml(APPLY),
      yml(APPLY, { ...helper, function: "billing._ledger.apply" }),
      [["property.private_contract", PATH, 8]],
    ],
    [
      "a public function added",
      yml(APPLY),
      yml(APPLY, { ...helper, function: "billing.ledger.apply_one" }),
      [],
    ],
    ["a private function a human put at base", yml(helper), yml(helper), []],
  ];
  for (const [name, base, head, expected] of cases) {
    await t.step(name, () => assert.deepEqual(diff(base, head), expected));
  }
  await t.step("the finding names the contract and its function", () => {
    const [found] = diffContracts(yml(APPLY), yml(APPLY, helper), {
      path: PATH,
    });
    assert.match(
      found?.message ?? "",
      /^Contract "ledger\.helper" covers the private function "billing\.ledger\._apply_one": /,
    );
  });
});

Deno.test("diffContracts() finds nothing when the head only adds public contracts and raises budgets", () => {
  const contract = fc.record({
    id: fc.stringMatching(/^[a-z]{1,6}$/),
    function: fc.constantFrom("billing.a", "billing.b", "billing._c"),
    test: fc.constantFrom("tests/t.py::test_a", "tests/t.py::test_b"),
    minTrials: fc.integer({ min: 1, max: 1000 }),
  });
  fc.assert(
    fc.property(
      fc.uniqueArray(contract, { selector: (c) => c.id, maxLength: 5 }),
      fc.array(fc.nat({ max: 50 }), { minLength: 5, maxLength: 5 }),
      fc.uniqueArray(contract, { selector: (c) => c.id, maxLength: 3 }),
      (base, raises, extra) => {
        const ids = new Set(base.map((c) => c.id));
        const added = extra.filter((c) =>
          !ids.has(c.id) && !c.function.includes("._")
        );
        const head = [
          ...base.map((c, i) => ({
            ...c,
            minTrials: c.minTrials + (raises[i] ?? 0),
          })),
          ...added,
        ];
        const found = diffContracts(
          built(NO_CONTRACT_LINES, ...base),
          built(NO_CONTRACT_LINES, ...head.reverse()),
          { path: PATH },
        );
        assert.deepEqual(found, []);
      },
    ),
  );
});
