/**
 * `pawl.toml` schema problems in words for the person editing the file:
 * `key "tests.timeout_seconds" must be a number, got a string`, not the
 * schema library's own text.
 *
 * @module
 */
import type { z } from "zod";
import { didYouMean } from "../contract/did_you_mean.ts";
import { knownKeys } from "../contract/known_keys.ts";

/** One settings problem: the sentence, the key path and a hint. */
export interface SettingsIssue {
  /** `key "tests.timeout_seconds" must be ...`, without the line. */
  detail: string;
  /** The quoted key as it appears in `detail`, where the line goes. */
  keyText: string;
  /** Dotted key path, e.g. `tests.timeout_seconds`. */
  key: string;
  /** The key path for line lookups, an array's items by number. */
  path: (string | number)[];
  /** A "did you mean" for an unknown key. */
  hint?: string | undefined;
  /** For an unknown key: the dotted key path it was probably meant to be. */
  meant?: string | undefined;
  /** The problem is a missing key. */
  missing?: boolean;
}

/** Describe one zod issue of `schema` over the parsed TOML `value`. */
export function describeSettingsIssue(
  issue: z.core.$ZodIssue,
  schema: z.ZodType,
  value: unknown,
): SettingsIssue {
  const parent = issue.path.map(String);
  const lookup = issue.path.map((p) => typeof p === "number" ? p : String(p));
  if (issue.code === "unrecognized_keys") {
    const name = issue.keys[0] ?? "";
    const path = [...parent, name];
    const keyText = `unknown key "${path.join(".")}"`;
    const near = didYouMean(name, knownKeys(schema, parent));
    const more = issue.keys.length > 1
      ? ` (and ${issue.keys.length - 1} more)`
      : "";
    return {
      detail: `${keyText}${more}`,
      keyText,
      key: path.join("."),
      path: [...lookup, name],
      hint: near === undefined ? undefined : `did you mean "${near}"?`,
      meant: near === undefined ? undefined : [...parent, near].join("."),
    };
  }
  const keyText = parent.length === 0
    ? "the file"
    : `key "${parent.join(".")}"`;
  const got = valueAt(value, parent);
  return {
    detail: `${keyText} ${requirement(issue, got)}`,
    keyText,
    key: parent.join("."),
    path: lookup,
    missing: issue.code === "invalid_type" && got === undefined,
  };
}

function requirement(issue: z.core.$ZodIssue, got: unknown): string {
  switch (issue.code) {
    case "invalid_type":
      if (got === undefined) return "is missing";
      if (issue.expected === "int") {
        return `must be a whole number, got ${shown(got)}`;
      }
      return `must be ${article(issue.expected)}, got ${kindOf(got)}`;
    case "too_small":
      return issue.origin === "array" || issue.origin === "string"
        ? `must not be empty`
        : `must be at least ${issue.minimum}, got ${shown(got)}`;
    case "too_big":
      return `must be at most ${issue.maximum}, got ${shown(got)}`;
    case "invalid_value":
      return `must be ${
        issue.values.map((v) => JSON.stringify(v)).join(" or ")
      }, got ${shown(got)}`;
    case "invalid_format":
      return `must be an upper-case environment variable name (A-Z, digits and "_", not starting with a digit), got ${
        shown(got)
      }`;
    case "custom":
      // A value that may be a credential is not repeated into logs.
      if (issue.params?.["secret"] === true) return issue.message;
      return issue.params?.["detail"] === true
        ? `${issue.message}, got ${shown(got)}`
        : `has a value pawl cannot use, got ${shown(got)}`;
    default:
      return `has a value pawl cannot use, got ${shown(got)}`;
  }
}

function article(type: string): string {
  switch (type) {
    case "number":
      return "a number";
    case "string":
      return "a string";
    case "boolean":
      return "true or false";
    case "array":
      return "a list";
    case "object":
      return "a table";
    default:
      return type;
  }
}

function kindOf(value: unknown): string {
  if (Array.isArray(value)) return "a list";
  if (value instanceof Date) return "a date";
  switch (typeof value) {
    case "string":
      return "a string";
    case "number":
    case "bigint":
      return "a number";
    case "boolean":
      return "true or false";
    case "object":
      return value === null ? "nothing" : "a table";
    default:
      return typeof value;
  }
}

function shown(value: unknown): string {
  if (typeof value === "string") {
    const text = JSON.stringify(value);
    return text.length > 40 ? `${text.slice(0, 37)}..."` : text;
  }
  if (typeof value === "number" || typeof value === "bigint") {
    return String(value);
  }
  return kindOf(value);
}

function valueAt(value: unknown, path: readonly string[]): unknown {
  let current = value;
  for (const key of path) {
    if (current === null || typeof current !== "object") return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}
