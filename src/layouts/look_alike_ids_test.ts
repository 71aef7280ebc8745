import assert from "node:assert/strict";
import { ContractSyntaxError } from "../contract/contract_syntax_error.ts";
import { SEED_CONTRACT } from "./agent_contract/_testing.ts";
import { readAgentContract } from "./agent_contract/read_agent_contract.ts";
import { readPropertyRegistry } from "./invariants/read_property_registry.ts";
import { SEED_CONTRACTS, SEED_FREEZE } from "./seed_contracts/_testing.ts";
import { readContracts } from "./seed_contracts/read_contracts.ts";
import { readFlakeFreeze } from "./seed_contracts/read_flake_freeze.ts";
import { loadYamlParser } from "../contract/parse_yaml_document.ts";

// These texts include ones only the full YAML parser reads.
await loadYamlParser();

function messageOf(read: () => unknown): string {
  try {
    read();
  } catch (error) {
    assert.ok(error instanceof ContractSyntaxError, String(error));
    return error.message;
  }
  assert.fail("expected a refusal");
}

const LOOK_ALIKE =
  /duplicate id "[^"]+" \(it reads as "[^"]+", an earlier id\) in "\w+"/;

Deno.test("every contract reader refuses two ids a reviewer cannot tell apart", async (t) => {
  await t.step("tests/agent_contract.yaml", () => {
    const text = SEED_CONTRACT.replace(
      "id: roundtrip_stable",
      "id: parse_rejects_\u0435mpty",
    );
    assert.match(
      messageOf(() => readAgentContract(text, { path: "c.yaml" })),
      LOOK_ALIKE,
    );
  });
  await t.step("invariants.toml", () => {
    const sha = "1".repeat(64);
    const row = (id: string) =>
      `\n[[property]]\nid = "${id}"\nmodule = "tests.test_p"\nfunction = "test_p"\nsource_sha256 = "${sha}"\n`;
    const text =
      `[policy]\nmin_properties = 0\nallow_agent_additions = false\n${
        row("parse")
      }${row("P\uff21RSE")}`;
    assert.match(
      messageOf(() => readPropertyRegistry(text, { path: "invariants.toml" })),
      LOOK_ALIKE,
    );
  });
  await t.step("contracts.yml", () => {
    const entry = SEED_CONTRACTS.split("contracts:\n")[1]!;
    const text = SEED_CONTRACTS + entry.replace(
      "ledger.apply.idempotent",
      "ledger.\u0430pply.idempotent",
    );
    assert.match(
      messageOf(() => readContracts(text, { path: "contracts.yml" })),
      LOOK_ALIKE,
    );
  });
  await t.step("flake_freeze.yml", () => {
    const entry = SEED_FREEZE.split("freezes:\n")[1]!;
    const text = SEED_FREEZE + entry.replace("F-184", "\uff26-184");
    assert.match(
      messageOf(() => readFlakeFreeze(text, { path: "flake_freeze.yml" })),
      LOOK_ALIKE,
    );
  });
});
