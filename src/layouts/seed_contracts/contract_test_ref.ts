/**
 * Naming a contract's test: `contracts.yml` and `flake_freeze.yml` name tests
 * by pytest node id (`tests/contracts/test_ledger.py::test_apply`, or
 * `...::TestLedger::test_apply` for a method); the test stage and the Python
 * analysis name them by file, dotted module and qualname.
 *
 * @module
 */

const IDENTIFIER = "[A-Za-z_][A-Za-z0-9_]*";

/**
 * A pytest node id as a contract may write it: a relative path of Python
 * identifiers ending in `.py`, then one or more `::identifier` parts (the
 * test, possibly inside classes). No parameter ids, no `..`, no absolute
 * paths, so the id is always a safe command-line argument.
 */
export const NODE_ID_PATTERN: RegExp = new RegExp(
  `^(?:${IDENTIFIER}/)*${IDENTIFIER}\\.py(?:::${IDENTIFIER})+$`,
);

/**
 * A dotted path to a function with at least a module and a name, e.g.
 * `billing.ledger.apply` or `billing.ledger.Ledger.apply`.
 */
export const FUNCTION_PATTERN: RegExp = new RegExp(
  `^${IDENTIFIER}(?:\\.${IDENTIFIER})+$`,
);

/** A contract test located three ways. */
export interface ContractTestRef {
  /** Repository-relative test file, e.g. `tests/contracts/test_ledger.py`. */
  file: string;
  /** Dotted module, e.g. `tests.contracts.test_ledger`. */
  module: string;
  /** Qualname in its module: `test_x` or `Class.test_x`. */
  name: string;
}

/**
 * Split a node id into file, dotted module and qualname. Throws a
 * `RangeError` for anything {@linkcode NODE_ID_PATTERN} refuses (the readers
 * refuse those first).
 *
 * @example
 * ```ts
 * import { contractTestRef } from "./contract_test_ref.ts";
 * const ref = contractTestRef("tests/contracts/test_ledger.py::TestLedger::test_apply");
 * if (ref.module !== "tests.contracts.test_ledger" || ref.name !== "TestLedger.test_apply") {
 *   throw new Error("unexpected");
 * }
 * ```
 */
export function contractTestRef(nodeId: string): ContractTestRef {
  if (!NODE_ID_PATTERN.test(nodeId)) {
    throw new RangeError(
      `Invalid test node id ${
        JSON.stringify(nodeId)
      }: expected "path/to/test_x.py::test_fn" or "path/to/test_x.py::Class::test_fn"`,
    );
  }
  // Stryker disable next-line StringLiteral: split gives at least one part, so the default is never taken
  const [file = "", ...names] = nodeId.split("::");
  return {
    file,
    module: file.slice(0, -".py".length).split("/").join("."),
    name: names.join("."),
  };
}
