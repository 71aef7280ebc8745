/**
 * The static probe rule is an early explanation; the runtime evidence
 * decides. A `harness.code_probes_tests` finding inside a function that
 * the calls the tests made into the code ran, when those calls, replayed
 * where no test watches, all gave what they gave under the tests, no
 * longer blocks: honest code that reads `inspect`, `sys.argv` or a cache
 * there was seen to behave the same. Pure.
 *
 * @module
 */
import type { Finding } from "../core/finding.ts";

/**
 * `findings` with each probe finding the replay explained made
 * non-blocking.
 *
 * @example
 * ```ts
 * import { finding } from "../core/finding.ts";
 * import { explainProbes } from "./explain_probes.ts";
 * const probe = finding("harness.code_probes_tests", "probe", { path: "pkg/a.py", line: 4 });
 * const [out] = explainProbes([probe], new Map([["pkg/a.py", [[2, 6] as const]]]));
 * if (out?.blocking !== false) throw new Error();
 * ```
 */
export function explainProbes(
  findings: readonly Finding[],
  exercised:
    | ReadonlyMap<string, readonly (readonly [number, number])[]>
    | undefined,
): Finding[] {
  if (exercised === undefined) return [...findings];
  return findings.map((f) => {
    if (f.rule !== "harness.code_probes_tests" || !f.blocking) return f;
    const { path, line } = f;
    if (path === undefined || line === undefined) return f;
    const spans = exercised.get(path) ?? [];
    if (!spans.some(([first, last]) => first <= line && line <= last)) {
      return f;
    }
    return {
      ...f,
      blocking: false,
      message:
        `${f.message}; the calls the tests made into this code, made again where no test is watching, gave the same results, so this does not block`,
    };
  });
}
