/**
 * Whether each registered property passed, decided from the runs' cases:
 * a property passes only when it passed in the full suite and again when
 * the properties ran on their own (a report forged elsewhere in the suite
 * cannot vouch for it).
 *
 * @module
 */
import { type FailureDetail, type Finding, finding } from "../core/finding.ts";
import { failureDetail } from "../run/failure_detail.ts";
import type { Reproducer } from "../run/reproduce_command.ts";
import type { PropertyResult } from "../core/verdict.ts";
import {
  evaluateProperty,
  type PropertyOutcome,
} from "../run/evaluate_property.ts";
import type { TestCaseResult } from "../run/parse_junit.ts";
import type { PytestRun } from "../run/run_pytest.ts";
import { casesFor, locateCase } from "../run/test_id.ts";
import {
  describeFailure,
  type FailureReason,
  failureReason,
  isTimingFailure,
} from "../run/failure_reason.ts";
import { extractWitness, witnessSha256 } from "../seeds/extract_witness.ts";
import type { LedgerRow } from "../seeds/ledger_row.ts";
import type { LocatedProperty } from "./locate_properties.ts";

/** The runs a property is judged from. */
export interface PropertyEvidence {
  /** Cases of the full suite run. */
  suite: readonly TestCaseResult[];
  /** The properties-on-their-own run, or null when it did not run. */
  alone: PytestRun | null;
  /** The first lines of each test file's collection error in the full run, by file. */
  collectErrors?: ReadonlyMap<string, string>;
  /** The full run's failure texts by node id, as pawl's observer streamed them. */
  suiteTexts?: ReadonlyMap<string, string> | undefined;
  /** The same for the properties' own run. */
  aloneTexts?: ReadonlyMap<string, string> | undefined;
  /** The last characters of the full run's failure texts longer than `suiteTexts` keeps (read only for what a failure shows). */
  suiteTails?: ReadonlyMap<string, string> | undefined;
  /** The same for the properties' own run. */
  aloneTails?: ReadonlyMap<string, string> | undefined;
  /**
   * Whether the full run had pawl's own runs beside it and the properties'
   * own run was then repeated alone at normal priority: a failure of the
   * full run that depends on the machine's speed (a health check, a
   * deadline) then counts only when that calm run fails too.
   */
  calmAlone?: boolean;
  /**
   * The rule of the finding that says the full run was stopped before it
   * ended (`tests.timeout`, `tests.output_exceeded`): the properties it
   * never reported are then one finding, not one each.
   */
  suiteStopped?: "tests.timeout" | "tests.output_exceeded";
}

/** What the judgement records besides the outcome. */
export interface PropertyContext {
  /** The fresh seed both runs used. */
  seed: number;
  /** `CONTRACT_TRIALS` of both runs. */
  trials: number | null;
  /** The clock as Unix seconds (the ledger's `ts`). */
  ts: number;
  /** Node ids under an unexpired seed freeze: a failure does not block. */
  nonBlocking: ReadonlySet<string>;
  /**
   * The command that reproduces a property's failure in a checkout, by
   * node id: with it, the finding of a property that failed or errored
   * carries what the test showed (`Finding.failure`).
   */
  reproduce?: Reproducer;
}

/** One property's judgement. */
export interface PropertyJudgement {
  /** For the verdict. */
  result: PropertyResult;
  /** The ledger row (none for a property missing at head). */
  row?: LedgerRow;
  /** Why it did not pass (none when it passed, or is missing: that is a static finding already). */
  finding?: Finding;
  /** The reason a failed or errored property gave, read from the run where it did not pass. */
  reason?: FailureReason;
}

/** Every property's judgement, gathered for the verdict. */
export interface PropertiesJudgement {
  /** Results sorted by layout, then id. */
  properties: PropertyResult[];
  /** Findings, in plan order. */
  findings: Finding[];
  /** Ledger rows, in plan order. */
  ledger: LedgerRow[];
  /** The blocking failures, each with its node id and reason, in plan order. */
  failures: PropertyFailure[];
}

/** A registered property whose failure blocks, for attribution at the base. */
export interface PropertyFailure {
  /** The property. */
  property: LocatedProperty;
  /** Its outcome. */
  outcome: PropertyOutcome;
  /** Why, when it failed or errored. */
  reason?: FailureReason;
  /** The finding it gave. */
  finding: Finding;
}

/**
 * Judge every located property.
 *
 * @example
 * ```ts
 * import { judgeProperties } from "./judge_properties.ts";
 * const judged = judgeProperties([{
 *   layout: "000", id: "p", module: "tests.test_p", name: "test_p",
 *   file: "tests/test_p.py", line: 1, nodeId: "tests/test_p.py::test_p",
 * }], { suite: [], alone: null }, {
 *   seed: 1, trials: null, ts: 0, nonBlocking: new Set(),
 * });
 * if (judged.properties[0]?.outcome !== "not_collected") throw new Error();
 * ```
 */
