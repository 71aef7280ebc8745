/**
 * Test builders for this folder: hand-built trees, Python analyses and the
 * seed's example contract.
 *
 * @module
 */
import assert from "node:assert/strict";
import { ContractSyntaxError } from "../../contract/contract_syntax_error.ts";
import type { Finding } from "../../core/finding.ts";
import type { EntryKind, Tree, TreeEntry } from "../../git/git.ts";
import type {
  HypothesisSettings,
  PythonFunction,
  PythonModule,
} from "../../python/python_module.ts";
import {
  type AgentContract,
  NO_LINES,
  readAgentContract,
} from "./read_agent_contract.ts";

/** The contract path used in tests. */
export const CONTRACT = "tests/agent_contract.yaml";

/** A digest of 64 lowercase hex digits made of one repeated digit. */
export function sha(digit: string): string {
  return digit.repeat(64);
}

/** The seed's example digest of `invoice_v3.json`. */
export const INVOICE_SHA =
  "8f3a1c0e0b77d2a19c4e6b1f0a9d5c2e7b8a4f1c0d6e9b3a5c7d1e0f2a4b6c8d";

/** Seed 000's example contract, verbatim. */
export const SEED_CONTRACT = `# tests/agent_contract.yaml
version: 1
properties:
  - id: parse_rejects_empty
    module: tests.properties.test_parse
    name: test_empty_input_raises
    min_examples: 40
  - id: roundtrip_stable
    module: tests.properties.test_codec
    name: test_decode_encode_identity
    min_examples: 80
fixtures:
  - id: invoice_v3
    path: tests/fixtures/invoice_v3.json
    sha256: ${INVOICE_SHA}
    unlock: null
freezes:
  - id: test_report_render_flaky
    owner: "oncall-payments"
    reason: "clock skew in renderer; tracked as PAY-4412"
    expires: "2026-09-22T00:00:00Z"
    remaining_reruns: 2
max_active_freezes: 3
`;

/** A tree holding `files` (path → kind, default `file`) and their parent directories. */
export function treeOf(files: Record<string, EntryKind>): Tree {
  const tree = new Map<string, TreeEntry>();
  for (const [path, kind] of Object.entries(files)) {
    const segments = path.split("/");
    for (let n = 1; n < segments.length; n++) {
      const dir = segments.slice(0, n).join("/");
      if (!tree.has(dir)) {
        tree.set(dir, { path: dir, kind: "tree", oid: `t:${dir}`, size: 0 });
      }
    }
    tree.set(path, { path, kind, oid: `o:${path}`, size: 10 });
  }
  return tree;
}

/** Options for {@linkcode pyFunction}. */
export interface PyFunctionOptions {
  /** `max_examples` literal; `undefined` for no `@settings`. */
  maxExamples?: number;
  /** Extra keyword arguments of `@settings`, as source text. */
  keywords?: Record<string, string>;
  /** Whether the test uses `@given` (default true). */
  usesHypothesis?: boolean;
  /** `max_examples` is not a literal. */
  dynamic?: boolean;
  /** Vacuity found by the analysis. */
  vacuity?: PythonFunction["vacuity"];
  /** `def` line (default 10). */
  line?: number;
}

/** A hand-built analysis of one test function. */
export function pyFunction(
  qualname: string,
  options: PyFunctionOptions = {},
): PythonFunction {
  const line = options.line ?? 10;
  const fn: PythonFunction = {
    name: qualname.split(".").at(-1) ?? qualname,
    qualname,
    line,
    endLine: line + 3,
    source: `def ${qualname}(x):\n    assert f(x) > 0`,
    decorators: [],
    usesHypothesis: options.usesHypothesis ?? true,
    skips: [],
    exampleAssertions: 0,
  };
  const keywords = { ...options.keywords };
  if (options.maxExamples !== undefined) {
    keywords["max_examples"] = String(options.maxExamples);
  }
  if (options.dynamic === true) keywords["max_examples"] = "N_EXAMPLES";
  if (Object.keys(keywords).length > 0 || options.dynamic === true) {
    const settings: HypothesisSettings = { line: line - 2, keywords };
    if (options.maxExamples !== undefined) {
      settings.maxExamples = options.maxExamples;
    }
    if (options.dynamic === true) settings.maxExamplesDynamic = true;
    fn.settings = settings;
  }
  if (options.vacuity !== undefined) fn.vacuity = options.vacuity;
  return fn;
}

/** A hand-built analysis of one module. */
export function pyModule(...functions: PythonFunction[]): PythonModule {
  return { functions: new Map(functions.map((fn) => [fn.qualname, fn])) };
}

/** A contract built in code (no lines), empty unless `parts` says otherwise. */
export function agentContract(
  parts: Partial<AgentContract> = {},
): AgentContract {
  return {
    version: 1,
    properties: [],
    fixtures: [],
    freezes: [],
    maxActiveFreezes: 0,
    lines: NO_LINES,
    ...parts,
  };
}

/** The blocking findings' rule ids, sorted. */
export function blockingRules(findings: readonly Finding[]): string[] {
  return findings.filter((f) => f.blocking).map((f) => f.rule).sort();
}

/** The seed contract with `from` replaced by `to` (which must occur once). */
export function edit(from: string, to: string): string {
  assert.equal(SEED_CONTRACT.split(from).length, 2, `one ${from}`);
  return SEED_CONTRACT.replace(from, to);
}

/** The error reading `text` as the contract at {@linkcode CONTRACT} gives; fails when it is read. */
export function refusal(text: string): ContractSyntaxError {
  try {
    readAgentContract(text, { path: CONTRACT });
  } catch (error) {
    assert.ok(error instanceof ContractSyntaxError);
    assert.equal(error.path, CONTRACT);
    assert.ok(error.message.startsWith(`Cannot read contract "${CONTRACT}": `));
    return error;
  }
  assert.fail("expected the contract to be refused");
}
