import assert from "node:assert/strict";
import type { ChangedPath, EntryKind } from "../../git/git.ts";
import type { PythonModule } from "../../python/python_module.ts";
import {
  LEDGER_TEST,
  pyFunction,
  type PyFunctionOptions,
  pyModule,
  REVIEW_DAY,
  SEED_CONTRACTS,
  SEED_FREEZE,
  treeOf,
} from "./_testing.ts";
import type { FreezeFileState } from "./check_freeze_file_touched.ts";
import {
  checkSeedContracts,
  seedContractsReads,
} from "./check_seed_contracts.ts";
import {
  readContracts,
  type SeedContract,
  type SeedContracts,
} from "./read_contracts.ts";
import { type FlakeFreeze, readFlakeFreeze } from "./read_flake_freeze.ts";
import { strengthenedContracts } from "./strengthened_contracts.ts";

const APPLY = `${LEDGER_TEST}::test_apply_contract`;
const EXAMPLES = "tests/test_ledger.py";
const BASE = readContracts(SEED_CONTRACTS);

function contractsYml(contracts: readonly SeedContract[]): SeedContracts {
  const rows = contracts.map((c) =>
    `  - id: ${c.id}\n    function: ${c.function}\n    test: ${c.test}\n    min_trials: ${c.minTrials}\n`
  );
  return readContracts(`version: 1\ncontracts:\n${rows.join("")}`);
}

const APPLY_CONTRACT: SeedContract = {
  id: "ledger.apply.idempotent",
  function: "billing.ledger.apply",
  test: APPLY,
  minTrials: 200,
};

type Modules = Record<string, Record<string, PyFunctionOptions>>;

function modules(spec: Modules): Map<string, PythonModule> {
  return new Map(
    Object.entries(spec).map(([path, fns]) => [
      path,
      pyModule(
        ...Object.entries(fns).map(([name, o]) => pyFunction(name, o)),
      ),
    ]),
  );
}

interface Case {
  head?: SeedContracts | null;
  base?: SeedContracts;
  baseModules?: Modules;
  headModules?: Modules;
  files?: Record<string, EntryKind>;
  changes?: ChangedPath[];
  freeze?: FlakeFreeze | null;
  freezeFile?: {
    base: FreezeFileState | undefined;
    head: FreezeFileState | undefined;
  };
  now?: number;
  contractsPath?: string;
  freezePath?: string;
}

const BASE_MODULES: Modules = {
  [LEDGER_TEST]: { test_apply_contract: {} },
  [EXAMPLES]: { test_usd: { examples: 1 } },
};

function judge(c: Case) {
  const headModules = c.headModules ?? BASE_MODULES;
  return checkSeedContracts({
    base: c.base ?? BASE,
    head: c.head === undefined ? BASE : c.head,
    freeze: c.freeze ?? null,
    freezeFile: c.freezeFile ?? { base: undefined, head: undefined },
    headTree: treeOf(
      c.files ??
        Object.fromEntries(Object.keys(headModules).map((p) => [p, "file"])),
    ),
    changes: c.changes ?? [],
    modules: modules(headModules),
    baseModules: modules(c.baseModules ?? BASE_MODULES),
    now: c.now ?? REVIEW_DAY,
    ...(c.contractsPath === undefined
      ? {}
      : { contractsPath: c.contractsPath }),
    ...(c.freezePath === undefined ? {} : { freezePath: c.freezePath }),
  });
}

function rules(c: Case): string[] {
  return judge(c).map((f) => f.rule);
}

Deno.test("checkSeedContracts() accepts an unchanged contract", () => {
  assert.deepEqual(judge({}), []);
});

