import assert from "node:assert/strict";
import { ContractSyntaxError } from "./contract_syntax_error.ts";

Deno.test("ContractSyntaxError names the file, the detail and the line", () => {
  const error = new ContractSyntaxError(
    "tests/agent_contract.yaml",
    'unknown key "notes"',
    { line: 2, column: 1, key: "notes" },
  );
  assert.ok(error instanceof SyntaxError);
  assert.equal(error.name, "ContractSyntaxError");
  assert.equal(
    error.message,
    'Cannot read contract "tests/agent_contract.yaml": unknown key "notes" at line 2',
  );
  assert.equal(error.path, "tests/agent_contract.yaml");
  assert.equal(error.line, 2);
  assert.equal(error.column, 1);
  assert.equal(error.key, "notes");
});

Deno.test("ContractSyntaxError leaves the line out when it is unknown", () => {
  const cause = new Error("inner");
  const error = new ContractSyntaxError("c.yaml", "the file is too large", {
    cause,
  });
  assert.equal(
    error.message,
    'Cannot read contract "c.yaml": the file is too large',
  );
  assert.equal(error.line, undefined);
  assert.equal(error.key, undefined);
  assert.equal(error.cause, cause);
});
