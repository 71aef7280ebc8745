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
