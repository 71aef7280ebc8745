import assert from "node:assert/strict";
import { ContractSyntaxError } from "../../contract/contract_syntax_error.ts";
import {
  CONTRACT,
  edit,
  INVOICE_SHA,
  refusal,
  SEED_CONTRACT,
} from "./_testing.ts";
import {
  AGENT_CONTRACT_PATH,
  readAgentContract,
} from "./read_agent_contract.ts";
import { AGENT_CONTRACT_FILE } from "./agent_contract_dialect.ts";
import { loadYamlParser } from "../../contract/parse_yaml_document.ts";

// These texts include ones only the full YAML parser reads.
await loadYamlParser();

Deno.test("readAgentContract() reads the seed's example contract", () => {
  const contract = readAgentContract(SEED_CONTRACT, { path: CONTRACT });
  assert.equal(contract.version, 1);
  assert.deepEqual(contract.properties, [
    {
      id: "parse_rejects_empty",
      module: "tests.properties.test_parse",
      name: "test_empty_input_raises",
      minExamples: 40,
    },
    {
      id: "roundtrip_stable",
      module: "tests.properties.test_codec",
      name: "test_decode_encode_identity",
      minExamples: 80,
    },
  ]);
  assert.deepEqual(contract.fixtures, [{
    id: "invoice_v3",
    path: "tests/fixtures/invoice_v3.json",
    sha256: INVOICE_SHA,
    unlock: null,
  }]);
  assert.deepEqual(contract.freezes, [{
    id: "test_report_render_flaky",
    owner: "oncall-payments",
    reason: "clock skew in renderer; tracked as PAY-4412",
    expires: "2026-09-22T00:00:00Z",
    remainingReruns: 2,
  }]);
  assert.equal(contract.maxActiveFreezes, 3);
});

Deno.test("readAgentContract() keeps the lines of keys and entries by id", () => {
  const { lines } = readAgentContract(SEED_CONTRACT, { path: CONTRACT });
  assert.equal(lines.key("version"), 2);
  assert.equal(lines.key("properties"), 3);
  assert.equal(lines.key("max_active_freezes"), 23);
  assert.equal(lines.key("notes"), undefined);
  assert.equal(lines.entry("properties", "roundtrip_stable"), 8);
  assert.equal(
    lines.entry("properties", "roundtrip_stable", "min_examples"),
    11,
  );
  assert.equal(lines.entry("fixtures", "invoice_v3", "sha256"), 15);
  assert.equal(
    lines.entry("freezes", "test_report_render_flaky", "expires"),
    21,
  );
  assert.equal(lines.entry("freezes", "nope"), undefined);
  assert.equal(lines.entry("fixtures", "invoice_v3", "nope"), undefined);
});

Deno.test("readAgentContract() reads optional keys", async (t) => {
  await t.step(
    "a contract with only a version is empty, with a cap of 0",
    () => {
      const contract = readAgentContract("version: 1\n", { path: CONTRACT });
      assert.deepEqual(
        [contract.properties, contract.fixtures, contract.freezes],
        [[], [], []],
      );
      assert.equal(contract.maxActiveFreezes, 0);
    },
  );
  await t.step("null sections are empty", () => {
    const contract = readAgentContract(
      "version: 1\nproperties: null\nfixtures:\nfreezes: []\n",
      { path: CONTRACT },
    );
    assert.deepEqual(
      [contract.properties, contract.fixtures, contract.freezes],
      [[], [], []],
    );
  });
  await t.step("an absent unlock is null", () => {
    const contract = readAgentContract(edit("    unlock: null\n", ""), {
      path: CONTRACT,
    });
    assert.equal(contract.fixtures[0]?.unlock, null);
  });
  await t.step(
    "a blank, null or absent owner or reason is read as empty (a finding, not an error)",
    () => {
      const contract = readAgentContract(
        edit('    owner: "oncall-payments"\n', "").replace(
          'reason: "clock skew in renderer; tracked as PAY-4412"',
          "reason: null",
        ),
        { path: CONTRACT },
      );
      assert.equal(contract.freezes[0]?.owner, "");
      assert.equal(contract.freezes[0]?.reason, "");
    },
  );
  await t.step(
    "unsafe fixture paths are read (a finding, not an error)",
    () => {
      const contract = readAgentContract(
        edit("path: tests/fixtures/invoice_v3.json", 'path: "../etc/passwd"'),
        { path: CONTRACT },
      );
      assert.equal(contract.fixtures[0]?.path, "../etc/passwd");
    },
  );
  await t.step(
    "an unquoted expiry stays a string (YAML 1.2 core schema)",
    () => {
      const contract = readAgentContract(
        edit('"2026-09-22T00:00:00Z"', "2026-09-22T00:00:00Z"),
        { path: CONTRACT },
      );
      assert.equal(contract.freezes[0]?.expires, "2026-09-22T00:00:00Z");
    },
  );
});

