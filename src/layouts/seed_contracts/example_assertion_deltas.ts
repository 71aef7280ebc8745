/**
 * Counting example assertions (`assertEqual`, `assert f(x) == literal`)
 * that a pull request adds to its test files, from parsed source.
 *
 * @module
 */
import type { ChangedPath } from "../../git/git.ts";
import type { PythonModule } from "../../python/python_module.ts";
import { isTestFile } from "./is_test_file.ts";

/** Example assertions of one changed test file, base and head. */
export interface ExampleAssertionDelta {
  /** Repository-relative test file. */
  path: string;
  /** Example assertions over the file's functions at base (0 when absent). */
  base: number;
  /** Example assertions over the file's functions at head (0 when absent). */
  head: number;
  /** `def` line at head of the first function with more example assertions than at base. */
  line?: number;
}

/**
 * For every changed test file ({@linkcode isTestFile}), the sum of
 * `exampleAssertions` over its functions and methods at base and at head.
 * A file missing from an analysis map (added, deleted, or not a regular
 * file on that side) counts 0 there; a renamed file is a deletion plus an
 * addition, so moving examples between files adds none.
 *
 * @example
 * ```ts
 * import { exampleAssertionDeltas } from "./example_assertion_deltas.ts";
 * const fn = { name: "test_a", qualname: "test_a", line: 3, endLine: 4, source: "", decorators: [],
 *   usesHypothesis: false, skips: [], exampleAssertions: 2 };
 * const head = new Map([["tests/test_a.py", { functions: new Map([["test_a", fn]]) }]]);
 * const deltas = exampleAssertionDeltas([{ status: "A", path: "tests/test_a.py" }], new Map(), head);
 * if (deltas[0]?.head !== 2 || deltas[0].base !== 0 || deltas[0].line !== 3) throw new Error();
 * ```
 */
export function exampleAssertionDeltas(
  changes: readonly ChangedPath[],
  baseModules: ReadonlyMap<string, PythonModule>,
  headModules: ReadonlyMap<string, PythonModule>,
): ExampleAssertionDelta[] {
  const paths = [
    ...new Set(changes.map((c) => c.path).filter(isTestFile)),
  ].sort();
  return paths.map((path) => {
    const before = baseModules.get(path);
    const after = headModules.get(path);
    const delta: ExampleAssertionDelta = {
      path,
      base: countExamples(before),
      head: countExamples(after),
    };
    // Stryker disable next-line ArrayDeclaration: a file missing at head has no function; any stand-in element has no exampleAssertions, and undefined is never more than a count, so no line is set either way
    for (const fn of after?.functions.values() ?? []) {
      const was = before?.functions.get(fn.qualname)?.exampleAssertions ?? 0;
      if (fn.exampleAssertions > was) {
        delta.line = fn.line;
        break;
      }
    }
    return delta;
  });
}

function countExamples(module: PythonModule | undefined): number {
  let total = 0;
  for (const fn of module?.functions.values() ?? []) {
    total += fn.exampleAssertions;
  }
  return total;
}
