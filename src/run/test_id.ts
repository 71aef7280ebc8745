/**
 * Naming tests the way pytest does. A contract names a test by dotted module
 * and function (`tests.properties.test_parse`, `Class.test_x`); pytest's
 * JUnit report names it by `classname` and `name`; the command line selects
 * it by node id (`tests/properties/test_parse.py::Class::test_x`). These
 * helpers translate between the three.
 *
 * @module
 */
import type { TestCaseResult } from "./parse_junit.ts";

/** A test registered in a contract: dotted module path and (possibly class-qualified) function name. */
export interface TestRef {
  /** Dotted module path, e.g. `tests.properties.test_parse`. */
  module: string;
  /** Function name, or `Class.function` for a method, e.g. `test_x` or `TestX.test_x`. */
  name: string;
}

/** Where pytest's JUnit report puts a test. */
export interface JunitAddress {
  /** The `classname` attribute. */
  classname: string;
  /** The `name` attribute; without a `[...]` suffix it also matches every parametrization. */
  name: string;
}

/** A failing case located in the tree, for findings and reruns. */
export interface CaseLocation {
  /** Repository-relative `.py` file (best effort when the report has no `file`). */
  file: string;
  /** pytest node id selecting exactly this case. */
  nodeId: string;
}

/** Options for {@linkcode locateCase}. */
export interface LocateCaseOptions {
  /** Tells whether a repository-relative path is a regular file; resolves where the module ends and classes begin. */
  isFile?: (path: string) => boolean;
}

const IDENTIFIER = String.raw`[\p{L}_][\p{L}\p{N}_]*`;
const DOTTED = new RegExp(`^${IDENTIFIER}(?:\\.${IDENTIFIER})*$`, "u");

/**
 * The pytest node id of a registered test, for selecting it on the command
 * line. Throws a `RangeError` for a module or name that is not a dotted
 * Python identifier path (so it can never be read as a command-line option).
 *
 * @example
 * ```ts
 * import { nodeId } from "./test_id.ts";
 * if (nodeId("tests.properties.test_parse", "TestX.test_x") !== "tests/properties/test_parse.py::TestX::test_x") {
 *   throw new Error("unexpected");
 * }
 * ```
 */
export function nodeId(module: string, name: string): string {
  if (!DOTTED.test(module)) {
    throw new RangeError(
      `Invalid test module "${module}": expected a dotted Python module path`,
    );
  }
  if (!DOTTED.test(name)) {
    throw new RangeError(
      `Invalid test name "${name}": expected a function name or "Class.function"`,
    );
  }
  return `${module.split(".").join("/")}.py::${name.split(".").join("::")}`;
}

/**
 * Where pytest's JUnit report puts the test with this node id (pytest's own
 * `mangle_test_address`): the path loses `.py` and its slashes become dots,
 * classes are appended, and the last part (with any parameter id) is the name.
 *
 * @example
 * ```ts
 * import { junitAddress } from "./test_id.ts";
 * const a = junitAddress("tests/test_a.py::TestX::test_y[1]");
 * if (a.classname !== "tests.test_a.TestX" || a.name !== "test_y[1]") throw new Error("unexpected");
 * ```
 */
export function junitAddress(id: string): JunitAddress {
  const bracket = id.indexOf("[");
  const path = bracket === -1 ? id : id.slice(0, bracket);
  const params = bracket === -1 ? "" : id.slice(bracket);
  const names = path.split("::");
  // Stryker disable next-line StringLiteral: split() always gives at least one part, so the fallback is never taken
  names[0] = (names[0] ?? "").replaceAll("/", ".").replace(/\.py$/, "");
  // Stryker disable next-line StringLiteral: split() always gives at least one part, so the fallback is never taken
  const name = (names.pop() ?? "") + params;
  return { classname: names.join("."), name };
}

/**
 * Whether a case is at an address; an address name without a parameter id
 * matches every parametrization of that test.
 */
export function matchesAddress(
  testCase: Pick<TestCaseResult, "classname" | "name">,
  address: JunitAddress,
): boolean {
  if (testCase.classname !== address.classname) return false;
  if (testCase.name === address.name) return true;
  return !address.name.includes("[") &&
    testCase.name.startsWith(`${address.name}[`);
}

/**
 * The cases of a registered test, parametrizations included, in report
 * order; empty when pytest did not report it (not collected or deselected).
 *
 * @example
 * ```ts
 * import { casesFor } from "./test_id.ts";
 * const cases = casesFor([
 *   { classname: "tests.test_a", name: "test_x[1]", outcome: "passed" },
 *   { classname: "tests.test_a", name: "test_xy", outcome: "passed" },
 * ], { module: "tests.test_a", name: "test_x" });
 * if (cases.length !== 1) throw new Error("unexpected");
 * ```
 */
export function casesFor(
  results: readonly TestCaseResult[],
  test: TestRef,
): TestCaseResult[] {
  const classes = test.name.split(".");
  // Stryker disable next-line StringLiteral: split() always gives at least one part, so the fallback is never taken
  const name = classes.pop() ?? "";
  const address = { classname: [test.module, ...classes].join("."), name };
  return results.filter((c) => matchesAddress(c, address));
}

/** The cases selected by a pytest node id (every parametrization when it has no parameter id). */
export function casesForNodeId(
  results: readonly TestCaseResult[],
  id: string,
): TestCaseResult[] {
  const address = junitAddress(id);
  return results.filter((c) => matchesAddress(c, address));
}

/**
 * The file and node id of a reported case. The xunit2 report has no `file`,
 * and a `classname` does not say where the module ends and the classes
 * begin: `isFile` settles it (longest module path that is a file wins);
 * without it, trailing components that start with an upper-case letter are
 * taken as classes. A case with an empty `classname` is a collection error
 * whose `name` is the module.
 */
export function locateCase(
  testCase: Pick<TestCaseResult, "classname" | "name" | "file">,
  options: LocateCaseOptions = {},
): CaseLocation {
  if (testCase.classname === "") {
    const file = testCase.name.includes("/") || testCase.name.endsWith(".py")
      ? testCase.name
      : `${testCase.name.replaceAll(".", "/")}.py`;
    return { file, nodeId: file };
  }
  const parts = testCase.classname.split(".");
  const moduleLength = moduleLengthOf(parts, testCase.file, options.isFile);
  const file = `${parts.slice(0, moduleLength).join("/")}.py`;
  const classes = parts.slice(moduleLength);
  return {
    file: testCase.file ?? file,
    nodeId: [file, ...classes, testCase.name].join("::"),
  };
}

/** Candidate module files for a classname, longest first. */
export function moduleFileCandidates(classname: string): string[] {
  const parts = classname.split(".");
  const out: string[] = [];
  for (let n = parts.length; n >= 1; n--) {
    out.push(`${parts.slice(0, n).join("/")}.py`);
  }
  return out;
}

function moduleLengthOf(
  parts: readonly string[],
  file: string | undefined,
  isFile: ((path: string) => boolean) | undefined,
): number {
  for (let n = parts.length; n >= 1; n--) {
    const candidate = `${parts.slice(0, n).join("/")}.py`;
    if (file !== undefined ? candidate === file : isFile?.(candidate)) {
      return n;
    }
  }
  let n = parts.length;
  // Stryker disable next-line StringLiteral: inside the loop n > 1, so the part always exists
  while (n > 1 && /^\p{Lu}/u.test(parts[n - 1] ?? "")) n--;
  return n;
}
