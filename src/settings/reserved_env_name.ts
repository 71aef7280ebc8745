/**
 * Environment variables a seed or trial count must never be injected as:
 * the sandbox sets them itself or the test runner reads them to decide how
 * it runs, so `env_seed = "PATH"` would replace the sandbox's PATH with a
 * number.
 *
 * @module
 */

/** Names the sandbox sets or the runner and its loader read. */
const RESERVED_NAMES: ReadonlySet<string> = new Set([
  "PATH",
  "HOME",
  "TMPDIR",
  "TMP",
  "TEMP",
  "LANG",
  "LANGUAGE",
  "TZ",
  "USER",
  "LOGNAME",
  "SHELL",
  "PWD",
  "OLDPWD",
  "IFS",
  "TERM",
  "ENV",
  "NODE_OPTIONS",
  "HYPOTHESIS_STORAGE_DIRECTORY",
]);

/** Families of names, by prefix. */
const RESERVED_PREFIXES: readonly string[] = [
  "LC_",
  "LD_",
  "PYTHON",
  "PYTEST_",
  "PAWL_",
  "DENO_",
  "BASH_",
];

/**
 * Why `name` cannot carry a seed or trial count, or `undefined` when it can.
 *
 * @example
 * ```ts
 * import { reservedEnvName } from "./reserved_env_name.ts";
 * if (reservedEnvName("CONTRACT_SEED") !== undefined) throw new Error();
 * if (reservedEnvName("PYTHONPATH") === undefined) throw new Error();
 * ```
 */
export function reservedEnvName(name: string): string | undefined {
  if (RESERVED_NAMES.has(name)) {
    return `${
      JSON.stringify(name)
    } is set by the sandbox or read by the runner`;
  }
  const prefix = RESERVED_PREFIXES.find((p) => name.startsWith(p));
  if (prefix !== undefined) {
    return `${JSON.stringify(name)} starts with ${
      JSON.stringify(prefix)
    }, names the sandbox or the runner use`;
  }
  return undefined;
}
