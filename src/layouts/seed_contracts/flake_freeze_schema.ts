/**
 * The zod schema of seed 002's `flake_freeze.yml`, exactly as written.
 *
 * ```yaml
 * freezes:
 *   - id: F-184
 *     test: tests/contracts/test_ledger_contracts.py::test_apply_contract
 *     seed: 1725781203
 *     witness_sha256: "9c56cc51b374c32ba11507e6e0c2484e"
 *     owner: "platform-payments"
 *     expires: "2026-09-15"
 *     reason: "empty currency code vs concurrent apply"
 *     skip: false
 * ```
 *
 * Split between schema errors and findings, following the seed's validator:
 * a schema error is anything that stops pawl from knowing what to replay; a
 * finding is a readable freeze that breaks the policy.
 *
 * Schema errors: a top-level key other than `freezes`; a freeze key outside
 * the seed's `ALLOWED` set (id, test, seed, witness_sha256, owner, expires,
 * reason, skip); a blank or repeated `id`; a `test` that is not a pytest
 * node id; a `seed` that is not a positive integer (the seed's harness reads
 * `CONTRACT_SEED=0` as "draw a fresh seed", so 0 cannot be pinned); an
 * `expires` that is missing or neither a `YYYY-MM-DD` date nor an RFC 3339
 * date-time; `owner`, `reason` or `witness_sha256` of a type other than
 * string or null.
 *
 * Findings instead: `skip` missing or anything but the boolean `false`
 * (`freeze.skip_not_false`); a missing or blank `owner`, `witness_sha256`
 * or `reason` (`freeze.incomplete`); an expiry before `--now`
 * (`freeze.expired`). An empty file, `freezes` absent and `freezes: null`
 * all mean no freezes (the seed reads `yaml.safe_load(...) or {}`).
 *
 * @module
 */
import {
  duplicateIdMessage,
  identityKey,
} from "../../contract/identity_key.ts";
import { z } from "zod";
import { idSchema, nodeIdSchema } from "./contracts_schema.ts";
import { freezeExpiresAt } from "./freeze_expiry.ts";

/** One seed freeze as written in the file. */
export const freezeEntrySchema = z.strictObject({
  id: idSchema,
  test: nodeIdSchema,
  seed: z.int().min(1),
  witness_sha256: z.string().nullable().optional(),
  owner: z.string().nullable().optional(),
  expires: z.string().refine((text) => freezeExpiresAt(text) !== undefined, {
    error:
      'must be a date such as "2026-09-15" or an RFC 3339 date-time such as "2026-09-15T00:00:00Z"',
  }),
  reason: z.string().nullable().optional(),
  // Any value is readable; only the boolean false is allowed (a finding).
  skip: z.unknown().optional(),
});

/** The keys a freeze may have: exactly the seed validator's `ALLOWED`. */
export const FREEZE_KEYS: readonly string[] = Object.keys(
  freezeEntrySchema.shape,
);

/** `flake_freeze.yml`. */
export const flakeFreezeFileSchema = z.strictObject({
  freezes: z.array(freezeEntrySchema).nullable().optional(),
}).superRefine((file, ctx) => {
  const seen = new Map<string, string>();
  (file.freezes ?? []).forEach((entry, index) => {
    const key = identityKey(entry.id);
    const first = seen.get(key);
    if (first === undefined) {
      seen.set(key, entry.id);
      return;
    }
    ctx.addIssue({
      code: "custom",
      path: ["freezes", index, "id"],
      message: duplicateIdMessage(entry.id, first, "freezes"),
      params: { detail: true },
    });
  });
});

/** The file's shape after schema validation. */
export type FlakeFreezeFile = z.infer<typeof flakeFreezeFileSchema>;
