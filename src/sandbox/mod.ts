/**
 * Running the repository's hostile tests. `ProcessSandbox` probes the
 * machine (`probeIsolation`) and runs each command under bubblewrap or
 * unshare(1) when namespaces are available, always as a dedicated
 * unprivileged uid with no supplementary groups, an exact environment,
 * rlimits on processes, file size, CPU and open files, a wall-clock limit and
 * a bounded output buffer, and kills every process of that uid after each
 * run. `leaseSandboxUid` gives each judgement a uid of its own from a range,
 * under a lock the kernel drops when the holder dies, and claims it on the
 * kernel so that pawl in another container skips it; `FakeSandbox` stands
 * in for the sandbox in other components' unit tests.
 *
 * @module
 */
export * from "./sandbox.ts";
export * from "./sandbox_errors.ts";
export * from "./describe_sandbox_view.ts";
export * from "./find_executable.ts";
export {
  type IsolationRequest,
  probeIsolation,
  type ProbeIsolationOptions,
} from "./probe_isolation.ts";
export {
  DEFAULT_SANDBOX_LIMITS,
  ProcessSandbox,
  type ProcessSandboxOptions,
} from "./process_sandbox.ts";
export {
  DEFAULT_SANDBOX_UIDS,
  DEFAULT_UID_LOCK_DIR,
  DEFAULT_UID_WAIT_MS,
  leaseSandboxUid,
  type LeaseSandboxUidOptions,
  parseUidRange,
  READ_ONLY_RUN_LOCK_DIR,
  sandboxLeaseFrom,
  type SandboxLeaseSettings,
  type UidLease,
  type UidRange,
} from "./lease_uid.ts";
export {
  FakeSandbox,
  type FakeSandboxHandler,
  type FakeSandboxOptions,
} from "./fake_sandbox.ts";
