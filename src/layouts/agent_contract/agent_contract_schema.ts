/**
 * The zod schema of seed 000's `tests/agent_contract.yaml`, exactly as the
 * file is written (snake_case keys). Strict everywhere: an unknown key is an
 * error, so policy cannot hide in extra fields.
 *
 * What is a schema error (the file is unreadable, layer `config`) and what is
 * a rule finding is split by one test: a schema error is anything that stops
 * pawl from knowing what the contract says; a finding is a well-formed
 * contract that says something the policy forbids.
 *
 * Schema errors: a missing or non-1 `version`; wrong types; unknown keys;
 * `min_examples` not an integer ≥ 1; `sha256` not 64 lowercase hex digits;
 * `expires` not an RFC 3339 date-time; `remaining_reruns` or
 * `max_active_freezes` not an integer ≥ 0; a malformed `module` (dotted
 * Python identifiers) or `name` (`test_x` or `Class.test_x`); a blank or
 * repeated `id` within a section; `freezes` listed without
 * `max_active_freezes`.
 *
 * Findings instead (judged by the check functions): a blank or missing
 * freeze `owner`/`reason` (`freeze.incomplete`), an unsafe fixture `path`
 * (`fixture.path_unsafe`), a set `unlock` (`fixture.self_unlock`), expired
 * freezes, exhausted reruns, and everything the base → head diff reports.
 *
 * Optional keys: `properties`, `fixtures` and `freezes` may be absent or
 * `null` (read as empty lists); `unlock` may be absent (read as `null`);
 * `owner` and `reason` may be absent or `null` (read as `""`, then reported
 * as incomplete); `max_active_freezes` may be absent only when there are no
 * freezes, and is then read as 0, so dropping it never raises the cap.
 *
 * @module
 */
import {
  duplicateIdMessage,
  identityKey,
} from "../../contract/identity_key.ts";
import { z } from "zod";
import { parseRfc3339 } from "../../core/parse_rfc3339.ts";

const ID = /^[^\s\p{Cc}](?:[^\p{Cc}]*[^\s\p{Cc}])?$/u;
const IDENTIFIER = "[A-Za-z_][A-Za-z0-9_]*";
const DOTTED = new RegExp(`^${IDENTIFIER}(?:\\.${IDENTIFIER})*$`);
const SHA256 = /^[0-9a-f]{64}$/;

const idSchema = z.string().regex(ID, {
  error: "must be a non-blank id without surrounding spaces",
});

/** One registered property (Hypothesis test) as written in the file. */
export const propertyEntrySchema = z.strictObject({
  id: idSchema,
  module: z.string().regex(DOTTED, {
    error:
      "must be a dotted Python module name such as tests.properties.test_parse",
  }),
  name: z.string().regex(DOTTED, {
    error: "must be a test function name such as test_x or Class.test_x",
  }),
  min_examples: z.int().min(1),
});

/** One content-addressed fixture as written in the file. */
export const fixtureEntrySchema = z.strictObject({
  id: idSchema,
  path: z.string(),
  sha256: z.string().regex(SHA256, {
    error: "must be 64 lowercase hexadecimal digits",
  }),
  unlock: z.string().nullable().optional(),
});

/** One budgeted freeze as written in the file. */
export const freezeEntrySchema = z.strictObject({
  id: idSchema,
  owner: z.string().nullable().optional(),
  reason: z.string().nullable().optional(),
  expires: z.string().refine((text) => parseRfc3339(text) !== undefined, {
    error: "must be an RFC 3339 date-time such as 2026-09-22T00:00:00Z",
  }),
  remaining_reruns: z.int().min(0),
});

/** `tests/agent_contract.yaml`, version 1. */
export const agentContractSchema = z.strictObject({
  version: z.literal(1),
  properties: z.array(propertyEntrySchema).nullable().optional(),
  fixtures: z.array(fixtureEntrySchema).nullable().optional(),
  freezes: z.array(freezeEntrySchema).nullable().optional(),
  max_active_freezes: z.int().min(0).optional(),
}).superRefine((contract, ctx) => {
  for (const section of ["properties", "fixtures", "freezes"] as const) {
    const seen = new Map<string, string>();
    (contract[section] ?? []).forEach((entry, index) => {
      const key = identityKey(entry.id);
      const first = seen.get(key);
      if (first === undefined) {
        seen.set(key, entry.id);
        return;
      }
      ctx.addIssue({
        code: "custom",
        path: [section, index, "id"],
        message: duplicateIdMessage(entry.id, first, section),
        params: { detail: true },
      });
    });
  }
  if (
    (contract.freezes ?? []).length > 0 &&
    contract.max_active_freezes === undefined
  ) {
    ctx.addIssue({
      code: "custom",
      path: ["max_active_freezes"],
      message:
        'missing key "max_active_freezes", required when "freezes" is not empty',
      params: { detail: true },
    });
  }
});

/** The file's shape after schema validation (snake_case, optional keys unresolved). */
export type AgentContractFile = z.infer<typeof agentContractSchema>;
