/**
 * Seed 002, step 5: "Reject patches that grow examples without a contract
 * delta". The seed counts `assertEqual` lines in a diff with grep; pawl
 * counts example assertions in parsed source.
 *
 * @module
 */
import { type Finding, finding } from "../../core/finding.ts";
import type { ExampleAssertionDelta } from "./example_assertion_deltas.ts";
import type { ContractStrengthening } from "./strengthened_contracts.ts";
import { plural } from "../../core/plural.ts";

/** Options for {@linkcode checkExampleOnly}. */
export interface CheckExampleOnlyOptions {
  /** Example assertions per changed test file ({@linkcode exampleAssertionDeltas}). */
  deltas: readonly ExampleAssertionDelta[];
  /** The pull request's contract delta ({@linkcode strengthenedContracts}). */
  strengthenings: readonly ContractStrengthening[];
  /** Repository-relative path of the contracts file, for the message. */
  contractsPath: string;
}

/**
 * `tests.unproven` when the changed test files hold more example assertions
 * at head than at base in total, and the pull request neither added nor
 * strengthened a contract. A pull request that changes no tests, removes or
 * moves examples, or strengthens a contract passes. The finding points at
 * the first test file whose count grew.
 *
 * @example
 * ```ts
 * import { checkExampleOnly } from "./check_example_only.ts";
 * const findings = checkExampleOnly({
 *   deltas: [{ path: "tests/test_a.py", base: 1, head: 4, line: 7 }],
 *   strengthenings: [],
 *   contractsPath: "contracts.yml",
 * });
 * if (findings[0]?.rule !== "tests.unproven") throw new Error();
 * ```
 */
export function checkExampleOnly(options: CheckExampleOnlyOptions): Finding[] {
  const { deltas, strengthenings } = options;
  let base = 0;
  let head = 0;
  for (const delta of deltas) {
    base += delta.base;
    head += delta.head;
  }
  if (head <= base || strengthenings.length > 0) return [];
  const grown = deltas.find((d) => d.head > d.base) ?? deltas[0];
  const added = head - base;
  // The total grew, so some file grew and `grown` is never undefined: the
  // check below only narrows its type.
  // Stryker disable next-line ObjectLiteral: used only when `grown` is undefined, which it never is
  const fallback = { path: options.contractsPath };
  // Stryker disable next-line ConditionalExpression: `grown` is never undefined
  const where = grown === undefined
    ? fallback
    : { path: grown.path, line: grown.line };
  return [finding(
    "tests.unproven",
    `Example-only test diff is unproven: the pull request adds ${
      plural(added, "example assertion")
    } (${base} → ${head} in ${
      plural(deltas.length, "changed test file")
    }) but adds or strengthens no contract in ${
      JSON.stringify(options.contractsPath)
    }; add a public contract whose predicate can fail on inputs the patch did not hard-code`,
    where,
  )];
}
