/**
 * A contract is only as good as its test: the test must exist at head and
 * must be able to fail. Judged on parsed source (`PythonModule`), never on
 * regular expressions over files.
 *
 * @module
 */
import { type Finding, finding } from "../../core/finding.ts";
import type { Tree } from "../../git/git.ts";
import type {
  PythonModule,
  VacuityReason,
} from "../../python/python_module.ts";
import { contractTestRef } from "./contract_test_ref.ts";
import type { SeedContracts } from "./read_contracts.ts";

/** Options for {@linkcode checkContractTests}. */
export interface CheckContractTestsOptions {
  /** The head commit's tree. */
  headTree: Tree;
  /** Head analyses of the contract test files, keyed by path. */
  modules: ReadonlyMap<string, PythonModule>;
  /** Repository-relative path of the contracts file, for findings. */
  path: string;
}

const VACUITY: Record<VacuityReason, string> = {
  "no_assertion": "it has no assertion",
  constant: "it only asserts a constant (such as assert True)",
  tautology: "it only compares an expression with itself",
};

/**
 * Judge every contract's test at head:
 * - the test file is not a regular file in the head tree (or was not
 *   analysed) → `property.module_missing` (contracts file line);
 * - no such function or method in it → `property.test_missing`;
 * - the analysis found it cannot fail → `property.vacuous` (test file, at
 *   the assertion);
 * - a later definition with the same name replaces it →
 *   `property.shadowed` (test file, at the later `def`).
 *
 * @example
 * ```ts
 * import { checkContractTests } from "./check_contract_tests.ts";
 * import { NO_CONTRACT_LINES } from "./read_contracts.ts";
 * const findings = checkContractTests({
 *   version: 1, lines: NO_CONTRACT_LINES,
 *   contracts: [{ id: "c", function: "billing.ledger.apply", test: "tests/test_l.py::test_a", minTrials: 1 }],
 * }, { headTree: new Map(), modules: new Map(), path: "contracts.yml" });
 * if (findings[0]?.rule !== "property.module_missing") throw new Error();
 * ```
 */
export function checkContractTests(
  contracts: SeedContracts,
  options: CheckContractTestsOptions,
): Finding[] {
  const { headTree, modules, path } = options;
  const lines = contracts.lines;
  const findings: Finding[] = [];
  for (const contract of contracts.contracts) {
    const name = JSON.stringify(contract.id);
    const ref = contractTestRef(contract.test);
    const at = { path, line: lines.entry(contract.id, "test") };
    const kind = headTree.get(ref.file)?.kind;
    const module = modules.get(ref.file);
    if ((kind !== "file" && kind !== "executable") || module === undefined) {
      findings.push(finding(
        "property.module_missing",
        `Contract ${name} test file ${
          JSON.stringify(ref.file)
        } is not a regular file at head: restore the test, do not delete the contract`,
        at,
      ));
      continue;
    }
    const fn = module.functions.get(ref.name);
    if (fn === undefined) {
      const syntax = module.syntaxError;
      findings.push(finding(
        "property.test_missing",
        `Contract ${name} test ${JSON.stringify(ref.name)} is not defined in ${
          JSON.stringify(ref.file)
        }${
          syntax === undefined
            ? ""
            : ` (the file has a syntax error at line ${syntax.line})`
        }: restore the test, do not delete the contract`,
        at,
      ));
      continue;
    }
    const testName = `Contract ${name} test ${JSON.stringify(contract.test)}`;
    if (fn.vacuity !== undefined) {
      findings.push(finding(
        "property.vacuous",
        `${testName} cannot fail: ${
          VACUITY[fn.vacuity.reason]
        }; write a predicate that can fail on an input the patch did not hard-code`,
        { path: ref.file, line: fn.vacuity.line },
      ));
    }
    if (fn.shadowedLines !== undefined && fn.shadowedLines.length > 0) {
      findings.push(finding(
        "property.shadowed",
        `${testName} is defined again at line ${fn.line}, so pytest runs only the later definition: remove the duplicate`,
        { path: ref.file, line: fn.line },
      ));
    }
  }
  return findings;
}
