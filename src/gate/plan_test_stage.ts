/**
 * The test stage's recipe: the full suite, then what its result calls for
 * at the base, the registered properties on their own (and from the base's
 * tests), the calm rerun, mutation, the failures repeated at the base, and
 * every frozen-seed replay, as a plan of runs (`stage_plan.ts`). A new kind
 * of run is one more entry here and a runner in `stage_runners.ts`.
 *
 * @module
 */
import { plural } from "../core/plural.ts";
import { TESTS_STEP } from "../core/progress.ts";
import type { LocatedProperty } from "./locate_properties.ts";
import { sortedUnique, type TestRuns } from "./plan_test_runs.ts";
import {
  type RunId,
  type StagePlan,
  type StageResults,
  type StageRun,
  suiteOf,
} from "./stage_plan.ts";

/** What the recipe reads besides the planned commands. */
export interface PlanTestStageInput {
  /** The registered properties that resolve at head. */
  properties: readonly LocatedProperty[];
  /** Of those, the ones whose test the base has: the base's oracle runs them. */
  atBase: readonly LocatedProperty[];
  /** Whether the base's oracle tree differs from the head's. */
  oracleDiffers: boolean;
  /**
   * Whether the pull request changes a path outside the test side (the
   * code under test): the base's tests then run on the base's code too.
   */
  codeChanged?: boolean;
  /** Whether pawl's observer watches the runs (the runner is pytest). */
  observed: boolean;
  /** Whether the contracts or the static rules already reject: nothing is then repeated at the base. */
  staticReject: boolean;
  /** Whether the oracle-strength rule runs (`[mutation]`). */
  mutation: boolean;
  /** The base commit, for the progress lines. */
  base: string;
  /** Whether the base has `path` (a collection error there may be the base's). */
  baseHas: (path: string) => boolean;
  /** Whether the property runs made beside the suite must be made again, calm. */
  calmRerun: (results: StageResults) => boolean;
  /** Node ids of the failures the head shows, to repeat at the base. */
  failures: (results: StageResults) => readonly string[];
  /**
   * Whether the calls the base's tests make into the code under test are
   * recorded and replayed where no test watches: the pull request changes
   * code outside the test side and no rule that reads only sources
   * already rejects (the probe rule aside, which the replay explains).
   */
  recordCalls?: boolean;
  /** Whether the head's replay of the recorded calls shows a difference (to ask the base). */
  callsDiffer?: (results: StageResults) => boolean;
  /** The first sandbox's isolation, for the suite's progress line. */
  isolation: { tier: string; network: string };
}

/**
 * The test stage's plan.
 *
 * @example
 * ```ts
 * import { DEFAULT_SETTINGS } from "../settings/settings.ts";
 * import { planTestRuns } from "./plan_test_runs.ts";
 * import { planTestStage } from "./plan_test_stage.ts";
 * const plan = planTestStage(planTestRuns(DEFAULT_SETTINGS, [], { seed: 7 }), {
 *   properties: [], atBase: [], oracleDiffers: false, observed: true,
 *   staticReject: false, mutation: false, base: "0", baseHas: () => true,
 *   calmRerun: () => false, failures: () => [],
 *   isolation: { tier: "none", network: "inherited" },
 * });
 * if (plan[0]?.id !== "suite") throw new Error();
 * ```
 */
export function planTestStage(
  runs: TestRuns,
  input: PlanTestStageInput,
): StagePlan {
  return [
    ...suiteRuns(runs, input),
    ...propertyRuns(runs, input),
    ...(input.mutation && input.properties.length > 0
      ? [
        {
          id: "mutation",
          kind: "mutation",
          tree: "head",
          run: runs.alone,
          after: ["suite", "alone", "oracle", "calm-alone", "calm-oracle"],
          when: reported,
        } satisfies StageRun,
      ]
      : []),
    failuresAtBase(runs, input),
    ...callRuns(runs, input),
    ...runs.replays.map((replay, i): StageRun => ({
      id: `replay-${i + 1}`,
      kind: "pytest",
      tree: "head",
      copy: runs.workDirs.replays[i] ?? `replay-${i + 1}`,
      run: replay,
      select: [replay.replay.test],
      ledger: true,
      after: [],
      step: `replaying frozen seed ${replay.replay.seed} (${replay.replay.id})`,
    })),
  ];
}

