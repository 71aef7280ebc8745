/**
 * Running the repository's hostile tests. `ProcessSandbox` probes the
 * machine (`probeIsolation`) and runs each command under bubblewrap or
 * unshare(1) when namespaces are available, always as a dedicated
 * unprivileged uid with no supplementary groups, an exact environment,
 * rlimits on processes, file size, CPU and open files, a wall-clock limit and
 * a bounded output buffer, and kills every process of that uid after each
 * run; `FakeSandbox` stands in for it in other components' unit tests.
 *
 * @module
 */
export * from "./sandbox.ts";
export * from "./sandbox_errors.ts";
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
  FakeSandbox,
  type FakeSandboxHandler,
  type FakeSandboxOptions,
} from "./fake_sandbox.ts";