Deno.test("checkSeedContracts() rejects every weakening of contracts.yml", async (t) => {
  const cases: [string, Case, string[]][] = [
    ["a removed contract", { head: contractsYml([]) }, ["property.removed"]],
    [
      "a renamed contract",
      { head: contractsYml([{ ...APPLY_CONTRACT, id: "ledger.apply" }]) },
      ["property.removed"],
    ],
    [
      "a lowered min_trials",
      { head: contractsYml([{ ...APPLY_CONTRACT, minTrials: 20 }]) },
      ["property.min_trials_lowered"],
    ],
    [
      "another function",
      {
        head: contractsYml([{
          ...APPLY_CONTRACT,
          function: "billing.ledger.apply_error",
        }]),
      },
      ["property.retargeted"],
    ],
    [
      "another test",
      {
        head: contractsYml([{
          ...APPLY_CONTRACT,
          test: `${LEDGER_TEST}::test_other`,
        }]),
        headModules: {
          [LEDGER_TEST]: { test_apply_contract: {}, test_other: {} },
        },
      },
      ["property.retargeted"],
    ],
    [
      "an added contract on a private function",
      {
        head: contractsYml([APPLY_CONTRACT, {
          id: "ledger.apply.private",
          function: "billing.ledger._apply",
          test: `${LEDGER_TEST}::test_private`,
          minTrials: 10,
        }]),
        headModules: {
          [LEDGER_TEST]: { test_apply_contract: {}, test_private: {} },
        },
      },
      ["property.private_contract"],
    ],
  ];
  for (const [name, c, expected] of cases) {
    await t.step(name, () => assert.deepEqual(rules(c), expected));
  }
});

Deno.test("checkSeedContracts() leaves a private contract a human put at base alone", () => {
  const privateContract = {
    ...APPLY_CONTRACT,
    function: "billing._ledger.apply",
  };
  const both = contractsYml([privateContract]);
  assert.deepEqual(rules({ base: both, head: both }), []);
});

Deno.test("checkSeedContracts() checks contract tests against parsed head source", async (t) => {
  const cases: [string, Case, [string, string | undefined][]][] = [
    ["a deleted test file", { headModules: {}, files: {} }, [[
      "property.module_missing",
      "contracts.yml",
    ]]],
    [
      "a test file turned into a symlink",
      { files: { [LEDGER_TEST]: "symlink" } },
      [["property.module_missing", "contracts.yml"]],
    ],
    [
      "a deleted test function",
      { headModules: { [LEDGER_TEST]: { test_other: {} } } },
      [["property.test_missing", "contracts.yml"]],
    ],
    [
      "a vacuous test",
      {
        headModules: {
          [LEDGER_TEST]: {
            test_apply_contract: {
              vacuity: { reason: "constant", line: 12 },
            },
          },
        },
      },
      [["property.vacuous", LEDGER_TEST]],
    ],
    [
      "a shadowed test",
      {
        headModules: {
          [LEDGER_TEST]: { test_apply_contract: { shadowedLines: [3] } },
        },
      },
      [["property.shadowed", LEDGER_TEST]],
    ],
    [
      "a removed contract whose test is gone too (still checked at base)",
      { head: contractsYml([]), headModules: {}, files: {} },
      [["property.removed", "contracts.yml"], [
        "property.module_missing",
        "contracts.yml",
      ]],
    ],
  ];
  for (const [name, c, expected] of cases) {
    await t.step(name, () => {
      assert.deepEqual(judge(c).map((f) => [f.rule, f.path]), expected);
    });
  }
});

Deno.test("checkSeedContracts() points contract findings at the head file's lines", () => {
  const [f] = judge({
    head: contractsYml([{ ...APPLY_CONTRACT, minTrials: 20 }]),
  });
  assert.equal(f?.line, 6);
  assert.equal(
    f?.message,
    'Contract "ledger.apply.idempotent" min_trials was lowered from 200 to 20: restore the budget',
  );
});

