/**
 * The Octokit options that keep it silent. pawl says what failed in its own
 * words, and `pawl serve` writes one JSON object per line, so a line Octokit
 * writes of its own (a deprecation notice) would break both.
 *
 * @module
 */

const silent = (..._args: unknown[]) => {};
const QUIET_LOG = { debug: silent, info: silent, warn: silent, error: silent };

/** What {@linkcode quietOctokit} gives: both logs Octokit writes to. */
export interface QuietOctokitOptions<R> {
  /** Octokit's own log. */
  log: typeof QUIET_LOG;
  /** The request options, with the log requests write to. */
  request: R & { log: typeof QUIET_LOG };
}

/**
 * Octokit's `log` and `request` options, both silent: Octokit's requests do
 * not take the first, so a deprecation notice would reach the console.
 *
 * @example
 * ```ts
 * import { quietOctokit } from "./quiet_octokit.ts";
 * const options = quietOctokit({ fetch });
 * if (options.request.fetch !== fetch) throw new Error("lost");
 * options.request.log.warn("never printed");
 * ```
 */
export function quietOctokit<R extends object = Record<never, never>>(
  request?: R,
): QuietOctokitOptions<R> {
  return {
    log: QUIET_LOG,
    request: { ...(request ?? {}) as R, log: QUIET_LOG },
  };
}
