/**
 * The observer's lines read as they arrive, for progress: which tests the
 * run selected and how each phase ended. Only the `collected` and `report`
 * events are read; the whole stream is parsed again, carefully, when the
 * run ended (`observation.ts`), and that is what the judges read.
 *
 * @module
 */
import type { TallyOutcome, TestTally } from "../core/progress.ts";
import { parseLine } from "./observation.ts";

/**
 * A listener for `ObserverChannel.watch` that tells `tally` the run's
 * tests: nothing before the first line proves itself the run's own (a
 * `hello` carrying `token`), malformed lines are skipped.
 *
 * @example
 * ```ts
 * import { tallyObserverLines } from "./tally_observer_lines.ts";
 * const seen: string[] = [];
 * const listen = tallyObserverLines("t", {
 *   collected: (ids) => seen.push(...ids),
 *   reported: (id, outcome) => seen.push(`${id} ${outcome}`),
 *   end: () => {},
 * });
 * listen('{"event": "hello", "token": "t"}');
 * listen('{"event": "collected", "nodeids": ["a.py::t"]}');
 * listen('{"event": "report", "nodeid": "a.py::t", "outcome": "passed", "when": "call", "xfail": false}');
 * if (seen.join() !== "a.py::t,a.py::t passed") throw new Error(seen.join());
 * ```
 */
export function tallyObserverLines(
  token: string,
  tally: TestTally,
): (line: string) => void {
  // Unknown until the first line: whether it is the run's own hello.
  let genuine: boolean | undefined = undefined;
  return (line) => {
    if (genuine === undefined) {
      const hello = parseLine(line);
      genuine = token !== "" && hello?.["event"] === "hello" &&
        hello["token"] === token;
      return;
    }
    if (!genuine) return;
    // Cheap test first: most lines are neither.
    // Stryker disable next-line ConditionalExpression,StringLiteral: a pure performance shortcut; each event is parsed and told by its name below
    if (!line.includes('"report"') && !line.includes('"collected"')) return;
    const e = parseLine(line);
    if (e?.["event"] === "collected") {
      const ids = e["nodeids"];
      if (Array.isArray(ids) && ids.every((i) => typeof i === "string")) {
        tally.collected(ids as string[]);
      }
    } else if (e?.["event"] === "report" && typeof e["nodeid"] === "string") {
      const outcome = tallied(e["when"], e["outcome"]);
      if (outcome !== undefined) tally.reported(e["nodeid"], outcome);
    }
  };
}

/** How a phase's report counts: a failed setup or teardown is a failure, a passed one tells nothing. */
function tallied(when: unknown, outcome: unknown): TallyOutcome | undefined {
  if (outcome === "failed") return "failed";
  if (outcome === "skipped") return "skipped";
  return outcome === "passed" && when === "call" ? "passed" : undefined;
}
