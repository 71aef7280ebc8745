/**
 * `harness.code_detects_tests`: the calls the tests made into the code
 * under test, made again where no test is watching, must give what they
 * gave under the tests. Pure.
 *
 * Tolerance, so that honest code passes: a call is judged only where it
 * behaves as a function of its arguments. At the first making it is
 * judged when two fresh clean interpreters agree on it and the second,
 * which makes every call twice in a row, gets the same outcome both times
 * (time, randomness, ids and counters are then not judged). A later pass
 * over the sequence in the same process (state that goes wrong only after
 * many calls) is judged only for calls judged at the first making whose
 * same arguments gave one and the same outcome at every making in the
 * recording and in the first pass: an id generator, whose outcomes differ
 * by design, is never judged there. A difference the base's code shows
 * the same way, replayed with the same records, is the base's: a note,
 * never the pull request's reject.
 *
 * @module
 */
import { type Finding, finding } from "../core/finding.ts";
import type {
  Form,
  RanRange,
  RecordedCall,
  Recording,
  ReplayStream,
} from "../run/calls/call_streams.ts";
import { showCall, showForm } from "../run/calls/show_form.ts";
import type { StageResults } from "./stage_plan.ts";

/** The replay of the recorded calls at the head (and at the base, when asked). */
export interface CallReplayEvidence {
  /** What the recorder streamed. */
  recording: Recording;
  /** The head's clean interpreter: the sequence, then again. */
  passes: ReplayStream;
  /** The head's second clean interpreter: each call twice in a row. */
  twice: ReplayStream;
  /** The base's clean interpreter, the sequence then again, when it ran. */
  base?: ReplayStream | undefined;
}

/** One call whose outcome differs where no test watches. */
export interface CallDifference {
  /** Index in the recorded sequence. */
  index: number;
  /** The recorded call. */
  call: RecordedCall;
  /** The pass over the sequence it differed in (1: the first making). */
  pass: number;
  /** Its outcome in the clean interpreter. */
  production: Form;
}

/** What {@linkcode judgeCallReplay} found. */
export interface CallReplayJudgement {
  /** The findings: blocking, or notes where the base had the difference. */
  findings: Finding[];
  /**
   * With no difference at all: per file, the functions of the code under
   * test that judged calls ran (and that ran at import), the evidence
   * that explains away a static probe finding there.
   */
  exercised?: ReadonlyMap<string, readonly (readonly [number, number])[]>;
}

function key(form: Form): string {
  return JSON.stringify(form);
}

function usable(form: Form | undefined): form is Form {
  return Array.isArray(form);
}

/** The calls whose outcome differs where no test watches, first difference per call. */
export function callDifferences(
  recording: Recording,
  head: { passes: ReplayStream; twice: ReplayStream },
): CallDifference[] {
  const { calls } = recording;
  const judged = judgedCalls(head);
  const out = new Map<number, CallDifference>();
  calls.forEach((call, i) => {
    const production = head.passes.first.get(i);
    if (judged(i) && key(call.out) !== key(production)) {
      out.set(i, { index: i, call, pass: 1, production });
    }
  });
  const steady = steadyGroups(calls, head.passes.first);
  for (const { i, p, out: production } of head.passes.later) {
    const call = calls[i];
    if (call === undefined || out.has(i) || !judged(i)) continue;
    if (!steady.has(groupOf(call)) || !usable(production)) continue;
    out.set(i, { index: i, call, pass: p, production });
  }
  return [...out.values()].sort((a, b) => a.index - b.index);
}

/** Whether call `i` behaves as a function of its arguments in the clean interpreters. */
function judgedCalls(
  head: { passes: ReplayStream; twice: ReplayStream },
): (i: number) => boolean {
  return (i) => {
    const a = head.passes.first.get(i);
    const b1 = head.twice.first.get(i);
    const b2 = head.twice.second.get(i);
    return usable(a) && usable(b1) && usable(b2) && key(a) === key(b1) &&
      key(b1) === key(b2);
  };
}

function groupOf(call: RecordedCall): string {
  return `${call.fn.join(":")}\0${call.args}`;
}

/** Call groups (same function, same arguments) with one outcome at every making. */
function steadyGroups(
  calls: readonly RecordedCall[],
  first: ReadonlyMap<number, Form>,
): Set<string> {
  const seen = new Map<string, string | null>();
  calls.forEach((call, i) => {
    const group = groupOf(call);
    const outcomes = [key(call.out), key(first.get(i) ?? null)];
    const known = seen.get(group);
    const one = outcomes.every((o) => o === outcomes[0]) &&
        (known === undefined || known === outcomes[0])
      ? outcomes[0] ?? null
      : null;
    seen.set(group, one);
  });
  return new Set([...seen].flatMap(([g, o]) => o === null ? [] : [g]));
}