/** Runs after the suite that check, at the base, what it could not tell. */
const BASE_CHECKS: readonly RunId[] = [
  "observer-at-base",
  "suite-at-base",
  "collection-at-base",
];

/** The suite, and what its result calls for at the base. */
function suiteRuns(runs: TestRuns, input: PlanTestStageInput): StageRun[] {
  const { tier, network } = input.isolation;
  // A run pawl's observer never reached may owe that to the base's own
  // test command (exit 2) or to the pull request; a run that left no
  // usable report may leave none at the base either. When a rule that
  // reads only sources already rejects, neither is repeated: the decision
  // is made.
  const unobserved = (r: StageResults) =>
    input.observed && suiteOf(r)?.observation?.hello !== true;
  return [
    {
      id: "suite",
      kind: "suite",
      tree: "head",
      copy: runs.workDirs.suite,
      ahead: true,
      run: runs.suite,
      after: [],
      tally: "suite",
      step:
        `${TESTS_STEP} (sandbox: ${tier}, network ${network}, seed ${runs.seed})`,
    },
    {
      id: "observer-at-base",
      kind: "observer-at-base",
      tree: "base",
      run: runs.suite,
      after: ["suite"],
      when: (r) => !input.staticReject && unobserved(r),
      step: "loading pawl's observer at the base",
    },
    {
      id: "suite-at-base",
      kind: "suite-at-base",
      tree: "base",
      run: runs.suite,
      after: ["suite"],
      when: (r) =>
        !input.staticReject && !unobserved(r) && suiteOf(r)?.reported === false,
    },
    {
      // A test file that cannot be collected may be broken at the base
      // already, the same way: then pawl cannot decide (exit 2).
      id: "collection-at-base",
      kind: "collection-at-base",
      tree: "base",
      run: runs.alone,
      select: (r) => collectionErrors(r, input.baseHas),
      after: ["suite"],
      when: (r) => collectionErrors(r, input.baseHas).length > 0,
      step: (r) =>
        `collecting ${
          collectionErrors(r, input.baseHas).length
        } failing test files at the base`,
    },
  ];
}

/**
 * The properties on their own (only their own modules are imported, so a
 * test elsewhere that forges the report cannot make a failing property
 * pass), from the base's tests on the head's code when the trees differ,
 * both again, calm, when their runs beside the suite did not all pass,
 * and the base's tests on the base's code when the code under test
 * changed (`code-at-base`, see `src/run/judge_code_side.ts`).
 */
function propertyRuns(runs: TestRuns, input: PlanTestStageInput): StageRun[] {
  if (input.properties.length === 0) return [];
  const ids = sortedUnique(input.properties.map((p) => p.nodeId as string));
  const oracleIds = sortedUnique(input.atBase.map((p) => p.nodeId as string));
  const withOracle = input.oracleDiffers && oracleIds.length > 0;
  const after = ["suite", ...BASE_CHECKS];
  const n = input.properties.length;
  // The base's tests on the base's code are compared with them on the
  // head's code, asserts reached included.
  const codeSide = input.codeChanged === true && input.observed &&
    !input.staticReject && oracleIds.length > 0;
  const alone = (id: string, copy?: string): StageRun => ({
    id,
    kind: "pytest",
    tree: "head",
    ...(copy === undefined ? {} : { copy, ahead: true }),
    run: runs.alone,
    select: ids,
    ledger: true,
    ...(codeSide ? { countAsserts: true } : {}),
    after,
  });
  const oracle = (id: string, copy?: string): StageRun => ({
    ...alone(id, copy),
    tree: "oracle",
    select: oracleIds,
  });
  const calm = {
    after: ["suite", "alone", "oracle"],
    when: (r: StageResults) => reported(r) && input.calmRerun(r),
  };
  return [
    {
      ...alone("alone", runs.workDirs.alone),
      spare: true,
      when: reported,
      tally: "properties",
      step: `running ${
        plural(n, "registered property", "registered properties")
      } on ${n === 1 ? "its" : "their"} own${
        withOracle ? ", and from the base's tests" : ""
      }`,
    },
    ...(withOracle
      ? [{
        ...oracle("oracle", runs.workDirs.oracle),
        spare: true,
        when: reported,
        tally: "base's tests",
      }]
      : []),
    {
      ...alone("calm-alone"),
      ...calm,
      tally: "properties again",
      step: `running the ${
        plural(n, "registered property", "registered properties")
      } on ${
        n === 1 ? "its" : "their"
      } own again, alone at normal priority: the runs made beside the suite did not all pass`,
    },
    ...(withOracle
      ? [{ ...oracle("calm-oracle"), ...calm, tally: "base's tests again" }]
      : []),
    ...(input.codeChanged === true && input.observed && !input.staticReject &&
        oracleIds.length > 0
      ? [
        {
          // The base's tests on the base's code: what the oracle saw before
          // the code changed. The base's tests on the head's code are the
          // oracle's run, or the properties' own when the test side is the
          // base's. Counts only are compared, so a spare lane fits.
          ...alone("code-at-base"),
          tree: "base",
          select: oracleIds,
          ledger: false,
          spare: true,
          when: reported,
        } satisfies StageRun,
      ]
      : []),
  ];
}

