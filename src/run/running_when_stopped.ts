/**
 * The test that was running when a run was stopped (at its time limit, or
 * for printing too much), as pawl's observer saw it.
 *
 * @module
 */
import type { Observation } from "./observation.ts";

/**
 * The first test pytest selected that had not reported any phase: pytest
 * runs its selection in order, and the observer streams a report of every
 * test that ends (its call phase, or the setup that failed or skipped it),
 * so that test had started and not finished. Undefined when collection
 * never finished or every selected test ended.
 *
 * @example
 * ```ts
 * import { parseObservation } from "./observation.ts";
 * import { runningWhenStopped } from "./running_when_stopped.ts";
 * const o = parseObservation([[
 *   '{"event":"hello","token":"t"}',
 *   '{"event":"collected","nodeids":["t.py::a","t.py::b","t.py::c"]}',
 *   '{"event":"report","nodeid":"t.py::a","when":"call","outcome":"passed","xfail":false}',
 * ]], "t");
 * if (runningWhenStopped(o) !== "t.py::b") throw new Error();
 * ```
 */
export function runningWhenStopped(
  observation: Observation,
): string | undefined {
  return observation.collected?.find((id) => !observation.phases.has(id));
}
