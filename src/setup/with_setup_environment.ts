/**
 * A sandbox whose every command sees a setup step's output: read-only
 * (bound read-only under bubblewrap; root-owned and not writable at every
 * tier), with its variables set (see `setup_env_vars.ts`).
 *
 * @module
 */
import type { Sandbox } from "../sandbox/sandbox.ts";
import { setupEnvVars } from "./setup_env_vars.ts";

/**
 * Wrap `sandbox` so each run gets the setup output at `dir`.
 *
 * @example
 * ```ts
 * import { FakeSandbox } from "../sandbox/fake_sandbox.ts";
 * import { withSetupEnvironment } from "./with_setup_environment.ts";
 * const fake = new FakeSandbox(() => ({}));
 * const sandbox = withSetupEnvironment(fake, "/cache/k/env");
 * await sandbox.run({ argv: ["true"], cwd: "/w", env: {}, writable: [] });
 * if (fake.commands[0]?.env["PAWL_ENV_DIR"] !== "/cache/k/env") throw new Error();
 * ```
 */
export function withSetupEnvironment(sandbox: Sandbox, dir: string): Sandbox {
  return {
    isolation: sandbox.isolation,
    // The options too: a shared copy's files must stay root's.
    prepareDir: (path, options) => sandbox.prepareDir(path, options),
    run: (command) =>
      sandbox.run({
        ...command,
        env: setupEnvVars(dir, command.env),
        readOnly: [...(command.readOnly ?? []), dir],
      }),
  };
}
