/**
 * The cache key of a setup step: what, given the same runner, decides what
 * the step writes. Pure: the caller reads the inputs and the runner.
 *
 * @module
 */
import { createHash } from "node:crypto";

/** One input file of the setup step, as the base has it. */
export interface SetupKeyInput {
  /** Repository-relative path. */
  path: string;
  /** sha256 (hex) of the file's bytes at the base. */
  sha256: string;
  /** Whether git records the file as executable. */
  executable: boolean;
}

/** One program whose bytes the setup's result depends on. */
export interface ProgramIdentity {
  /** The name asked for (`python3`, the setup command's `argv[0]`). */
  name: string;
  /** Where it resolved on the sandbox PATH (canonical), or null when it did not. */
  path: string | null;
  /** sha256 (hex) of the resolved file, or null when it did not resolve. */
  sha256: string | null;
}

/** What the runner contributes to the key: the image and its interpreters. */
export interface RunnerIdentity {
  /** sha256 (hex) of `/etc/os-release`, or null without one. */
  osRelease: string | null;
  /** The sandbox PATH the step and the tests run with. */
  path: string;
  /** The programs the step and the tests start, resolved on that PATH. */
  programs: readonly ProgramIdentity[];
}

/** Everything the key is made of. */
export interface SetupKeyParts {
  /** argv of the setup command. */
  command: readonly string[];
  /** Whether the step had the network. */
  network: boolean;
  /** The input files, in any order. */
  inputs: readonly SetupKeyInput[];
  /** The runner. */
  runner: RunnerIdentity;
}

/** Changes whenever the layout of a cache entry or the key's parts change. */
const KEY_VERSION = "pawl-setup/1";

/**
 * The key: sha256 (hex) of a canonical JSON of the parts, inputs sorted by
 * path, so neither their order in `pawl.toml` nor anything else of the
 * repository changes it.
 *
 * @example
 * ```ts
 * import { setupKey } from "./setup_key.ts";
 * const runner = { osRelease: null, path: "/usr/bin:/bin", programs: [] };
 * const a = setupKey({ command: ["true"], network: false, inputs: [], runner });
 * const b = setupKey({ command: ["true"], network: true, inputs: [], runner });
 * if (a === b || a.length !== 64) throw new Error("unexpected");
 * ```
 */
export function setupKey(parts: SetupKeyParts): string {
  const inputs = [...parts.inputs]
    .sort((a, b) => a.path < b.path ? -1 : a.path > b.path ? 1 : 0)
    .map((i) => [i.path, i.sha256, i.executable]);
  const programs = parts.runner.programs.map((p) => [p.name, p.path, p.sha256]);
  const canonical = JSON.stringify([
    KEY_VERSION,
    [...parts.command],
    parts.network,
    inputs,
    [parts.runner.osRelease, parts.runner.path, programs],
  ]);
  return createHash("sha256").update(canonical).digest("hex");
}
