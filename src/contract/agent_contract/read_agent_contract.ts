/**
 * Reads seed 000's `tests/agent_contract.yaml` into a typed, line-aware
 * {@linkcode AgentContract}.
 *
 * @module
 */
import type { z } from "zod";
import { ContractSyntaxError } from "../contract_syntax_error.ts";
import {
  parseYamlDocument,
  type YamlDocument,
  type YamlPath,
} from "../parse_yaml_document.ts";
import { agentContractSchema } from "./agent_contract_schema.ts";
import { formatKeyPath } from "../format_key_path.ts";

/** Where seed 000 keeps its contract. */
export const AGENT_CONTRACT_PATH = "tests/agent_contract.yaml";

/** A registered property: a Hypothesis test that must keep running. */
export interface ContractProperty {
  /** Stable id; removing or renaming it is a weakening. */
  id: string;
  /** Dotted module of the test, e.g. `tests.properties.test_parse`. */
  module: string;
  /** Test function, `test_x` or `Class.test_x`. */
  name: string;
  /** The fewest Hypothesis examples the test may run. */
  minExamples: number;
}

/** A content-addressed fixture. */
export interface ContractFixture {
  /** Stable id. */
  id: string;
  /** Repository-relative path, expected under `tests/fixtures/`. */
  path: string;
  /** Lowercase hex SHA-256 of the file's bytes. */
  sha256: string;
  /** A human's unlock note, or `null` (always `null` on agent branches). */
  unlock: string | null;
}

/** A budgeted flake exception. */
export interface ContractFreeze {
  /** Stable id (usually the frozen test's name). */
  id: string;
  /** Who owns the freeze; `""` when absent, which is a finding. */
  owner: string;
  /** Why it is frozen; `""` when absent, which is a finding. */
  reason: string;
  /** RFC 3339 expiry instant, as written. */
  expires: string;
  /** Reruns left before the frozen test fails the job. */
  remainingReruns: number;
}

/** The sections of the contract that hold entries with ids. */
export type ContractSection = "properties" | "fixtures" | "freezes";

/** Source lines of a contract, looked up by id so they survive reordering. */
export interface ContractLines {
  /** 1-based line of a top-level key such as `max_active_freezes`. */
  key(name: string): number | undefined;
  /**
   * 1-based line of the entry with `id` in `section`, or of its `key` (as
   * written in the file, e.g. `min_examples`) when given.
   */
  entry(
    section: ContractSection,
    id: string,
    key?: string,
  ): number | undefined;
}

/** A contract with no known lines, for contracts built in code. */
export const NO_LINES: ContractLines = {
  key: () => undefined,
  entry: () => undefined,
};

/** A validated `tests/agent_contract.yaml`. */
export interface AgentContract {
  /** Always 1. */
  version: 1;
  /** Registered properties (empty when the key is absent). */
  properties: readonly ContractProperty[];
  /** Registered fixtures (empty when the key is absent). */
  fixtures: readonly ContractFixture[];
  /** Active freezes (empty when the key is absent). */
  freezes: readonly ContractFreeze[];
  /** Most freezes allowed at once (0 when absent, allowed only without freezes). */
  maxActiveFreezes: number;
  /** Where things are in the file. */
  lines: ContractLines;
}

/** Options for {@linkcode readAgentContract}. */
export interface ReadAgentContractOptions {
  /** Repository-relative path, for messages (e.g. `tests/agent_contract.yaml`). */
  path: string;
  /** Refuse files larger than this many bytes (default 1 MiB). */
  maxBytes?: number;
}

/**
 * Parse and validate a contract file. Throws {@linkcode ContractSyntaxError}
 * naming the file, the key path (e.g. `properties[1].min_examples`) and the
 * line of the first problem in the file; see `agent_contract_schema.ts` for
 * which problems are schema errors rather than findings.
 *
 * @example
 * ```ts
 * import { readAgentContract } from "./read_agent_contract.ts";
 * const contract = readAgentContract(
 *   "version: 1\nproperties:\n  - id: p\n    module: tests.test_p\n    name: test_p\n    min_examples: 40\n",
 *   { path: "tests/agent_contract.yaml" },
 * );
 * if (contract.properties[0]?.minExamples !== 40) throw new Error();
 * if (contract.lines.entry("properties", "p", "min_examples") !== 6) throw new Error();
 * ```
 */
export function readAgentContract(
  text: string,
  options: ReadAgentContractOptions,
): AgentContract {
  const { path } = options;
  const doc = parseYamlDocument(
    text,
    path,
    options.maxBytes === undefined ? {} : { maxBytes: options.maxBytes },
  );
  const result = agentContractSchema.safeParse(doc.value, {
    reportInput: true,
  });
  if (!result.success) {
    throw issueError(path, doc, result.error.issues);
  }
  const file = result.data;
  const properties = (file.properties ?? []).map((p) => ({
    id: p.id,
    module: p.module,
    name: p.name,
    minExamples: p.min_examples,
  }));
  const fixtures = (file.fixtures ?? []).map((f) => ({
    id: f.id,
    path: f.path,
    sha256: f.sha256,
    unlock: f.unlock ?? null,
  }));
  const freezes = (file.freezes ?? []).map((f) => ({
    id: f.id,
    owner: f.owner ?? "",
    reason: f.reason ?? "",
    expires: f.expires,
    remainingReruns: f.remaining_reruns,
  }));
  const indexes = {
    properties: indexById(properties),
    fixtures: indexById(fixtures),
    freezes: indexById(freezes),
  };
  return {
    version: 1,
    properties,
    fixtures,
    freezes,
    maxActiveFreezes: file.max_active_freezes ?? 0,
    lines: {
      key: (name) => doc.lineOf([name]),
      entry(section, id, key) {
        const index = indexes[section].get(id);
        if (index === undefined) return undefined;
        return doc.lineOf(
          key === undefined ? [section, index] : [section, index, key],
        );
      },
    },
  };
}

function indexById(entries: readonly { id: string }[]): Map<string, number> {
  return new Map(entries.map((entry, index) => [entry.id, index]));
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
    return new ContractSyntaxError(
      path,
      "the contract does not match its schema",
    );
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
  const subject = path.length === 0 ? "the contract" : JSON.stringify(key);
  const input = issue.input;
  let detail: string;
  if (issue.code === "custom" && issue.params?.["detail"] === true) {
    detail = issue.message;
  } else if (path.length === 0 && (input === null || input === undefined)) {
    detail = "the contract is empty";
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
  } else if (issue.code === "too_small") {
    detail = `${subject} must be ${
      issue.origin === "number" ? "an integer of " : ""
    }at least ${issue.minimum}, not ${shown(input)}`;
  } else {
    detail = `${subject} ${issue.message}`;
  }
  return { detail, key, line };
}

function nearestLine(doc: YamlDocument, path: YamlPath): number | undefined {
  // A missing key has no line of its own: point at its closest ancestor.
  for (let n = path.length; n >= 0; n--) {
    const line = doc.lineOf(path.slice(0, n));
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
