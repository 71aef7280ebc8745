/**
 * The zod schema of `contracts.yml` (pawl's schema for seed 002; the seed
 * names the file but does not specify it), exactly as written (snake_case
 * keys). Strict everywhere: an unknown key is an error.
 *
 * ```yaml
 * version: 1
 * contracts:
 *   - id: ledger.apply.idempotent
 *     function: billing.ledger.apply
 *     test: tests/contracts/test_ledger_contracts.py::test_apply_contract
 *     min_trials: 200
 * ```
 *
 * Schema errors: a missing or non-1 `version`; wrong types; unknown keys; a
 * blank or repeated `id`; a `function` that is not a dotted path of at least
 * a module and a name; a `test` that is not a pytest node id
 * (`path/to/test_x.py::test_fn` or `path/to/test_x.py::Class::test_fn`);
 * `min_trials` not an integer ≥ 1. `contracts` may be absent or `null`
 * (read as an empty list).
 *
 * A contract on a private function is well-formed: whether it is allowed
 * depends on whether the pull request added it, so it is a finding
 * (`property.private_contract`), not a schema error.
 *
 * @module
 */
import {
  duplicateIdMessage,
  identityKey,
} from "../../contract/identity_key.ts";
import { z } from "zod";
import { FUNCTION_PATTERN, NODE_ID_PATTERN } from "./contract_test_ref.ts";

const ID = /^[^\s\p{Cc}](?:[^\p{Cc}]*[^\s\p{Cc}])?$/u;

/** A non-blank id without surrounding spaces or control characters. */
export const idSchema: z.ZodString = z.string().regex(ID, {
  error: "must be a non-blank id without surrounding spaces",
});

/** A pytest node id naming one test function. */
export const nodeIdSchema: z.ZodString = z.string().regex(NODE_ID_PATTERN, {
  error:
    'must be a pytest node id such as "tests/test_x.py::test_fn" or "tests/test_x.py::Class::test_fn"',
});

/** One contract as written in the file. */
export const contractEntrySchema = z.strictObject({
  id: idSchema,
  function: z.string().regex(FUNCTION_PATTERN, {
    error: "must be a dotted function path such as billing.ledger.apply",
  }),
  test: nodeIdSchema,
  min_trials: z.int().min(1),
});

/** `contracts.yml`, version 1. */
export const contractsFileSchema = z.strictObject({
  version: z.literal(1),
  contracts: z.array(contractEntrySchema).nullable().optional(),
}).superRefine((file, ctx) => {
  const seen = new Map<string, string>();
  (file.contracts ?? []).forEach((entry, index) => {
    const key = identityKey(entry.id);
    const first = seen.get(key);
    if (first === undefined) {
      seen.set(key, entry.id);
      return;
    }
    ctx.addIssue({
      code: "custom",
      path: ["contracts", index, "id"],
      message: duplicateIdMessage(entry.id, first, "contracts"),
      params: { detail: true },
    });
  });
});

/** The file's shape after schema validation. */
export type ContractsFile = z.infer<typeof contractsFileSchema>;
