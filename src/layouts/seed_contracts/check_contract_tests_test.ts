import assert from "node:assert/strict";
import type { EntryKind } from "../../git/git.ts";
import type { PythonModule } from "../../python/python_module.ts";
import {
  pyFunction,
  type PyFunctionOptions,
  pyModule,
  treeOf,
} from "./_testing.ts";
import { checkContractTests } from "./check_contract_tests.ts";
import { readContracts, type SeedContracts } from "./read_contracts.ts";

const FILE = "tests/contracts/test_ledger.py";
const PATH = "ci/contracts.yml";

/** One contract `apply` on `test`, read back so its `test` key is line 5. */
function contract(test = `${FILE}::test_apply`): SeedContracts {
  return readContracts(
    `version: 1\ncontracts:\n  - id: apply\n    function: billing.ledger.apply\n    test: ${test}\n    min_trials: 10\n`,
  );
}

interface Case {
  contracts?: SeedContracts;
  kind?: EntryKind | undefined;
  fns?: Record<string, PyFunctionOptions> | undefined;
  syntaxLine?: number;
}

function judge(c: Case) {
  const kind = "kind" in c ? c.kind : "file";
  const fns = "fns" in c ? c.fns : { test_apply: {} };
  const modules = new Map<string, PythonModule>();
  if (fns !== undefined) {
    const module = pyModule(
      ...Object.entries(fns).map(([name, o]) => pyFunction(name, o)),
    );
    if (c.syntaxLine !== undefined) {
      module.syntaxError = { line: c.syntaxLine, column: 1 };
    }
    modules.set(FILE, module);
  }
  return checkContractTests(c.contracts ?? contract(), {
    headTree: treeOf(kind === undefined ? {} : { [FILE]: kind }),
    modules,
    path: PATH,
  });
}

function where(c: Case) {
  return judge(c).map((f) => [f.rule, f.path, f.line]);
}

Deno.test("checkContractTests() needs each contract's test file to be a regular, analysed file at head", async (t) => {
  const missing = [["property.module_missing", PATH, 5]];
  const cases: [string, Case, unknown[]][] = [
    ["a regular file", {}, []],
    ["an executable file", { kind: "executable" }, []],
    ["a symlink", { kind: "symlink" }, missing],
    ["a folder", { kind: "tree" }, missing],
    ["no file at all", { kind: undefined }, missing],
    ["a file the shell did not analyse", { fns: undefined }, missing],
  ];
  for (const [name, c, expected] of cases) {
    await t.step(name, () => assert.deepEqual(where(c), expected));
  }
  await t.step("the finding names the contract and its file", () => {
    assert.match(
      judge({ kind: "symlink" })[0]?.message ?? "",
      /^Contract "apply" test file "tests\/contracts\/test_ledger\.py" is not a regular file at head: /,
    );
  });
});

Deno.test("checkContractTests() needs each contract's test to be defined, and says when the file does not parse", async (t) => {
  const cases: [string, Case, RegExp][] = [
    [
      "a test the file does not define",
      { fns: { test_other: {} } },
      /^Contract "apply" test "test_apply" is not defined in "tests\/contracts\/test_ledger\.py": restore the test/,
    ],
    [
      "a test missing from a file with a syntax error",
      { fns: {}, syntaxLine: 7 },
      /is not defined in "tests\/contracts\/test_ledger\.py" \(the file has a syntax error at line 7\): restore the test/,
    ],
    [
      "a method of a class",
      {
        contracts: contract(`${FILE}::TestLedger::test_apply`),
        fns: { test_apply: {} },
      },
      /^Contract "apply" test "TestLedger\.test_apply" is not defined/,
    ],
  ];
  for (const [name, c, message] of cases) {
    await t.step(name, () => {
      const found = judge(c);
      assert.deepEqual(found.map((f) => [f.rule, f.path, f.line]), [[
        "property.test_missing",
        PATH,
        5,
      ]]);
      assert.match(found[0]?.message ?? "", message);
    });
  }
  await t.step("a method the file defines is found", () => {
    assert.deepEqual(
      where({
        contracts: contract(`${FILE}::TestLedger::test_apply`),
        fns: { "TestLedger.test_apply": {} },
      }),
      [],
    );
  });
});

Deno.test("checkContractTests() rejects a contract test that cannot fail or is defined twice, at its own line", async (t) => {
  const cases: [string, PyFunctionOptions, unknown[], RegExp[]][] = [
    ["a test that can fail", {}, [], []],
    [
      "a test with no assertion",
      { vacuity: { reason: "no_assertion", line: 12 } },
      [["property.vacuous", FILE, 12]],
      [/^Contract "apply" test "tests\/contracts\/test_ledger\.py::test_apply" cannot fail: it has no assertion; /],
    ],
    [
      "a test that asserts a constant",
      { vacuity: { reason: "constant", line: 12 } },
      [["property.vacuous", FILE, 12]],
      [/cannot fail: it only asserts a constant \(such as assert True\); /],
    ],
    [
      "a test that compares an expression with itself",
      { vacuity: { reason: "tautology", line: 12 } },
      [["property.vacuous", FILE, 12]],
      [/cannot fail: it only compares an expression with itself; /],
    ],
    [
      "a test defined again later",
      { shadowedLines: [3], line: 20 },
      [["property.shadowed", FILE, 20]],
      [/test_apply" is defined again at line 20, so pytest runs only the later definition/],
    ],
    ["an empty list of earlier definitions", { shadowedLines: [] }, [], []],
    [
      "a vacuous test defined twice",
      {
        vacuity: { reason: "constant", line: 22 },
        shadowedLines: [3],
        line: 21,
      },
      [["property.vacuous", FILE, 22], ["property.shadowed", FILE, 21]],
      [/cannot fail/, /defined again/],
    ],
  ];
  for (const [name, fn, expected, messages] of cases) {
    await t.step(name, () => {
      const found = judge({ fns: { test_apply: fn } });
      assert.deepEqual(found.map((f) => [f.rule, f.path, f.line]), expected);
      messages.forEach((m, i) => assert.match(found[i]?.message ?? "", m));
    });
  }
});

Deno.test("checkContractTests() judges every contract, past one whose test is missing", () => {
  const two = readContracts(
    `version: 1\ncontracts:\n  - id: gone\n    function: billing.a\n    test: tests/contracts/test_gone.py::test_a\n    min_trials: 1\n  - id: apply\n    function: billing.ledger.apply\n    test: ${FILE}::test_apply\n    min_trials: 10\n`,
  );
  assert.deepEqual(
    where({
      contracts: two,
      fns: { test_apply: { vacuity: { reason: "constant", line: 4 } } },
    }),
    [["property.module_missing", PATH, 5], ["property.vacuous", FILE, 4]],
  );
});
