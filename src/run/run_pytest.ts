/**
 * One pytest run in the sandbox, and the careful reading of the JUnit report
 * it leaves behind: the report directory is writable by the tests, so the
 * report may be a symlink, a FIFO, huge, or forged in shape.
 *
 * @module
 */
import { plural } from "../core/plural.ts";
import { constants, open } from "node:fs/promises";
import type {
  PrestartOptions,
  Sandbox,
  SandboxCommand,
  SandboxLimits,
  SandboxResult,
} from "../sandbox/sandbox.ts";
import { describeSandboxView } from "../sandbox/describe_sandbox_view.ts";
import type { TestTally } from "../core/progress.ts";
import type { Observation } from "./observation.ts";
import { ObserverChannel, type ObserverPlugin } from "./observer.ts";
import type { TestCaseResult } from "./parse_junit.ts";
import { selectionCommand, treeHas } from "./selection_command.ts";
import { tallyObserverLines } from "./tally_observer_lines.ts";

/** The test command when the base's settings name none. */
export const DEFAULT_PYTEST_COMMAND: readonly string[] = [
  "python3",
  "-m",
  "pytest",
  "-q",
  "-p",
  "no:cacheprovider",
];

/** The sandbox PATH unless `env` overrides it. */
export const SANDBOX_PATH = "/usr/local/bin:/usr/bin:/bin";

/** Largest JUnit report read, in bytes. */
export const MAX_REPORT_BYTES = 32 * 1024 * 1024;

/** pytest's exit codes. */
export const PYTEST_EXIT = {
  ok: 0,
  testsFailed: 1,
  interrupted: 2,
  internalError: 3,
  usageError: 4,
  noTestsCollected: 5,
} as const;

/** Options for {@linkcode runPytest}. */
export interface RunPytestOptions {
  /** The exported head tree, already prepared for the sandbox uid; the working directory. */
  workDir: string;
  /** A directory the sandbox may write; the report and a fresh HOME go here. */
  reportDir: string;
  /** argv of the base's test command; defaults to {@linkcode DEFAULT_PYTEST_COMMAND}. */
  command?: readonly string[];
  /**
   * Node ids or files to run, and nothing else: the command's positional
   * arguments that name tests are left out (see `selectionCommand`); all
   * tests, with the command as it is, when omitted or empty.
   */
  select?: readonly string[];
  /**
   * Extra environment, e.g. seeds; applied over the minimal environment. A
   * relative `PYTHONPATH` entry is a directory of the tree, resolved
   * against `workDir`.
   */
  env?: Readonly<Record<string, string>>;
  /** Sandbox limits for the run. */
  limits?: Partial<SandboxLimits>;
  /** Largest report read; defaults to {@linkcode MAX_REPORT_BYTES}. */
  maxReportBytes?: number;
  /** Progress callback for output chunks. */
  onOutput?: (chunk: Uint8Array) => void;
  /**
   * Progress only: makes, when the run starts, a tally the observer's
   * stream tells the run's tests to while it goes. Nothing the tally does
   * reaches the run's result.
   */
  tally?: () => TestTally | undefined;
  /** pawl's observer plugin: loaded with `-p`, its stream read while the run goes. */
  observer?: ObserverPlugin;
  /**
   * The observer also counts how often each assert of the run's root
   * directory passed (its test modules are then rewritten with pytest's
   * assertion pass hook, from their source).
   */
  countAsserts?: boolean;
  /**
   * Whether the observer traces the changed lines its `lines` file names
   * (the full suite's run only: only its lines count).
   */
  traceLines?: boolean;
  /**
   * The run as {@linkcode preparePytestRun} made it ahead (its interpreter
   * perhaps started warm): used when made from these same options, else
   * discarded and the run prepared afresh.
   */
  prepared?: PreparedPytestRun | undefined;
}

/**
 * One run's report name, fresh HOME, observer channel and sandbox command
 * (without the selection), made before the run so its interpreter can be
 * started ahead with exactly the run's environment.
 */
