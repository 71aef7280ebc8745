/**
 * Reads `contracts.yml` into a typed, line-aware {@linkcode SeedContracts}.
 *
 * @module
 */
import { entryLines, readYamlSchema } from "./_read_yaml_schema.ts";
import { contractsFileSchema } from "./contracts_schema.ts";

/** Where seed 002's contracts live (repository root). */
export const CONTRACTS_PATH = "contracts.yml";

/** One contract: a predicate test on a public function. */
export interface SeedContract {
  /** Stable id; removing or renaming it is a weakening. */
  id: string;
  /** Dotted path of the function under contract, e.g. `billing.ledger.apply`. */
  function: string;
  /** pytest node id of the contract test. */
  test: string;
  /** `CONTRACT_TRIALS` on the fresh-seed run. */
  minTrials: number;
}

/** Source lines of a contracts file, looked up by id so they survive reordering. */
export interface SeedContractLines {
  /** 1-based line of a top-level key (`version`, `contracts`). */
  key(name: string): number | undefined;
  /** 1-based line of the contract with `id`, or of its `key` as written (e.g. `min_trials`). */
  entry(id: string, key?: string): number | undefined;
}

/** Lines for contracts built in code. */
export const NO_CONTRACT_LINES: SeedContractLines = {
  key: () => undefined,
  entry: () => undefined,
};

/** A validated `contracts.yml`. */
export interface SeedContracts {
  /** Always 1. */
  version: 1;
  /** The contracts, in file order (empty when the key is absent). */
  contracts: readonly SeedContract[];
  /** Where things are in the file. */
  lines: SeedContractLines;
}

/** Options for {@linkcode readContracts}. */
export interface ReadContractsOptions {
  /** Repository-relative path, for messages (default `contracts.yml`). */
  path?: string;
  /** Refuse files larger than this many bytes (default 1 MiB). */
  maxBytes?: number;
}

/**
 * Parse and validate `contracts.yml`. Throws `ContractSyntaxError` naming
 * the file, the key path (e.g. `contracts[1].min_trials`) and the line of
 * the first problem; see `contracts_schema.ts` for what is a schema error.
 *
 * @example
 * ```ts
 * import { readContracts } from "./read_contracts.ts";
 * const file = readContracts(
 *   "version: 1\ncontracts:\n  - id: c\n    function: billing.ledger.apply\n" +
 *     "    test: tests/contracts/test_ledger.py::test_apply\n    min_trials: 200\n",
 * );
 * if (file.contracts[0]?.minTrials !== 200) throw new Error();
 * if (file.lines.entry("c", "min_trials") !== 6) throw new Error();
 * ```
 */
export function readContracts(
  text: string,
  options: ReadContractsOptions = {},
): SeedContracts {
  const { data, doc } = readYamlSchema(text, contractsFileSchema, {
    path: options.path ?? CONTRACTS_PATH,
    maxBytes: options.maxBytes,
  });
  const contracts = (data.contracts ?? []).map((c) => ({
    id: c.id,
    function: c.function,
    test: c.test,
    minTrials: c.min_trials,
  }));
  return {
    version: 1,
    contracts,
    lines: entryLines(doc, "contracts", contracts.map((c) => c.id)),
  };
}
