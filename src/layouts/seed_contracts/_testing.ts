/**
 * Test builders for seed 002: the seed's example files and hand-built
 * trees and analyses.
 *
 * @module
 */
import type { EntryKind, Tree, TreeEntry } from "../../git/git.ts";
import type {
  PythonFunction,
  PythonModule,
} from "../../python/python_module.ts";

/** The contract test file of the seed's example. */
export const LEDGER_TEST = "tests/contracts/test_ledger_contracts.py";

/** pawl's example `contracts.yml` (design.md), verbatim but for comments. */
export const SEED_CONTRACTS = `version: 1
contracts:
  - id: ledger.apply.idempotent
    function: billing.ledger.apply
    test: tests/contracts/test_ledger_contracts.py::test_apply_contract
    min_trials: 200
`;

/** Seed 002's example `flake_freeze.yml`, verbatim. */
export const SEED_FREEZE =
  `# flake_freeze.yml — human-owned; agent patches that touch this file fail CI
freezes:
  - id: F-184
    test: tests/contracts/test_ledger_contracts.py::test_apply_contract
    seed: 1725781203
    witness_sha256: "9c56cc51b374c32ba11507e6e0c2484e"
    owner: "platform-payments"
    expires: "2026-09-15"
    reason: "empty currency code vs concurrent apply"
    skip: false
`;

/** The seed's review date: "the review is on 2026-09-08". */
export const REVIEW_DAY = Date.parse("2026-09-08T12:00:00Z");

/** A tree holding `files` (path → kind) and their parent directories; oids are `o:<path>` unless given. */
export function treeOf(
  files: Record<string, EntryKind | { kind: EntryKind; oid: string }>,
): Tree {
  const tree = new Map<string, TreeEntry>();
  for (const [path, spec] of Object.entries(files)) {
    const segments = path.split("/");
    for (let n = 1; n < segments.length; n++) {
      const dir = segments.slice(0, n).join("/");
      if (!tree.has(dir)) {
        tree.set(dir, { path: dir, kind: "tree", oid: `t:${dir}`, size: 0 });
      }
    }
    const { kind, oid } = typeof spec === "string"
      ? { kind: spec, oid: `o:${path}` }
      : spec;
    tree.set(path, { path, kind, oid, size: 10 });
  }
  return tree;
}

/** Options for {@linkcode pyFunction}. */
export interface PyFunctionOptions {
  /** Example assertions (default 0). */
  examples?: number;
  /** Vacuity found by the analysis. */
  vacuity?: PythonFunction["vacuity"];
  /** Source text (default a one-line predicate). */
  source?: string;
  /** `def` line (default 10). */
  line?: number;
  /** Earlier definitions with the same name. */
  shadowedLines?: number[];
}

/** A hand-built analysis of one function. */
export function pyFunction(
  qualname: string,
  options: PyFunctionOptions = {},
): PythonFunction {
  const line = options.line ?? 10;
  const fn: PythonFunction = {
    name: qualname.split(".").at(-1) ?? qualname,
    qualname,
    line,
    endLine: line + 1,
    source: options.source ?? `def ${qualname}():\n    assert holds(x)`,
    decorators: [],
    usesHypothesis: false,
    skips: [],
    exampleAssertions: options.examples ?? 0,
  };
  if (options.vacuity !== undefined) fn.vacuity = options.vacuity;
  if (options.shadowedLines !== undefined) {
    fn.shadowedLines = options.shadowedLines;
  }
  return fn;
}

/** A hand-built analysis of one module. */
export function pyModule(...functions: PythonFunction[]): PythonModule {
  return { functions: new Map(functions.map((fn) => [fn.qualname, fn])) };
}
