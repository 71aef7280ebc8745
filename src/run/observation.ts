/**
 * What pawl's observer plugin saw during one pytest run, read from the JSON
 * lines it streamed. The lines come from inside the sandbox, so they are
 * parsed defensively: an unknown or malformed line is a problem, never a
 * crash.
 *
 * @module
 */
import { plural } from "../core/plural.ts";

/** The outcome of one test as its reports said while the run went. */
export type ObservedOutcome =
  | "passed"
  | "failed"
  | "error"
  | "skipped"
  | "xfailed";

/** Hypothesis examples one test executed (reuse and generate phases). */
export interface ExampleCounts {
  /** Examples that ran to the end without an assumption failing. */
  valid: number;
  /** Examples rejected by `assume()`, a filter or an invalid draw. */
  invalid: number;
  /** Examples that ran out of data. */
  overrun: number;
  /** Examples that failed the test. */
  interesting: number;
}

/** Steps the Hypothesis state machines of one test ran. */
export interface StepCounts {
  /** Machines run (one per example, shrinking included). */
  machines: number;
  /** Steps over all of them. */
  steps: number;
  /** The most steps one machine ran: `stateful_step_count` unless something cut the runs short. */
  longest: number;
}

/** Which seed Hypothesis used for one test. */
export interface ObservedSeed {
  /** `forced` (the `--hypothesis-seed` pawl passed), `explicit` (`@seed`), `derandomize` or `random`. */
  source: "forced" | "explicit" | "derandomize" | "random";
  /** The seed, when there was one. */
  seed: string | null;
  /** The test's `max_examples` in effect. */
  maxExamples: number | null;
}

/** A collection error as the run reported it. */
export interface CollectError {
  /** pytest's node id of the collector (usually the file). */
  nodeId: string;
  /** The error text (first characters). */
  text: string;
}

/** A `settings.load_profile()` call and the file it came from. */
export interface ProfileLoad {
  /** Profile name. */
  name: string;
  /** The calling file as Python saw it (absolute, inside the run's tree). */
  file: string;
  /** The test that was running, when one was. */
  nodeId: string | null;
}

/** Where some of one test's Hypothesis examples were discarded. */
export interface DiscardSite {
  /**
   * The file of the innermost frame outside Hypothesis' package when the
   * example was discarded (an `UnsatisfiedAssumption` or an invalid mark),
   * as Python saw it (absolute, inside the run's tree when it is the
   * repository's).
   */
  file: string;
  /** The line there. */
  line: number;
  /** How many examples were discarded there. */
  count: number;
}

/** How often one assert of a test passed, on a run that counted them. */
export interface AssertReach {
  /** The file of the assert, as Python saw it. */
  file: string;
  /** Its line. */
  line: number;
  /** How often it passed. */
  count: number;
}

/** One of Hypothesis' own objects that was no longer the one pawl's observer saw after its own patches. */
export interface HypothesisPatch {
  /** Where it lives, e.g. `hypothesis.strategies.integers` or `hypothesis.strategies.SearchStrategy.filter`. */
  name: string;
  /** The file the replacing function was written in, as Python saw it ("" when not a function). */
  file: string;
  /** Whether it was removed rather than replaced or added. */
  removed: boolean;
  /** The test at whose end it was seen, or null (at collection or session end). */
  nodeId: string | null;
}

/** Changed lines of one file of the code under test, as the run saw them. */
export interface FileLines {
  /** The changed lines the file's code objects have instructions on, ascending. */
  executable: number[];
  /** Of those, the ones that ran, ascending. */
  executed: number[];
  /** A module was loaded from the file without pawl's probes (another loader): its lines are unknown. */
  unprobed?: true;
}

/** What pawl's line probes saw of the changed code (only the full suite's run has them). */
export interface ObservedLines {
  /** Per repository-relative path. */
  files: Map<string, FileLines>;
  /** Whether the source loader that probes the changed files was no longer pawl's at the end of a test or of the session (code replaced it): the lines are then unknown. */
  removed: boolean;
}

