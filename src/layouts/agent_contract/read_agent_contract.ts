/**
 * Reads seed 000's `tests/agent_contract.yaml` into a typed, line-aware
 * {@linkcode AgentContract}.
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
import { agentContractSchema } from "./agent_contract_schema.ts";

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
    // Stryker disable next-line ConditionalExpression: parseYamlDocument reads an undefined maxBytes as its default, so passing it through changes nothing at run time (the split is for exactOptionalPropertyTypes); the check forced true is detected by the size-cap test
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
        // Stryker disable next-line ConditionalExpression: both YAML readers give no line for a list index that is not a number, and the schema lets a section be only a list or null; the check forced true is detected by the line tests
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
  return schemaIssueError(path, issues, (keyPath) => doc.lineOf(keyPath), {
    schema: agentContractSchema,
  });
}
