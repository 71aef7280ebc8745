/**
 * The shared reading step of this folder's two YAML files: strict YAML,
 * then a strict zod schema, with the first schema problem turned into a
 * {@linkcode ContractSyntaxError} that names the file, the key path and the
 * line.
 *
 * @module
 */
import type { z } from "zod";
import { schemaIssueError } from "../../contract/schema_issue_error.ts";
import { ContractSyntaxError } from "../../contract/contract_syntax_error.ts";
import {
  parseYamlDocument,
  type YamlDocument,
} from "../../contract/parse_yaml_document.ts";

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
    { maxBytes: options.maxBytes },
  );
  const value = doc.value === null && "emptyValue" in options
    ? options.emptyValue
    : doc.value;
  const result = schema.safeParse(value, { reportInput: true });
  if (!result.success) throw issueError(path, doc, result.error.issues, schema);
  return { data: result.data, doc };
}

function issueError(
  path: string,
  doc: YamlDocument,
  issues: readonly z.core.$ZodIssue[],
  schema: z.ZodType,
): ContractSyntaxError {
  return schemaIssueError(path, issues, (keyPath) => doc.lineOf(keyPath), {
    schema,
  });
}

/** Lines of a file's top-level keys and of the entries of one list in it. */
export interface EntryLines {
  /** 1-based line of a top-level key. */
  key(name: string): number | undefined;
  /** 1-based line of the entry with `id`, or of its `key` as written. */
  entry(id: string, key?: string): number | undefined;
}

/** Line lookups for the list under `listKey`, whose entries have `ids` in order. */
export function entryLines(
  doc: Pick<YamlDocument, "lineOf">,
  listKey: string,
  ids: readonly string[],
): EntryLines {
  const index = new Map(ids.map((id, i) => [id, i]));
  return {
    key: (name) => doc.lineOf([name]),
    entry(id, key) {
      const i = index.get(id);
      // Stryker disable next-line ConditionalExpression: a path with no index in it finds no line either
      if (i === undefined) return undefined;
      return doc.lineOf(key === undefined ? [listKey, i] : [listKey, i, key]);
    },
  };
}
