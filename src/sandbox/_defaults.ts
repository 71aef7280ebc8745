/**
 * Defaults shared by the probe and the adapter.
 *
 * @module
 */
import type { SandboxLimits } from "./sandbox.ts";

/** Limits applied to fields a command leaves out. */
export const DEFAULT_LIMITS: Readonly<SandboxLimits> = Object.freeze({
  timeoutMs: 10 * 60 * 1000,
  maxOutputBytes: 16 * 1024 * 1024,
  maxProcesses: 512,
  maxFileBytes: 1024 * 1024 * 1024,
  cpuSeconds: 900,
  maxOpenFiles: 1024,
});

/** PATH for a command whose environment has none. */
export const DEFAULT_PATH = "/usr/local/bin:/usr/bin:/bin";

/** The sandbox uid and gid when neither the options nor user `pawl` give one. */
export const FALLBACK_UID = 64123;

/** Size of the private /tmp and /dev/shm under bubblewrap. */
export const DEFAULT_TMP_BYTES = 512 * 1024 * 1024;

/** Paths always hidden from the tests (root's home). */
export const ALWAYS_HIDDEN: readonly string[] = ["/root"];
