import assert from "node:assert/strict";
import { ContractSyntaxError } from "../contract/contract_syntax_error.ts";
import { readAgentContract } from "./agent_contract/read_agent_contract.ts";
import { CONTRACT, SEED_CONTRACT } from "./agent_contract/_testing.ts";
import { agentContractDialect } from "./agent_contract/agent_contract_dialect.ts";
import type { ContractBlob, ContractBlobs, StaticInput } from "./dialect.ts";
import { ParsedTexts } from "./parsed_texts.ts";

function counting() {
  const calls: string[] = [];
  const read = (text: string, options: { path: string }) => {
    calls.push(`${options.path}:${text}`);
    return { text, path: options.path };
  };
  return { calls, read };
}

Deno.test("ParsedTexts.read() parses a text once per reader and path", () => {
  const { calls, read } = counting();
  const other = counting();
  const parsed = new ParsedTexts();
  const a = parsed.read(read, "x: 1", { path: "a.yaml" });
  assert.equal(parsed.read(read, "x: 1", { path: "a.yaml" }), a);
  // The same bytes at another path, or under another reader, are their own value.
  const b = parsed.read(read, "x: 1", { path: "b.yaml" });
  assert.notEqual(b, a);
  assert.deepEqual(b, { text: "x: 1", path: "b.yaml" });
  assert.deepEqual(parsed.read(read, "x: 2", { path: "a.yaml" }), {
    text: "x: 2",
    path: "a.yaml",
  });
  parsed.read(other.read, "x: 1", { path: "a.yaml" });
  assert.deepEqual(calls, ["a.yaml:x: 1", "b.yaml:x: 1", "a.yaml:x: 2"]);
  assert.deepEqual(other.calls, ["a.yaml:x: 1"]);
  // Path and text cannot run together into another key.
  parsed.read(read, "b\0c", { path: "a" });
  parsed.read(read, "c", { path: "a\0b" });
  assert.equal(calls.length, 5);
});

Deno.test("ParsedTexts.read() does not remember a reader that threw", () => {
  const parsed = new ParsedTexts();
  const bad = "version: 1\nproperties: 3\n";
  for (let i = 0; i < 2; i++) {
    assert.throws(
      () => parsed.read(readAgentContract, bad, { path: CONTRACT }),
      (error: unknown) =>
        error instanceof ContractSyntaxError && error.line === 2,
    );
  }
});

function blobs(text: string): ContractBlobs {
  return new Map<string, ContractBlob>([[CONTRACT, {
    kind: "file",
    text,
    bytes: new TextEncoder().encode(text),
  }]]);
}

Deno.test("agentContractDialect.load() sharing parsed texts keeps each side its own contract", () => {
  const head = SEED_CONTRACT.replace(
    "fixtures:\n",
    "  - id: added\n    module: tests.properties.test_added\n    name: test_added\n    min_examples: 10\nfixtures:\n",
  );
  assert.notEqual(head, SEED_CONTRACT);
  const plan = (l: ReturnType<typeof agentContractDialect.load>) =>
    l.plan({ now: 0 } as StaticInput).properties.map((p) => p.id);
  const parsed = new ParsedTexts();
  const pr = agentContractDialect.load(blobs(SEED_CONTRACT), blobs(head), {
    parsed,
  });
  const self = agentContractDialect.load(
    blobs(SEED_CONTRACT),
    blobs(SEED_CONTRACT),
    { parsed },
  );
  const ids = ["parse_rejects_empty", "roundtrip_stable"];
  assert.deepEqual(plan(pr), [...ids, "added"]);
  assert.deepEqual(plan(self), ids);
  assert.deepEqual(
    plan(pr),
    plan(agentContractDialect.load(blobs(SEED_CONTRACT), blobs(head))),
  );
});