export function judgeProperties(
  located: readonly LocatedProperty[],
  evidence: PropertyEvidence,
  context: PropertyContext,
): PropertiesJudgement {
  const properties: PropertyResult[] = [];
  const findings: Finding[] = [];
  const ledger: LedgerRow[] = [];
  const failures: PropertyFailure[] = [];
  for (const prop of located) {
    const one = judgeProperty(prop, evidence, context);
    properties.push(one.result);
    if (one.row !== undefined) ledger.push(one.row);
    if (one.finding === undefined) continue;
    findings.push(one.finding);
    if (one.finding.blocking) {
      failures.push({
        property: prop,
        outcome: one.result.outcome as PropertyOutcome,
        ...(one.reason === undefined ? {} : { reason: one.reason }),
        finding: one.finding,
      });
    }
  }
  properties.sort((a, b) => compare(a.layout, b.layout) || compare(a.id, b.id));
  return {
    properties,
    findings: evidence.suiteStopped === undefined
      ? findings
      : unreachedAsOne(findings, failures, evidence.suiteStopped),
    ledger,
    failures,
  };
}

/**
 * The findings with those of the properties a stopped full run never
 * reported made one: they all say the same, that the run did not get to
 * them. The stop is blocking on its own, so the decision does not change;
 * each property's own failure stays in `failures`.
 */
function unreachedAsOne(
  findings: readonly Finding[],
  failures: readonly PropertyFailure[],
  stop: "tests.timeout" | "tests.output_exceeded",
): Finding[] {
  const unreached = new Map<Finding, LocatedProperty>();
  for (const f of failures) {
    if (f.outcome === "not_collected") unreached.set(f.finding, f.property);
  }
  if (unreached.size < 2) return [...findings];
  const ids = [...unreached.values()].map((p) => JSON.stringify(p.id));
  const listed = ids.length <= 10
    ? `${ids.slice(0, -1).join(", ")} and ${ids.at(-1)}`
    : `${ids.slice(0, 10).join(", ")} and ${ids.length - 10} more`;
  const one = finding(
    "property.not_passed",
    `${unreached.size} registered properties could not be judged because the full test run was stopped before it reported them (see the ${stop} finding): ${listed}; fix what stopped the run and check again`,
  );
  const out: Finding[] = [];
  for (const f of findings) {
    if (!unreached.has(f)) out.push(f);
    else if (!out.includes(one)) out.push(one);
  }
  return out;
}

/** Judge one located property. */
export function judgeProperty(
  prop: LocatedProperty,
  evidence: PropertyEvidence,
  context: PropertyContext,
): PropertyJudgement {
  if (prop.nodeId === undefined) {
    // Already a property.module_missing / test_missing finding.
    return { result: { layout: prop.layout, id: prop.id, outcome: "missing" } };
  }
  const { seed } = context;
  // The node id names what pytest runs (a state machine's `TestX::runTest`).
  const ref = {
    module: prop.module,
    name: prop.nodeId.split("::").slice(1).join("."),
  };
  const { alone } = evidence;
  const aloneCases = alone === null || stopped(alone) ? [] : alone.cases ?? [];
  const onItsOwn = alone === null
    ? "not_collected"
    : evaluateProperty(aloneCases, ref);
  const suiteReason = reasonIn(evidence.suite, ref, evidence.suiteTexts);
  const fullRun = evaluateProperty(evidence.suite, ref);
  // A health check or deadline that failed while pawl's own runs shared the
  // machine, and held when the properties ran alone at normal priority, was
  // pawl's scheduling, not the pull request.
  const inSuite = fullRun !== "passed" && evidence.calmAlone === true &&
      onItsOwn === "passed" && suiteReason !== undefined &&
      isTimingFailure(suiteReason)
    ? "passed"
    : fullRun;
  const outcome = inSuite !== "passed" ? inSuite : onItsOwn;
  const result: PropertyResult = {
    layout: prop.layout,
    id: prop.id,
    outcome,
  };
  const reason = outcome === "passed"
    ? undefined
    : inSuite !== "passed"
    ? suiteReason
    : reasonIn(aloneCases, ref, evidence.aloneTexts);
  // What the failure shows is read from the text's end when it was long.
  const text = outcome === "passed"
    ? undefined
    : inSuite !== "passed"
    ? failureText(evidence.suite, ref, evidence.suiteTexts, evidence.suiteTails)
    : failureText(aloneCases, ref, evidence.aloneTexts, evidence.aloneTails);
  const failing = outcome === "passed"
    ? undefined
    : casesFor(evidence.suite, ref).concat(casesFor(aloneCases, ref)).find((
      c,
    ) => c.outcome !== "passed");
  const row: LedgerRow = {
    seed,
    trials: context.trials,
    ok: outcome === "passed",
    "witness_sha256": outcome === "passed"
      ? null
      : witnessSha256(extractWitness(failing?.message ?? outcome)),
    ts: context.ts,
    layout: prop.layout,
    id: prop.id,
    kind: "fresh",
  };
  if (outcome === "passed") return { result, row };
  return {
    result,
    row,
    ...(reason === undefined ? {} : { reason }),
    finding: notPassed(prop, evidence, context, {
      inSuite,
      onItsOwn,
      outcome,
      reason,
      failure: text === undefined || context.reproduce === undefined
        ? undefined
        : failureDetail(
          prop.nodeId,
          text,
          context.reproduce(prop.nodeId),
        ),
    }),
  };
}

