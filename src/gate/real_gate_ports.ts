/**
 * The real adapters of the gate's ports: git on disk, the process
 * sandbox, temp dirs.
 *
 * @module
 */
import { type Progress, SILENT_PROGRESS } from "../core/progress.ts";
import { cloneWithGit } from "./clone_with_git.ts";
import type { SandboxLeaseSettings, UidLease } from "../sandbox/lease_uid.ts";
import type { ProcessSandbox } from "../sandbox/process_sandbox.ts";
import type { IsolationReport } from "../sandbox/sandbox.ts";
import { SandboxUnavailableError } from "../sandbox/sandbox_errors.ts";
import { takeEarlySandbox } from "./early_sandboxes.ts";
import type { GatePorts, GateSandbox, SandboxFactory } from "./gate_ports.ts";
import { tempWorkspaces } from "./temp_workspace.ts";

export { cloneWithGit };

/** Options for {@linkcode realGatePorts}. */
export interface RealGatePortsOptions {
  /** Progress sink (default: silent). */
  progress?: Progress;
  /** Parent for the temp dirs (default `/tmp`). */
  tempRoot?: string;
  /** Options for {@linkcode processSandboxes}. */
  sandbox?: ProcessSandboxesOptions;
  /**
   * pawl's `PAWL_ANALYSIS_CACHE` (`off` for none), when the judgement may
   * keep analyses (see `analysis_cache.ts`); no analysis cache without it.
   */
  analysisCache?: string | undefined;
}

/** The ports of a judgement on this machine. */
export function realGatePorts(options: RealGatePortsOptions = {}): GatePorts {
  const progress = options.progress ?? SILENT_PROGRESS;
  return {
    clone: cloneWithGit,
    sandbox: processSandboxes({
      onWait: (message) => progress.note(message),
      ...options.sandbox,
    }),
    workspace: tempWorkspaces(
      options.tempRoot === undefined ? {} : { parent: options.tempRoot },
    ),
    progress,
    mutationCache: async () =>
      (await import("../mutation/mutation_cache.ts")).directoryMutationCache(
        `${options.tempRoot ?? "/tmp"}/pawl-mutation-cache`,
      ),
    ...("analysisCache" in options
      ? {
        analysisCache: async () =>
          await (await import("./analysis_cache.ts")).openAnalysisCache(
            options.analysisCache,
            (note) => progress.note(note),
          ),
      }
      : {}),
  };
}

/** Options for {@linkcode processSandboxes}. */
export interface ProcessSandboxesOptions {
  /**
   * The uid the tests run as, already held by the caller; without it each
   * judgement leases its own (see `lease`). Every run kills all processes
   * of its sandbox uid before and after it, so judgements that overlap in
   * time must each have their own.
   */
  uid?: number;
  /** The gid the tests run as (default: user `pawl`'s with the default uid, else the uid). */
  gid?: number;
  /** The range (and lock directory, wait) each judgement's uid is leased from. */
  lease?: SandboxLeaseSettings;
  /** Told when every uid is busy and the lease starts waiting. */
  onWait?: (message: string) => void;
  /**
   * Other judgements of this process that may be waiting for their first
   * sandbox at the same time (audit and serve workers beyond one): a spare
   * sandbox is made only while that many uids stay free for them.
   */
  othersWaiting?: number;
  /** Told what pawl should say once (a cache it could not use). */
  onNote?: (message: string) => void;
  /** Told what each sandbox is, once made (the uid the tests run as). */
  onSandbox?: (isolation: IsolationReport) => void;
  /**
   * Start every test run's interpreter cold, never ahead of its run
   * (default: `PAWL_COLD_START=1` in pawl's environment).
   */
  coldStart?: boolean;
  /**
   * pawl's environment's `PAWL_BYTECODE_CACHE` (default: read from it):
   * the cache of compiled bytecode, `off` for none.
   */
  bytecodeCache?: string | undefined;
}

/**
 * The sandbox factory over {@linkcode ProcessSandbox}: the one place a
 * judgement's sandbox is created. Unless the caller holds a uid (or asks
 * for no isolation), each sandbox leases its own uid, held until the
 * sandbox is closed.
 */
