/**
 * A skip is a deleted test with extra syntax: a pull request may not add a
 * skip or xfail to a test that exists at base.
 *
 * @module
 */
import { type Finding, finding } from "../core/finding.ts";
import type { PythonModule } from "../python/python_module.ts";
import type { ChangedPath } from "../git/git.ts";

/** Analyses of changed Python files at base and head, keyed by path. */
export interface CheckSkipsOptions {
  /** Head analyses. */
  headModules: ReadonlyMap<string, PythonModule>;
  /** Base analyses. */
  baseModules: ReadonlyMap<string, PythonModule>;
}

/**
 * Report every existing test function that gained a skip, skipif, xfail or
 * importorskip between base and head.
 *
 * @example
 * ```ts
 * import { checkSkips } from "./check_skips.ts";
 * const none = checkSkips([], { headModules: new Map(), baseModules: new Map() });
 * if (none.length !== 0) throw new Error("unexpected");
 * ```
 */
export function checkSkips(
  changes: readonly ChangedPath[],
  options: CheckSkipsOptions,
): Finding[] {
  const out: Finding[] = [];
  for (const change of changes) {
    if (change.status !== "M" || !change.path.endsWith(".py")) continue;
    const head = options.headModules.get(change.path);
    const base = options.baseModules.get(change.path);
    if (head === undefined || base === undefined) continue;
    for (const [qualname, fn] of head.functions) {
      // A state machine's TestCase is collected under any name (once).
      const machine = fn.stateful !== undefined &&
        fn.stateful.binding !== "def" && fn.qualname === qualname;
      if (!fn.name.startsWith("test") && !machine) continue;
      const before = base.functions.get(qualname);
      if (before === undefined) continue;
      const was = new Map<string, number>();
      for (const s of before.skips) was.set(s.kind, (was.get(s.kind) ?? 0) + 1);
      const added = fn.skips.filter((s) => {
        const left = was.get(s.kind) ?? 0;
        if (left > 0) {
          was.set(s.kind, left - 1);
          return false;
        }
        return true;
      });
      const first = added[0];
      if (first === undefined) continue;
      out.push(finding(
        "tests.skip_added",
        `The pull request added "${first.kind}" to test "${qualname}": a skipped test is a deleted test; fix the code or ask a human for a freeze`,
        { path: change.path, line: first.line },
      ));
    }
  }
  return out;
}