/** Everything one run's stream told. */
export interface Observation {
  /** The plugin connected and identified itself with this run's token. */
  hello: boolean;
  /** pytest configured the plugin (it was not blocked or unregistered after being imported). */
  configured: boolean;
  /** The session finished (pytest_sessionfinish was streamed). */
  finished: boolean;
  /** The exit status pytest reported at session end. */
  exitStatus: number | null;
  /** Node ids pytest selected to run, or null when collection never finished. */
  collected: string[] | null;
  /** Final outcome per node id (worst over setup, call and teardown). */
  outcomes: Map<string, ObservedOutcome>;
  /** Every outcome one of a node id's phases gave (pytest's report lists a failed call and a teardown error as two cases). */
  phases: Map<string, Set<ObservedOutcome>>;
  /** Per node id: the failure text the logged report carried (its first characters). */
  texts: Map<string, string>;
  /**
   * Per node id whose failure text was longer than the observer streams
   * whole: its last characters, where the exception and Hypothesis'
   * falsifying example are. Only what a failure shows is read from it.
   */
  tails: Map<string, string>;
  /** Hypothesis example counts per node id, summed over engine runs. */
  examples: Map<string, ExampleCounts>;
  /** State machine steps per node id, for tests that ran one. */
  steps: Map<string, StepCounts>;
  /** Seeds Hypothesis used per node id. */
  seeds: Map<string, ObservedSeed[]>;
  /** Per node id: where its discarded Hypothesis examples were discarded. */
  discards: Map<string, DiscardSite[]>;
  /** Per node id of a test that ran Hypothesis: how often each assert passed (runs that counted them). */
  reach: Map<string, AssertReach[]>;
  /** Hypothesis objects replaced, added or removed after pawl's patches, in order. */
  patches: HypothesisPatch[];
  /** Collection errors. */
  collectErrors: CollectError[];
  /** Profiles loaded, in order. */
  profiles: ProfileLoad[];
  /** Reports whose outcome changed between being made and being logged, e.g. `failed → passed`. */
  rewritten: { nodeId: string; when: string; made: string; logged: string }[];
  /** The changed lines the run executed, when pawl traced them. */
  lines?: ObservedLines;
  /** Why parts of the stream could not be used (malformed lines, a second connection, a wrong token). */
  problems: string[];
}

const SEVERITY: readonly ObservedOutcome[] = [
  // Stryker disable next-line StringLiteral: worst first, and a name missing from the list ranks at -1, worse still, so "failed" stays the worst either way
  "failed",
  "error",
  "xfailed",
  "skipped",
  "passed",
];

/** The most lines kept from one stream. */
export const MAX_OBSERVATION_LINES = 200_000;

/**
 * Parse the lines of every connection to the stream. The first connection
 * must start with a `hello` carrying `token`; any other connection is
 * someone else writing to pawl's channel and is recorded as a problem.
 *
 * @example
 * ```ts
 * import { parseObservation } from "./observation.ts";
 * const o = parseObservation([[
 *   '{"event":"hello","token":"t"}',
 *   '{"event":"report","nodeid":"t.py::test_a","when":"call","outcome":"passed","xfail":false}',
 * ]], "t");
 * if (!o.hello || o.outcomes.get("t.py::test_a") !== "passed") throw new Error("unexpected");
 * ```
 */
export function parseObservation(
  connections: readonly (readonly string[])[],
  token: string,
): Observation {
  const o: Observation = {
    hello: false,
    configured: false,
    finished: false,
    exitStatus: null,
    collected: null,
    outcomes: new Map(),
    phases: new Map(),
    texts: new Map(),
    tails: new Map(),
    examples: new Map(),
    steps: new Map(),
    seeds: new Map(),
    discards: new Map(),
    reach: new Map(),
    patches: [],
    collectErrors: [],
    profiles: [],
    rewritten: [],
    problems: [],
  };
  const made = new Map<string, string>();
  connections.forEach((lines, index) => {
    // Stryker disable next-line StringLiteral: any text that is no JSON object reads as no hello, the empty string as much as another
    const first = parseLine(lines[0] ?? "");
    const genuine = index === 0 && first?.["event"] === "hello" &&
      first["token"] === token && token !== "";
    if (!genuine) {
      o.problems.push(
        index === 0
          ? "the first connection to the observer stream did not identify itself with this run's token"
          : `a second process connected to the observer stream and wrote ${
            plural(lines.length, "line")
          }`,
      );
      return;
    }
    o.hello = true;
    for (const line of lines.slice(1)) {
      const event = parseLine(line);
      if (event === undefined || !apply(o, made, event)) {
        o.problems.push(
          `the observer stream has a line pawl cannot read: ${
            JSON.stringify(line.slice(0, 200))
          }`,
        );
      }
    }
  });
  return o;
}

/** One line of the stream as a JSON object, or undefined when it is not one. */
export function parseLine(line: string): Record<string, unknown> | undefined {
  let value: unknown = undefined;
  try {
    value = JSON.parse(line);
  } catch {
    // not JSON: undefined, as below
  }
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? value as Record<string, unknown>
    : undefined;
}