export interface PreparedPytestRun {
  /** The options it was made from (see {@linkcode pytestRunKey}). */
  readonly key: string;
  /** Index of the run's report, home and probe names. */
  readonly n: number;
  /** The JUnit report's path. */
  readonly reportPath: string;
  /** The observer's channel, when the run loads the observer. */
  readonly channel: ObserverChannel | undefined;
  /** The sandbox command, without the selection and the progress callback. */
  readonly command: SandboxCommand;
  /** Whether a run took it; a prepared run serves one run only. */
  used: boolean;
  /** Close the channel and remove the HOME unless a run took it; never throws. */
  discard(): Promise<void>;
}

/**
 * What a prepared run must have been made from to serve a run: the same
 * copy, report directory, interpreter, environment, limits and observer.
 */
export function pytestRunKey(options: RunPytestOptions): string {
  return JSON.stringify([
    options.workDir,
    options.reportDir,
    // The arguments after `-m pytest` go to the interpreter at the handover.
    (options.command ?? DEFAULT_PYTEST_COMMAND).slice(0, 3),
    options.env ?? {},
    options.limits ?? {},
    options.observer?.dir ?? null,
    // Stryker disable next-line EqualityOperator: the key is only compared with other keys, and the negated test tells the same runs apart
    options.countAsserts === true,
    // Stryker disable next-line EqualityOperator: the key is only compared with other keys, and the negated test tells the same runs apart
    options.traceLines === true,
  ]);
}

/**
 * Prepare the run `options` describe (everything but `select`,
 * `onOutput` and `maxReportBytes` counts): its report name, HOME,
 * observer channel, environment and argv.
 */
export async function preparePytestRun(
  sandbox: Sandbox,
  options: RunPytestOptions,
): Promise<PreparedPytestRun> {
  const command = options.command ?? DEFAULT_PYTEST_COMMAND;
  if (command.length === 0 || command[0] === "") {
    throw new RangeError("Invalid test command: argv is empty");
  }
  const n = await unusedIndex(options.reportDir);
  const reportPath = `${options.reportDir}/junit-${n}.xml`;
  const home = await freshDir(sandbox, `${options.reportDir}/home-${n}`);
  const channel = options.observer === undefined
    ? undefined
    : await ObserverChannel.open(options.observer);
  const env = pytestEnvironment(options.workDir, home, {
    env: options.env,
    // Stryker disable next-line ConditionalExpression: ObserverChannel.open returns a channel or throws, so there is no channel exactly when there is no observer
    observer: channel === undefined ? undefined : options.observer,
  });
  if (channel !== undefined) {
    env["PAWL_OBSERVER_SOCKET"] = channel.path;
    env["PAWL_OBSERVER_TOKEN"] = channel.token;
    if (options.countAsserts === true) env["PAWL_OBSERVER_REACH"] = "1";
    // Stryker disable next-line OptionalChaining: the observer is set here, since only a run with one has a channel
    if (options.traceLines === true && options.observer?.lines !== undefined) {
      env["PAWL_OBSERVER_LINES"] = options.observer.lines;
    }
  }
  const argv = pytestArgv(command, options, reportPath);
  const prepared: PreparedPytestRun = {
    key: pytestRunKey(options),
    n,
    reportPath,
    channel,
    command: {
      argv,
      cwd: options.workDir,
      env,
      writable: [options.reportDir],
      ...(options.observer === undefined
        ? {}
        : { readOnly: [options.observer.root] }),
      ...(options.limits !== undefined ? { limits: options.limits } : {}),
    },
    used: false,
    discard: async () => {
      if (prepared.used) return;
      prepared.used = true;
      await channel?.finish(0).catch(() => undefined);
      // Its names go back, so the run prepared in its place gets the same
      // report name (which a finding may quote) as without it.
      await Deno.remove(home, { recursive: true }).catch(() => undefined);
    },
  };
  return prepared;
}

/** The run's argv before the selection. */
function pytestArgv(
  command: readonly string[],
  options: RunPytestOptions,
  reportPath: string,
): string[] {
  return [
    ...command,
    ...(options.observer === undefined ? [] : ["-p", options.observer.module]),
    `--junitxml=${reportPath}`,
    "-o",
    "junit_family=xunit2",
  ];
}

