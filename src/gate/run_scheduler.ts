/**
 * One scheduler for any plan of runs (`stage_plan.ts`): the first sandbox
 * makes the runs one after another in plan order, each once the runs it
 * waits for ended and only when its condition holds; a run that may go in
 * a spare lane starts at once in one (at background priority), and its
 * result is taken up in its place in that order. Copies planned ahead are
 * exported ahead; the first run that cannot decide (throws) stops every
 * run not yet started, and its error is thrown once the runs in flight
 * ended; lanes are closed once their runs ended, and every copy in flight
 * is waited for.
 *
 * @module
 */
import type { Sandbox } from "../sandbox/sandbox.ts";
import {
  type CopyTree,
  type RunId,
  type RunOutcome,
  selectionOf,
  type StagePlan,
  type StageResult,
  type StageResults,
  type StageRun,
} from "./stage_plan.ts";

/** Where a run runs: a sandbox, the sandbox copies are handed to, a report directory. */
export interface RunSlot {
  /** Runs go through it (a lane's at background priority). */
  sandbox: Sandbox;
  /** The sandbox working copies are handed to. */
  owner: Pick<Sandbox, "prepareDir">;
  /** Its report directory. */
  reportDir: string;
}

/** A spare lane: a slot with a uid of its own, closed once its runs ended. */
export interface Lane extends RunSlot {
  /** Give its uid back. */
  close(): Promise<void>;
}

/** The working copies the runs take. */
export interface StageCopies {
  /** Start exporting the plan's copies: `ahead` ones at once, the others one run ahead. */
  plan(plan: StagePlan): void;
  /** The copy of `tree` called `name` (or a fresh one when undefined), handed to `owner`. */
  take(
    tree: CopyTree,
    name: string | undefined,
    owner: Pick<Sandbox, "prepareDir">,
  ): Promise<string>;
  /** Wait for every copy in flight; never throws. */
  settle(): Promise<void>;
}

/** What a runner gets besides its run. */
export interface RunContext {
  /** Where it runs. */
  slot: RunSlot;
  /** What it selects. */
  select: readonly string[];
  /** The results of the runs it waits for. */
  results: StageResults;
  /** Its working copy (the planned one, or a fresh one), made when asked for. */
  copy: () => Promise<string>;
  /** One more fresh copy of its tree (a rerun's), handed to the first sandbox. */
  fresh: () => Promise<string>;
}

/** What the scheduler runs with. */
export interface SchedulerPorts {
  /** The first sandbox's slot. */
  first: RunSlot;
  /**
   * Spare lanes for `runs`, at most one each, in order (fewer, or none,
   * when no uid is free); asked for once, with no runs when none may use
   * one.
   */
  lanes(runs: readonly StageRun[]): Promise<Lane[]>;
  /** The working copies. */
  copies: StageCopies;
  /** Make one run. */
  execute(run: StageRun, context: RunContext): Promise<RunOutcome>;
  /** Progress lines. */
  progress(line: string): void;
}

/** A run's outcome in a lane, kept until its turn comes (its error too). */
type Settled = { ok: RunOutcome } | { error: unknown };

/**
 * Make the runs of `plan` and return their results.
 *
 * @example
 * ```ts
 * import { scheduleRuns } from "./run_scheduler.ts";
 * import type { Sandbox } from "../sandbox/sandbox.ts";
 * const sandbox = {} as Sandbox;
 * const ran: string[] = [];
 * const results = await scheduleRuns([
 *   { id: "a", kind: "suite", tree: "head", run: { command: [], env: {} }, after: [] },
 *   { id: "b", kind: "pytest", tree: "head", run: { command: [], env: {} }, after: ["a"],
 *     when: () => false },
 * ], {
 *   first: { sandbox, owner: sandbox, reportDir: "/r" },
 *   lanes: () => Promise.resolve([]),
 *   copies: { plan: () => {}, take: () => Promise.resolve("/w"), settle: () => Promise.resolve() },
 *   execute: (run) => (ran.push(run.id), Promise.resolve({ kind: "checked" })),
 *   progress: () => {},
 * });
 * if (ran.join() !== "a" || results.has("b")) throw new Error();
 * ```
 */