Deno.test("readAgentContract() refuses", async (t) => {
  const cases: {
    name: string;
    text: string;
    message: string;
    key?: string;
  }[] = [
    {
      name: "an unknown top-level key, naming it and its line",
      text: edit("version: 1\n", "version: 1\nnotes: hidden policy\n"),
      message:
        `Cannot read contract "${CONTRACT}": unknown key "notes" at line 3`,
      key: "notes",
    },
    {
      name: "an unknown key inside an entry",
      text: edit("    unlock: null\n", "    unlock: null\n    trusted: true\n"),
      message:
        `Cannot read contract "${CONTRACT}": unknown key "fixtures[0].trusted" at line 17`,
      key: "fixtures[0].trusted",
    },
    {
      name: "a misspelt key, suggesting the key it is close to",
      text: edit("min_examples: 80", "min_example: 80"),
      message:
        `Cannot read contract "${CONTRACT}": unknown key "properties[1].min_example" at line 11; did you mean "min_examples"?`,
      key: "properties[1].min_example",
    },
    {
      name: "a wrong type, naming the key path",
      text: edit("min_examples: 80", "min_examples: lots"),
      message:
        `Cannot read contract "${CONTRACT}": "properties[1].min_examples" must be an integer, not "lots" at line 11`,
      key: "properties[1].min_examples",
    },
    {
      name: "a min_examples below 1",
      text: edit("min_examples: 80", "min_examples: 0"),
      message:
        `Cannot read contract "${CONTRACT}": "properties[1].min_examples" must be an integer of at least 1, not 0 at line 11`,
    },
    {
      name: "a fractional min_examples",
      text: edit("min_examples: 80", "min_examples: 79.5"),
      message:
        `Cannot read contract "${CONTRACT}": "properties[1].min_examples" must be an integer, not 79.5 at line 11`,
    },
    {
      name: "a missing version",
      text: edit("version: 1\n", ""),
      message:
        `Cannot read contract "${CONTRACT}": missing key "version" at line 2`,
      key: "version",
    },
    {
      name: "version 2",
      text: edit("version: 1", "version: 2"),
      message:
        `Cannot read contract "${CONTRACT}": "version" must be 1, not 2 at line 2`,
    },
    {
      name: 'version "1" as a string',
      text: edit("version: 1", 'version: "1"'),
      message:
        `Cannot read contract "${CONTRACT}": "version" must be 1, not "1" at line 2`,
    },
    {
      name: "a missing key inside an entry, at the entry's line",
      text: edit("    min_examples: 40\n", ""),
      message:
        `Cannot read contract "${CONTRACT}": missing key "properties[0].min_examples" at line 4`,
    },
    {
      name: "a section that is not a list",
      text: edit("fixtures:\n", "fixtures: {}\nx:\n"),
      message:
        `Cannot read contract "${CONTRACT}": "fixtures" must be a list, not a mapping at line 12`,
    },
    {
      name: "a digest that is not 64 lowercase hex digits",
      text: edit(INVOICE_SHA, INVOICE_SHA.toUpperCase()),
      message:
        `Cannot read contract "${CONTRACT}": "fixtures[0].sha256" must be 64 lowercase hexadecimal digits at line 15`,
    },
    {
      name: "an expiry that is not RFC 3339",
      text: edit('"2026-09-22T00:00:00Z"', '"next friday"'),
      message:
        `Cannot read contract "${CONTRACT}": "freezes[0].expires" must be an RFC 3339 date-time such as 2026-09-22T00:00:00Z at line 21`,
    },
    {
      name: "an expiry without an offset",
      text: edit('"2026-09-22T00:00:00Z"', '"2026-09-22T00:00:00"'),
      message:
        `Cannot read contract "${CONTRACT}": "freezes[0].expires" must be an RFC 3339 date-time such as 2026-09-22T00:00:00Z at line 21`,
    },
    {
      name: "negative reruns",
      text: edit("remaining_reruns: 2", "remaining_reruns: -1"),
      message:
        `Cannot read contract "${CONTRACT}": "freezes[0].remaining_reruns" must be an integer of at least 0, not -1 at line 22`,
    },
    {
      name: "a negative max_active_freezes",
      text: edit("max_active_freezes: 3", "max_active_freezes: -1"),
      message:
        `Cannot read contract "${CONTRACT}": "max_active_freezes" must be an integer of at least 0, not -1 at line 23`,
    },
    {
      name: "freezes without max_active_freezes",
      text: edit("max_active_freezes: 3\n", ""),
      message:
        `Cannot read contract "${CONTRACT}": missing key "max_active_freezes", required when "freezes" is not empty at line 2`,
    },
    {
      name: "a module that is not a dotted name",
      text: edit(
        "module: tests.properties.test_codec",
        "module: tests/properties/test_codec.py",
      ),
      message:
        `Cannot read contract "${CONTRACT}": "properties[1].module" must be a dotted Python module name such as tests.properties.test_parse at line 9`,
    },
    {
      name: "a blank id",
      text: edit("id: invoice_v3", 'id: " "'),
      message:
        `Cannot read contract "${CONTRACT}": "fixtures[0].id" must be a non-blank id without surrounding spaces at line 13`,
    },
    {
      name: "duplicate property ids",
      text: edit("id: roundtrip_stable", "id: parse_rejects_empty"),
      message:
        `Cannot read contract "${CONTRACT}": duplicate id "parse_rejects_empty" in "properties" at line 8`,
      key: "properties[1].id",
    },
    {
      name: "duplicate fixture ids",
      text: edit(
        "freezes:\n",
        `  - id: invoice_v3\n    path: tests/fixtures/b.json\n    sha256: ${INVOICE_SHA}\nfreezes:\n`,
      ),
      message:
        `Cannot read contract "${CONTRACT}": duplicate id "invoice_v3" in "fixtures" at line 17`,
    },
    {
      name: "duplicate keys",
      text: edit(
        "    min_examples: 80\n",
        "    min_examples: 80\n    min_examples: 8\n",
      ),
      message:
        `Cannot read contract "${CONTRACT}": duplicate key "min_examples" at line 12`,
    },
    {
      name: "an alias",
      text: edit(
        "max_active_freezes: 3",
        "max_active_freezes: &cap 3\nextra: *cap",
      ),
      message:
        `Cannot read contract "${CONTRACT}": aliases are not allowed (found "*cap") at line 24`,
    },
    {
      name: "an anchor",
      text: edit("max_active_freezes: 3", "max_active_freezes: &cap 3"),
      message:
        `Cannot read contract "${CONTRACT}": anchors are not allowed (found "&cap") at line 23`,
    },
    {
      name: "a YAML syntax error, at its line",
      text: edit("    min_examples: 40\n", "    min_examples: [40\n"),
      message: `Cannot read contract "${CONTRACT}": invalid YAML: `,
    },
    {
      name: "an empty file",
      text: "",
      message:
        `Cannot read contract "${CONTRACT}": the file is empty at line 1`,
    },
    {
      name: "a list at the top level",
      text: "- version: 1\n",
      message:
        `Cannot read contract "${CONTRACT}": the file must be a mapping, not a list at line 1`,
    },
  ];
  for (const c of cases) {
    await t.step(c.name, () => {
      const error = refusal(c.text);
      if (c.message.endsWith(": ")) {
        assert.ok(error.message.startsWith(c.message), error.message);
        assert.equal(typeof error.line, "number");
      } else {
        assert.equal(error.message, c.message);
      }
      if (c.key !== undefined) assert.equal(error.key, c.key);
    });
  }
});

Deno.test("readAgentContract() refuses oversized input", () => {
  assert.throws(
    () =>
      readAgentContract(SEED_CONTRACT, {
        path: CONTRACT,
        maxBytes: 100,
      }),
    (error) =>
      error instanceof ContractSyntaxError &&
      /larger than the 100-byte limit/.test(error.message),
  );
});

Deno.test("readAgentContract()'s path is the file the seed 000 layout reads", () => {
  assert.equal(AGENT_CONTRACT_PATH, AGENT_CONTRACT_FILE);
  assert.equal(AGENT_CONTRACT_PATH, "tests/agent_contract.yaml");
});
