/**
 * Spare lanes: sandboxes with a uid of their own (not the first sandbox's,
 * nor another lane's) and a report directory of their own, for the runs a
 * plan lets go beside the first sandbox's. Every command in a lane runs at
 * background priority: the first sandbox's run (the suite) holds the most
 * tests and its result comes first, so the cores it wants go to it.
 *
 * @module
 */
import type { Sandbox } from "../sandbox/sandbox.ts";
import type {
  GateSandbox,
  SandboxFactory,
  SandboxRequest,
  Workspace,
} from "./gate_ports.ts";
import type { Lane } from "./run_scheduler.ts";
import type { StageRun } from "./stage_plan.ts";

/**
 * A spare sandbox being made: taken once by the lane it is for, or
 * discarded (closed when it was made). A factory that cannot make one
 * (no uid free at once) leaves it undefined.
 */
export interface SpareSandbox {
  /** The sandbox, or undefined when none could be made; once. */
  take(): Promise<GateSandbox | undefined>;
  /** Close it unless it was taken; never throws. */
  discard(): Promise<void>;
}

/** Ask `factory` for a spare sandbox now. */
export function spareSandbox(
  factory: SandboxFactory,
  request: SandboxRequest,
): SpareSandbox {
  const made = factory({ ...request, spare: true }).catch(() => undefined);
  let taken = false;
  return {
    take: () => {
      if (taken) return Promise.resolve(undefined);
      taken = true;
      return made;
    },
    discard: async () => {
      if (taken) return;
      taken = true;
      await (await made)?.close?.().catch(() => undefined);
    },
  };
}

/** Options for {@linkcode openLanes}. */
export interface OpenLanesOptions {
  /** Where the lanes' report directories go. */
  workspace: Workspace;
  /** Gives a spare sandbox the first one's view of the setup step's output. */
  wrap: (other: Sandbox) => Sandbox;
}

/**
 * A lane for each of `runs` from `spares` (the k-th spare for the k-th
 * run), leaving out the spares that could not be made or whose uid is
 * taken; none at tier `none`. Spares beyond the runs go back at once.
 */
export async function openLanes(
  first: Sandbox,
  spares: readonly SpareSandbox[],
  runs: readonly StageRun[],
  options: OpenLanesOptions,
): Promise<Lane[]> {
  await Promise.all(spares.slice(runs.length).map((s) => s.discard()));
  const lanes: Lane[] = [];
  try {
    for (const [i, run] of runs.entries()) {
      const spare = spares[i];
      if (spare === undefined) break;
      const lane = await spareLane(first, await spare.take(), {
        ...options,
        reportName: `reports-${run.id}`,
        taken: lanes.map((l) => l.sandbox.isolation.uid),
      });
      if (lane !== undefined) lanes.push(lane);
    }
    return lanes;
  } catch (error) {
    for (const lane of lanes) await lane.close();
    throw error;
  }
}

/**
 * A lane made of `spare`; undefined (and `spare` closed) at tier `none`,
 * at another tier than the first sandbox's, or with a uid already taken.
 */
async function spareLane(
  sandbox: Sandbox,
  spare: GateSandbox | undefined,
  lane: OpenLanesOptions & {
    reportName: string;
    taken: readonly (number | undefined)[];
  },
): Promise<Lane | undefined> {
  if (spare === undefined) return undefined;
  const uid = spare.isolation.uid;
  if (
    sandbox.isolation.tier === "none" ||
    spare.isolation.tier !== sandbox.isolation.tier ||
    uid === undefined || uid === sandbox.isolation.uid ||
    lane.taken.includes(uid)
  ) {
    await spare.close?.();
    return undefined;
  }
  try {
    const reportDir = await lane.workspace.mkdir(lane.reportName);
    await spare.prepareDir(reportDir);
    return {
      sandbox: inBackground(lane.wrap(spare)),
      owner: spare,
      reportDir,
      close: async () => {
        await spare.close?.();
      },
    };
  } catch (error) {
    await spare.close?.();
    throw error;
  }
}

/** `sandbox` running every command at background priority. */
function inBackground(sandbox: Sandbox): Sandbox {
  return {
    isolation: sandbox.isolation,
    prepareDir: (dir, options) => sandbox.prepareDir(dir, options),
    run: (command) => sandbox.run({ ...command, priority: "background" }),
  };
}