export async function scheduleRuns(
  plan: StagePlan,
  ports: SchedulerPorts,
): Promise<StageResults> {
  checkOrder(plan);
  const results = new Map<RunId, StageResult>();
  const state = { stopped: false };
  ports.copies.plan(plan);
  const spare = plan.filter((r) => r.spare === true);
  // Asked for even when no run may use one: the spares then go back.
  const lanes = ports.lanes(spare);
  lanes.catch(() => undefined);
  const shared: Shared = { ports, results };
  const inLanes = placeInLanes(spare, lanes, { ...shared, state });
  inLanes.catch(() => undefined);
  try {
    for (const run of plan) {
      const placed = run.spare === true
        ? (await inLanes).runs.get(run.id)
        : undefined;
      if (run.when !== undefined && !run.when(seen(results, run))) continue;
      if (placed !== undefined) {
        // Announced in its turn, as if it ran now: it ran beside others.
        announce(run, shared);
        const settled = await placed;
        if ("error" in settled) throw settled.error;
        results.set(run.id, { ...settled.ok, lane: true });
        continue;
      }
      announce(run, shared);
      const outcome = await start(run, ports.first, shared);
      results.set(run.id, { ...outcome, lane: false });
    }
    return results;
  } finally {
    state.stopped = true;
    await settleLanes(inLanes);
    await ports.copies.settle();
  }
}

/** What the runs of one schedule share. */
interface Shared {
  ports: SchedulerPorts;
  results: StageResults;
}

/**
 * Throw unless every run comes after the runs it waits for, and no id is
 * used twice: a plan that does not is a programming error.
 */
function checkOrder(plan: StagePlan): void {
  const before = new Set<RunId>();
  const ids = new Set(plan.map((r) => r.id));
  if (ids.size !== plan.length) throw new Error("A run id is used twice");
  for (const run of plan) {
    const later = run.after.find((id) => ids.has(id) && !before.has(id));
    if (later !== undefined) {
      throw new Error(
        `Run "${run.id}" waits for "${later}", which the plan makes after it`,
      );
    }
    before.add(run.id);
  }
}

/** The results `run` waits for: all its condition, selection and runner may read. */
function seen(results: StageResults, run: StageRun): StageResults {
  return new Map([...results].filter(([id]) => run.after.includes(id)));
}

/** Print `run`'s progress line. */
function announce(run: StageRun, { ports, results }: Shared): void {
  const visible = seen(results, run);
  const step = typeof run.step === "function" ? run.step(visible) : run.step;
  if (step !== undefined) ports.progress(step);
}

/** Make `run` in `slot`. */
async function start(
  run: StageRun,
  slot: RunSlot,
  { ports, results }: Shared,
): Promise<RunOutcome> {
  const visible = seen(results, run);
  return await ports.execute(run, {
    slot,
    select: selectionOf(run, visible),
    results: visible,
    copy: () => ports.copies.take(run.tree, run.copy, slot.owner),
    fresh: () => ports.copies.take(run.tree, undefined, ports.first.owner),
  });
}

/** The spare runs placed in lanes, and the lanes' closing. */
interface Placed {
  /** Each placed run's outcome. */
  runs: Map<RunId, Promise<Settled>>;
  /** Settles once every lane's runs ended and it was closed. */
  closed: Promise<unknown>;
}

/**
 * Start the spare runs in the lanes as they come: the k-th run in the k-th
 * lane, the runs beyond the last lane after the last lane's run. None is
 * placed without a lane: they then take their turn in the first sandbox.
 */
async function placeInLanes(
  spare: readonly StageRun[],
  lanes: Promise<Lane[]>,
  shared: Shared & { state: { stopped: boolean } },
): Promise<Placed> {
  const made = await lanes.catch(() => [] as Lane[]);
  const runs = new Map<RunId, Promise<Settled>>();
  const closing = made.map((lane, k) => {
    const mine = spare.filter((_, i) => Math.min(i, made.length - 1) === k);
    let previous: Promise<unknown> = Promise.resolve();
    for (const run of mine) {
      const outcome = previous.then(async (): Promise<Settled> => {
        if (shared.state.stopped) return { error: new Error("Stopped") };
        try {
          return { ok: await start(run, lane, shared) };
        } catch (error) {
          return { error };
        }
      });
      runs.set(run.id, outcome);
      previous = outcome;
    }
    // A lane gives its uid back once its runs ended.
    return previous.then(() => lane.close());
  });
  return { runs, closed: Promise.allSettled(closing) };
}

/** Wait for every lane's runs and for the lanes to close; never throws. */
async function settleLanes(inLanes: Promise<Placed>): Promise<void> {
  const placed = await inLanes.catch(() => undefined);
  await placed?.closed;
}
