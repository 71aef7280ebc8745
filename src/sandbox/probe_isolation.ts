/**
 * Find out, by running a trivial command at each tier, how strongly this
 * machine can isolate the tests.
 *
 * @module
 */
import {
  ALWAYS_HIDDEN,
  DEFAULT_LIMITS,
  DEFAULT_PATH,
  DEFAULT_TMP_BYTES,
} from "./_defaults.ts";
import { runCaptured, SYSTEM_DIRS } from "./_exec.ts";
import { buildSandboxArgv, type HiddenPath } from "./_sandbox_argv.ts";
import {
  canDropBoundingSet,
  currentUid,
  findTools,
  type FoundTools,
  resolveHidden,
  sandboxIdentity,
} from "./_setup.ts";
import type { IsolationReport, IsolationTier } from "./sandbox.ts";
import { SandboxUnavailableError } from "./sandbox_errors.ts";
import { describeMissingTools } from "./_tool_packages.ts";

export { SandboxUnavailableError } from "./sandbox_errors.ts";

/** A requested isolation: a tier, or `auto` for the strongest that works. */
export type IsolationRequest = "auto" | IsolationTier;

/** Options for {@linkcode probeIsolation}. */
export interface ProbeIsolationOptions {
  /** The tier to use, or `auto` for the strongest one that works. */
  requested: IsolationRequest;
  /** Sandbox uid (default: user `pawl`'s, else 64123). */
  uid?: number;
  /** Sandbox gid (default: user `pawl`'s, else the uid). */
  gid?: number;
  /** Paths to hide (the signing key's directory); `/root` always is. */
  hiddenPaths?: readonly string[];
  /** Directories searched for bwrap, setpriv, prlimit, ... (default: /usr/sbin, /usr/bin, /sbin, /bin). */
  toolDirs?: readonly string[];
  /** The uid pawl runs as (default: asked of id(1)). */
  currentUid?: number;
  /** Where user `pawl` is looked up (default /etc/passwd). */
  passwdPath?: string;
  /** Deadline for each trial run, in milliseconds (default 10 s). */
  probeTimeoutMs?: number;
  /**
   * Trial runs already made (or under way) for other sandboxes of the same
   * judgement, shared between their probes: a tier that ran `id -u` as one
   * freshly leased uid runs it as any other (root switches to any uid
   * alike, and a leased uid has no processes left to hit its limits), so
   * a trial is keyed by everything but the uid: the tier, the tools, the
   * hidden paths and the deadline. Without it every probe tries each tier.
   */
  trials?: IsolationTrials;
  /**
   * Told when a tier's trial process is started (a caller about to keep
   * its thread busy can let the trial run meanwhile).
   */
  onTrialSpawn?: () => void;
}

/** Shared trial outcomes: the reason a tier failed, or undefined. */
export type IsolationTrials = Map<string, Promise<string | undefined>>;

/**
 * Without a pid namespace, killed tests' orphans are reparented to PID 1;
 * if that is pawl, nobody reaps them and they keep counting against the
 * process limits.
 */
const PID_1_NOTE =
  "pawl runs as PID 1, which does not reap orphaned test processes: start the container with an init (docker run --init, or init: true in compose)";

const STRONGEST_FIRST: readonly IsolationTier[] = ["bwrap", "unshare", "uid"];

/**
 * Probe the requested isolation by running `id -u` through the real
 * wrappers. `auto` tries bwrap, then unshare, then uid, and records in
 * `notes` why each stronger tier failed. Throws
 * {@linkcode SandboxUnavailableError} when the request cannot be met, in
 * particular when pawl is not root and the request is not `none`.
 */
