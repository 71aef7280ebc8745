import assert from "node:assert/strict";
import type { Tree, TreeEntry } from "../git/git.ts";
import { CONTRACT, SEED_CONTRACT } from "./agent_contract/_testing.ts";
import type { ContractBlobs, StaticInput } from "./dialect.ts";
import { agentContractDialect } from "./agent_contract/agent_contract_dialect.ts";
import { invariantsDialect } from "./invariants/invariants_dialect.ts";
import { DIALECT_ENTRIES, loadAllDialects, presentDialects } from "./mod.ts";
import { SEED_CONTRACTS } from "./seed_contracts/_testing.ts";
import { CONTRACTS_PATH } from "./seed_contracts/read_contracts.ts";
import { seedContractsDialect } from "./seed_contracts/seed_contracts_dialect.ts";

/** The layouts, in report order. */
const DIALECTS = [
  agentContractDialect,
  invariantsDialect,
  seedContractsDialect,
];

function treeOf(paths: readonly string[]): Tree {
  return new Map(
    paths.map((path): [string, TreeEntry] => [
      path,
      { path, kind: "file", oid: "1", size: 1 },
    ]),
  );
}

Deno.test("DIALECT_ENTRIES names every layout, in order, with their files and their dialects", async () => {
  assert.deepEqual(
    DIALECT_ENTRIES.map((e) => [e.id, e.files]),
    DIALECTS.map((d) => [d.id, d.files]),
  );
  for (const [i, entry] of DIALECT_ENTRIES.entries()) {
    assert.equal(await entry.load(), DIALECTS[i], entry.id);
  }
  assert.deepEqual(await loadAllDialects(), DIALECTS);
});

Deno.test("presentDialects() finds what each dialect's presentIn finds", async () => {
  const all = DIALECTS.flatMap((d) => d.files);
  const trees = [
    [],
    ["README.md"],
    ...all.map((path) => [path]),
    all,
    ["tests/agent_contract.yaml", "freeze.yml"],
  ].map(treeOf);
  for (const tree of trees) {
    assert.deepEqual(
      await presentDialects(tree),
      DIALECTS.filter((d) => d.presentIn(tree)),
      [...tree.keys()].join(", "),
    );
  }
});

Deno.test("the agent contract and seed 002 layouts add no freeze body hashes to the verdict", async (t) => {
  const blobs = (path: string, text: string): ContractBlobs =>
    new Map([[path, {
      kind: "file",
      text,
      bytes: new TextEncoder().encode(text),
    }]]);
  const cases = [
    [agentContractDialect, blobs(CONTRACT, SEED_CONTRACT)],
    [seedContractsDialect, blobs(CONTRACTS_PATH, SEED_CONTRACTS)],
  ] as const;
  for (const [dialect, files] of cases) {
    await t.step(dialect.id, () => {
      const tree = treeOf([...files.keys()]);
      const input: StaticInput = {
        now: 0,
        nowText: "1970-01-01T00:00:00Z",
        baseTree: tree,
        headTree: tree,
        changes: [],
        headModules: new Map(),
        baseModules: new Map(),
        digests: new Map(),
        allowFixtureRotate: false,
      };
      const loaded = dialect.load(files, files);
      assert.deepEqual(loaded.verdictFacts(input), { freezeBodyHashes: [] });
    });
  }
});
