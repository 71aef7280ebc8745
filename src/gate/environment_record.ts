/**
 * What the verdict says about the environment the tests ran in: the test
 * command with the base's interpreter in place, the `pythonpath` entries
 * and the names of the extra variables of `[environment]`.
 *
 * @module
 */
import type { EnvironmentRecord } from "../core/verdict.ts";
import type { Settings } from "../settings/settings.ts";
import { testEnvironment } from "./test_environment.ts";

/**
 * The verdict's `tests.environment` for the base's settings. Only names of
 * `[environment] env` are recorded: their values are committed in the
 * base's `pawl.toml`, which the verdict's base commit pins, and a verdict
 * is posted where a value need not be repeated. Every part comes from the
 * base's settings, so the record is the same on every run.
 *
 * @example
 * ```ts
 * import { readSettings } from "../settings/read_settings.ts";
 * import { environmentRecord } from "./environment_record.ts";
 * const record = environmentRecord(readSettings(
 *   '[environment]\npython = "/opt/venv/bin/python"\nenv = { APP_MODE = "test" }\n',
 * ));
 * if (record.python !== "/opt/venv/bin/python") throw new Error();
 * if (record.env[0] !== "APP_MODE") throw new Error();
 * ```
 */
export function environmentRecord(settings: Settings): EnvironmentRecord {
  const { python, pythonpath, env } = settings.environment;
  return {
    command: testEnvironment(settings).command,
    ...(python === undefined ? {} : { python }),
    pythonpath: [...pythonpath],
    env: Object.keys(env).sort(),
  };
}