Deno.test("checkSeedContracts() rejects example-only test diffs", async (t) => {
  const modified: ChangedPath[] = [{ status: "M", path: EXAMPLES }];
  const moreExamples: Modules = {
    ...BASE_MODULES,
    [EXAMPLES]: { test_usd: { examples: 1 }, test_eur: { examples: 2 } },
  };
  const newTest: Modules = {
    ...BASE_MODULES,
    [LEDGER_TEST]: {
      test_apply_contract: {},
      test_apply_rejects_dash: { source: "def test_apply_rejects_dash(): ..." },
    },
  };
  const cases: [string, Case, string[]][] = [
    ["no test changes", {}, []],
    [
      "examples added, no contract delta",
      { headModules: moreExamples, changes: modified },
      ["tests.unproven"],
    ],
    [
      "examples added in a new test file",
      {
        headModules: {
          ...BASE_MODULES,
          "billing/ledger_test.py": { t: { examples: 1 } },
        },
        changes: [{ status: "A", path: "billing/ledger_test.py" }],
      },
      ["tests.unproven"],
    ],
    [
      "examples added outside test files",
      {
        headModules: {
          ...BASE_MODULES,
          "billing/ledger.py": { f: { examples: 3 } },
        },
        changes: [{ status: "M", path: "billing/ledger.py" }],
      },
      [],
    ],
    [
      "examples moved to another file",
      {
        baseModules: BASE_MODULES,
        headModules: {
          [LEDGER_TEST]: BASE_MODULES[LEDGER_TEST] ?? {},
          "tests/test_ledger_usd.py": { test_usd: { examples: 1 } },
        },
        changes: [{ status: "D", path: EXAMPLES }, {
          status: "A",
          path: "tests/test_ledger_usd.py",
        }],
      },
      [],
    ],
    [
      "examples removed",
      {
        headModules: { ...BASE_MODULES, [EXAMPLES]: { test_usd: {} } },
        changes: modified,
      },
      [],
    ],
    [
      "examples added with a new public contract",
      {
        head: contractsYml([APPLY_CONTRACT, {
          id: "ledger.apply.rejects_dash",
          function: "billing.ledger.apply",
          test: `${LEDGER_TEST}::test_apply_rejects_dash`,
          minTrials: 50,
        }]),
        headModules: {
          ...moreExamples,
          [LEDGER_TEST]: newTest[LEDGER_TEST] ?? {},
        },
        changes: [...modified, { status: "M", path: LEDGER_TEST }],
      },
      [],
    ],
    [
      "examples added with a raised min_trials",
      {
        head: contractsYml([{ ...APPLY_CONTRACT, minTrials: 400 }]),
        headModules: moreExamples,
        changes: modified,
      },
      [],
    ],
    [
      "examples added with a strengthened contract test",
      {
        headModules: {
          ...moreExamples,
          [LEDGER_TEST]: {
            test_apply_contract: {
              source: "def test_apply_contract(): stronger",
            },
          },
        },
        changes: [...modified, { status: "M", path: LEDGER_TEST }],
      },
      [],
    ],
    [
      "examples added while the contract test was made vacuous",
      {
        headModules: {
          ...moreExamples,
          [LEDGER_TEST]: {
            test_apply_contract: {
              source: "def test_apply_contract(): assert True",
              vacuity: { reason: "constant", line: 10 },
            },
          },
        },
        changes: [...modified, { status: "M", path: LEDGER_TEST }],
      },
      ["property.vacuous", "tests.unproven"],
    ],
    [
      "examples added with a new contract on a private function",
      {
        head: contractsYml([APPLY_CONTRACT, {
          id: "ledger.apply.private",
          function: "billing.ledger._apply",
          test: `${LEDGER_TEST}::test_apply_rejects_dash`,
          minTrials: 50,
        }]),
        headModules: {
          ...moreExamples,
          [LEDGER_TEST]: newTest[LEDGER_TEST] ?? {},
        },
        changes: modified,
      },
      ["property.private_contract", "tests.unproven"],
    ],
  ];
  for (const [name, c, expected] of cases) {
    await t.step(name, () => assert.deepEqual(rules(c), expected));
  }
});

Deno.test("checkSeedContracts() says how many examples an unproven diff adds", () => {
  const [f] = judge({
    headModules: {
      ...BASE_MODULES,
      [EXAMPLES]: {
        test_usd: { examples: 1, line: 3 },
        test_eur: { examples: 2, line: 8 },
      },
    },
    changes: [{ status: "M", path: EXAMPLES }],
  });
  assert.equal(f?.path, EXAMPLES);
  assert.equal(f?.line, 8);
  assert.equal(
    f?.message,
    'Example-only test diff is unproven: the pull request adds 2 example assertions (1 → 3 in 1 changed test file) but adds or strengthens no contract in "contracts.yml"; add a public contract whose predicate can fail on inputs the patch did not hard-code',
  );
});