/**
 * Start the prepared run's interpreter now (see `Sandbox.prestart`), when
 * the sandbox can; `accept` judges the module names it loaded. Settles
 * once its process is spawned or the sandbox gave up; never rejects.
 */
export async function prestartPytestRun(
  sandbox: Sandbox,
  prepared: PreparedPytestRun,
  accept: PrestartOptions["accept"],
): Promise<void> {
  // Stryker disable next-line OptionalChaining: prestart returns a promise by its type, and without prestart the first ?. already ends the chain
  await sandbox.prestart?.(prepared.command, { accept })?.catch(() => {});
}

/** The outcome of one pytest run. */
export interface PytestRun {
  /** How the sandboxed process ended. */
  result: SandboxResult;
  /** Per-test results, or null when there is no usable report. */
  cases: TestCaseResult[] | null;
  /** Why there is no usable report. */
  reportProblem?: string;
  /** What pawl's observer streamed, when the run loaded it. */
  observation?: Observation;
}

/** What is missing for running the tests. */
export type MissingRunner =
  /** The command's program (e.g. `python3`) is not on the sandbox PATH. */
  | "program"
  /** The program runs but cannot import the test framework module. */
  | "module"
  /** The configured interpreter runs but is not a working Python. */
  | "interpreter";

/**
 * The test runner is not installed where the sandbox can run it. The gate
 * cannot decide (exit 2); this is never a verdict on the pull request.
 */
export class TestRunnerMissingError extends Error {
  /** The program that was run (`argv[0]`). */
  readonly program: string;
  /** The module that could not be imported, for `missing === "module"`. */
  readonly module: string | undefined;
  /** Which part is missing. */
  readonly missing: MissingRunner;

  /**
   * Create the error for a missing program, or a missing module of a
   * program. `view` says what the sandbox's file system looks like (see
   * `describeSandboxView`).
   */
  constructor(
    missing: MissingRunner,
    program: string,
    options: {
      module?: string;
      path?: string;
      view?: string;
      detail?: string;
    } = {},
  ) {
    const module = options.module ?? "pytest";
    const view = options.view === undefined ? "" : `: ${options.view}`;
    const where = program.includes("/")
      ? `the interpreter "${program}" does not exist in the sandbox or the sandbox cannot run it`
      : `"${program}" was not found on the sandbox PATH "${
        options.path ?? SANDBOX_PATH
      }"`;
    super(
      missing === "program"
        ? `Cannot run the tests: ${where}${view}; install it where the sandbox sees it (for Python, e.g. "apt-get install python3", or a virtualenv outside /tmp), then name it in pawl.toml as [environment] python = "/path/to/python" or in the test command`
        : missing === "interpreter"
        ? `Cannot run the tests: the interpreter "${program}" of [environment] python does not work in the sandbox (${
          options.detail ?? "it did not run a Python script"
        })${view}; name a Python 3 interpreter there in pawl.toml`
        : `Cannot run the tests: "${program}" cannot import "${module}"${view}; install it for that interpreter (e.g. "${program} -m pip install ${module}" or "apt-get install python3-${module}"; a virtualenv sees Debian's packages only when made with --system-site-packages)`,
    );
    this.name = "TestRunnerMissingError";
    this.program = program;
    this.module = options.module;
    this.missing = missing;
  }
}

let junitReader: Promise<typeof import("./parse_junit.ts")> | undefined;

/**
 * The JUnit reader and its XML parser, loaded while the first run runs:
 * nothing before a run ends reads a report. A load that fails is thrown
 * where the report is read (handled here so it is never unhandled first).
 */
function loadJunitReader(): Promise<typeof import("./parse_junit.ts")> {
  // Stryker disable next-line ConditionalExpression: import() of a module already loaded gives the same module; loading it again only makes another promise of it
  if (junitReader === undefined) {
    junitReader = import("./parse_junit.ts");
    junitReader.catch(() => {});
  }
  return junitReader;
}

/**
 * Run the test command once in the sandbox with a minimal environment (no
 * variable of the parent process leaks in) and a fresh HOME, then read the
 * JUnit report only if it is a bounded regular file inside `reportDir`.
 * Throws {@linkcode TestRunnerMissingError} when the interpreter or pytest is
 * missing, confirmed by a probe that the repository cannot influence.
 */
