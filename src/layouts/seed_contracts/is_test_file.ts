/**
 * Which changed files count as tests for seed 002's example-only rule.
 *
 * @module
 */

/**
 * Whether a repository-relative path is a Python test file: a `.py` file in
 * a directory named `tests` (at any depth, so `tests/` and `pkg/tests/`),
 * or a file named `test_*.py` or `*_test.py` anywhere (pytest's default
 * discovery patterns).
 *
 * @example
 * ```ts
 * import { isTestFile } from "./is_test_file.ts";
 * if (!isTestFile("tests/unit/helpers.py")) throw new Error();
 * if (!isTestFile("billing/test_ledger.py") || !isTestFile("billing/ledger_test.py")) throw new Error();
 * if (isTestFile("billing/ledger.py") || isTestFile("tests/data.json")) throw new Error();
 * ```
 */
export function isTestFile(path: string): boolean {
  if (!path.endsWith(".py")) return false;
  const segments = path.split("/");
  // Stryker disable next-line StringLiteral: split always yields at least one segment, so pop never comes back empty-handed
  const name = segments.pop() ?? "";
  if (segments.includes("tests")) return true;
  return (name.startsWith("test_") && name.length > "test_.py".length) ||
    (name.endsWith("_test.py") && name.length > "_test.py".length);
}
