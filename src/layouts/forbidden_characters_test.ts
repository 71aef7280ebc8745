import assert from "node:assert/strict";
import { ContractSyntaxError } from "../contract/contract_syntax_error.ts";
import { agentContractDialect } from "./agent_contract/agent_contract_dialect.ts";
import { SEED_CONTRACT } from "./agent_contract/_testing.ts";
import type { ContractBlob, ContractBlobs, Dialect } from "./dialect.ts";
import { invariantsDialect } from "./invariants/invariants_dialect.ts";
import { SEED_CONTRACTS, SEED_FREEZE } from "./seed_contracts/_testing.ts";
import { seedContractsDialect } from "./seed_contracts/seed_contracts_dialect.ts";

const REGISTRY = `[policy]
min_properties = 0
allow_agent_additions = false
`;

const FREEZE_LIST = `policy:
  max_frozen: 3
  fail_on_expired: true
freezes:
  - id: "tz"
    path: tests/test_a.py::test_a
    body_sha256: "${"1".repeat(64)}"
    expires_on: "2026-09-26"
    owner: "human"
    reason: "tzdata on the host"
`;

/** Every YAML contract file of every layout, with a valid text beside the others. */
const YAML_FILES: {
  dialect: Dialect;
  path: string;
  files: Record<string, string>;
}[] = [
  {
    dialect: agentContractDialect,
    path: "tests/agent_contract.yaml",
    files: { "tests/agent_contract.yaml": SEED_CONTRACT },
  },
  {
    dialect: invariantsDialect,
    path: "freeze.yml",
    files: { "invariants.toml": REGISTRY, "freeze.yml": FREEZE_LIST },
  },
  {
    dialect: seedContractsDialect,
    path: "contracts.yml",
    files: {
      "contracts.yml": SEED_CONTRACTS.replace(
        "id: ledger.apply.idempotent",
        'id: "ledger.apply.idempotent"',
      ),
      "flake_freeze.yml": SEED_FREEZE,
    },
  },
  {
    dialect: seedContractsDialect,
    path: "flake_freeze.yml",
    files: { "contracts.yml": SEED_CONTRACTS, "flake_freeze.yml": SEED_FREEZE },
  },
];

function blobs(files: Record<string, string>): ContractBlobs {
  return new Map<string, ContractBlob>(
    Object.entries(files).map(([path, text]) => [path, {
      kind: "file",
      text,
      bytes: new TextEncoder().encode(text),
    }]),
  );
}

/** Where a NUL (or another forbidden character) can hide in a YAML file. */
const PLACES: {
  name: string;
  insert: (text: string, bad: string) => string;
}[] = [
  {
    name: "in a comment",
    insert: (text, bad) => `# reviewed ${bad}\n${text}`,
  },
  {
    name: "inside a quoted value",
    insert: (text, bad) => {
      const quoted = text.replace(/"([^"\n]*)"/, `"$1${bad}"`);
      assert.notEqual(quoted, text);
      return quoted;
    },
  },
];

Deno.test("every layout refuses a YAML contract holding a character YAML forbids", async (t) => {
  for (const file of YAML_FILES) {
    for (const place of PLACES) {
      for (const bad of ["\0", "\x07", "\x7f", "\uFEFF"]) {
        const code = bad.codePointAt(0)!.toString(16).toUpperCase().padStart(
          4,
          "0",
        );
        const text = place.insert(file.files[file.path]!, bad);
        await t.step(
          `${file.path}: U+${code} ${place.name}, base side: could not decide`,
          () => {
            const base = blobs({ ...file.files, [file.path]: text });
            assert.throws(
              () => file.dialect.load(base, base),
              (error: unknown) => {
                assert.ok(error instanceof ContractSyntaxError);
                assert.equal(error.path, file.path);
                assert.ok(
                  error.line !== undefined && error.column !== undefined,
                );
                assert.match(
                  error.message,
                  new RegExp(
                    `^Cannot read contract "${file.path}": invalid YAML: character U\\+${code}.* at line \\d+, column \\d+$`,
                  ),
                );
                return true;
              },
            );
          },
        );
        await t.step(
          `${file.path}: U+${code} ${place.name}, head side: a config finding`,
          () => {
            const loaded = file.dialect.load(
              blobs(file.files),
              blobs({ ...file.files, [file.path]: text }),
            );
            const found = loaded.loadFindings.filter((f) =>
              f.rule === "config.contract_invalid" && f.path === file.path
            );
            assert.equal(found.length, 1, JSON.stringify(loaded.loadFindings));
            assert.ok(found[0]!.blocking);
            assert.ok(found[0]!.line !== undefined);
            assert.match(found[0]!.message, new RegExp(`U\\+${code}`));
          },
        );
      }
    }
  }
});
