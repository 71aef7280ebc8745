import assert from "node:assert/strict";
import { contractTestRef, FUNCTION_PATTERN } from "./contract_test_ref.ts";
import { isPrivateFunction } from "./is_private_function.ts";
import { isTestFile } from "./is_test_file.ts";

Deno.test("contractTestRef() splits a node id into file, module and qualname", async (t) => {
  const cases: [string, string, string, string][] = [
    [
      "tests/contracts/test_ledger_contracts.py::test_apply_contract",
      "tests/contracts/test_ledger_contracts.py",
      "tests.contracts.test_ledger_contracts",
      "test_apply_contract",
    ],
    [
      "tests/test_l.py::TestLedger::test_apply",
      "tests/test_l.py",
      "tests.test_l",
      "TestLedger.test_apply",
    ],
    [
      "test_top.py::TestA::TestB::test_c",
      "test_top.py",
      "test_top",
      "TestA.TestB.test_c",
    ],
  ];
  for (const [id, file, module, name] of cases) {
    await t.step(id, () => {
      assert.deepEqual(contractTestRef(id), { file, module, name });
    });
  }
});

Deno.test("contractTestRef() refuses what is not a plain node id", async (t) => {
  for (
    const id of [
      "tests/test_a.py",
      "tests/test_a.py::",
      "/abs/test_a.py::test_a",
      "tests/../test_a.py::test_a",
      "tests/test_a.py::test_a[1]",
      "--collect-only",
    ]
  ) {
    await t.step(id, () => {
      assert.throws(
        () => contractTestRef(id),
        (error: unknown) =>
          error instanceof RangeError &&
          error.message.includes(JSON.stringify(id)) &&
          error.message.includes('"path/to/test_x.py::test_fn"'),
      );
    });
  }
});

Deno.test("FUNCTION_PATTERN takes a dotted path of a module and a name, and nothing less", async (t) => {
  const cases: [string, boolean][] = [
    ["billing.ledger.apply", true],
    ["billing.ledger.Ledger.apply", true],
    ["m.f", true],
    ["_private.f_2", true],
    ["apply", false],
    ["billing..apply", false],
    ["billing.ledger.", false],
    ["1billing.apply", false],
    ["billing.ledger-x.apply", false],
    ["billing.apply()", false],
    ["", false],
  ];
  for (const [path, taken] of cases) {
    await t.step(
      JSON.stringify(path),
      () => assert.equal(FUNCTION_PATTERN.test(path), taken),
    );
  }
});

Deno.test("isPrivateFunction() flags any segment starting with an underscore", async (t) => {
  const cases: [string, boolean][] = [
    ["billing.ledger.apply", false],
    ["billing.ledger.Ledger.apply", false],
    ["billing.ledger._apply", true],
    ["billing._ledger.apply", true],
    ["billing.ledger.Ledger.__call__", true],
    ["billing.ledger.apply_", false],
  ];
  for (const [dotted, expected] of cases) {
    await t.step(`${dotted}: ${expected ? "private" : "public"}`, () => {
      assert.equal(isPrivateFunction(dotted), expected);
    });
  }
});

Deno.test("isTestFile() follows the tests folder and pytest's file patterns", async (t) => {
  const cases: [string, boolean][] = [
    ["tests/test_ledger.py", true],
    ["tests/contracts/helpers.py", true],
    ["pkg/tests/conftest.py", true],
    ["billing/test_ledger.py", true],
    ["billing/ledger_test.py", true],
    ["billing/ledger.py", false],
    ["billing/testing.py", false],
    ["test_.py", false],
    ["test_a.py", true],
    ["_test.py", false],
    ["a_test.py", true],
    ["billing/tests.py", false],
    ["tests/test_a.pyc", false],
    ["tests/data.json", false],
    ["tests_old/ledger.py", false],
  ];
  for (const [path, expected] of cases) {
    await t.step(`${path}: ${expected}`, () => {
      assert.equal(isTestFile(path), expected);
    });
  }
});
