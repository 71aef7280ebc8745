/**
 * Reads seed 003's `invariants.toml`, the property registry: a policy and
 * one `[[property]]` table per registered property function, each with the
 * SHA-256 of its source.
 *
 * @module
 */
import { parse, TomlError } from "smol-toml";
import { z } from "zod";
import { ContractSyntaxError } from "../../contract/contract_syntax_error.ts";
import {
  type LineOf,
  schemaIssueError,
} from "../../contract/schema_issue_error.ts";
import { tomlKeyLines } from "../../contract/toml_key_lines.ts";
import {
  DOTTED_MODULE,
  duplicateIds,
  IDENTIFIER,
  idSchema,
  oversize,
} from "./_schema.ts";

/** Where seed 003 keeps its property registry. */
export const INVARIANTS_TOML = "invariants.toml";

/** The registry's `[policy]` table. */
export interface RegistryPolicy {
  /** The fewest properties the registry may hold. */
  minProperties: number;
  /** Whether an agent's pull request may add `[[property]]` rows. */
  allowAgentAdditions: boolean;
}

/** One `[[property]]` row. */
export interface RegisteredProperty {
  /** Stable id; removing it is a weakening. */
  id: string;
  /** Dotted module, e.g. `tests.properties.test_parse` (file `tests/properties/test_parse.py`). */
  module: string;
  /** Module-level test function name. */
  function: string;
  /** SHA-256 (64 lowercase hex) of the function's source, as the seed's checker takes it. */
  sourceSha256: string;
  /** Position of the row among the `[[property]]` tables, for line lookups. */
  index: number;
}

/** A validated `invariants.toml`. */
export interface PropertyRegistry {
  /** The policy. */
  policy: RegistryPolicy;
  /** Registered properties, in file order (empty without `[[property]]`). */
  properties: readonly RegisteredProperty[];
  /** Line of a key path such as `["property", 1, "source_sha256"]`. */
  lineOf: LineOf;
}

/** Options for {@linkcode readPropertyRegistry}. */
export interface ReadPropertyRegistryOptions {
  /** Repository-relative path, for messages (default `invariants.toml`). */
  path?: string;
  /** Refuse files larger than this many UTF-8 bytes (default 1 MiB). */
  maxBytes?: number;
}

const SHA256 = /^[0-9a-f]{64}$/;

/** The file as written (snake_case keys). */
const registrySchema = z.strictObject({
  policy: z.strictObject({
    min_properties: z.int().min(0),
    allow_agent_additions: z.boolean(),
  }),
  property: z.array(z.strictObject({
    id: idSchema,
    module: z.string().regex(DOTTED_MODULE, {
      error:
        "must be a dotted Python module name such as tests.properties.test_parse",
    }),
    function: z.string().regex(IDENTIFIER, {
      error: "must be a module-level function name such as test_roundtrip",
    }),
    source_sha256: z.string().regex(SHA256, {
      error: (issue) =>
        `is not a source hash: expected a 64-character lowercase sha256, not ${
          JSON.stringify(issue.input)
        }`,
    }),
  })).optional(),
}).superRefine((file, ctx) => {
  // Stryker disable next-line ArrayDeclaration: the fallback stands for a registry without properties, and a list of one entry has no duplicate id either
  duplicateIds(file.property ?? [], "property", ctx);
});

/**
 * Parse and validate `invariants.toml`. Throws {@linkcode ContractSyntaxError}
 * naming the file, the key and its line: TOML syntax errors (including keys
 * defined twice), unknown keys, wrong types, a missing `[policy]` key,
 * `min_properties` not an integer ≥ 0, a malformed `module` or `function`,
 * a `source_sha256` that is not 64 lowercase hex digits, and duplicate ids.
 *
 * @example
 * ```ts
 * import { readPropertyRegistry } from "./read_property_registry.ts";
 * const registry = readPropertyRegistry(`[policy]
 * min_properties = 1
 * allow_agent_additions = false
 *
 * [[property]]
 * id = "parse.roundtrip"
 * module = "tests.properties.test_parse"
 * function = "test_roundtrip"
 * source_sha256 = "${"a".repeat(64)}"
 * `);
 * if (registry.properties[0]?.function !== "test_roundtrip") throw new Error();
 * if (registry.lineOf(["property", 0, "module"]) !== 7) throw new Error();
 * ```
 */
export function readPropertyRegistry(
  text: string,
  options: ReadPropertyRegistryOptions = {},
): PropertyRegistry {
  const path = options.path ?? INVARIANTS_TOML;
  const maxBytes = options.maxBytes ?? 1024 * 1024;
  if (oversize(text, maxBytes)) {
    throw new ContractSyntaxError(
      path,
      `the file is larger than the ${maxBytes}-byte limit`,
    );
  }
  let value: unknown;
  try {
    value = parse(text);
  } catch (error) {
    // Stryker disable next-line ConditionalExpression: smol-toml's parse throws only TomlError (it caps nesting itself), so no input reaches the rethrow; the check forced true is detected by the TOML syntax tests
    if (!(error instanceof TomlError)) throw error;
    const lines = error.message.split("\n", 1);
    // Stryker disable next-line StringLiteral: split() always returns at least one string, so the fallback is never taken
    const firstLine = lines[0] ?? "";
    // Stryker disable next-line Regex: smol-toml's first line is always "Invalid TOML document: " and a fixed text without user input, so dropping the ^ or matching exactly one space changes nothing; the variant that eats no space is detected by the TOML syntax tests
    const reason = firstLine.replace(/^Invalid TOML document:\s*/, "");
    throw new ContractSyntaxError(path, `invalid TOML: ${reason}`, {
      line: error.line,
      column: error.column,
      cause: error,
    });
  }
  const lineOf = tomlKeyLines(text);
  const result = registrySchema.safeParse(value, { reportInput: true });
  if (!result.success) {
    throw schemaIssueError(path, result.error.issues, lineOf, {
      schema: registrySchema,
    });
  }
  const file = result.data;
  return {
    policy: {
      minProperties: file.policy.min_properties,
      allowAgentAdditions: file.policy.allow_agent_additions,
    },
    properties: (file.property ?? []).map((p, index) => ({
      id: p.id,
      module: p.module,
      function: p.function,
      sourceSha256: p.source_sha256,
      index,
    })),
    lineOf,
  };
}