export async function runPytest(
  sandbox: Sandbox,
  options: RunPytestOptions,
): Promise<PytestRun> {
  let prepared = options.prepared;
  if (
    prepared !== undefined &&
    (prepared.used || prepared.key !== pytestRunKey(options))
  ) {
    await prepared.discard();
    prepared = undefined;
  }
  prepared ??= await preparePytestRun(sandbox, options);
  prepared.used = true;
  const junit = loadJunitReader();
  const command = options.command ?? DEFAULT_PYTEST_COMMAND;
  const select = options.select ?? [];
  const selecting = select.length === 0
    ? command
    : await selectionCommand(command, { exists: treeHas(options.workDir) });
  const { n, reportPath, channel } = prepared;
  const env = prepared.command.env;
  let result: SandboxResult;
  let observation: Observation | undefined;
  const tally = channel === undefined ? undefined : startTally(options);
  // Stryker disable next-line ConditionalExpression: without a tally the listener throws at the first test it is told and the tap stops telling it; the observation is read from the stream apart
  if (tally !== undefined) {
    // Stryker disable next-line OptionalChaining: a tally is only made for a run with a channel
    channel?.watch(tallyObserverLines(channel.token, tally));
  }
  try {
    result = await sandbox.run({
      ...prepared.command,
      argv: [...pytestArgv(selecting, options, reportPath), ...select],
      ...(options.onOutput !== undefined ? { onOutput: options.onOutput } : {}),
    });
  } finally {
    observation = await channel?.finish();
    endTally(tally);
  }
  const observed = observation === undefined ? {} : { observation };
  const { JunitError, parseJunit } = await junit;
  const report = await readReport(
    reportPath,
    options.reportDir,
    options.maxReportBytes ?? MAX_REPORT_BYTES,
  );
  if (typeof report !== "string") {
    if (!result.timedOut && looksLikeMissingRunner(result)) {
      await probeRunner(sandbox, command, options, n, env["PATH"]);
    }
    return { result, cases: null, reportProblem: report.problem, ...observed };
  }
  try {
    return { result, cases: parseJunit(report), ...observed };
  } catch (error) {
    // Stryker disable next-line ConditionalExpression: parseJunit throws only JunitError (its parser's errors are wrapped), so no report brings another error here
    if (error instanceof JunitError) {
      return {
        result,
        cases: null,
        reportProblem: error.message,
        ...observed,
      };
    }
    throw error;
  }
}

/** The run's progress tally, if it has one; progress never stops a run. */
function startTally(options: RunPytestOptions): TestTally | undefined {
  try {
    // Stryker disable OptionalChaining,BlockStatement: without a tally maker the call throws into the catch, and an empty catch returns undefined too: either way the run has no tally
    return options.tally?.();
  } catch {
    return undefined;
  }
}

// Stryker restore OptionalChaining,BlockStatement
function endTally(tally: TestTally | undefined): void {
  try {
    // Stryker disable next-line OptionalChaining: without a tally the call throws, and the catch below takes it as it takes a tally's own error
    tally?.end();
  } catch {
    // progress only
  }
}

/**
 * The environment of a run in `workDir` with HOME `home`: the minimal one
 * (no variable of pawl's own leaks in), then `env`, with relative
 * `PYTHONPATH` entries made absolute in the tree and, when the run loads
 * pawl's `observer`, its directory first and its user base (without the
 * channel: its socket and token are the run's own).
 */
