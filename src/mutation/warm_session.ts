/**
 * One warm driver on one sandbox, for one side: a copy of the side's tree
 * with the schemata files written in, the driver run in the sandbox in
 * place of `python3 -m pytest`, its baseline read as any run's (its JUnit
 * report against pawl's observer stream), then mutants taken one at a
 * time from a shared queue while the budget lasts, and among them, at a
 * point drawn afresh, a control: the unmutated code under an id no mutant
 * has. Each run reports on a socket and into a directory of its own, made
 * only when it is handed over (under a root-owned parent the tests cannot
 * list, so no run finds another's), and is judged from those alone
 * (`warm_child.ts`).
 *
 * @module
 */
import type { Finding } from "../core/finding.ts";
import type { ObserverPlugin } from "../run/observer.ts";
import { pytestEnvironment } from "../run/run_pytest.ts";
import { selectionCommand, treeHas } from "../run/selection_command.ts";
import type { SandboxLimits } from "../sandbox/sandbox.ts";
import { DriverChannel } from "./driver_channel.ts";
import { DriverIo } from "./driver_io.ts";
import type { WarmDriver } from "./install_warm_driver.ts";
import type { SideOutcomes } from "./judge_kill_sets.ts";
import type { Mutant } from "./mutant.ts";
import type { MutationCache } from "./mutation_cache.ts";
import { copyTree, describeRun, type MutantWorker } from "./run_mutants.ts";
import {
  type Child,
  childOutcome,
  childPlaces,
  finishQuietly,
  judgeChild,
  type SideProperty,
  type WarmOutcome,
} from "./warm_child.ts";
import { Controls, decoy } from "./warm_controls.ts";
import {
  baselineSchema,
  type CpuAllowance,
  type DriverBaseline,
  helloSchema,
  resultSchema,
} from "./warm_driver_messages.ts";

/** The side one session runs. */
export interface WarmSide {
  /** `base` (the base's oracle) or `head` (the head's properties). */
  label: "base" | "head";
  /** The tree to copy; root-owned, never handed to the sandbox itself. */
  template: string;
  /** Repository-relative file → its schemata text, written into the copy. */
  schemata: ReadonlyMap<string, string>;
  /** The properties the baseline runs. */
  properties: readonly SideProperty[];
}

/** How every session runs. */
export interface WarmSettings {
  /** The test command (`<python> -m pytest ...`, with the fixed seed). */
  command: readonly string[];
  /** Environment over the sandbox's minimal one. */
  env: Readonly<Record<string, string>>;
  /** Limits of the whole driver run (the sandbox's own). */
  limits: Partial<SandboxLimits>;
  /** pawl's observer plugin, loaded into the baseline and every child. */
  observer: ObserverPlugin;
  /** The installed driver. */
  driver: WarmDriver;
  /** A child's CPU time limit from the baseline's. */
  cpu: CpuAllowance;
  /** A child's wall-clock ceiling from its CPU limit. */
  wall: CpuAllowance;
  /** The runner's cache, if any (see `mutation_cache.ts`). */
  cache?: WarmCache | undefined;
  /** Progress lines. */
  progress?: ((line: string) => void) | undefined;
  /** A monotonic clock in milliseconds. */
  clock: () => number;
}

/**
 * The cache as a session reads it: outcomes by mutant and side (written
 * by the caller, once the session's control passed), and the side's
 * baseline (read and written by the caller, `warm_mutants.ts`).
 */
export interface WarmCache {
  /** The cache. */
  cache: MutationCache;
  /** The key of `mutant` run on `side` with `properties`; undefined when its outcome is not kept. */
  key: (
    side: WarmSide,
    mutant: Mutant,
    properties: readonly SideProperty[],
  ) => Promise<string | undefined>;
  /** The key of `side`'s baseline (see `baselineCacheKey`); undefined when it is not kept. */
  baselineKey: (side: WarmSide) => Promise<string | undefined>;
}

/** A mutant handed to a driver. */
export interface WarmJob {
  /** The mutant. */
  mutant: Mutant;
  /** Base side: the schemata lines that cover it; the driver picks the tests. */
  cover?: readonly { file: string; lines: readonly number[] }[];
  /** Head side: the properties to run, of those passing in the session's baseline. */
  run?: (passing: ReadonlySet<string>) => readonly SideProperty[];
}

/** Where sessions take their jobs from. */
export interface WarmQueue {
  /** The next job, or undefined when none is left or the budget ran out. */
  take(): WarmJob | undefined;
  /** About how many jobs one session takes (the control is placed among them). */
  readonly share: number;
}

/** A session's baseline, as pawl read it. */
export interface WarmBaseline {
  /** Each property's outcome on the unmutated code. */
  outcomes: SideOutcomes;
  /** Why its report cannot be trusted, when it cannot. */
  findings: Finding[];
  /** Milliseconds from the driver's start to its baseline's end. */
  ms: number;
}

