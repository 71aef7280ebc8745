import assert from "node:assert/strict";
import { ContractSyntaxError } from "../contract/contract_syntax_error.ts";
import { baseContractText } from "./contract_text.ts";
import type { ContractBlobs } from "./dialect.ts";

Deno.test("baseContractText() names the size cap an oversize contract is over", () => {
  const blobs: ContractBlobs = new Map([
    ["invariants.toml", {
      kind: "oversize",
      size: 9_000_000,
      limit: 8 * 1024 * 1024,
    }],
  ]);
  assert.throws(
    () => baseContractText(blobs, "invariants.toml"),
    (error: unknown) =>
      error instanceof ContractSyntaxError &&
      error.message.includes(
        "it is 9000000 bytes, over the 8388608-byte (8 MiB) cap on contract files; refused before parsing",
      ),
  );
});