Deno.test("strengthenedContracts() lists each kind of contract delta", () => {
  const head = contractsYml([{ ...APPLY_CONTRACT, minTrials: 300 }, {
    id: "ledger.apply.rejects_dash",
    function: "billing.ledger.apply",
    test: `${LEDGER_TEST}::test_dash`,
    minTrials: 50,
  }]);
  const found = strengthenedContracts(BASE, head, {
    baseModules: modules(BASE_MODULES),
    headModules: modules({
      [LEDGER_TEST]: {
        test_apply_contract: { source: "def test_apply_contract(): new" },
        test_dash: {},
      },
    }),
  });
  assert.deepEqual(found, [
    {
      kind: "trials_raised",
      id: "ledger.apply.idempotent",
      from: 200,
      to: 300,
    },
    { kind: "test_changed", id: "ledger.apply.idempotent" },
    { kind: "added", id: "ledger.apply.rejects_dash" },
  ]);
});

Deno.test("strengthenedContracts() ignores missing, vacuous and unchanged tests", () => {
  const head = contractsYml([APPLY_CONTRACT, {
    id: "ledger.apply.missing",
    function: "billing.ledger.apply",
    test: `${LEDGER_TEST}::test_missing`,
    minTrials: 50,
  }, {
    id: "ledger.apply.vacuous",
    function: "billing.ledger.apply",
    test: `${LEDGER_TEST}::test_vacuous`,
    minTrials: 50,
  }]);
  const found = strengthenedContracts(BASE, head, {
    baseModules: modules(BASE_MODULES),
    headModules: modules({
      [LEDGER_TEST]: {
        test_apply_contract: {},
        test_vacuous: { vacuity: { reason: "no_assertion", line: 10 } },
      },
    }),
  });
  assert.deepEqual(found, []);
  assert.deepEqual(
    strengthenedContracts(BASE, null, {
      baseModules: new Map(),
      headModules: new Map(),
    }),
    [],
  );
});

Deno.test("checkSeedContracts() judges the freeze file and its base copy", async (t) => {
  const freeze = readFlakeFreeze(SEED_FREEZE);
  const file: FreezeFileState = { kind: "file" };
  const cases: [string, Case, [string, string | undefined][]][] = [
    ["no freeze file on either side", {}, []],
    [
      "an unchanged freeze file that holds on the review day",
      { freeze, freezeFile: { base: file, head: file } },
      [],
    ],
    [
      "a base freeze that has expired by the orchestrator's clock",
      {
        freeze,
        freezeFile: { base: file, head: file },
        now: Date.parse("2026-09-16T12:00:00Z"),
      },
      [["freeze.expired", "flake_freeze.yml"]],
    ],
    [
      "a freeze file the pull request adds",
      { freezeFile: { base: undefined, head: file } },
      [["freeze.file_touched", "flake_freeze.yml"]],
    ],
    [
      "a freeze file listed among the changed paths though its bytes are unknown",
      {
        freeze,
        freezeFile: { base: file, head: file },
        changes: [{ status: "M", path: "flake_freeze.yml" }],
      },
      [["freeze.file_touched", "flake_freeze.yml"]],
    ],
    [
      "another changed path leaves the freeze file untouched",
      {
        freeze,
        freezeFile: { base: file, head: file },
        changes: [{ status: "M", path: "src/billing/ledger.py" }],
      },
      [],
    ],
  ];
  for (const [name, c, expected] of cases) {
    await t.step(name, () => {
      assert.deepEqual(judge(c).map((f) => [f.rule, f.path]), expected);
    });
  }
});

Deno.test("checkSeedContracts() reports at the configured contracts and freeze paths", async (t) => {
  const file: FreezeFileState = { kind: "file" };
  const cases: [string, Case, [string, string | undefined][]][] = [
    [
      "a removed contract names the configured contracts file",
      { head: contractsYml([]), contractsPath: "ci/contracts.yml" },
      [["property.removed", "ci/contracts.yml"]],
    ],
    [
      "a missing contract test names the configured contracts file",
      { headModules: {}, files: {}, contractsPath: "ci/contracts.yml" },
      [["property.module_missing", "ci/contracts.yml"]],
    ],
    [
      "a touched freeze file is found under its configured path",
      {
        freezeFile: { base: file, head: file },
        changes: [{ status: "M", path: "ci/freeze.yml" }],
        freezePath: "ci/freeze.yml",
      },
      [["freeze.file_touched", "ci/freeze.yml"]],
    ],
    [
      "an expired freeze names the configured freeze file",
      {
        freeze: readFlakeFreeze(SEED_FREEZE),
        now: Date.parse("2026-09-16T12:00:00Z"),
        freezePath: "ci/freeze.yml",
      },
      [["freeze.expired", "ci/freeze.yml"]],
    ],
    [
      "the default freeze path is not touched when another is configured",
      {
        changes: [{ status: "M", path: "flake_freeze.yml" }],
        freezePath: "ci/freeze.yml",
      },
      [],
    ],
  ];
  for (const [name, c, expected] of cases) {
    await t.step(name, () => {
      assert.deepEqual(judge(c).map((f) => [f.rule, f.path]), expected);
    });
  }
});

