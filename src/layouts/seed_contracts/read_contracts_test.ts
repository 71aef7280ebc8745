import assert from "node:assert/strict";
import { ContractSyntaxError } from "../../contract/contract_syntax_error.ts";
import { SEED_CONTRACTS } from "./_testing.ts";
import { CONTRACTS_PATH, readContracts } from "./read_contracts.ts";
import { loadYamlParser } from "../../contract/parse_yaml_document.ts";

// These texts include ones only the full YAML parser reads.
await loadYamlParser();

function refusal(text: string): ContractSyntaxError {
  try {
    readContracts(text);
  } catch (error) {
    assert.ok(error instanceof ContractSyntaxError);
    assert.equal(error.path, CONTRACTS_PATH);
    assert.ok(
      error.message.startsWith(`Cannot read contract "${CONTRACTS_PATH}": `),
      error.message,
    );
    return error;
  }
  assert.fail("expected the file to be refused");
}

function edit(from: string, to: string): string {
  assert.equal(SEED_CONTRACTS.split(from).length, 2, `one ${from}`);
  return SEED_CONTRACTS.replace(from, to);
}

Deno.test("readContracts() reads the design's example contract", () => {
  const file = readContracts(SEED_CONTRACTS);
  assert.equal(file.version, 1);
  assert.deepEqual(file.contracts, [{
    id: "ledger.apply.idempotent",
    function: "billing.ledger.apply",
    test: "tests/contracts/test_ledger_contracts.py::test_apply_contract",
    minTrials: 200,
  }]);
  assert.equal(file.lines.key("contracts"), 2);
  assert.equal(file.lines.entry("ledger.apply.idempotent"), 3);
  assert.equal(file.lines.entry("ledger.apply.idempotent", "min_trials"), 6);
  assert.equal(file.lines.entry("nope"), undefined);
});

Deno.test("readContracts() reads absent or null contracts as none", async (t) => {
  for (const text of ["version: 1\n", "version: 1\ncontracts:\n"]) {
    await t.step(JSON.stringify(text), () => {
      assert.deepEqual(readContracts(text).contracts, []);
    });
  }
});

Deno.test("readContracts() accepts class methods as contract tests", () => {
  const file = readContracts(edit(
    "::test_apply_contract",
    "::TestLedger::test_apply_contract",
  ));
  assert.equal(
    file.contracts[0]?.test,
    "tests/contracts/test_ledger_contracts.py::TestLedger::test_apply_contract",
  );
});