/** The finding of a property that did not pass, with why. */
function notPassed(
  prop: LocatedProperty,
  evidence: PropertyEvidence,
  context: PropertyContext,
  judged: {
    inSuite: PropertyOutcome;
    onItsOwn: PropertyOutcome;
    outcome: PropertyOutcome | "missing";
    reason: FailureReason | undefined;
    failure: FailureDetail | undefined;
  },
): Finding {
  const { seed } = context;
  const { inSuite, onItsOwn, outcome, reason } = judged;
  const where = {
    path: prop.file,
    ...(prop.line === undefined ? {} : { line: prop.line }),
    ...(judged.failure === undefined ? {} : { failure: judged.failure }),
  };
  const collectError = prop.file === undefined
    ? undefined
    : evidence.collectErrors?.get(prop.file);
  const because = (clause: string) => withBrief(clause, reason, judged.failure);
  const why = outcome === "not_collected" && collectError !== undefined
    ? `its module could not be collected:\n${collectError}`
    : inSuite !== "passed"
    ? because(describeOutcome(inSuite))
    : because(
      `it passed in the full run but ${
        describeOutcome(onItsOwn)
      } when the properties ran on their own, so the full run's report cannot be trusted`,
    );
  return context.nonBlocking.has(prop.nodeId as string)
    ? finding(
      "seed.fresh_failed",
      `Property "${prop.id}" (${prop.nodeId}) did not pass on this run's fresh seed ${seed}: ${why}; it is under an unexpired seed freeze, so this does not block until the freeze expires`,
      { ...where, blocking: false },
    )
    : finding(
      "property.not_passed",
      `Property "${prop.id}" (${prop.nodeId}) did not pass on seed ${seed}: ${why}`,
      where,
    );
}

/** The reason the first case of `ref` that did not pass gives, if one failed or errored. */
function reasonIn(
  cases: readonly TestCaseResult[],
  ref: { module: string; name: string },
  texts: ReadonlyMap<string, string> | undefined,
): FailureReason | undefined {
  const text = failureText(cases, ref, texts);
  return text === undefined ? undefined : failureReason(text);
}

/** The failure text of the first case of `ref` that failed or errored, if it has one. */
function failureText(
  cases: readonly TestCaseResult[],
  ref: { module: string; name: string },
  texts: ReadonlyMap<string, string> | undefined,
  tails?: ReadonlyMap<string, string>,
): string | undefined {
  const bad = casesFor(cases, ref).find((c) =>
    c.outcome === "failed" || c.outcome === "error"
  );
  if (bad === undefined) return undefined;
  const id = locateCase(bad).nodeId;
  const text = tails?.get(id) ?? texts?.get(id) ?? bad.message ?? "";
  return text === "" ? undefined : text;
}

function withReason(clause: string, reason: FailureReason | undefined) {
  return reason === undefined ? clause : describeFailure(clause, reason);
}

/** Characters of an exception's first line a message quotes. */
const BRIEF_CHARS = 200;

/**
 * The reason in one line when the finding carries what the test showed:
 * the exception's first line in the message, the example, the traceback
 * and the command in `failure`.
 */
function withBrief(
  clause: string,
  reason: FailureReason | undefined,
  failure: FailureDetail | undefined,
): string {
  if (failure === undefined || reason === undefined) {
    return withReason(clause, reason);
  }
  const first = failure.exception?.split("\n")[0]?.trim() ?? "";
  if (reason.kind !== "exception" || first === "") {
    return describeFailure(clause, { ...reason, tail: "" });
  }
  const quoted = first.length > BRIEF_CHARS
    ? `${first.slice(0, BRIEF_CHARS)}… (whole below)`
    : first;
  return `${clause} with ${quoted}`;
}

/** A run stopped by its own limits says nothing about the tests it did not reach. */
function stopped(run: PytestRun): boolean {
  return run.result.timedOut || run.result.outputExceeded;
}

/** An outcome other than `passed`, as the clause of a finding. */
export function describeOutcome(outcome: PropertyOutcome): string {
  switch (outcome) {
    case "not_collected":
      return "it was not collected or was deselected";
    case "skipped":
      return "it was skipped";
    case "xfailed":
      return "it was marked xfail";
    case "error":
      return "it errored";
    default:
      return "it failed";
  }
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
