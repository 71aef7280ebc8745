import assert from "node:assert/strict";
import { z } from "zod";
import { entryLines, readYamlSchema } from "./_read_yaml_schema.ts";
import { parseYamlDocument } from "../../contract/parse_yaml_document.ts";
import { ContractSyntaxError } from "../../contract/contract_syntax_error.ts";

const TEXT = `version: 1
contracts:
  - id: first
    min_trials: 10
  - id: second
    min_trials: 20
`;

Deno.test("readYamlSchema() gives the schema null for an empty document, or the empty value it is given", () => {
  const path = "x.yml";
  assert.equal(readYamlSchema("# empty\n", z.null(), { path }).data, null);
  assert.deepEqual(
    readYamlSchema("# empty\n", z.object({}), { path, emptyValue: {} }).data,
    {},
  );
  assert.deepEqual(
    readYamlSchema("a: 1\n", z.object({ a: z.number() }), {
      path,
      emptyValue: {},
    }).data,
    { a: 1 },
  );
});

Deno.test("readYamlSchema() refuses a file over the size it is given", () => {
  assert.equal(
    readYamlSchema(TEXT, z.unknown(), { path: "x.yml" }).doc.lineOf([
      "version",
    ]),
    1,
  );
  assert.throws(
    () => readYamlSchema(TEXT, z.unknown(), { path: "x.yml", maxBytes: 8 }),
    ContractSyntaxError,
  );
});

Deno.test("entryLines() finds each entry by its id, and a top-level key by name", () => {
  const lines = entryLines(
    parseYamlDocument(TEXT, "contracts.yml"),
    "contracts",
    ["first", "second"],
  );
  assert.equal(lines.key("contracts"), 2);
  assert.equal(lines.entry("first"), 3);
  assert.equal(lines.entry("second"), 5);
  assert.equal(lines.entry("second", "min_trials"), 6);
  assert.equal(lines.entry("third"), undefined);
});

Deno.test("readYamlSchema() refuses a document its schema rejects, naming the key, the value, the line and the key it was meant to be", async (t) => {
  const schema = z.strictObject({
    version: z.literal(1),
    contracts: z.array(
      z.strictObject({ id: z.string(), min_trials: z.int() }),
    ),
  });
  const cases: [string, string, string, number][] = [
    [
      "a value of the wrong type",
      TEXT.replace("min_trials: 20", 'min_trials: "20"'),
      'Cannot read contract "contracts.yml": "contracts[1].min_trials" must be an integer, not "20" at line 6',
      6,
    ],
    [
      "a misspelt key",
      TEXT.replace("min_trials: 10", "min_trial: 10"),
      'Cannot read contract "contracts.yml": unknown key "contracts[0].min_trial" at line 4; did you mean "min_trials"?',
      4,
    ],
  ];
  for (const [name, text, message, line] of cases) {
    await t.step(name, () => {
      assert.throws(
        () => readYamlSchema(text, schema, { path: "contracts.yml" }),
        (error: unknown) => {
          assert.ok(error instanceof ContractSyntaxError);
          assert.equal(error.message, message);
          assert.equal(error.line, line);
          return true;
        },
      );
    });
  }
});
