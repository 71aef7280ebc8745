/**
 * The setup step: the base's `[environment.setup]` command, run once per
 * cache key in a sandboxed step of its own, with only the base's input
 * files in its working directory, writing into `$PAWL_ENV_DIR`; or, when
 * the runner already has that key, nothing at all.
 *
 * @module
 */
import type { Progress } from "../core/progress.ts";
import type { Git, Tree } from "../git/git.ts";
import type { Sandbox, SandboxLimits } from "../sandbox/sandbox.ts";
import type { SetupSettings } from "../settings/setup_settings.ts";
import { collectSetupInputs } from "./collect_setup_inputs.ts";
import { readRunnerIdentity } from "./read_runner_identity.ts";
import { sealEnvDir } from "./seal_env_dir.ts";
import { SetupCache, type SetupManifest } from "./setup_cache.ts";
import { SetupFailedError } from "./setup_failed_error.ts";
import { setupKey } from "./setup_key.ts";
import { setupEnvVars } from "./setup_env_vars.ts";

/** Options for {@linkcode prepareSetupEnvironment}. */
export interface PrepareSetupOptions {
  /** The repository's objects. */
  git: Git;
  /** The base commit: its settings and input files are the only ones used. */
  base: string;
  /** The base's tree listing. */
  baseTree: Tree;
  /** The base's `[environment.setup]`. */
  setup: SetupSettings;
  /** The runner's setup cache root. */
  cacheRoot: string;
  /** The sandbox PATH (the step's and the tests'). */
  sandboxPath: string;
  /** Programs the tests start besides the step's own (`python3`), for the key. */
  programs?: readonly string[];
  /** Output and process limits (the tests'); the step's own timeout applies. */
  limits?: Partial<SandboxLimits>;
  /** A fresh, empty scratch directory of the judgement named `name`. */
  scratch: (name: string) => Promise<string>;
  /** Progress sink. */
  progress: Progress;
}

/** What the tests get from the setup step. */
export interface SetupEnvironment {
  /** `$PAWL_ENV_DIR`: read-only for every test run. */
  dir: string;
  /** The cache key. */
  key: string;
  /** True when the runner already had it. */
  cached: boolean;
  /** The base's input files: path and sha256. */
  inputs: { path: string; sha256: string }[];
}

/** Lines of output quoted when the step fails. */
const TAIL_LINES = 15;
/** Characters of output quoted when the step fails. */
const TAIL_CHARS = 1500;

/**
 * Find or make the setup step's result for this base on this runner.
 * Throws {@linkcode SetupFailedError} (could not decide) when an input is
 * missing at the base, the cache is unsafe, or the step fails, times out
 * or prints too much.
 */
export async function prepareSetupEnvironment(
  sandbox: Sandbox,
  options: PrepareSetupOptions,
): Promise<SetupEnvironment> {
  const { git, setup, progress } = options;
  const files = collectSetupInputs(options.baseTree, {
    inputs: setup.inputs,
    base: options.base,
  });
  const digests = await git.sha256Blobs(files.map((f) => f.oid));
  const inputs = files.map((f) => {
    const sha256 = digests.get(f.oid);
    if (sha256 === undefined) {
      throw new SetupFailedError(
        `Cannot run the setup step: input "${f.path}" could not be read from the base commit ${
          options.base.slice(0, 12)
        }`,
      );
    }
    return { path: f.path, sha256, executable: f.executable };
  });
  const runner = await readRunnerIdentity({
    path: options.sandboxPath,
    programs: [setup.command[0]!, ...(options.programs ?? ["python3"])],
  });
  const key = setupKey({
    command: setup.command,
    network: setup.network,
    inputs,
    runner,
  });
  const recorded = inputs.map((i) => ({ path: i.path, sha256: i.sha256 }));
  const cache = await SetupCache.open(options.cacheRoot);
  const { envDir } = cache.entry(key);
  if (await cache.lookup(key) !== undefined) {
    progress.step(`setup: cached (${key.slice(0, 12)})`);
    return { dir: envDir, key, cached: true, inputs: recorded };
  }
  const lock = await cache.lock(key, {
    onWait: () =>
      progress.note(
        `setup: waiting for another judgement's setup of the same key (${
          key.slice(0, 12)
        })`,
      ),
  });
  try {
    if (await cache.lookup(key) !== undefined) {
      progress.step(`setup: cached (${key.slice(0, 12)})`);
      return { dir: envDir, key, cached: true, inputs: recorded };
    }
    progress.step(
      `setup: running ${JSON.stringify(setup.command)} (network ${
        setup.network ? "shared" : "isolated"
      })`,
    );
    const started = performance.now();
    await cache.begin(
      key,
      sandbox.isolation.gid === undefined ? {} : { gid: sandbox.isolation.gid },
    );
    try {
      await runStep(sandbox, options, { files, envDir });
      await sealEnvDir(envDir, { uid: sandbox.isolation.uid });
    } catch (error) {
      await cache.discard(key).catch(() => {});
      throw error;
    }
    const manifest: SetupManifest = {
      key,
      command: [...setup.command],
      network: setup.network,
      inputs: recorded,
      base: options.base,
    };
    await cache.publish(manifest);
    const seconds = (performance.now() - started) / 1000;
    progress.step(
      `setup: ran in ${seconds.toFixed(1)} s (${key.slice(0, 12)})`,
    );
    return { dir: envDir, key, cached: false, inputs: recorded };
  } finally {
    lock.release();
  }
}

