/**
 * How a setup step's output reaches a command: `PAWL_ENV_DIR` names it,
 * its `bin/` goes first on `PATH` (a virtualenv made at `$PAWL_ENV_DIR`
 * is then the `python3` the tests run), its `python/` last on
 * `PYTHONPATH` (for `pip install --target "$PAWL_ENV_DIR/python"`). Pure.
 *
 * @module
 */

/** The sandbox PATH when an environment names none. */
const DEFAULT_PATH = "/usr/local/bin:/usr/bin:/bin";

/**
 * `env` with the setup output at `dir` added.
 *
 * @example
 * ```ts
 * import { setupEnvVars } from "./setup_env_vars.ts";
 * const env = setupEnvVars("/cache/k/env", { PATH: "/usr/bin", PYTHONPATH: "src" });
 * if (env["PATH"] !== "/cache/k/env/bin:/usr/bin") throw new Error();
 * if (env["PYTHONPATH"] !== "src:/cache/k/env/python") throw new Error();
 * ```
 */
export function setupEnvVars(
  dir: string,
  env: Readonly<Record<string, string>>,
): Record<string, string> {
  const path = env["PATH"] ?? DEFAULT_PATH;
  const pythonPath = env["PYTHONPATH"];
  return {
    ...env,
    PAWL_ENV_DIR: dir,
    PATH: `${dir}/bin:${path}`,
    PYTHONPATH: pythonPath === undefined || pythonPath === ""
      ? `${dir}/python`
      : `${pythonPath}:${dir}/python`,
  };
}
