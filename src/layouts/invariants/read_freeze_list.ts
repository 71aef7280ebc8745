/**
 * Reads seed 003's `freeze.yml`, the budgeted flake freeze list: a policy
 * (`max_frozen`, `fail_on_expired`) and the frozen tests, each pinned to
 * the hash of its body and to an expiry date.
 *
 * @module
 */
import { z } from "zod";
import { parseYamlDocument } from "../../contract/parse_yaml_document.ts";
import {
  type LineOf,
  schemaIssueError,
} from "../../contract/schema_issue_error.ts";
import { duplicateIds } from "./_schema.ts";
import { expiresOnEnd } from "./expires_on.ts";

/** Where seed 003 keeps its freeze list. */
export const FREEZE_YML = "freeze.yml";

/** The keys a freeze entry must have; a missing one is `freeze.incomplete`. */
export const FREEZE_KEYS = [
  "id",
  "path",
  "body_sha256",
  "expires_on",
  "owner",
  "reason",
] as const;

/** One key of a freeze entry. */
export type FreezeKey = typeof FREEZE_KEYS[number];

/** The test a freeze's `path` names: `file.py::test` or `file.py::Class::test`. */
export interface FrozenTest {
  /** The pytest node id, exactly as written. */
  nodeId: string;
  /** Repository-relative test file. */
  file: string;
  /** `test` or `Class.test`, as the Python analysis keys functions. */
  qualname: string;
}

/**
 * One freeze entry. Any key may be missing (or blank): the freeze layer
 * reports that as `freeze.incomplete` rather than refusing the file, so an
 * agent's incomplete freeze is judged, not turned into "could not decide".
 */
export interface FreezeEntry {
  /** Position in `freezes`, for line lookups. */
  index: number;
  /** Stable id, when given. */
  id: string | undefined;
  /** The frozen test, when `path` is given. */
  test: FrozenTest | undefined;
  /** The recorded body hash as written (not necessarily a valid sha256). */
  bodySha256: string | undefined;
  /** `expires_on` as written (a valid date or RFC 3339 date-time). */
  expiresOn: string | undefined;
  /** Owner, when given. */
  owner: string | undefined;
  /** Reason, when given. */
  reason: string | undefined;
  /** Keys that are missing, `null` or blank, in {@linkcode FREEZE_KEYS} order. */
  missing: FreezeKey[];
}

/** A validated `freeze.yml`. */
export interface FreezeList {
  /** The freeze policy. */
  policy: {
    /** The most freezes the list may hold. */
    maxFrozen: number;
    /** Whether an expired freeze fails the job (default true, as in the seed's checker). */
    failOnExpired: boolean;
  };
  /** Freezes, in file order (empty when `freezes` is absent or `null`). */
  freezes: readonly FreezeEntry[];
  /** Line of a key path such as `["freezes", 0, "expires_on"]`. */
  lineOf: LineOf;
}

/** Options for {@linkcode readFreezeList}. */
export interface ReadFreezeListOptions {
  /** Repository-relative path, for messages (default `freeze.yml`). */
  path?: string;
  /** Refuse files larger than this many UTF-8 bytes (default 1 MiB). */
  maxBytes?: number;
}

const NODE_ID =
  /^([^:\s][^:]*\.py)::(?:([A-Za-z_][A-Za-z0-9_]*)::)?([A-Za-z_][A-Za-z0-9_]*)$/;

const optionalText = z.string().nullable().optional();