export function processSandboxes(
  options: ProcessSandboxesOptions = {},
): SandboxFactory {
  // Leases are taken in the order the sandboxes are asked for: the first
  // sandbox (which may wait for a uid) before the spares asked for at the
  // same time (which never wait), so a spare cannot take the uid the first
  // one is waiting for. Probing the isolation is not queued.
  let leasing: Promise<unknown> = Promise.resolve();
  const queued = <T>(lease: () => Promise<T>): Promise<T> => {
    const mine = leasing.then(lease);
    leasing = mine.catch(() => undefined);
    return mine;
  };
  // The sandbox's code loads with the first sandbox: pawl diff asks for none.
  let loading: Promise<SandboxModules> | undefined;
  const modules = () => loading ??= loadSandboxModules();
  const coldStart = options.coldStart ?? coldStartAsked();
  const bytecodeCache = "bytecodeCache" in options
    ? options.bytecodeCache
    : envVar("PAWL_BYTECODE_CACHE");
  const made = { options, coldStart, bytecodeCache };
  return async (request) => {
    if (
      request.spare === true &&
      (options.uid !== undefined || request.isolation === "none")
    ) {
      throw new SandboxUnavailableError(
        "Cannot make a second sandbox: the tests run as one given uid",
      );
    }
    // A sandbox the command's entry made for this very request is taken
    // over (see `early_sandboxes.ts`); the lease queue is not needed for
    // it, as it was leased in the same order.
    const early = options.uid !== undefined || options.gid !== undefined ||
        (options.othersWaiting ?? 0) !== 0 || request.isolation === "none"
      ? undefined
      : await takeEarlySandbox({
        isolation: request.isolation,
        hiddenPaths: request.hiddenPaths,
        lease: options.lease,
      }, request.spare === true);
    if (early !== undefined) {
      return gateSandbox(early.sandbox, early.lease, made);
    }
    const lease = options.uid !== undefined || request.isolation === "none"
      ? undefined
      : await queued(() =>
        modules().then(({ leaseSandboxUid }) =>
          leaseSandboxUid({
            ...options.lease,
            // A spare sandbox never waits: its run can take its turn instead.
            ...(request.spare === true
              ? { waitMs: 0, leaveFree: options.othersWaiting ?? 0 }
              : {}),
            ...(options.onWait === undefined || request.spare === true
              ? {}
              : { onWait: options.onWait }),
            signal: request.signal,
          })
        )
      );
    let sandbox: ProcessSandbox;
    try {
      const { ProcessSandbox: Sandbox } = await modules();
      sandbox = await Sandbox.create({
        requested: request.isolation,
        hiddenPaths: request.hiddenPaths,
        ...(request.trials === undefined ? {} : { trials: request.trials }),
        ...(lease === undefined ? {} : { lease }),
        ...(options.uid === undefined ? {} : { uid: options.uid }),
        ...(options.gid === undefined ? {} : { gid: options.gid }),
      });
    } catch (error) {
      await lease?.release();
      throw error;
    }
    return gateSandbox(sandbox, lease, made);
  };
}

/** `sandbox` as the gate's port, giving `lease` back once closed. */
function gateSandbox(
  sandbox: ProcessSandbox,
  lease: UidLease | undefined,
  made: {
    options: ProcessSandboxesOptions;
    coldStart: boolean;
    bytecodeCache: string | undefined;
  },
): GateSandbox {
  const { options, coldStart, bytecodeCache } = made;
  options.onSandbox?.(sandbox.isolation);
  return {
    isolation: sandbox.isolation,
    prepareDir: (dir, prepare) => sandbox.prepareDir(dir, prepare),
    run: (command) => sandbox.run(command),
    ...(coldStart ? {} : {
      prestart: (command, prestart) => sandbox.prestart(command, prestart),
    }),
    ...(sandbox.isolation.tier === "none" || bytecodeCache === "off" ? {} : {
      startBytecodeCompiler: async (python: string, scratch: string) => {
        const { bytecodeCacheDir, startBytecodeCompiler } = await import(
          "../run/bytecode_compiler.ts"
        );
        const cache = await bytecodeCacheDir(bytecodeCache, scratch);
        if (cache.note !== undefined) options.onNote?.(cache.note);
        return await startBytecodeCompiler({ python, cacheDir: cache.dir });
      },
    }),
    close: async () => {
      // A held interpreter is killed and the uid swept before the uid
      // goes back.
      await sandbox.discardHeld().finally(() => lease?.release());
    },
  };
}

/** Whether pawl's environment asks for cold starts (`PAWL_COLD_START=1`). */
function coldStartAsked(): boolean {
  return envVar("PAWL_COLD_START") === "1";
}

/** A variable of pawl's environment; undefined without access to it. */
function envVar(name: string): string | undefined {
  try {
    return Deno.env.get(name);
  } catch {
    return undefined; // no access to the environment: the default
  }
}

interface SandboxModules {
  leaseSandboxUid: typeof import("../sandbox/lease_uid.ts").leaseSandboxUid;
  ProcessSandbox: typeof ProcessSandbox;
}

async function loadSandboxModules(): Promise<SandboxModules> {
  const [lease, sandbox] = await Promise.all([
    import("../sandbox/lease_uid.ts"),
    import("../sandbox/process_sandbox.ts"),
  ]);
  return {
    leaseSandboxUid: lease.leaseSandboxUid,
    ProcessSandbox: sandbox.ProcessSandbox,
  };
}
