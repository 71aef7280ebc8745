/**
 * Reads seed 003's `fixtures.lock`, the fixture digest table: a rotation
 * policy and the SHA-256 of every locked fixture file's bytes.
 *
 * @module
 */
import { z } from "zod";
import { parseJsonDocument } from "../../contract/parse_json_document.ts";
import {
  type LineOf,
  schemaIssueError,
} from "../../contract/schema_issue_error.ts";

/** Where seed 003 keeps its fixture digests. */
export const FIXTURES_LOCK = "fixtures.lock";

/** A validated `fixtures.lock`. */
export interface FixtureLock {
  /** The lock's policy. */
  policy: {
    /** Whether an agent's pull request may rotate (re-hash) a fixture. */
    allowRotateOnAgentPr: boolean;
  };
  /** Fixture path → SHA-256 (64 lowercase hex) of its bytes. */
  files: ReadonlyMap<string, string>;
  /** Line of a key path such as `["files", "tests/fixtures/a.json"]`. */
  lineOf: LineOf;
}

/** Options for {@linkcode readFixtureLock}. */
export interface ReadFixtureLockOptions {
  /** Repository-relative path, for messages (default `fixtures.lock`). */
  path?: string;
  /** Refuse files larger than this many UTF-8 bytes (default 1 MiB). */
  maxBytes?: number;
}

const SHA256 = /^[0-9a-f]{64}$/;

/** The file as written (snake_case keys). */
const lockSchema = z.strictObject({
  policy: z.strictObject({ allow_rotate_on_agent_pr: z.boolean() }),
  files: z.record(
    z.string(),
    z.string().regex(SHA256, {
      error: (issue) => {
        const input = String(issue.input);
        const placeholder = /^[0-9a-f]{32}$/.test(input)
          ? " (the seed's 32-digit examples are placeholders)"
          : "";
        return `is not a fixture digest: expected a 64-character lowercase sha256, not ${
          JSON.stringify(input)
        }${placeholder}`;
      },
    }),
  ),
});

/**
 * Parse and validate `fixtures.lock` (JSON). Throws
 * {@linkcode ContractSyntaxError} naming the file, the key and its line:
 * JSON syntax errors, duplicate keys (which `JSON.parse` would silently
 * resolve to the last one), unknown keys, wrong types, and digests that are
 * not 64 lowercase hex digits. Fixture paths are judged later, as findings.
 *
 * @example
 * ```ts
 * import { readFixtureLock } from "./read_fixture_lock.ts";
 * const lock = readFixtureLock(JSON.stringify({
 *   policy: { allow_rotate_on_agent_pr: false },
 *   files: { "testdata/a.json": "e".repeat(64) },
 * }, null, 2));
 * if (lock.files.get("testdata/a.json") !== "e".repeat(64)) throw new Error();
 * if (lock.lineOf(["files", "testdata/a.json"]) !== 6) throw new Error();
 * ```
 */
export function readFixtureLock(
  text: string,
  options: ReadFixtureLockOptions = {},
): FixtureLock {
  const path = options.path ?? FIXTURES_LOCK;
  const doc = parseJsonDocument(
    text,
    path,
    // Stryker disable next-line ConditionalExpression: parseJsonDocument reads an undefined maxBytes as its default, so passing it through changes nothing at run time (the split is for exactOptionalPropertyTypes); the check forced true is detected by the size-cap test
    options.maxBytes === undefined ? {} : { maxBytes: options.maxBytes },
  );
  const result = lockSchema.safeParse(doc.value, { reportInput: true });
  if (!result.success) {
    throw schemaIssueError(path, result.error.issues, (p) => doc.lineOf(p), {
      schema: lockSchema,
    });
  }
  const file = result.data;
  return {
    policy: { allowRotateOnAgentPr: file.policy.allow_rotate_on_agent_pr },
    files: new Map(Object.entries(file.files)),
    lineOf: (p) => doc.lineOf(p),
  };
}