Deno.test("readContracts() refuses malformed files, naming the key and line", async (t) => {
  const cases: [string, string, string, number][] = [
    [
      "a missing version",
      SEED_CONTRACTS.replace("version: 1\n", ""),
      'missing key "version"',
      1,
    ],
    [
      "version 2",
      edit("version: 1", "version: 2"),
      '"version" must be 1, not 2',
      1,
    ],
    ["an empty file", "", "the file is empty", 1],
    [
      "an unknown top-level key",
      SEED_CONTRACTS + "notes: x\n",
      'unknown key "notes"',
      7,
    ],
    [
      "an unknown contract key",
      edit("    min_trials: 200\n", "    min_trials: 200\n    skip: true\n"),
      'unknown key "contracts[0].skip"',
      7,
    ],
    [
      "min_trials as a string",
      edit("min_trials: 200", 'min_trials: "200"'),
      '"contracts[0].min_trials" must be an integer, not "200"',
      6,
    ],
    [
      "min_trials 0",
      edit("min_trials: 200", "min_trials: 0"),
      '"contracts[0].min_trials" must be an integer of at least 1, not 0',
      6,
    ],
    [
      "min_trials 1.5",
      edit("min_trials: 200", "min_trials: 1.5"),
      '"contracts[0].min_trials" must be an integer, not 1.5',
      6,
    ],
    [
      "a missing min_trials",
      edit("    min_trials: 200\n", ""),
      'missing key "contracts[0].min_trials"',
      3,
    ],
    [
      "contracts as a mapping",
      "version: 1\ncontracts:\n  a: 1\n",
      '"contracts" must be a list, not a mapping',
      2,
    ],
    [
      "a function without a module",
      edit("function: billing.ledger.apply", "function: apply"),
      '"contracts[0].function" must be a dotted function path such as billing.ledger.apply',
      4,
    ],
    [
      "a test without a function",
      edit("::test_apply_contract", ""),
      '"contracts[0].test" must be a pytest node id',
      5,
    ],
    [
      "a test path with ..",
      edit("tests/contracts/", "tests/../"),
      '"contracts[0].test" must be a pytest node id',
      5,
    ],
    [
      "a parametrized test id",
      edit("::test_apply_contract", "::test_apply_contract[1]"),
      '"contracts[0].test" must be a pytest node id',
      5,
    ],
    [
      "a blank id",
      edit("id: ledger.apply.idempotent", 'id: " "'),
      '"contracts[0].id" must be a non-blank id',
      3,
    ],
    [
      "an id with a leading space",
      edit("id: ledger.apply.idempotent", 'id: " ledger.apply.idempotent"'),
      '"contracts[0].id" must be a non-blank id without surrounding spaces',
      3,
    ],
    [
      "an id with a trailing space",
      edit("id: ledger.apply.idempotent", 'id: "ledger.apply.idempotent "'),
      '"contracts[0].id" must be a non-blank id without surrounding spaces',
      3,
    ],
    [
      "a duplicate id",
      SEED_CONTRACTS + SEED_CONTRACTS.split("contracts:\n")[1],
      'duplicate id "ledger.apply.idempotent" in "contracts"',
      7,
    ],
    [
      "a duplicate key",
      edit("    min_trials: 200\n", "    min_trials: 200\n    min_trials: 1\n"),
      'duplicate key "min_trials"',
      7,
    ],
  ];
  for (const [name, text, detail, line] of cases) {
    await t.step(`refuses ${name}`, () => {
      const error = refusal(text);
      assert.ok(
        error.detail.startsWith(detail),
        `${error.detail} should start with ${detail}`,
      );
      assert.equal(error.line, line);
    });
  }
});

Deno.test("readContracts() names the path it is given and refuses a file over the size it is given", () => {
  assert.throws(
    () => readContracts("version: 2\n", { path: "other/contracts.yml" }),
    (error: unknown) =>
      error instanceof ContractSyntaxError &&
      error.path === "other/contracts.yml",
  );
  assert.equal(readContracts(SEED_CONTRACTS).contracts.length > 0, true);
  assert.throws(
    () => readContracts(SEED_CONTRACTS, { maxBytes: 16 }),
    ContractSyntaxError,
  );
});

Deno.test("readContracts() accepts an id of one character and an id with spaces inside it", async (t) => {
  for (const id of ["c", "ledger apply idempotent"]) {
    await t.step(JSON.stringify(id), () => {
      const file = readContracts(
        edit("id: ledger.apply.idempotent", `id: ${JSON.stringify(id)}`),
      );
      assert.deepEqual(file.contracts.map((c) => c.id), [id]);
    });
  }
});

Deno.test("readContracts() points a repeated id at that id's own key and line, not at its entry", () => {
  const text = SEED_CONTRACTS +
    "  - function: billing.ledger.apply\n" +
    "    test: tests/contracts/test_ledger_contracts.py::test_apply_twice\n" +
    "    id: ledger.apply.idempotent\n" +
    "    min_trials: 10\n";
  const error = refusal(text);
  assert.equal(error.key, "contracts[1].id");
  assert.equal(error.line, 9);
  assert.equal(
    error.message,
    'Cannot read contract "contracts.yml": duplicate id "ledger.apply.idempotent" in "contracts" at line 9',
  );
});
