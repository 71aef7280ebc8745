import assert from "node:assert/strict";
import { ContractSyntaxError } from "../contract/contract_syntax_error.ts";
import { CONTRACT, SEED_CONTRACT } from "./agent_contract/_testing.ts";
import { readAgentContract } from "./agent_contract/read_agent_contract.ts";
import { readFreezeList } from "./invariants/read_freeze_list.ts";
import { readPropertyRegistry } from "./invariants/read_property_registry.ts";
import { SEED_CONTRACTS } from "./seed_contracts/_testing.ts";
import { readContracts } from "./seed_contracts/read_contracts.ts";

function messageOf(read: () => unknown): string {
  try {
    read();
  } catch (error) {
    assert.ok(error instanceof ContractSyntaxError, String(error));
    return error.message;
  }
  assert.fail("expected a refusal");
}

Deno.test("every contract reader answers a misspelt key with the known one", async (t) => {
  await t.step("tests/agent_contract.yaml", () => {
    const text = SEED_CONTRACT.replace("min_examples: 80", "min_exampels: 80");
    assert.match(
      messageOf(() => readAgentContract(text, { path: CONTRACT })),
      /unknown key "properties\[1\]\.min_exampels" at line \d+; did you mean "min_examples"\?$/,
    );
  });
  await t.step("invariants.toml", () => {
    const text = "[policy]\nmin_propertys = 1\nallow_agent_additions = false\n";
    assert.equal(
      messageOf(() => readPropertyRegistry(text, { path: "invariants.toml" })),
      'Cannot read contract "invariants.toml": unknown key "policy.min_propertys" at line 2; did you mean "min_properties"?',
    );
  });
  await t.step("freeze.yml", () => {
    const text =
      "policy:\n  max_frozn: 3\n  fail_on_expired: true\nfrozen: []\n";
    assert.match(
      messageOf(() => readFreezeList(text, { path: "freeze.yml" })),
      /unknown key "policy\.max_frozn" at line 2; did you mean "max_frozen"\?$/,
    );
  });
  await t.step("contracts.yml", () => {
    const text = SEED_CONTRACTS.replace("min_trials:", "min_trail:");
    assert.match(
      messageOf(() => readContracts(text, { path: "contracts.yml" })),
      /unknown key "contracts\[0\]\.min_trail" at line \d+; did you mean "min_trials"\?$/,
    );
  });
  await t.step("no suggestion for a key unlike any known one", () => {
    const text = SEED_CONTRACT.replace(
      "version: 1\n",
      "version: 1\nnotes: x\n",
    );
    assert.equal(
      messageOf(() => readAgentContract(text, { path: CONTRACT })),
      `Cannot read contract "${CONTRACT}": unknown key "notes" at line 3`,
    );
  });
});