export function pytestEnvironment(
  workDir: string,
  home: string,
  options: {
    env?: Readonly<Record<string, string>> | undefined;
    observer?: ObserverPlugin | undefined;
  },
): Record<string, string> {
  const env: Record<string, string> = {
    ...minimalEnv(home),
    ...(options.env ?? {}),
  };
  // A relative entry names a directory of this run's tree, made absolute so
  // it still holds in a subprocess started elsewhere; pawl's observer comes
  // first, where the repository cannot shadow it.
  const entries = (env["PYTHONPATH"] ?? "").split(":").filter((e) => e !== "")
    .map((e) => e.startsWith("/") ? e : treePath(workDir, e));
  if (options.observer !== undefined) entries.unshift(options.observer.dir);
  if (entries.length > 0) env["PYTHONPATH"] = entries.join(":");
  else delete env["PYTHONPATH"];
  // The user site leads to the plugin too: a test command that sets its
  // own PYTHONPATH (`env PYTHONPATH=src python3 -m pytest`) replaces the
  // entry above but not this.
  if (options.observer?.userBase !== undefined) {
    env["PYTHONUSERBASE"] = options.observer.userBase;
  }
  return env;
}

/**
 * The JUnit report at `path`, a file directly inside `reportDir`, read as
 * carefully as a run's own (see {@linkcode runPytest}): its cases, or null
 * and why there are none.
 */
export async function readPytestReport(
  path: string,
  reportDir: string,
  maxBytes: number = MAX_REPORT_BYTES,
): Promise<{ cases: TestCaseResult[] | null; problem?: string }> {
  const { JunitError, parseJunit } = await loadJunitReader();
  const report = await readReport(path, reportDir, maxBytes);
  if (typeof report !== "string") return { cases: null, ...report };
  try {
    return { cases: parseJunit(report) };
  } catch (error) {
    // Stryker disable next-line ConditionalExpression: parseJunit throws only JunitError (its parser's errors are wrapped), so no report brings another error here
    if (error instanceof JunitError) {
      return { cases: null, problem: error.message };
    }
    throw error;
  }
}

/** `entry` (repository-relative, `.` for the root) inside `workDir`. */
function treePath(workDir: string, entry: string): string {
  return entry === "." ? workDir : `${workDir}/${entry}`;
}

function minimalEnv(home: string): Record<string, string> {
  return {
    PATH: SANDBOX_PATH,
    HOME: home,
    TMPDIR: home,
    LANG: "C.UTF-8",
    // Nothing writes bytecode into the tree; the export had none (pawl
    // strips it), so no .pyc runs in place of the source pawl read. A
    // PYTHONPYCACHEPREFIX would do the same but recompile the standard
    // library, pytest and Hypothesis from source on every run.
    PYTHONDONTWRITEBYTECODE: "1",
    // A fresh example database: nothing committed or left by another run
    // feeds (or pads) the examples Hypothesis executes.
    HYPOTHESIS_STORAGE_DIRECTORY: `${home}/hypothesis`,
    PYTHONHASHSEED: "0",
  };
}

/** The first index whose report, home and probe names are all unused, so nothing a previous run left can be mistaken for this run's. */
async function unusedIndex(reportDir: string): Promise<number> {
  for (let n = 0;; n++) {
    const names = [`junit-${n}.xml`, `home-${n}`, `probe-${n}`];
    let free = true;
    for (const name of names) {
      if (await exists(`${reportDir}/${name}`)) free = false;
    }
    if (free) return n;
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    // Stryker disable BlockStatement,ConditionalExpression: any lstat error but absence means the report directory cannot be searched, and making the HOME in it next fails the same way
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    throw error;
  }
}

// Stryker restore BlockStatement,ConditionalExpression
async function freshDir(sandbox: Sandbox, path: string): Promise<string> {
  await Deno.mkdir(path, { mode: 0o700 });
  await sandbox.prepareDir(path);
  return path;
}

