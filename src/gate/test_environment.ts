/**
 * The base's `[environment]` applied to the test command: which program
 * runs, the sandbox PATH and the variables every run of the tests gets (the
 * suite, the properties on their own, the base's oracle, frozen-seed
 * replays and collection checks alike).
 *
 * @module
 */
import { DEFAULT_PYTEST_COMMAND, SANDBOX_PATH } from "../run/run_pytest.ts";
import type { Settings } from "../settings/settings.ts";

/** How every test run is made, before seeds and selection are added. */
export interface TestEnvironment {
  /** argv of the test command, with `[environment] python` in place. */
  command: string[];
  /** PATH inside the sandbox, or undefined for the sandbox's default. */
  path: string | undefined;
  /**
   * Variables over the sandbox's minimal environment: `[environment] env`,
   * PATH, and `PYTHONPATH` holding the `pythonpath` entries relative to the
   * repository root (each run resolves them against its own tree).
   */
  env: Record<string, string>;
}

/** Options for {@linkcode testEnvironment}. */
export interface TestEnvironmentOptions {
  /** PATH inside the sandbox (`--sandbox-path`), when not the default. */
  sandboxPath?: string | undefined;
}

/**
 * The test command and environment the base's settings ask for. The
 * interpreter replaces a bare `python`/`python3` at the head of the
 * command (the default command's included), and its directory comes first
 * on the sandbox PATH, as activating a virtualenv does, so a command such
 * as `["pytest"]` finds the virtualenv's own.
 *
 * @example
 * ```ts
 * import { readSettings } from "../settings/read_settings.ts";
 * import { testEnvironment } from "./test_environment.ts";
 * const settings = readSettings('[environment]\npython = "/opt/venv/bin/python"\npythonpath = ["src"]\n');
 * const env = testEnvironment(settings);
 * if (env.command[0] !== "/opt/venv/bin/python") throw new Error();
 * if (env.env["PYTHONPATH"] !== "src") throw new Error();
 * if (!env.path?.startsWith("/opt/venv/bin:")) throw new Error();
 * ```
 */
export function testEnvironment(
  settings: Settings,
  options: TestEnvironmentOptions = {},
): TestEnvironment {
  const { python, pythonpath, env } = settings.environment;
  const command = [...(settings.tests.command ?? DEFAULT_PYTEST_COMMAND)];
  if (python !== undefined && /^python[0-9.]*$/.test(command[0] ?? "")) {
    command[0] = python;
  }
  let path = options.sandboxPath;
  if (python !== undefined && python.startsWith("/")) {
    const dir = python.slice(0, python.lastIndexOf("/")) || "/";
    const current = path ?? SANDBOX_PATH;
    if (!current.split(":").includes(dir)) path = `${dir}:${current}`;
  }
  return {
    command,
    path,
    env: {
      ...env,
      ...(path === undefined ? {} : { PATH: path }),
      ...(pythonpath.length === 0 ? {} : { PYTHONPATH: pythonpath.join(":") }),
    },
  };
}
