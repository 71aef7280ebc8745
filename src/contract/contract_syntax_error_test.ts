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

Deno.test("ContractSyntaxError puts the line after the words it is told to, or at the end", async (t) => {
  const cases: [string, string, string | undefined, string][] = [
    [
      "at the end",
      "value undefined here",
      undefined,
      "value undefined here at line 3",
    ],
    [
      "after words in the middle",
      "key a: must be set",
      "key a",
      "key a at line 3: must be set",
    ],
    ["after words that open the detail", "foo bar", "foo", "foo at line 3 bar"],
    [
      "at the end when the words are not there",
      "foo bar",
      "baz",
      "foo bar at line 3",
    ],
  ];
  for (const [name, detail, lineAfter, located] of cases) {
    await t.step(name, () => {
      const error = new ContractSyntaxError("x.yml", detail, {
        line: 3,
        ...(lineAfter === undefined ? {} : { lineAfter }),
      });
      assert.equal(error.message, `Cannot read contract "x.yml": ${located}`);
    });
  }
});

Deno.test("ContractSyntaxError adds its hint after the detail, and the subject it names", () => {
  const error = new ContractSyntaxError("x.toml", "unknown key", {
    hint: 'did you mean "name"?',
    subject: "configuration",
  });
  assert.equal(
    error.message,
    'Cannot read configuration "x.toml": unknown key; did you mean "name"?',
  );
  const cause = new Error("underneath");
  assert.equal(new ContractSyntaxError("x", "d", { cause }).cause, cause);
});
