/**
 * Where the runner keeps setup results unless told: `PAWL_SETUP_CACHE`,
 * else `/var/cache/pawl/setup` for root (the sandbox hides `/root`, and
 * the tests' uid must read the results), else
 * `$XDG_CACHE_HOME/pawl/setup` or `~/.cache/pawl/setup`. Pure.
 *
 * @module
 */

/** The system-wide default root of the setup cache. */
export const SYSTEM_SETUP_CACHE = "/var/cache/pawl/setup";

/** Options for {@linkcode defaultSetupCache}. */
export interface DefaultSetupCacheOptions {
  /** pawl's uid (null where there is none). */
  uid: number | null;
}

/**
 * The setup cache root for this environment.
 *
 * @example
 * ```ts
 * import { defaultSetupCache } from "./default_setup_cache.ts";
 * if (defaultSetupCache({ HOME: "/home/me" }, { uid: 1000 }) !== "/home/me/.cache/pawl/setup") {
 *   throw new Error("unexpected");
 * }
 * ```
 */
export function defaultSetupCache(
  env: Readonly<Record<string, string | undefined>>,
  options: DefaultSetupCacheOptions,
): string {
  const given = env["PAWL_SETUP_CACHE"];
  if (given !== undefined && given !== "") return given;
  if (options.uid === 0 || options.uid === null) return SYSTEM_SETUP_CACHE;
  const xdg = env["XDG_CACHE_HOME"];
  if (xdg !== undefined && xdg.startsWith("/")) return `${xdg}/pawl/setup`;
  const home = env["HOME"];
  return home !== undefined && home.startsWith("/")
    ? `${home}/.cache/pawl/setup`
    : SYSTEM_SETUP_CACHE;
}