function apply(
  o: Observation,
  made: Map<string, string>,
  e: Record<string, unknown>,
): boolean {
  const nodeId = e["nodeid"];
  switch (e["event"]) {
    case "configure":
      o.configured = true;
      return true;
    case "collected": {
      const ids = e["nodeids"];
      if (!Array.isArray(ids) || !ids.every((i) => typeof i === "string")) {
        return false;
      }
      o.collected = [...(o.collected ?? []), ...ids as string[]];
      return true;
    }
    case "collect_error":
      if (typeof nodeId !== "string" || typeof e["text"] !== "string") {
        return false;
      }
      o.collectErrors.push({ nodeId, text: e["text"] });
      return true;
    case "made": {
      if (!isPhase(e) || typeof nodeId !== "string") return false;
      made.set(`${nodeId}\0${e["when"]}`, e["outcome"] as string);
      return true;
    }
    case "report": {
      if (!isPhase(e) || typeof nodeId !== "string") return false;
      const when = e["when"] as string;
      const logged = e["outcome"] as string;
      const xfail = e["xfail"] === true;
      const before = made.get(`${nodeId}\0${when}`);
      if (before !== undefined && rewritten(before, logged, xfail)) {
        o.rewritten.push({ nodeId, when, made: before, logged });
      }
      const outcome = phaseOutcome(when, logged, xfail);
      if (outcome !== undefined) {
        o.phases.set(nodeId, (o.phases.get(nodeId) ?? new Set()).add(outcome));
      }
      const worst = worse(o.outcomes.get(nodeId), outcome);
      if (worst !== undefined) o.outcomes.set(nodeId, worst);
      if (typeof e["text"] === "string" && e["text"] !== "") {
        o.texts.set(nodeId, e["text"]);
        if (typeof e["tail"] === "string") o.tails.set(nodeId, e["tail"]);
        else o.tails.delete(nodeId);
      }
      return true;
    }
    case "examples": {
      if (typeof nodeId !== "string") return nodeId === null;
      const counts: ExampleCounts = {
        valid: 0,
        invalid: 0,
        overrun: 0,
        interesting: 0,
      };
      for (const key of Object.keys(counts) as (keyof ExampleCounts)[]) {
        const n = e[key];
        if (!Number.isSafeInteger(n) || (n as number) < 0) return false;
        counts[key] = (o.examples.get(nodeId)?.[key] ?? 0) + (n as number);
      }
      o.examples.set(nodeId, counts);
      return true;
    }
    case "steps": {
      if (typeof nodeId !== "string") return nodeId === null;
      const counts: StepCounts = { machines: 0, steps: 0, longest: 0 };
      for (const key of Object.keys(counts) as (keyof StepCounts)[]) {
        const n = e[key];
        if (!Number.isSafeInteger(n) || (n as number) < 0) return false;
        counts[key] = n as number;
      }
      const was = o.steps.get(nodeId);
      o.steps.set(
        nodeId,
        was === undefined ? counts : {
          machines: was.machines + counts.machines,
          steps: was.steps + counts.steps,
          longest: Math.max(was.longest, counts.longest),
        },
      );
      return true;
    }
    case "seed": {
      const source = e["source"];
      if (
        typeof nodeId !== "string" ||
        !["forced", "explicit", "derandomize", "random"].includes(
          source as string,
        )
      ) return nodeId === null;
      const seed = typeof e["seed"] === "string" ? e["seed"] : null;
      const max = Number.isSafeInteger(e["max_examples"])
        ? e["max_examples"] as number
        : null;
      o.seeds.set(nodeId, [...(o.seeds.get(nodeId) ?? []), {
        source: source as ObservedSeed["source"],
        seed,
        maxExamples: max,
      }]);
      return true;
    }
    case "discards":
      return applySites(o.discards, nodeId, e["sites"]);
    case "reach":
      return applySites(o.reach, nodeId, e["asserts"]);
    case "patched":
      return applyPatches(o, nodeId, e["patches"]);
    case "profile":
      if (typeof e["name"] !== "string" || typeof e["file"] !== "string") {
        return false;
      }
      o.profiles.push({
        name: e["name"],
        file: e["file"],
        nodeId: typeof nodeId === "string" ? nodeId : null,
      });
      return true;
    case "lines":
      return applyLines(o, e);
    case "finish":
      o.finished = true;
      o.exitStatus = Number.isSafeInteger(e["exitstatus"])
        ? e["exitstatus"] as number
        : null;
      return true;
    // Stryker disable next-line ConditionalExpression: an emptied default case falls out of the switch, and the undefined apply() then returns refuses the line as false does
    default:
      return false;
  }
}

