/**
 * Before the tests: the base's setup step, when its `pawl.toml` has one.
 * Its result comes from the runner's cache or is made once, and every
 * test run of the judgement then sees it read-only.
 *
 * @module
 */
import type { Progress } from "../core/progress.ts";
import type { Git } from "../git/git.ts";
import { SANDBOX_PATH } from "../run/run_pytest.ts";
import type { Sandbox } from "../sandbox/sandbox.ts";
import type { Finding } from "../core/finding.ts";
import type { SetupRecord } from "../core/verdict.ts";
import type { Settings } from "../settings/settings.ts";
import { SYSTEM_SETUP_CACHE } from "../setup/default_setup_cache.ts";
import { checkSetupShadowing } from "../setup/check_setup_shadowing.ts";
import { listEnvModules } from "../setup/list_env_modules.ts";
import { prepareSetupEnvironment } from "../setup/prepare_setup_environment.ts";
import { withSetupEnvironment } from "../setup/with_setup_environment.ts";
import type { Workspace } from "./gate_ports.ts";
import { readModuleNames } from "./read_module_names.ts";
import { testEnvironment } from "./test_environment.ts";
import type { Commits } from "./read_commits.ts";

/** Options of {@linkcode setupStage}. */
export interface SetupStageOptions {
  /** The runner's setup cache root (default `/var/cache/pawl/setup`). */
  setupCache?: string | undefined;
  /** PATH inside the sandbox, when not the default. */
  sandboxPath?: string | undefined;
  /** The judgement's temp dirs. */
  workspace: Workspace;
  /** Progress sink. */
  progress: Progress;
}

/** The sandbox the tests run in, and the setup result it shows them. */
export interface SetupStageResult {
  /** Every run in it sees the setup step's output. */
  sandbox: Sandbox;
  /** Gives another sandbox (a spare one, for overlapping runs) the same view of the step's output. */
  wrap: (other: Sandbox) => Sandbox;
  /** For the verdict; undefined without a setup step. */
  record?: SetupRecord;
  /** Head modules that shadow what the step installed. */
  findings: Finding[];
}

/**
 * The sandbox the tests run in: `sandbox` itself without a setup step,
 * else one whose every run sees the step's output. Throws
 * `SetupFailedError` (could not decide) when the step fails.
 */
export async function setupStage(
  sandbox: Sandbox,
  input: { git: Git; commits: Commits; settings: Settings },
  options: SetupStageOptions,
): Promise<SetupStageResult> {
  const setup = input.settings.environment.setup;
  if (setup === undefined) {
    return { sandbox, wrap: (other) => other, findings: [] };
  }
  // The step sees the tests' interpreter and PATH ([environment] python),
  // and the key covers that interpreter's bytes.
  const tests = testEnvironment(input.settings, {
    sandboxPath: options.sandboxPath,
  });
  const command = tests.command;
  const testProgram = command[0] ?? "python3";
  const sandboxPath = tests.path ?? options.sandboxPath ?? SANDBOX_PATH;
  const env = await prepareSetupEnvironment(sandbox, {
    git: input.git,
    base: input.commits.base,
    baseTree: input.commits.baseTree,
    setup,
    cacheRoot: options.setupCache ?? SYSTEM_SETUP_CACHE,
    sandboxPath,
    programs: [testProgram, "python3"],
    limits: {
      maxOutputBytes: input.settings.tests.max_output_mib * 1024 * 1024,
      maxProcesses: input.settings.tests.max_processes,
    },
    scratch: (name) => options.workspace.mkdir(name),
    progress: options.progress,
  });
  // The static rules judged the interpreter's own names already.
  const interpreter = await readModuleNames(
    command,
    tests.path === undefined ? {} : { path: tests.path },
  );
  const findings = checkSetupShadowing(await listEnvModules(env.dir), {
    baseTree: input.commits.baseTree,
    headTree: input.commits.headTree,
    known: new Set([...interpreter.stdlib, ...interpreter.installed]),
  });
  return {
    sandbox: withSetupEnvironment(sandbox, env.dir),
    wrap: (other) => withSetupEnvironment(other, env.dir),
    findings,
    record: {
      key: env.key,
      command: [...setup.command],
      network: setup.network,
      inputs: env.inputs,
    },
  };
}
