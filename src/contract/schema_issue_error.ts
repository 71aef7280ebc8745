/**
 * Turning zod issues into the one error contract readers throw, for any
 * file format that can say on which line a key sits (YAML, TOML, JSON).
 *
 * @module
 */
import type { z } from "zod";
import { ContractSyntaxError } from "./contract_syntax_error.ts";
import { didYouMean } from "./did_you_mean.ts";
import { formatKeyPath } from "./format_key_path.ts";
import { knownKeys } from "./known_keys.ts";
import { reportMisspelling } from "./report_misspelling.ts";
import type { YamlPath } from "./parse_yaml_document.ts";

/** The 1-based line of a key path in a file, `undefined` when unknown. */
export type LineOf = (path: YamlPath) => number | undefined;

/** Options for {@linkcode schemaIssueError}. */
export interface SchemaIssueErrorOptions {
  /** The schema the issues came from: an unknown key gets a "did you mean". */
  schema?: z.ZodType | undefined;
}

/**
 * A {@linkcode ContractSyntaxError} for the issue nearest the top of the
 * file: `unknown key "policy.notes"`, `missing key "policy.max_frozen"`,
 * `"policy.max_frozen" must be an integer, not "3"`, ... A missing key has
 * no line of its own, so it points at its closest ancestor. A `custom`
 * issue whose `params.detail` is `true` supplies its whole detail as its
 * message.
 *
 * @example
 * ```ts
 * import { z } from "zod";
 * import { schemaIssueError } from "./schema_issue_error.ts";
 * const result = z.strictObject({ a: z.int() }).safeParse({ a: 1, b: 2 });
 * if (result.success) throw new Error();
 * const error = schemaIssueError("x.toml", result.error.issues, (path) => path.length + 1);
 * if (error.message !== 'Cannot read contract "x.toml": unknown key "b" at line 2') throw error;
 * ```
 */
export function schemaIssueError(
  path: string,
  issues: readonly z.core.$ZodIssue[],
  lineOf: LineOf,
  options: SchemaIssueErrorOptions = {},
): ContractSyntaxError {
  const described = reportMisspelling(
    issues.map((issue) => describe(issue, lineOf, options)),
  );
  // Report the problem nearest the top of the file; ties keep schema order.
  described.sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
  const first = described[0];
  if (first === undefined) {
    return new ContractSyntaxError(path, "the file does not match its schema");
  }
  return new ContractSyntaxError(path, first.detail, {
    line: first.line,
    key: first.key,
    hint: first.hint,
  });
}

interface DescribedIssue {
  detail: string;
  key: string;
  line: number | undefined;
  hint?: string | undefined;
  /** The key path an unknown key was probably meant to be. */
  meant?: string | undefined;
  /** The issue is a missing key. */
  missing?: boolean;
}

function describe(
  issue: z.core.$ZodIssue,
  lineOf: LineOf,
  options: SchemaIssueErrorOptions,
): DescribedIssue {
  // Stryker disable MethodExpression,ConditionalExpression,StringLiteral: a parsed document has no symbol keys, so no issue's path holds one
  const path = issue.path.filter((p): p is string | number =>
    typeof p !== "symbol"
  );
  // Stryker restore MethodExpression,ConditionalExpression,StringLiteral
  if (issue.code === "unrecognized_keys") {
    // Stryker disable next-line StringLiteral: an issue of unknown keys names at least one
    const name = issue.keys[0] ?? "";
    const keyPath = [...path, name];
    const key = formatKeyPath(keyPath);
    const more = issue.keys.length > 1
      ? ` (and ${issue.keys.length - 1} more)`
      : "";
    const near = options.schema === undefined
      ? undefined
      : didYouMean(name, knownKeys(options.schema, path));
    return {
      detail: `unknown key ${JSON.stringify(key)}${more}`,
      key,
      line: nearestLine(lineOf, keyPath),
      hint: near === undefined ? undefined : `did you mean "${near}"?`,
      // Stryker disable next-line ConditionalExpression: a wrong guess only hides a missing key of that path, and no schema has a key named "undefined"
      meant: near === undefined ? undefined : formatKeyPath([...path, near]),
    };
  }
  const key = formatKeyPath(path);
  const line = nearestLine(lineOf, path);
  const subject = path.length === 0 ? "the file" : JSON.stringify(key);
  const input = issue.input;
  // Stryker disable next-line ConditionalExpression: no reader gives its schema nothing for a whole file: an empty YAML file is null, and TOML and JSON always give a value
  const empty = path.length === 0 && (input === null || input === undefined);
  let detail: string;
  // Stryker disable next-line ConditionalExpression: zod's own issues carry no params
  if (issue.code === "custom" && issue.params?.["detail"] === true) {
    detail = issue.message;
  } else if (empty) {
    detail = "the file is empty";
  } else if (input === undefined) {
    return {
      detail: `missing key ${JSON.stringify(key)}`,
      key,
      line,
      missing: true,
    };
  } else if (issue.code === "invalid_type") {
    detail = `${subject} must be ${expected(issue.expected)}, not ${
      shown(input)
    }`;
  } else if (issue.code === "invalid_value") {
    detail = `${subject} must be ${
      issue.values.map((v) => JSON.stringify(v)).join(" or ")
    }, not ${shown(input)}`;
  } else if (issue.code === "too_small") {
    detail = `${subject} must be ${
      issue.origin === "number" ? "an integer of " : ""
    }at least ${issue.minimum}, not ${shown(input)}`;
  } else {
    detail = `${subject} ${issue.message}`;
  }
  return { detail, key, line };
}

/** The 1-based line of `path`, or of its closest ancestor that has one. */
export function nearestLine(
  lineOf: LineOf,
  path: YamlPath,
): number | undefined {
  for (let n = path.length; n >= 0; n--) {
    const line = lineOf(path.slice(0, n));
    if (line !== undefined) return line;
  }
  return undefined;
}

function expected(type: string): string {
  switch (type) {
    case "object":
      return "a mapping";
    case "array":
      return "a list";
    case "string":
      return "a string";
    case "boolean":
      return "true or false";
    case "number":
    case "int":
      return "an integer";
    case "record":
      return "a mapping";
    default:
      return `of type ${type}`;
  }
}

function shown(input: unknown): string {
  if (input === null) return "null";
  if (Array.isArray(input)) return "a list";
  if (typeof input === "object") return "a mapping";
  if (typeof input === "bigint") return String(input);
  const text = JSON.stringify(input) ?? String(input);
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
}