/** Lines of files with a count each (discard sites, asserts reached), added to `into`. */
function applySites(
  into: Map<string, DiscardSite[]>,
  nodeId: unknown,
  sites: unknown,
): boolean {
  if (typeof nodeId !== "string" || !Array.isArray(sites)) return false;
  const read: DiscardSite[] = [];
  for (const site of sites as unknown[]) {
    // Stryker disable next-line ConditionalExpression: a string or number site destructures to undefined fields, which the checks below refuse; a null one is refused here
    if (typeof site !== "object" || site === null) return false;
    const { file, line, count } = site as Record<string, unknown>;
    if (
      typeof file !== "string" || !Number.isSafeInteger(line) ||
      !Number.isSafeInteger(count) || (count as number) < 0
    ) return false;
    read.push({ file, line: line as number, count: count as number });
  }
  into.set(nodeId, [...(into.get(nodeId) ?? []), ...read]);
  return true;
}

function applyPatches(
  o: Observation,
  nodeId: unknown,
  patches: unknown,
): boolean {
  if (
    (typeof nodeId !== "string" && nodeId !== null) || !Array.isArray(patches)
  ) return false;
  const read: HypothesisPatch[] = [];
  for (const patch of patches as unknown[]) {
    // Stryker disable next-line ConditionalExpression: a string or number patch destructures to undefined fields, which the checks below refuse; a null one is refused here
    if (typeof patch !== "object" || patch === null) return false;
    const { name, file, removed } = patch as Record<string, unknown>;
    if (typeof name !== "string" || typeof file !== "string") return false;
    read.push({ name, file, removed: removed === true, nodeId });
  }
  o.patches.push(...read);
  return true;
}

/** A `lines` event: every file's changed executable and executed lines. */
function applyLines(o: Observation, e: Record<string, unknown>): boolean {
  const files = e["files"];
  if (
    typeof files !== "object" || files === null || Array.isArray(files) ||
    typeof e["removed"] !== "boolean" || o.lines !== undefined
  ) return false;
  const out = new Map<string, FileLines>();
  for (const [path, value] of Object.entries(files)) {
    const v = value as Record<string, unknown> | null;
    const executable = lineNumbers(v?.["executable"]);
    const executed = lineNumbers(v?.["executed"]);
    if (executable === undefined || executed === undefined) return false;
    // Stryker disable next-line OptionalChaining: a null entry has no executable lines and was refused above
    const unprobed = v?.["unprobed"];
    if (unprobed !== undefined && unprobed !== true) return false;
    out.set(path, { executable, executed, ...(unprobed ? { unprobed } : {}) });
  }
  o.lines = { files: out, removed: e["removed"] };
  return true;
}

function lineNumbers(value: unknown): number[] | undefined {
  if (!Array.isArray(value)) return undefined;
  if (!value.every((n) => Number.isSafeInteger(n) && n > 0)) return undefined;
  return [...new Set(value as number[])].sort((a, b) => a - b);
}

function isPhase(e: Record<string, unknown>): boolean {
  return ["setup", "call", "teardown"].includes(e["when"] as string) &&
    ["passed", "failed", "skipped"].includes(e["outcome"] as string);
}

/**
 * Whether a report's outcome changed between pytest making it and logging
 * it in a way pytest itself never does: its own xfail handling turns a
 * failure into an xfail skip and a pass into a strict-xpass failure, and
 * nothing else.
 */
function rewritten(made: string, logged: string, xfail: boolean): boolean {
  if (made === logged) return false;
  if (made === "failed") return !(logged === "skipped" && xfail);
  if (made === "passed") return logged !== "failed";
  return true; // a skip that became a pass or a failure
}

function phaseOutcome(
  when: string,
  outcome: string,
  xfail: boolean,
): ObservedOutcome | undefined {
  if (outcome === "failed") return when === "call" ? "failed" : "error";
  if (outcome === "skipped") return xfail ? "xfailed" : "skipped";
  return when === "call" ? "passed" : undefined;
}

function worse(
  a: ObservedOutcome | undefined,
  b: ObservedOutcome | undefined,
): ObservedOutcome | undefined {
  if (a === undefined) return b;
  // Stryker disable next-line ConditionalExpression: without it an undefined b ranks at -1 and wins, and the caller keeps the outcome it had, which is a
  if (b === undefined) return a;
  // Stryker disable next-line EqualityOperator: < and <= differ only when a and b rank alike, and then they are the same outcome
  return SEVERITY.indexOf(a) <= SEVERITY.indexOf(b) ? a : b;
}