Deno.test("checkSeedContracts() reports an identical finding once, and keeps findings that differ only in their message", async (t) => {
  const twice = contractsYml([
    APPLY_CONTRACT,
    { ...APPLY_CONTRACT, id: "ledger.apply.again" },
  ]);
  await t.step(
    "two contracts on one missing test file, with no head to point at, give one finding each",
    () => {
      const found = judge({
        base: twice,
        head: null,
        headModules: {},
        files: {},
      });
      assert.deepEqual(found.map((f) => [f.rule, f.path, f.line]), [
        ["property.module_missing", "contracts.yml", undefined],
        ["property.module_missing", "contracts.yml", undefined],
      ]);
      assert.match(found[0]?.message ?? "", /"ledger\.apply\.idempotent"/);
      assert.match(found[1]?.message ?? "", /"ledger\.apply\.again"/);
    },
  );
  await t.step("one contract listed twice gives one finding", () => {
    const doubled = { ...BASE, contracts: [APPLY_CONTRACT, APPLY_CONTRACT] };
    const found = judge({
      base: doubled,
      head: doubled,
      headModules: {},
      files: {},
    });
    assert.deepEqual(found.map((f) => f.rule), ["property.module_missing"]);
  });
});

Deno.test("seedContractsReads() lists the contract test files each tree holds as regular files", async (t) => {
  const other = "tests/contracts/test_accounts.py";
  const added = contractsYml([APPLY_CONTRACT, {
    id: "other.holds",
    function: "billing.other.f",
    test: `${other}::test_f`,
    minTrials: 10,
  }]);
  const cases: [
    string,
    SeedContracts | null,
    Record<string, EntryKind>,
    Record<string, EntryKind>,
    { headModules: string[]; baseModules: string[] },
  ][] = [
    [
      "an unchanged contract whose test is a file on both sides",
      BASE,
      { [LEDGER_TEST]: "file" },
      { [LEDGER_TEST]: "file" },
      { headModules: [LEDGER_TEST], baseModules: [LEDGER_TEST] },
    ],
    [
      "an executable test file is read, a symlink or a folder is not",
      BASE,
      { [LEDGER_TEST]: "executable" },
      { [LEDGER_TEST]: "symlink" },
      { headModules: [], baseModules: [LEDGER_TEST] },
    ],
    [
      "a contract the head adds is read from both trees, sorted",
      added,
      { [LEDGER_TEST]: "file" },
      { [other]: "file", [LEDGER_TEST]: "file" },
      { headModules: [other, LEDGER_TEST], baseModules: [LEDGER_TEST] },
    ],
    [
      "a contract the head points at another test file reads that file too",
      contractsYml([{ ...APPLY_CONTRACT, test: `${other}::test_apply` }]),
      { [LEDGER_TEST]: "file" },
      { [other]: "file", [LEDGER_TEST]: "file" },
      { headModules: [other, LEDGER_TEST], baseModules: [LEDGER_TEST] },
    ],
    [
      "a head that cannot be read still reads the base's contract tests",
      null,
      { [LEDGER_TEST]: "file" },
      { [LEDGER_TEST]: "file" },
      { headModules: [LEDGER_TEST], baseModules: [LEDGER_TEST] },
    ],
  ];
  for (const [name, head, base, headFiles, expected] of cases) {
    await t.step(name, () => {
      assert.deepEqual(
        seedContractsReads(BASE, head, treeOf(base), treeOf(headFiles)),
        expected,
      );
    });
  }
});