/** The file as written (snake_case keys). */
const freezeListSchema = z.strictObject({
  policy: z.strictObject({
    max_frozen: z.int().min(0),
    fail_on_expired: z.boolean().optional(),
  }),
  freezes: z.array(z.strictObject({
    id: optionalText,
    path: optionalText.refine(
      (text) => blank(text) || NODE_ID.test(text as string),
      {
        error:
          "must be a pytest node id such as tests/test_billing.py::test_dst or tests/test_billing.py::TestBilling::test_dst",
      },
    ),
    body_sha256: optionalText,
    expires_on: optionalText.refine(
      (text) => blank(text) || expiresOnEnd(text as string) !== undefined,
      {
        error:
          "must be a date such as 2026-09-26 or an RFC 3339 date-time such as 2026-09-26T00:00:00Z",
      },
    ),
    owner: optionalText,
    reason: optionalText,
  })).nullable().optional(),
}).superRefine((file, ctx) => {
  // Stryker disable next-line ArrayDeclaration: a stand-in list of one entry holds no duplicate id, so no absent list can report one
  duplicateIds(file.freezes ?? [], "freezes", ctx);
});

/**
 * Parse and validate `freeze.yml`. Throws {@linkcode ContractSyntaxError}
 * naming the file, the key and its line: YAML errors (see
 * `parseYamlDocument`: duplicate keys, anchors, ...), unknown keys, wrong
 * types, a missing `policy.max_frozen`, a `path` that is not a pytest node
 * id, an `expires_on` that is not a date, and duplicate ids. Missing or
 * blank entry keys are not errors: they are listed in
 * {@linkcode FreezeEntry.missing}.
 *
 * @example
 * ```ts
 * import { readFreezeList } from "./read_freeze_list.ts";
 * const list = readFreezeList(`policy:
 *   max_frozen: 3
 *   fail_on_expired: true
 * freezes:
 *   - id: test_billing_timezone_dst
 *     path: tests/test_billing.py::test_timezone_dst
 *     expires_on: "2026-09-26"
 *     owner: "human"
 *     reason: "dst boundary depends on host tzdata"
 * `);
 * if (list.freezes[0]?.missing.join() !== "body_sha256") throw new Error();
 * if (list.freezes[0]?.test?.qualname !== "test_timezone_dst") throw new Error();
 * ```
 */
export function readFreezeList(
  text: string,
  options: ReadFreezeListOptions = {},
): FreezeList {
  const path = options.path ?? FREEZE_YML;
  const doc = parseYamlDocument(text, path, { maxBytes: options.maxBytes });
  const result = freezeListSchema.safeParse(doc.value, { reportInput: true });
  if (!result.success) {
    throw schemaIssueError(path, result.error.issues, (p) => doc.lineOf(p), {
      schema: freezeListSchema,
    });
  }
  const file = result.data;
  return {
    policy: {
      maxFrozen: file.policy.max_frozen,
      failOnExpired: file.policy.fail_on_expired ?? true,
    },
    freezes: (file.freezes ?? []).map((entry, index) => {
      const given = (key: FreezeKey) =>
        blank(entry[key]) ? undefined : entry[key] as string;
      const nodeId = given("path");
      return {
        index,
        id: given("id"),
        test: nodeId === undefined ? undefined : frozenTest(nodeId),
        bodySha256: given("body_sha256"),
        expiresOn: given("expires_on"),
        owner: given("owner"),
        reason: given("reason"),
        missing: FREEZE_KEYS.filter((key) => blank(entry[key])),
      };
    }),
    lineOf: (p) => doc.lineOf(p),
  };
}

function blank(text: string | null | undefined): boolean {
  return text === undefined || text === null || text.trim() === "";
}

function frozenTest(nodeId: string): FrozenTest {
  const match = NODE_ID.exec(nodeId);
  // Stryker disable next-line ConditionalExpression,BlockStatement: the schema refused every path the pattern does not match, so this never runs
  if (match === null) {
    // Stryker disable next-line StringLiteral: the schema refused every path the pattern does not match, so this message is never seen
    throw new Error(`Cannot read freeze path ${JSON.stringify(nodeId)}`);
  }
  // Stryker disable next-line StringLiteral: the file and test groups are not optional, so a match always fills them and the defaults never apply
  const [, file = "", cls, name = ""] = match;
  return {
    nodeId,
    file,
    qualname: cls === undefined ? name : `${cls}.${name}`,
  };
}
