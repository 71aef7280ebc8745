/**
 * One run of a warm driver's (the baseline, a mutant's child, the
 * control): its own directory and observer channel, made when it is
 * handed over, and its outcome read from its own report and stream
 * exactly as a cold run's. The driver only says which tests ran and how
 * the child ended: a child stopped by a limit is a timeout only when its
 * stream shows a session that began and never finished; anything else
 * pawl cannot confirm is `unknown`.
 *
 * @module
 */
import type { Finding } from "../core/finding.ts";
import { ObserverChannel, type ObserverPlugin } from "../run/observer.ts";
import { readPytestReport } from "../run/run_pytest.ts";
import type { SideOutcomes } from "./judge_kill_sets.ts";
import type { Mutant } from "./mutant.ts";
import { type MutantWorker, runOutcomes, unknownFor } from "./run_mutants.ts";
import {
  type ChildPlaces,
  type DriverResult,
  stoppedByLimit,
} from "./warm_driver_messages.ts";

/** A property a side runs: its key (shared by both sides) and node id. */
export interface SideProperty {
  /** Key (`layout/id`). */
  key: string;
  /** pytest node id. */
  nodeId: string;
}

/** What became of one mutant in a session. */
export type WarmOutcome =
  | {
    kind: "ran";
    outcomes: SideOutcomes;
    findings: readonly Finding[];
    cached: boolean;
  }
  | { kind: "notCovered" }
  /** To be run the old way (its lines ran only at import, or its driver went away). */
  | { kind: "cold"; why: string };

/** What the driver's report of one child comes to. */
export async function childOutcome(
  child: Child,
  result: DriverResult,
  props: readonly SideProperty[],
  context: {
    what: string;
    mutant: Mutant;
    progress?: ((line: string) => void) | undefined;
  },
): Promise<WarmOutcome> {
  if (result.status === "import_only") {
    await finishQuietly(child);
    return { kind: "cold", why: "its lines ran only at import" };
  }
  if (result.status === "not_covered") {
    await finishQuietly(child);
    return { kind: "notCovered" };
  }
  const known = new Set(props.map((p) => p.nodeId));
  const selected = props.filter((p) => result.selected.includes(p.nodeId));
  if (
    selected.length === 0 || result.selected.some((n) => !known.has(n))
  ) {
    // The driver named tests pawl never offered: nothing it says counts.
    await finishQuietly(child);
    return {
      kind: "ran",
      outcomes: unknownFor(props),
      findings: [],
      cached: false,
    };
  }
  const judged = await judgeChild(child, selected, {
    what: context.what,
    stopped: stoppedByLimit(result),
  });
  if (Object.values(judged.outcomes).includes("timeout")) {
    const m = context.mutant;
    context.progress?.(
      `mutation: mutant ${m.id} (${m.file}:${m.line}) stopped after ${
        result.cpu.toFixed(2)
      } s of CPU time, its limit from the baseline's ${
        result.cpuLimit.toFixed(2)
      } s`,
    );
  }
  return { kind: "ran", ...judged, cached: false };
}

/** One run's places, as made for it and as sent to the driver. */
export interface Child {
  /** Its directory (HOME and report). */
  dir: string;
  /** Its observer channel. */
  channel: ObserverChannel;
  /** What the driver is told. */
  places: ChildPlaces;
  /** Whether its channel was finished. */
  finished: boolean;
}

/** Finish the run's channel unless it was; never throws. */
export async function finishQuietly(child: Child): Promise<void> {
  if (child.finished) return;
  child.finished = true;
  await child.channel.finish(0).catch(() => undefined);
}

/** A fresh directory for one run, handed to the uid, and its observer channel. */
export async function childPlaces(
  worker: MutantWorker,
  root: string,
  observer: ObserverPlugin,
): Promise<Child> {
  const dir = await Deno.makeTempDir({ dir: root, prefix: "r" });
  await worker.sandbox.prepareDir(dir);
  const channel = await ObserverChannel.open(observer);
  return {
    dir,
    channel,
    finished: false,
    places: {
      junit: `${dir}/junit.xml`,
      home: dir,
      socket: channel.path,
      token: channel.token,
    },
  };
}

/**
 * One run's outcomes from its own report and stream. A run a limit
 * `stopped` is a timeout when its stream shows a session that began and
 * never finished; one that finished left a report to read; anything else
 * is `unknown`.
 */
export async function judgeChild(
  child: Child,
  props: readonly SideProperty[],
  options: { what: string; stopped?: boolean },
): Promise<{ outcomes: SideOutcomes; findings: Finding[] }> {
  child.finished = true;
  const observation = await child.channel.finish();
  const report = await readPytestReport(child.places.junit, child.dir);
  const finished = observation.finished && report.cases !== null;
  if (options.stopped === true && !finished) {
    const began = observation.hello && observation.configured;
    return began
      ? {
        outcomes: Object.fromEntries(props.map((p) => [p.key, "timeout"])),
        findings: [],
      }
      : { outcomes: unknownFor(props), findings: [] };
  }
  return runOutcomes(
    { timedOut: false, cases: report.cases, observation },
    props,
    { what: options.what, observed: true },
  );
}
