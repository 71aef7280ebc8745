import assert from "node:assert/strict";
import { loadYamlParser } from "../../contract/parse_yaml_document.ts";
import { CONTRACT, edit, INVOICE_SHA, refusal } from "./_testing.ts";
import { readAgentContract } from "./read_agent_contract.ts";

// Some texts below are ones only the full YAML parser reads.
await loadYamlParser();

const SECOND_FREEZE = `  - id: test_report_render_flaky
    owner: "oncall-payments"
    reason: "the same test again"
    expires: "2026-09-22T00:00:00Z"
    remaining_reruns: 1
`;

/** A refusal case: the contract's text, the message's detail and the key named. */
interface RefusalCase {
  name: string;
  text: string;
  detail: string;
  key: string;
}

/** Each case's text is refused with its detail, naming its key. */
async function refusesEach(t: Deno.TestContext, cases: RefusalCase[]) {
  for (const c of cases) {
    await t.step(c.name, () => {
      const error = refusal(c.text);
      assert.equal(
        error.message,
        `Cannot read contract "${CONTRACT}": ${c.detail}`,
      );
      assert.equal(error.key, c.key);
    });
  }
}

Deno.test("agentContractSchema refuses a malformed entry, naming the file, the key, its line and what is expected", async (t) => {
  const cases: RefusalCase[] = [
    {
      name: "an id with a leading space",
      text: edit("id: invoice_v3", 'id: " invoice_v3"'),
      detail:
        '"fixtures[0].id" must be a non-blank id without surrounding spaces at line 13',
      key: "fixtures[0].id",
    },
    {
      name: "an id with a trailing space",
      text: edit("id: roundtrip_stable", 'id: "roundtrip_stable "'),
      detail:
        '"properties[1].id" must be a non-blank id without surrounding spaces at line 8',
      key: "properties[1].id",
    },
    {
      name: "an id with a control character inside",
      text: edit("id: test_report_render_flaky", 'id: "test_report\\tflaky"'),
      detail:
        '"freezes[0].id" must be a non-blank id without surrounding spaces at line 18',
      key: "freezes[0].id",
    },
    {
      name: "a module written as a file path",
      text: edit(
        "module: tests.properties.test_codec",
        "module: tests/properties/test_codec.py",
      ),
      detail:
        '"properties[1].module" must be a dotted Python module name such as tests.properties.test_parse at line 9',
      key: "properties[1].module",
    },
    {
      name: "a test name that is not a Python identifier",
      text: edit(
        "name: test_empty_input_raises",
        "name: test-empty-input-raises",
      ),
      detail:
        '"properties[0].name" must be a test function name such as test_x or Class.test_x at line 6',
      key: "properties[0].name",
    },
    {
      name: "a digest of 65 hex digits",
      text: edit(`sha256: ${INVOICE_SHA}`, `sha256: 0${INVOICE_SHA}`),
      detail:
        '"fixtures[0].sha256" must be 64 lowercase hexadecimal digits at line 15',
      key: "fixtures[0].sha256",
    },
    {
      name: "an expiry that is not a date-time",
      text: edit('"2026-09-22T00:00:00Z"', '"next friday"'),
      detail:
        '"freezes[0].expires" must be an RFC 3339 date-time such as 2026-09-22T00:00:00Z at line 21',
      key: "freezes[0].expires",
    },
  ];
  await refusesEach(t, cases);
});

Deno.test("agentContractSchema refuses an id repeated within a section, at the repeat's line", async (t) => {
  const cases: RefusalCase[] = [
    {
      name: "a repeated property id",
      text: edit("id: roundtrip_stable", "id: parse_rejects_empty"),
      detail: 'duplicate id "parse_rejects_empty" in "properties" at line 8',
      key: "properties[1].id",
    },
    {
      name: "a repeated fixture id",
      text: edit(
        "freezes:\n",
        `  - id: invoice_v3\n    path: tests/fixtures/b.json\n    sha256: ${INVOICE_SHA}\nfreezes:\n`,
      ),
      detail: 'duplicate id "invoice_v3" in "fixtures" at line 17',
      key: "fixtures[1].id",
    },
    {
      name: "a repeated freeze id",
      text: edit(
        "max_active_freezes: 3\n",
        SECOND_FREEZE + "max_active_freezes: 3\n",
      ),
      detail: 'duplicate id "test_report_render_flaky" in "freezes" at line 23',
      key: "freezes[1].id",
    },
    {
      name: "an id that differs from an earlier one only in case",
      text: edit("id: roundtrip_stable", "id: Parse_Rejects_Empty"),
      detail:
        'duplicate id "Parse_Rejects_Empty" (it reads as "parse_rejects_empty", an earlier id) in "properties" at line 8',
      key: "properties[1].id",
    },
  ];
  await refusesEach(t, cases);
});

Deno.test("agentContractSchema refuses freezes listed without max_active_freezes", () => {
  const error = refusal(edit("max_active_freezes: 3\n", ""));
  assert.equal(
    error.message,
    `Cannot read contract "${CONTRACT}": missing key "max_active_freezes", required when "freezes" is not empty at line 2`,
  );
  assert.equal(error.key, "max_active_freezes");
});

Deno.test("agentContractSchema accepts", async (t) => {
  const cases: { name: string; text: string }[] = [
    {
      name: "a one-character id",
      text: edit("id: invoice_v3", "id: i"),
    },
    {
      name: "an id with spaces inside",
      text: edit("id: invoice_v3", 'id: "invoice v3"'),
    },
    {
      name: "the same id in two sections",
      text: edit("id: invoice_v3", "id: parse_rejects_empty"),
    },
    {
      name: "a method of a test class as the test name",
      text: edit(
        "name: test_empty_input_raises",
        "name: TestParse.test_empty_input_raises",
      ),
    },
    {
      name: "the smallest bounds: min_examples 1, remaining_reruns 0",
      text: edit("min_examples: 40", "min_examples: 1").replace(
        "remaining_reruns: 2",
        "remaining_reruns: 0",
      ),
    },
    {
      name: "max_active_freezes 0 with no freezes",
      text: "version: 1\nfreezes: []\nmax_active_freezes: 0\n",
    },
    {
      name: "no max_active_freezes when freezes is empty",
      text: "version: 1\nfreezes: []\n",
    },
    {
      name: "no max_active_freezes when freezes is null",
      text: "version: 1\nfreezes: null\n",
    },
    {
      name: "no max_active_freezes when freezes is absent",
      text: "version: 1\nproperties: []\n",
    },
  ];
  for (const c of cases) {
    await t.step(c.name, () => {
      readAgentContract(c.text, { path: CONTRACT });
    });
  }
});