/** What one session did. */
export interface WarmSessionResult {
  /** The baseline, or null when the driver never reported one. */
  baseline: WarmBaseline | null;
  /** Each mutant taken, by id (in the order taken), with its cache key when it ran. */
  outcomes: Map<
    string,
    { job: WarmJob; outcome: WarmOutcome; key?: string }
  >;
  /**
   * The control run: the unmutated code, in a child like the mutants',
   * all of whose properties must pass (`none` when no mutant ran). A
   * failed control means the session's runs cannot be told from the
   * forking itself: none of its outcomes count.
   */
  control: "passed" | "failed" | "none";
  /** Whether a process other than the driver connected to its channel (the code under test reaching for pawl's). */
  intruded: boolean;
}

/** Run one driver for `side` on `worker` until the queue is empty. */
export async function runWarmSession(
  worker: MutantWorker,
  side: WarmSide,
  settings: WarmSettings,
  queue: WarmQueue,
): Promise<WarmSessionResult> {
  const out: WarmSessionResult = {
    baseline: null,
    outcomes: new Map(),
    control: "none",
    intruded: false,
  };
  const tree = worker.workPath();
  const places = worker.workPath();
  await copyTree(side.template, tree);
  await Deno.mkdir(places, { mode: 0o711 });
  await Deno.chmod(places, 0o711);
  const channel = await DriverChannel.open(settings.observer);
  try {
    for (const [file, text] of side.schemata) {
      await Deno.writeTextFile(`${tree}/${file}`, text);
    }
    await worker.sandbox.prepareDir(tree);
    // Every run of the driver selects (the properties, then each mutant's
    // tests): the command's own test paths are left out.
    const command = await selectionCommand(settings.command, {
      exists: treeHas(tree),
    });
    const base = await childPlaces(worker, places, settings.observer);
    const started = settings.clock();
    const io = new DriverIo(
      channel,
      worker.sandbox.run({
        argv: [settings.command[0] ?? "python3", settings.driver.path],
        cwd: tree,
        env: {
          ...pytestEnvironment(tree, base.places.home, {
            env: settings.env,
            observer: settings.observer,
          }),
          PAWL_DRIVER_SOCKET: channel.path,
          PAWL_DRIVER_TOKEN: channel.token,
        },
        writable: [places],
        readOnly: [settings.observer.root, settings.driver.dir],
        limits: settings.limits,
      }),
    );
    try {
      out.baseline = await baselineOf(io, side, { ...settings, command }, base);
      if (out.baseline !== null) {
        out.baseline.ms = settings.clock() - started;
        await takeJobs(worker, side, settings, queue, { io, places, out });
      }
    } finally {
      await channel.send({ event: "end" });
      await io.settle();
      await finishQuietly(base);
    }
  } finally {
    out.intruded = channel.intruded;
    await channel.close();
    await Deno.remove(tree, { recursive: true }).catch(() => {});
    await Deno.remove(places, { recursive: true }).catch(() => {});
  }
  return out;
}

/**
 * Greet the driver, configure it, and read its baseline; null when it
 * never reported one, or left threads running that a fork would lose.
 */
async function baselineOf(
  io: DriverIo,
  side: WarmSide,
  settings: WarmSettings,
  base: Child,
): Promise<WarmBaseline | null> {
  const hello = await io.receive(helloSchema);
  if (hello === undefined || hello.token !== io.channel.token) return null;
  await io.channel.send({
    event: "config",
    args: settings.command.slice(3),
    observer: settings.observer.module,
    select: [...new Set(side.properties.map((p) => p.nodeId))],
    files: [...side.schemata.keys()],
    baseline: base.places,
    cpu: settings.cpu,
    wall: settings.wall,
  });
  const reported = await io.receive(baselineSchema);
  if (reported === undefined) return null;
  const judged = await judgeChild(base, side.properties, {
    what: describeRun(side.label, null),
  });
  const why = reported.threads > 1
    ? `the ${side.label}'s baseline left ${
      reported.threads - 1
    } threads running, which a fork would lose`
    : unseen(side.properties, judged.outcomes, reported.tests);
  if (why !== undefined) {
    settings.progress?.(`mutation: ${why}: its mutants run one process each`);
    return null;
  }
  return { ...judged, ms: 0 };
}

/**
 * Why the driver cannot pick tests for the side's mutants: a property
 * that passed whose tests the driver did not see pass (they ran in
 * another process, e.g. a plugin's workers, where no line is recorded);
 * undefined when it saw them all.
 */
