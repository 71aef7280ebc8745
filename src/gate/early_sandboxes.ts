/**
 * The test stage's sandboxes, made from the command's entry: `pawl check`
 * leases the uids, probes the isolation and sweeps each new uid while its
 * clone is made and before the gate's code loads, instead of after it,
 * when the main thread's module loading and parsing delay every spawn.
 * The sandbox factory ({@linkcode processSandboxes}) takes one over only
 * for a request exactly like the one it was made for (the same isolation,
 * hidden paths, uid range, lock directory); anything else is made as
 * before. A sandbox made here never waits for a uid: when the first one's
 * is busy none is made here, and the gate's own lease (which may wait)
 * takes its place. Whatever is not taken is closed (swept, its uid given
 * back) by {@linkcode EarlySandboxes.close}, which the entry calls however
 * the command ends.
 *
 * The isolation is probed before the workspace is known (it is made on
 * the clone's worker): the probe runs only `id -u`, nothing of the
 * repository's, and the clone is hidden from every run once its path is
 * known, before the sandbox is handed out.
 *
 * @module
 */
import {
  leaseSandboxUid,
  sandboxLeaseFrom,
  type SandboxLeaseSettings,
  type UidLease,
} from "../sandbox/lease_uid.ts";
import { ProcessSandbox } from "../sandbox/process_sandbox.ts";
import type { IsolationRequest } from "../sandbox/probe_isolation.ts";
import { CLONE_DIR } from "./clone_stage.ts";

/** A sandbox made ahead, with the uid it holds. */
export interface EarlySandbox {
  lease: UidLease;
  sandbox: ProcessSandbox;
}

/** The sandboxes one command's entry is making; see the module's text. */
export interface EarlySandboxes {
  /**
   * Settles once the first sandbox's isolation trial has started (or its
   * making ended): from then on the trial runs whatever the thread does.
   */
  probing: Promise<void>;
  /** Close whatever the gate did not take; never throws. */
  close(): Promise<void>;
}

/** What a request must be for the factory to take these sandboxes over. */
export interface EarlyRequest {
  isolation: IsolationRequest;
  hiddenPaths: readonly string[];
  lease: SandboxLeaseSettings | undefined;
}

interface Pool {
  /** {@linkcode requestKey} of what they were made for; rejects without a workspace. */
  key: Promise<string>;
  first: Promise<EarlySandbox | undefined> | undefined;
  spares: Promise<EarlySandbox | undefined>[];
}

/** The pools of the commands running in this process. */
const pools = new Set<Pool>();

/**
 * Spare sandboxes beside the suite's: the properties' own run's and the
 * base oracle's. The test stage asks for as many, so every one made here
 * can be taken.
 */
export const SPARES = 2;

function requestKey(request: EarlyRequest): string {
  return JSON.stringify([
    request.isolation,
    request.hiddenPaths,
    request.lease ?? null,
  ]);
}

/** The flags of `pawl check` the sandboxes depend on, as the command line gave them. */
export interface EarlyFlags {
  isolation?: string | undefined;
  "sandbox-uids"?: string | undefined;
  key?: string | undefined;
}

/** The isolations made early: every one but `none` (which needs no uid). */
const ISOLATED: readonly IsolationRequest[] = [
  "auto",
  "bwrap",
  "unshare",
  "uid",
];

/**
 * Start making `pawl check`'s sandboxes for `workspace` (the entry's
 * clone's), when the flags read and ask for isolation and no signing key
 * (whose directory the sandboxes would hide too); undefined otherwise,
 * leaving the command to read (and report) them as ever.
 */
export function openEarlySandboxes(
  flags: EarlyFlags,
  env: Readonly<Record<string, string | undefined>>,
  workspace: Promise<{ root: string }>,
): EarlySandboxes | undefined {
  const isolation = ISOLATED.find((i) => i === (flags.isolation ?? "auto"));
  if (
    isolation === undefined || flags.key !== undefined ||
    (env["PAWL_SIGNING_KEY"] ?? "") !== ""
  ) {
    return undefined;
  }
  let lease: SandboxLeaseSettings;
  try {
    lease = sandboxLeaseFrom(flags["sandbox-uids"], env);
  } catch {
    return undefined;
  }
  const hidden = workspace.then((w) => [`${w.root}/${CLONE_DIR}`]);
  hidden.catch(() => undefined);
  const pool: Pool = {
    key: hidden.then((hiddenPaths) =>
      requestKey({ isolation, hiddenPaths, lease })
    ),
    first: undefined,
    spares: [],
  };
  pool.key.catch(() => undefined);
  // pawl's own uid, as `id -u` would print it, without that process.
  const self = Deno.uid() ?? undefined;
  // One probe of each tier for the three, as the test stage shares it.
  const trials = new Map();
  // In the test stage's order: the first uid, then the spares' (only
  // once the first's is held, so a spare never holds a uid the first
  // would then wait for).
  let leasing: Promise<unknown> = Promise.resolve();
  const probing = Promise.withResolvers<void>();
  const make = (spare: boolean) => {
    const leased = leasing.then(() =>
      leaseSandboxUid({
        ...lease,
        waitMs: 0,
        ...(spare ? { leaveFree: 0 } : {}),
        ...(self === undefined ? {} : { currentUid: self }),
      })
    );
    leasing = leased;
    leased.catch(() => undefined);
    const made = (async (): Promise<EarlySandbox | undefined> => {
      const held = await leased;
      try {
        const sandbox = await ProcessSandbox.create({
          requested: isolation,
          trials,
          lease: held,
          ...(self === undefined ? {} : { currentUid: self }),
          ...(spare ? {} : { onTrialSpawn: () => probing.resolve() }),
        });
        sandbox.hide(await hidden);
        return { lease: held, sandbox };
      } catch {
        await held.release();
        return undefined;
      }
    })().catch(() => undefined);
    return made;
  };
  const first = make(false);
  void first.finally(() => probing.resolve());
  pool.first = first;
  for (let i = 0; i < SPARES; i++) pool.spares.push(make(true));
  pools.add(pool);
  return {
    probing: probing.promise,
    close: () => closePool(pool),
  };
}

/** Close what the gate did not take of `pool`; never throws. */
async function closePool(pool: Pool): Promise<void> {
  pools.delete(pool);
  const left = [pool.first, ...pool.spares];
  pool.first = undefined;
  pool.spares = [];
  await Promise.all(left.map(async (made) => {
    const early = await made;
    if (early === undefined) return;
    await early.sandbox.discardHeld().catch(() => undefined).finally(
      () => early.lease.release(),
    ).catch(() => undefined);
  }));
}

/**
 * The sandbox made ahead for `request` (the first, or a spare), taken
 * once; undefined when none was made for it.
 */
export async function takeEarlySandbox(
  request: EarlyRequest,
  spare: boolean,
): Promise<EarlySandbox | undefined> {
  if (pools.size === 0) return undefined;
  const key = requestKey(request);
  for (const pool of pools) {
    const made = await pool.key.catch(() => undefined);
    if (made !== key || !pools.has(pool)) continue;
    if (!spare) {
      const first = pool.first;
      pool.first = undefined;
      return await first;
    }
    return await pool.spares.shift();
  }
  return undefined;
}