/**
 * Attribution by difference: every failure the head shows is run again on
 * the base tree the way the properties' own run is made (same command,
 * seed and limits, normal priority).
 */
function failuresAtBase(runs: TestRuns, input: PlanTestStageInput): StageRun {
  const ids = (r: StageResults) => sortedUnique(input.failures(r));
  return {
    id: "failures-at-base",
    kind: "pytest",
    tree: "base",
    run: runs.alone,
    select: ids,
    after: ["suite", "alone", "oracle", "calm-alone", "calm-oracle"],
    when: (r) => !input.staticReject && reported(r) && ids(r).length > 0,
    step: (r) => {
      const n = ids(r).length;
      return `running ${plural(n, "failing test")} again at the base commit ${
        input.base.slice(0, 12)
      }`;
    },
  };
}

/**
 * The calls the base's registered tests make into the head's code (the
 * base's oracle when the test side differs, else the head's properties),
 * recorded; made again on a fresh copy of the head in clean interpreters;
 * and, when they differ there, on the base's code, which may have had it.
 */
function callRuns(runs: TestRuns, input: PlanTestStageInput): StageRun[] {
  if (input.recordCalls !== true || input.properties.length === 0) return [];
  const withOracle = input.oracleDiffers && input.atBase.length > 0;
  const select = sortedUnique(
    (withOracle ? input.atBase : input.properties).map((p) =>
      p.nodeId as string
    ),
  );
  const recorded = (r: StageResults): boolean => {
    const result = r.get("calls-record");
    return result?.kind === "calls-recorded" &&
      (result.recording?.calls.length ?? 0) > 0;
  };
  return [
    {
      id: "calls-record",
      kind: "record-calls",
      tree: withOracle ? "oracle" : "head",
      run: runs.alone,
      select,
      after: ["suite"],
      when: reported,
      step:
        "recording the calls the base's registered tests make into the code under test",
    },
    {
      id: "calls-replay",
      kind: "replay-calls",
      tree: "head",
      run: runs.alone,
      after: ["calls-record"],
      when: recorded,
      step: "making those calls again where no test is watching",
    },
    {
      id: "calls-replay-base",
      kind: "replay-calls",
      tree: "base",
      run: runs.alone,
      after: ["calls-record", "calls-replay"],
      when: (r) => recorded(r) && (input.callsDiffer?.(r) ?? false),
      step: `making the calls that differ again on the base's code at ${
        input.base.slice(0, 12)
      }`,
    },
  ];
}

function reported(results: StageResults): boolean {
  return suiteOf(results)?.reported === true;
}

/** Files the base has that the suite could not collect, sorted. */
export function collectionErrors(
  results: StageResults,
  baseHas: (path: string) => boolean,
): string[] {
  return sortedUnique(
    (suiteOf(results)?.findings ?? []).flatMap((f) =>
      f.rule === "tests.collection_error" && f.path !== undefined &&
        baseHas(f.path)
        ? [f.path]
        : []
    ),
  );
}