export async function probeIsolation(
  options: ProbeIsolationOptions,
): Promise<IsolationReport> {
  const dirs = options.toolDirs ?? SYSTEM_DIRS;
  const tools = await findTools(dirs);
  const self = options.currentUid ?? await currentUid(tools);
  const hidden = await resolveHidden([
    ...ALWAYS_HIDDEN,
    ...(options.hiddenPaths ?? []),
  ]);
  const timeoutMs = options.probeTimeoutMs ?? 10_000;
  if (options.requested === "none") {
    const failure = await tryTier("none", {
      tools,
      dirs,
      uid: self,
      gid: 0,
      hidden,
      timeoutMs,
    });
    if (failure !== undefined) {
      throw new SandboxUnavailableError(
        `Cannot run the tests without isolation: ${failure}`,
      );
    }
    return {
      tier: "none",
      network: "inherited",
      notes: [
        `no isolation: the tests run as uid ${self} with only rlimits, the timeout and the output cap`,
      ],
    };
  }
  const identity = await sandboxIdentity(options);
  const { uid, gid } = identity;
  if (self !== 0) {
    throw new SandboxUnavailableError(
      `Cannot run the tests as uid ${uid}: pawl runs as uid ${self} and only root can switch to the sandbox uid; run pawl as root (for example in its container) or pass --isolation none`,
    );
  }
  // From here pawl is root, and sandboxIdentity() never gives root's uid:
  // the tests never run as pawl's own.
  const tiers = options.requested === "auto"
    ? STRONGEST_FIRST
    : [options.requested];
  const notes = [...identity.notes];
  for (const tier of tiers) {
    const failure = await sharedTrial(options.trials, tier, {
      tools,
      dirs,
      uid,
      gid,
      hidden,
      timeoutMs,
      ...(options.onTrialSpawn === undefined
        ? {}
        : { onSpawn: options.onTrialSpawn }),
    });
    if (failure === undefined) {
      if (tier === "uid" && Deno.pid === 1) notes.push(PID_1_NOTE);
      return {
        tier,
        network: tier === "uid" ? "inherited" : "isolated",
        uid,
        gid,
        notes,
      };
    }
    notes.push(`${tier} unavailable: ${failure}`);
  }
  const what = options.requested === "auto"
    ? "any isolation tier"
    : `isolation "${options.requested}"`;
  throw new SandboxUnavailableError(
    `Cannot run the tests as uid ${uid} with ${what}: ${notes.join("; ")}`,
    { notes },
  );
}

interface TrialContext {
  tools: FoundTools;
  dirs: readonly string[];
  uid: number;
  gid: number;
  hidden: readonly HiddenPath[];
  timeoutMs: number;
  onSpawn?: () => void;
}

const REQUIRED: Record<IsolationTier, readonly (keyof FoundTools)[]> = {
  bwrap: ["bwrap", "prlimit", "setpriv", "env", "kill"],
  unshare: ["unshare", "sh", "mount", "prlimit", "setpriv", "env", "kill"],
  uid: ["prlimit", "setpriv", "env", "kill"],
  none: ["prlimit", "env"],
};

/** {@linkcode tryTier}, once per key in `trials` when given. */
function sharedTrial(
  trials: IsolationTrials | undefined,
  tier: IsolationTier,
  context: TrialContext,
): Promise<string | undefined> {
  if (trials === undefined) return tryTier(tier, context);
  const key = JSON.stringify([
    tier,
    context.tools,
    context.dirs,
    context.hidden,
    context.timeoutMs,
  ]);
  let trial = trials.get(key);
  if (trial === undefined) {
    trial = tryTier(tier, context);
    trials.set(key, trial);
  }
  return trial;
}

/** Run `id -u` at `tier`; the reason it failed, or undefined. */
async function tryTier(
  tier: IsolationTier,
  context: TrialContext,
): Promise<string | undefined> {
  const { tools } = context;
  const missing = REQUIRED[tier].filter((name) => tools[name] === undefined);
  if (missing.length > 0) {
    return describeMissingTools(missing, context.dirs);
  }
  const prlimit = tools.prlimit!;
  const env = tools.env!;
  const cwd = await Deno.makeTempDir({ prefix: "pawl-probe-" });
  try {
    await Deno.chmod(cwd, 0o755);
    const argv = buildSandboxArgv({
      tier,
      uid: context.uid,
      gid: context.gid,
      tools: { ...tools, prlimit, env },
      cwd: await Deno.realPath(cwd),
      writable: [],
      hidden: context.hidden,
      env: { PATH: DEFAULT_PATH },
      argv: ["id", "-u"],
      limits: DEFAULT_LIMITS,
      tmpBytes: DEFAULT_TMP_BYTES,
      dropBoundingSet: await canDropBoundingSet(),
    });
    const out = await runCaptured(argv[0]!, argv.slice(1), {
      cwd,
      timeoutMs: context.timeoutMs,
      ...(context.onSpawn === undefined ? {} : { onSpawn: context.onSpawn }),
    });
    const program = argv[0]!.split("/").pop();
    if (out.timedOut) {
      return `${program} did not finish within ${context.timeoutMs} ms`;
    }
    if (out.code !== 0) {
      const detail = out.stderr.slice(0, 500) || "no error output";
      return `${program} exited with code ${out.code}: ${detail}`;
    }
    const printed = out.stdout.trim();
    if (
      tier === "none"
        ? !/^[0-9]+$/.test(printed)
        : printed !== String(context.uid)
    ) {
      return `${program} ran "id -u" as "${printed}" instead of "${context.uid}"`;
    }
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    await Deno.remove(cwd, { recursive: true });
  }
}