/** The report's text, or why it cannot be used. */
async function readReport(
  path: string,
  reportDir: string,
  maxBytes: number,
): Promise<string | { problem: string }> {
  const name = path.slice(path.lastIndexOf("/") + 1);
  let info: Deno.FileInfo;
  try {
    info = await Deno.lstat(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      return { problem: `The test run wrote no report "${name}"` };
    }
    throw error;
  }
  if (!info.isFile) {
    const kind = info.isSymlink
      ? "a symlink"
      : info.isDirectory
      ? "a directory"
      : "not a regular file";
    return { problem: `The report "${name}" is ${kind}: it was ignored` };
  }
  const dir = await Deno.realPath(reportDir);
  const real = await Deno.realPath(path);
  if (real !== `${dir}/${name}`) {
    return {
      problem:
        `The report "${name}" resolves outside the report directory: it was ignored`,
    };
  }
  if (info.size > maxBytes) {
    return {
      problem: `The report "${name}" has ${
        plural(info.size, "byte")
      }, more than the limit of ${maxBytes}: it was ignored`,
    };
  }
  let handle;
  try {
    // O_NOFOLLOW refuses a symlink swapped in since lstat; O_NONBLOCK keeps a
    // swapped-in FIFO from blocking the gate.
    handle = await open(
      real,
      constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK,
    );
  } catch (error) {
    return {
      problem: `The report "${name}" cannot be opened: ${
        (error as Error).message
      }`,
    };
  }
  try {
    const stat = await handle.stat();
    if (
      // Stryker disable next-line ConditionalExpression: the report directory holds no mount point, so a file swapped in under the report's name is on its device and only the inode tells it apart
      !stat.isFile() || stat.ino !== info.ino || stat.dev !== info.dev ||
      stat.size > maxBytes
    ) {
      return {
        problem:
          `The report "${name}" changed while being read: it was ignored`,
      };
    }
    const buffer = new Uint8Array(stat.size + 1);
    let total = 0;
    // Stryker disable next-line EqualityOperator: once the buffer is full, one read more asks for no bytes and reads none, which ends the loop the same
    while (total < buffer.length) {
      const { bytesRead } = await handle.read(
        buffer,
        total,
        buffer.length - total,
        null,
      );
      if (bytesRead === 0) break;
      total += bytesRead;
    }
    if (total > stat.size) {
      return {
        problem: `The report "${name}" grew while being read: it was ignored`,
      };
    }
    // Stryker disable next-line ObjectLiteral,BooleanLiteral: ignoreBOM is false by default, and parseJunit reads a report alike with or without a byte order mark
    return new TextDecoder("utf-8", { ignoreBOM: false }).decode(
      buffer.subarray(0, total),
    );
  } finally {
    await handle.close();
  }
}

function looksLikeMissingRunner(result: SandboxResult): boolean {
  if (result.code === 126 || result.code === 127) return true;
  const output = `${result.outputHead}\n${result.outputTail}`;
  return /No module named|No such file or directory|command not found|not found/
    .test(output);
}

/**
 * Confirm a missing runner with a probe in a fresh, empty directory and a
 * minimal environment, so a test that merely prints "No module named pytest"
 * cannot turn a rejection into "could not decide".
 */
async function probeRunner(
  sandbox: Sandbox,
  command: readonly string[],
  options: RunPytestOptions,
  n: number,
  path: string | undefined,
): Promise<void> {
  // Stryker disable next-line StringLiteral: preparePytestRun refuses an empty command, so a probed command always has its program
  const program = command[0] ?? "";
  const m = command.indexOf("-m");
  const module = m >= 1 ? command[m + 1] : undefined;
  const importable = module !== undefined &&
    /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/.test(module);
  const argv = importable
    ? [...command.slice(0, m), "-c", `import ${module}`]
    : [program, "--version"];
  const cwd = await freshDir(sandbox, `${options.reportDir}/probe-${n}`);
  const probe = await sandbox.run({
    argv,
    cwd,
    env: { ...minimalEnv(cwd), PATH: path ?? SANDBOX_PATH },
    writable: [],
    limits: { timeoutMs: 60_000 },
  });
  if (probe.timedOut || probe.code === 0) return;
  const view = describeSandboxView(sandbox.isolation, {
    workDir: options.workDir,
  });
  const output = `${probe.outputHead}\n${probe.outputTail}`;
  if (
    probe.code === 126 || probe.code === 127 ||
    /No such file or directory|command not found/.test(output)
  ) {
    throw new TestRunnerMissingError("program", program, {
      // Stryker disable next-line ConditionalExpression: the run's environment always has a PATH, and an undefined one would name the default PATH the same
      ...(path !== undefined ? { path } : {}),
      view,
    });
  }
  if (importable && /No module named/.test(output)) {
    throw new TestRunnerMissingError("module", program, { module, view });
  }
}