function unseen(
  properties: readonly SideProperty[],
  outcomes: SideOutcomes,
  tests: DriverBaseline["tests"],
): string | undefined {
  const seen = (nodeId: string) =>
    Object.entries(tests).some(([id, t]) =>
      t.passed &&
      (id === nodeId || (!nodeId.includes("[") && id.startsWith(`${nodeId}[`)))
    );
  const missing = properties.find((p) =>
    outcomes[p.key] === "survived" && !seen(p.nodeId)
  );
  return missing === undefined
    ? undefined
    : `the warm interpreter did not see "${missing.nodeId}" run, although it passed`;
}

/**
 * Hand the queue's jobs to the driver one at a time, and among them the
 * controls: the unmutated code under an id no mutant has, one for each
 * set of tests the session's jobs run, with those tests, each at a point
 * of the session drawn afresh, so no test can tell a control from a
 * mutant's run. Every control must pass.
 */
async function takeJobs(
  worker: MutantWorker,
  side: WarmSide,
  settings: WarmSettings,
  queue: WarmQueue,
  session: { io: DriverIo; places: string; out: WarmSessionResult },
): Promise<void> {
  const { out } = session;
  const passing = new Set(
    Object.entries(out.baseline?.outcomes ?? {}).flatMap(([k, o]) =>
      o === "survived" ? [k] : []
    ),
  );
  const passingProps = side.properties.filter((p) => passing.has(p.key));
  if (passingProps.length === 0) return;
  const run = (mutant: Mutant, job: WarmJob) =>
    runJob(worker, side, settings, session, {
      mutant,
      cover: job.cover,
      props: job.run?.(passing) ?? passingProps,
    });
  const controls = new Controls<WarmJob>(
    queue.share,
    (job) => run(decoy(), job),
  );
  try {
    await jobsAndControls(queue, controls, out, {
      key: (job, props) => settings.cache?.key(side, job.mutant, props),
      cache: settings.cache?.cache,
      props: (job) => job.run?.(passing) ?? passingProps,
      run,
    });
  } finally {
    // A control never run (the driver went away first) confirms nothing.
    if (controls.open && out.control === "passed") out.control = "none";
  }
}

/** The loop of {@linkcode takeJobs}. */
async function jobsAndControls(
  queue: WarmQueue,
  controls: Controls<WarmJob>,
  out: WarmSessionResult,
  how: {
    key: (
      job: WarmJob,
      props: readonly SideProperty[],
    ) => Promise<string | undefined> | undefined;
    cache: MutationCache | undefined;
    props: (job: WarmJob) => readonly SideProperty[];
    run: (mutant: Mutant, job: WarmJob) => Promise<WarmOutcome | "lost">;
  },
): Promise<void> {
  let sent = 0;
  for (let job = queue.take(); job !== undefined; job = queue.take()) {
    const props = how.props(job);
    const key = await how.key(job, props);
    const hit = key === undefined ? undefined : await how.cache?.get(key);
    if (hit !== undefined || props.length === 0) {
      // From the cache, or nothing of it to run here (a head run of
      // properties that fail on the head's unmutated code).
      out.outcomes.set(job.mutant.id, {
        job,
        outcome: {
          kind: "ran",
          outcomes: hit ?? {},
          findings: [],
          cached: hit !== undefined,
        },
      });
      continue;
    }
    if (!await controls.due(sent, out)) return;
    const outcome = await how.run(job.mutant, job);
    if (outcome === "lost") {
      out.outcomes.set(job.mutant.id, {
        job,
        outcome: { kind: "cold", why: "its driver went away" },
      });
      return;
    }
    sent++;
    if (outcome.kind === "ran") controls.saw(outcome.outcomes, job, sent);
    out.outcomes.set(job.mutant.id, {
      job,
      outcome,
      ...(key === undefined ? {} : { key }),
    });
  }
  await controls.due(Number.POSITIVE_INFINITY, out);
}

/** Run one mutant (or the control) in a child; "lost" when the driver went away. */
async function runJob(
  worker: MutantWorker,
  side: WarmSide,
  settings: WarmSettings,
  session: { io: DriverIo; places: string },
  job: {
    mutant: Mutant;
    cover: WarmJob["cover"];
    props: readonly SideProperty[];
  },
): Promise<WarmOutcome | "lost"> {
  const { io } = session;
  const { mutant, props } = job;
  const child = await childPlaces(worker, session.places, settings.observer);
  const sent = await io.channel.send({
    event: "mutant",
    id: mutant.id,
    cover: job.cover ?? null,
    run: job.cover === undefined ? props.map((p) => p.nodeId) : null,
    child: child.places,
  });
  const result = sent ? await io.receive(resultSchema) : undefined;
  if (result === undefined || result.id !== mutant.id) {
    await finishQuietly(child);
    return "lost";
  }
  return await childOutcome(child, result, props, {
    what: describeRun(side.label, mutant),
    mutant,
    progress: settings.progress,
  });
}