/**
 * The findings of the replay, and (with no difference) what it exercised.
 *
 * @example
 * ```ts
 * import { judgeCallReplay } from "./judge_call_replay.ts";
 * const call = { fn: ["m", "f"] as const, at: null, args: "x", shown: null, out: ["int", "1"], ran: [] };
 * const stream = (v: string) => ({ first: new Map([[0, ["int", v]]]), second: new Map([[0, ["int", v]]]), later: [], passes: 2, complete: true });
 * const j = judgeCallReplay({ recording: { roots: [], importRan: [], calls: [call], complete: true }, passes: stream("2"), twice: stream("2") }, { base: "b" });
 * if (j.findings[0]?.rule !== "harness.code_detects_tests") throw new Error();
 * ```
 */
export function judgeCallReplay(
  evidence: CallReplayEvidence,
  context: { base: string },
): CallReplayJudgement {
  const differences = callDifferences(evidence.recording, evidence);
  if (differences.length === 0) {
    return { findings: [], exercised: exercised(evidence) };
  }
  const byFunction = new Map<string, CallDifference>();
  for (const d of differences) {
    const fn = d.call.fn.join(".");
    if (!byFunction.has(fn)) byFunction.set(fn, d);
  }
  return {
    findings: [...byFunction.values()].map((d) =>
      differenceFinding(d, evidence.base, context.base)
    ),
  };
}

function differenceFinding(
  d: CallDifference,
  base: ReplayStream | undefined,
  baseCommit: string,
): Finding {
  const [module, qualname] = d.call.fn;
  const call = showCall(qualname, d.call.shown);
  const results = `${showForm(resultOf(d.call.out))} under the tests, ${
    showForm(resultOf(d.production))
  } in a clean interpreter with no test watching`;
  const when = d.pass === 1
    ? ""
    : ` (pass ${d.pass} over the recorded calls in one process, after ${(d
      .pass - 1)} full passes)`;
  const what =
    `The code under test behaves differently when no test is watching: "${module}.${qualname}" called as ${call} gave ${results}${when}`;
  const at = d.call.at === null ? {} : {
    path: d.call.at[0],
    line: d.call.at[1],
  };
  if (base !== undefined && sameAtBase(d, base)) {
    return finding(
      "harness.code_detects_tests",
      `${what}; the base commit ${
        baseCommit.slice(0, 12)
      } gives the same when its code is replayed with the same calls, so the pull request did not bring it`,
      { ...at, blocking: false },
    );
  }
  return finding(
    "harness.code_detects_tests",
    `${what}: code that can tell it is being tested can pass its tests and still be wrong`,
    at,
  );
}

function resultOf(out: Form): Form {
  return Array.isArray(out) ? out[0] : out;
}

/** Whether the base's code, replayed the same, gave the same outcome. */
function sameAtBase(d: CallDifference, base: ReplayStream): boolean {
  const first = base.first.get(d.index);
  const atBase = d.pass === 1
    ? first
    : base.later.find((l) => l.i === d.index && l.p === d.pass)?.out ?? first;
  return usable(atBase) && key(atBase) === key(d.production);
}

function exercised(
  evidence: CallReplayEvidence,
): ReadonlyMap<string, readonly (readonly [number, number])[]> {
  const ranges: RanRange[] = [];
  const judged = judgedCalls(evidence);
  evidence.recording.calls.forEach((call, i) => {
    if (judged(i)) {
      ranges.push(...call.ran);
    }
  });
  if (ranges.length > 0) ranges.push(...evidence.recording.importRan);
  const out = new Map<string, [number, number][]>();
  for (const [path, first, last] of ranges) {
    out.set(path, [...(out.get(path) ?? []), [first, last]]);
  }
  return out;
}

/** The record and the replays among the stage's results, when the head's replay ran. */
export function callEvidence(
  results: StageResults,
): CallReplayEvidence | undefined {
  const recorded = results.get("calls-record");
  const head = results.get("calls-replay");
  const base = results.get("calls-replay-base");
  if (
    recorded?.kind !== "calls-recorded" || recorded.recording === null ||
    head?.kind !== "calls-replayed" || head.twice === undefined
  ) return undefined;
  return {
    recording: recorded.recording,
    passes: head.passes,
    twice: head.twice,
    ...(base?.kind === "calls-replayed" ? { base: base.passes } : {}),
  };
}

/** Whether the head's replay shows a difference (the base is then asked). */
export function callsDiffer(results: StageResults): boolean {
  const evidence = callEvidence(results);
  return evidence !== undefined &&
    callDifferences(evidence.recording, evidence).length > 0;
}
