/**
 * The shared reading step of this folder's two YAML files: strict YAML,
 * then a strict zod schema, with the first schema problem turned into a
 * {@linkcode ContractSyntaxError} that names the file, the key path and the
 * line.
 *
 * @module
 */
import type { z } from "zod";
import { ContractSyntaxError } from "../contract_syntax_error.ts";
import { formatKeyPath } from "../format_key_path.ts";
import {
  parseYamlDocument,
  type YamlDocument,
  type YamlPath,
} from "../parse_yaml_document.ts";

/** Options for {@linkcode readYamlSchema}. */
export interface ReadYamlSchemaOptions {
  /** Repository-relative path, for messages. */
  path: string;
  /** Refuse files larger than this many bytes (default 1 MiB). */
  maxBytes?: number | undefined;
  /** What an empty document means (default: the schema sees `null`). */
  emptyValue?: unknown;
}

/** A validated document and its source lines. */
export interface ReadYamlSchemaResult<T> {
  /** The validated value. */
  data: T;
  /** The parsed document, for line lookups. */
  doc: YamlDocument;
}

/** Parse `text` as YAML and validate it with `schema`; throws `ContractSyntaxError`. */
export function readYamlSchema<S extends z.ZodType>(
  text: string,
  schema: S,
  options: ReadYamlSchemaOptions,
): ReadYamlSchemaResult<z.output<S>> {
  const { path } = options;
  const doc = parseYamlDocument(
    text,
    path,
    options.maxBytes === undefined ? {} : { maxBytes: options.maxBytes },
  );
  const value = doc.value === null && "emptyValue" in options
    ? options.emptyValue
    : doc.value;
  const result = schema.safeParse(value, { reportInput: true });
  if (!result.success) throw issueError(path, doc, result.error.issues);
  return { data: result.data, doc };
}

/** The 1-based line of `path`, or of its closest ancestor that exists. */
export function nearestLine(
  doc: YamlDocument,
  path: YamlPath,
): number | undefined {
  for (let n = path.length; n >= 0; n--) {
    const line = doc.lineOf(path.slice(0, n));
    if (line !== undefined) return line;
  }
  return undefined;
}

function issueError(
  path: string,
  doc: YamlDocument,
  issues: readonly z.core.$ZodIssue[],
): ContractSyntaxError {
  const described = issues.map((issue) => describe(issue, doc));
  // Report the problem nearest the top of the file; ties keep schema order.
  described.sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
  const first = described[0];
  if (first === undefined) {
    return new ContractSyntaxError(path, "the file does not match its schema");
  }
  return new ContractSyntaxError(path, first.detail, {
    line: first.line,
    key: first.key,
  });
}

interface DescribedIssue {
  detail: string;
  key: string;
  line: number | undefined;
}

function describe(issue: z.core.$ZodIssue, doc: YamlDocument): DescribedIssue {
  const path = issue.path.filter((p): p is string | number =>
    typeof p !== "symbol"
  );
  if (issue.code === "unrecognized_keys") {
    const name = issue.keys[0] ?? "";
    const keyPath = [...path, name];
    const key = formatKeyPath(keyPath);
    const more = issue.keys.length > 1
      ? ` (and ${issue.keys.length - 1} more)`
      : "";
    return {
      detail: `unknown key ${JSON.stringify(key)}${more}`,
      key,
      line: nearestLine(doc, keyPath),
    };
  }
  const key = formatKeyPath(path);
  const line = nearestLine(doc, path);
  const subject = path.length === 0 ? "the file" : JSON.stringify(key);
  const input = issue.input;
  let detail: string;
  if (issue.code === "custom" && issue.params?.["detail"] === true) {
    detail = issue.message;
  } else if (path.length === 0 && (input === null || input === undefined)) {
    detail = "the file is empty";
  } else if (input === undefined) {
    detail = `missing key ${JSON.stringify(key)}`;
  } else if (issue.code === "invalid_type") {
    detail = `${subject} must be ${expected(issue.expected)}, not ${
      shown(input)
    }`;
  } else if (issue.code === "invalid_value") {
    detail = `${subject} must be ${
      issue.values.map((v) => JSON.stringify(v)).join(" or ")
    }, not ${shown(input)}`;
  } else if (issue.code === "too_small" && issue.origin === "number") {
    detail = `${subject} must be an integer of at least ${issue.minimum}, not ${
      shown(input)
    }`;
  } else {
    detail = `${subject} ${issue.message}`;
  }
  return { detail, key, line };
}

function expected(type: string): string {
  switch (type) {
    case "object":
      return "a mapping";
    case "array":
      return "a list";
    case "string":
      return "a string";
    case "number":
    case "int":
      return "an integer";
    default:
      return `of type ${type}`;
  }
}

function shown(input: unknown): string {
  if (input === null) return "null";
  if (Array.isArray(input)) return "a list";
  if (typeof input === "object") return "a mapping";
  const text = JSON.stringify(input) ?? String(input);
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
}
