/**
 * The contract layouts pawl knows, one folder each: seed 000's
 * `tests/agent_contract.yaml` in `agent_contract/`, seed 003's
 * `invariants.toml`, `fixtures.lock` and `freeze.yml` in `invariants/`, and
 * seed 002's `contracts.yaml` and `flake_freeze.yaml` in `seed_contracts/`.
 * Each folder holds the layout's readers, rules, test plan and its
 * {@linkcode Dialect}; the orchestrator sees a layout only through that
 * interface and the {@linkcode DIALECT_ENTRIES} registry, so a new layout is
 * a new folder and one entry here.
 *
 * The registry holds each layout's id, its files and a loader for its
 * dialect, so a judgement loads the code of the layouts its base holds and
 * no other (each layout's readers and schemas are most of what the gate
 * loads before it reads a contract); `registry_test.ts` keeps the entries
 * equal to the dialects.
 *
 * @module
 */
import type { Tree } from "../git/git.ts";
import type { Dialect, DialectId } from "./dialect.ts";

export type * from "./dialect.ts";
export * from "./base_problems.ts";
export * from "./parsed_texts.ts";

/** One layout, before its code is loaded. */
export interface DialectEntry {
  /** The dialect's id. */
  readonly id: DialectId;
  /** The dialect's files: it is present when any of them is in the tree. */
  readonly files: readonly string[];
  /** The layout's dialect (its module is loaded on the first call). */
  load(): Promise<Dialect>;
}

/** Every layout pawl knows, in report order. */
export const DIALECT_ENTRIES: readonly DialectEntry[] = [
  {
    id: "000",
    files: ["tests/agent_contract.yaml"],
    load: async () =>
      (await import("./agent_contract/agent_contract_dialect.ts"))
        .agentContractDialect,
  },
  {
    id: "003",
    files: ["invariants.toml", "fixtures.lock", "freeze.yml"],
    load: async () =>
      (await import("./invariants/invariants_dialect.ts")).invariantsDialect,
  },
  {
    id: "002",
    files: ["contracts.yml", "flake_freeze.yml"],
    load: async () =>
      (await import("./seed_contracts/seed_contracts_dialect.ts"))
        .seedContractsDialect,
  },
];

/**
 * Every layout's dialect, in report order: for a thread that is idle anyway
 * (waiting for `git clone`), so the layout a base holds is loaded already.
 */
export function loadAllDialects(): Promise<Dialect[]> {
  return Promise.all(DIALECT_ENTRIES.map((e) => e.load()));
}

/**
 * The dialects present in `tree`, in report order, loading only their code.
 *
 * @example
 * ```ts
 * import { presentDialects } from "./mod.ts";
 * const entry = { path: "freeze.yml", kind: "file" as const, oid: "1", size: 1 };
 * const [one, ...rest] = await presentDialects(new Map([[entry.path, entry]]));
 * if (one?.id !== "003" || rest.length !== 0) throw new Error();
 * ```
 */
export async function presentDialects(tree: Tree): Promise<Dialect[]> {
  // Stryker disable next-line MethodExpression: only saves loading absent layouts' code; the filter below keeps the same dialects, since each one's presentIn asks for one of its files
  const entries = DIALECT_ENTRIES.filter((e) =>
    e.files.some((path) => tree.has(path))
  );
  const dialects = await Promise.all(entries.map((e) => e.load()));
  // Stryker disable next-line MethodExpression: an entry's files are its dialect's files (registry_test pins them) and each presentIn asks for one of them, so the entries above are present already
  return dialects.filter((d) => d.presentIn(tree));
}