async function runStep(
  sandbox: Sandbox,
  options: PrepareSetupOptions,
  paths: { files: ReturnType<typeof collectSetupInputs>; envDir: string },
): Promise<void> {
  const { setup, git } = options;
  await sandbox.prepareDir(paths.envDir);
  const work = await options.scratch("setup-inputs");
  for (const file of paths.files) {
    const target = `${work}/${file.path}`;
    await Deno.mkdir(target.slice(0, target.lastIndexOf("/")), {
      recursive: true,
    });
    await Deno.writeFile(target, await git.readBlob(file.oid), {
      mode: file.executable ? 0o755 : 0o644,
    });
  }
  await sandbox.prepareDir(work);
  const home = await options.scratch("setup-home");
  await sandbox.prepareDir(home);
  const timeoutMs = setup.timeout_seconds * 1000;
  const result = await sandbox.run({
    argv: setup.command,
    cwd: work,
    env: {
      ...setupEnvVars(paths.envDir, {
        PATH: options.sandboxPath,
        HOME: home,
        TMPDIR: home,
        LANG: "C.UTF-8",
      }),
    },
    writable: [paths.envDir, home],
    network: setup.network ? "shared" : "isolated",
    limits: {
      ...options.limits,
      timeoutMs,
      cpuSeconds: Math.max(900, setup.timeout_seconds),
    },
    onOutput: (chunk) => options.progress.detail(lastLine(chunk)),
  });
  if (
    result.code === 0 && !result.timedOut && !result.outputExceeded
  ) return;
  const how = result.timedOut
    ? `was stopped at its time limit of ${setup.timeout_seconds} s`
    : result.outputExceeded
    ? "was stopped for printing more than the output limit"
    : result.code === null
    ? `was killed by signal ${result.signal ?? "unknown"}`
    : `exited with code ${result.code}`;
  throw new SetupFailedError(
    `Cannot prepare the tests' environment: the base's setup command ${
      shownCommand(setup.command)
    } ([environment.setup] in pawl.toml at base ${
      options.base.slice(0, 12)
    }) ${how}; the pull request is not at fault: fix the base branch${
      outputTail(result.outputTail)
    }`,
  );
}

function shownCommand(argv: readonly string[]): string {
  const text = JSON.stringify(argv);
  return text.length > 200 ? `${text.slice(0, 199)}…` : text;
}

function outputTail(tail: string): string {
  const lines = tail.split("\n").map((l) => l.trimEnd())
    .filter((l) => l !== "").slice(-TAIL_LINES);
  if (lines.length === 0) return " (it printed nothing)";
  let text = lines.join("\n");
  if (text.length > TAIL_CHARS) text = `…${text.slice(-TAIL_CHARS)}`;
  return `: output ends with:\n${text}`;
}

function lastLine(chunk: Uint8Array): string {
  const text = new TextDecoder().decode(chunk).trimEnd();
  return text.slice(text.lastIndexOf("\n") + 1);
}
