/**
 * The "tests" stage for one pull request: run the whole suite once, give
 * each failing test under an active freeze its budgeted reruns, and turn
 * the rest into findings.
 *
 * @module
 */
import { plural } from "../core/plural.ts";
import { type FailureDetail, type Finding, finding } from "../core/finding.ts";
import type { TestCaseResult } from "./parse_junit.ts";
import { crossCheckReport } from "./cross_check_report.ts";
import { failureDetail } from "./failure_detail.ts";
import type { Observation } from "./observation.ts";
import { type Reproducer, reproducer } from "./reproduce_command.ts";
import { runningWhenStopped } from "./running_when_stopped.ts";
import { treeHas } from "./selection_command.ts";
import type { Sandbox } from "../sandbox/sandbox.ts";
import {
  DEFAULT_PYTEST_COMMAND,
  PYTEST_EXIT,
  type PytestRun,
  runPytest,
  type RunPytestOptions,
} from "./run_pytest.ts";
import {
  type CaseLocation,
  junitAddress,
  locateCase,
  matchesAddress,
  moduleFileCandidates,
} from "./test_id.ts";

/** A freeze from the contract, as the test stage needs it. */
export interface FreezeRef {
  /** The freeze id. */
  id: string;
  /** The frozen test: a function name (`test_x`, `Class.test_x`) or a pytest node id (`tests/test_a.py::test_x`). */
  test: string;
  /** Reruns the freeze still allows. */
  remainingReruns: number;
  /** True when the freeze expired at or before `--now`; an expired freeze protects nothing. */
  expired?: boolean;
}

/** Options for {@linkcode runSuite}. */
export interface RunSuiteOptions extends Omit<RunPytestOptions, "select"> {
  /** Freezes of the base contract. */
  freezes?: readonly FreezeRef[];
  /** Export a fresh copy of the head tree (prepared for the sandbox) and return its path; called once per rerun. */
  freshWorkDir: () => Promise<string>;
  /**
   * The 1-based line where test `qualname` (`test_x`, `Class.test_x`) is
   * defined in `file`, read from trusted sources (git objects, never the
   * tree the tests ran in). Locates failing tests when the report has no
   * line, as pytest's xunit2 report never has.
   */
  testLine?: (file: string, qualname: string) => Promise<number | undefined>;
  /**
   * Tests (names or node ids) whose failure on this run's fresh seed is
   * reported but does not block: they are under an unexpired seed freeze.
   */
  nonBlocking?: readonly string[];
}

/** Counts over the full run's cases. */
export interface SuiteSummary {
  /** All reported cases. */
  total: number;
  /** Passed cases. */
  passed: number;
  /** Failed cases. */
  failed: number;
  /** Errored cases (setup, teardown or collection). */
  errors: number;
  /** Skipped cases. */
  skipped: number;
  /** Expected failures. */
  xfailed: number;
}

/** What the reruns of one freeze did. */
export interface RerunRecord {
  /** The freeze id. */
  freeze: string;
  /** The freeze's test reference, as written in the contract. */
  test: string;
  /** Node ids that were rerun, sorted. */
  selected: string[];
  /** Reruns used. */
  used: number;
  /** Reruns the freeze allowed. */
  allowed: number;
  /** Whether a rerun passed. */
  passed: boolean;
}

/** The test stage's result; deterministic for the same inputs (no durations, no temporary paths). */
export interface SuiteOutcome {
  /** Findings of the `tests` and `freeze` layers, sorted. */
  findings: Finding[];
  /** Per-test results of the full run, sorted; empty without a usable report. */
  cases: TestCaseResult[];
  /** Whether the full run left a usable report. */
  reported: boolean;
  /** Counts over `cases`. */
  summary: SuiteSummary;
  /** One record per freeze whose test failed in the full run, sorted by freeze id. */
  reruns: RerunRecord[];
  /** What pawl's observer saw during the full run (nothing, when it never loaded), when the run was watched. */
  observation?: Observation;
  /** The observer's failure texts by node id, with pawl's directories scrubbed as in `cases`. */
  texts?: ReadonlyMap<string, string>;
  /** The last characters of the failure texts longer than `texts` keeps, scrubbed the same way. */
  tails?: ReadonlyMap<string, string>;
  /** Node ids of the failed or errored tests no freeze covers (each a `tests.failed`), sorted. */
  unfrozenFailures?: string[];
}

/** Lines of output quoted in a `tests.run_failed` or `tests.no_report` finding. */
export const TAIL_LINES = 15;
/** Characters of output quoted in a finding. */
export const TAIL_CHARS = 1500;
/** Lines of a collection error's traceback quoted in its finding. */
export const COLLECTION_ERROR_LINES = 12;
/** `tests.failed` findings listed one by one; the rest are counted in one more. */
export const MAX_FAILED_FINDINGS = 100;

/**
 * Run the base's test command on the head tree and judge the result.
 * Failures of frozen tests are rerun alone, each rerun in a fresh tree, up
 * to the freeze's remaining budget. Throws `TestRunnerMissingError` when the
 * runner is not installed (could not decide).
 */
export async function runSuite(
  sandbox: Sandbox,
  options: RunSuiteOptions,
): Promise<SuiteOutcome> {
  const {
    freezes = [],
    freshWorkDir,
    testLine,
    // Stryker disable next-line ArrayDeclaration: only a list of test names replaces this default, and a list of a name no test has makes no failure non-blocking, as the empty one
    nonBlocking = [],
    ...runOptions
  } = options;
  const scrub = await scrubber([
    [options.reportDir, "<reports>"],
    [options.workDir, "<tree>"],
  ]);
  // Built before the run: the tests may change the tree they run in.
  const reproduce = await reproducer(
    options.command ?? DEFAULT_PYTEST_COMMAND,
    options.env ?? {},
    { exists: treeHas(options.workDir) },
  );
  const run = await runPytest(sandbox, runOptions);
  const findings: Finding[] = [];
  const stopped = stoppedFinding(run, options, { scrub, reproduce });
  if (stopped !== undefined || run.cases === null) {
    findings.push(stopped ?? noReportFinding(run, scrub));
    return {
      ...outcome(findings, [], false, []),
      // What had run when the run was stopped, as the observer saw it.
      ...(stopped === undefined || run.observation === undefined
        ? {}
        : { summary: observedSummary(run.observation) }),
      ...(run.observation === undefined
        ? {}
        : { observation: run.observation }),
    };
  }
  const cases = await withLines(
    sortCases(run.cases.map((c) => scrubCase(c, scrub))),
    testLine,
  );
  const collectTexts = new Map(
    (run.observation?.collectErrors ?? []).map((
      e,
    ) => [e.nodeId, scrub(e.text)]),
  );
  const failing = cases.filter((c) =>
    c.outcome === "failed" || c.outcome === "error"
  );
  const texts = new Map(
    // Stryker disable next-line ArrayDeclaration: without an observation this map is read only by node id, which a single character never is, and is not returned
    [...run.observation?.texts ?? []].map(([id, text]) => [id, scrub(text)]),
  );
  const tails = new Map(
    // Stryker disable next-line ArrayDeclaration: without an observation this map is read only by node id, which a single character never is, and is not returned
    [...run.observation?.tails ?? []].map(([id, text]) => [id, scrub(text)]),
  );
  const detail = (c: TestCaseResult): FailureDetail => {
    const { nodeId } = locateCase(c);
    return failureDetail(
      nodeId,
      tails.get(nodeId) ?? texts.get(nodeId) ?? c.message ?? c.outcome,
      reproduce(nodeId),
    );
  };
  const active = [...freezes]
    .filter((f) => f.expired !== true)
    .sort((a, b) => compare(a.id, b.id));
  const groups = new Map<FreezeRef, TestCaseResult[]>();
  let unfrozen = 0;
  const unfrozenFailures = new Set<string>();
  for (const c of failing) {
    const freeze = c.classname === ""
      ? undefined
      : active.find((f) => freezeCovers(f, c));
    if (
      freeze === undefined && c.classname !== "" &&
      nonBlocking.some((test) =>
        // Stryker disable next-line StringLiteral: freezeCovers() reads a freeze's test, never its id
        freezeCovers({ id: "", test, remainingReruns: 0 }, c)
      )
    ) {
      findings.push(freshSeedFinding(c, detail(c)));
    } else if (freeze === undefined) {
      unfrozen++;
      if (c.classname !== "") unfrozenFailures.add(locateCase(c).nodeId);
      if (unfrozen <= MAX_FAILED_FINDINGS) {
        findings.push(
          failedFinding(
            c,
            collectTexts,
            // Stryker disable next-line ConditionalExpression,StringLiteral: failedFinding() words a collection error (a case without a class) from its file alone and never reads its detail
            c.classname === "" ? undefined : detail(c),
          ),
        );
      }
    } else {
      groups.set(freeze, [...(groups.get(freeze) ?? []), c]);
    }
  }
  if (unfrozen > MAX_FAILED_FINDINGS) {
    findings.push(finding(
      "tests.failed",
      `${
        unfrozen - MAX_FAILED_FINDINGS
      } more tests failed or errored (only the first ${MAX_FAILED_FINDINGS} are listed)`,
    ));
  }
  const reruns: RerunRecord[] = [];
  for (const [freeze, group] of groups) {
    const record = await rerunFrozen(
      sandbox,
      runOptions,
      freshWorkDir,
      freeze,
      group,
    );
    reruns.push(record);
    const first = group[0];
    findings.push(
      rerunFinding(
        record,
        group,
        // Stryker disable next-line ConditionalExpression: a group holds at least the case that made it
        first === undefined ? undefined : detail(first),
      ),
    );
  }
  const runFailed = runFailedFinding(run, failing.length, scrub);
  if (runFailed !== undefined) findings.push(runFailed);
  if (run.observation !== undefined) {
    findings.push(
      ...crossCheckReport(run.observation, run.cases, {
        run: "the full suite",
      }).map((f) => ({ ...f, message: scrub(f.message) })),
    );
    return {
      ...outcome(findings, cases, true, reruns),
      observation: run.observation,
      texts,
      tails,
      unfrozenFailures: [...unfrozenFailures].sort(),
    };
  }
  return {
    ...outcome(findings, cases, true, reruns),
    unfrozenFailures: [...unfrozenFailures].sort(),
  };
}

function outcome(
  findings: Finding[],
  cases: TestCaseResult[],
  reported: boolean,
  reruns: RerunRecord[],
): SuiteOutcome {
  const summary: SuiteSummary = {
    total: cases.length,
    passed: 0,
    failed: 0,
    errors: 0,
    skipped: 0,
    xfailed: 0,
  };
  for (const c of cases) {
    if (c.outcome === "passed") summary.passed++;
    else if (c.outcome === "failed") summary.failed++;
    else if (c.outcome === "error") summary.errors++;
    else if (c.outcome === "skipped") summary.skipped++;
    else summary.xfailed++;
  }
  return {
    findings: [...findings].sort(compareFindings),
    cases,
    reported,
    summary,
    reruns: [...reruns].sort((a, b) => compare(a.freeze, b.freeze)),
  };
}

/** Counts of the tests the observer saw end, for a run stopped before it could report. */
function observedSummary(observation: Observation): SuiteSummary {
  const summary: SuiteSummary = {
    total: 0,
    passed: 0,
    failed: 0,
    errors: 0,
    skipped: 0,
    xfailed: 0,
  };
  for (const outcome of observation.outcomes.values()) {
    summary.total++;
    if (outcome === "passed") summary.passed++;
    else if (outcome === "failed") summary.failed++;
    else if (outcome === "error") summary.errors++;
    else if (outcome === "skipped") summary.skipped++;
    else summary.xfailed++;
  }
  return summary;
}

/** Fill in the definition line of each failing case the report left without one. */
async function withLines(
  cases: TestCaseResult[],
  testLine: RunSuiteOptions["testLine"],
): Promise<TestCaseResult[]> {
  if (testLine === undefined) return cases;
  const out: TestCaseResult[] = [];
  for (const c of cases) {
    if (
      c.line !== undefined || c.classname === "" ||
      (c.outcome !== "failed" && c.outcome !== "error")
    ) {
      out.push(c);
      continue;
    }
    const { file, nodeId } = locateCase(c);
    const qualname = nodeId.split("::").slice(1).join(".").replace(
      // Stryker disable next-line Regex: under the s flag `.*` runs to the end of the text, so `$` adds nothing
      /\[.*$/s,
      "",
    );
    const line = await testLine(file, qualname);
    out.push(line === undefined ? c : { ...c, line });
  }
  return out;
}

/** Whether a freeze's test reference names this case. */
function freezeCovers(freeze: FreezeRef, c: TestCaseResult): boolean {
  const test = freeze.test.trim();
  if (test.includes("::")) return matchesAddress(c, junitAddress(test));
  // Stryker disable next-line Regex: under the s flag `.*` runs to the end of the text, so `$` adds nothing
  const base = c.name.replace(/\[.*$/s, "");
  const cls = c.classname.slice(c.classname.lastIndexOf(".") + 1);
  return [c.name, base, `${cls}.${c.name}`, `${cls}.${base}`].includes(test);
}

async function rerunFrozen(
  sandbox: Sandbox,
  runOptions: Omit<RunSuiteOptions, "freezes" | "freshWorkDir">,
  freshWorkDir: () => Promise<string>,
  freeze: FreezeRef,
  group: readonly TestCaseResult[],
): Promise<RerunRecord> {
  const allowed = Math.max(0, Math.floor(freeze.remainingReruns));
  const record: RerunRecord = {
    freeze: freeze.id,
    test: freeze.test,
    selected: unique(group.map((c) => locateCase(c).nodeId)),
    used: 0,
    allowed,
    passed: false,
  };
  while (record.used < allowed && !record.passed) {
    const workDir = await freshWorkDir();
    const located = await locateInTree(group, workDir);
    record.selected = unique(located.map((l) => l.nodeId));
    const rerun = await runPytest(sandbox, {
      ...runOptions,
      workDir,
      select: record.selected,
      // Only the full run's lines count; tracing would only slow a rerun.
      traceLines: false,
    });
    record.used++;
    record.passed = rerunPassed(rerun, group);
  }
  return record;
}

/** Locate each case, resolving module files against a clean tree. */
async function locateInTree(
  group: readonly TestCaseResult[],
  workDir: string,
): Promise<CaseLocation[]> {
  const files = new Set<string>();
  for (const c of group) {
    for (const candidate of moduleFileCandidates(c.classname)) {
      // Stryker disable next-line ConditionalExpression: only saves a second lstat of a module file already found
      if (files.has(candidate)) continue;
      try {
        if ((await Deno.lstat(`${workDir}/${candidate}`)).isFile) {
          files.add(candidate);
        }
      } catch (error) {
        if (!(error instanceof Deno.errors.NotFound)) throw error;
      }
    }
  }
  return group.map((c) => locateCase(c, { isFile: (p) => files.has(p) }));
}

function rerunPassed(
  rerun: PytestRun,
  group: readonly TestCaseResult[],
): boolean {
  if (rerun.result.timedOut || rerun.result.outputExceeded) return false;
  const code = rerun.result.code;
  if (code !== PYTEST_EXIT.ok && code !== PYTEST_EXIT.testsFailed) {
    return false;
  }
  const cases = rerun.cases;
  if (cases === null) return false;
  return group.every((failed) => {
    const again = cases.filter((c) =>
      c.classname === failed.classname && c.name === failed.name
    );
    return again.length > 0 && again.every((c) => c.outcome === "passed");
  });
}

function rerunFinding(
  record: RerunRecord,
  group: readonly TestCaseResult[],
  failure: FailureDetail | undefined,
): Finding {
  const first = group[0];
  // Stryker disable next-line ConditionalExpression: a group holds at least the case that made it
  const where = first === undefined ? {} : {
    path: locateCase(first).file,
    line: first.line,
  };
  const tests = record.selected.map((s) => `"${s}"`).join(", ");
  if (record.passed) {
    return finding(
      "freeze.rerun_used",
      `Frozen test ${tests} failed and passed on rerun ${record.used} of ${record.allowed} (freeze "${record.freeze}"): the contract's remaining_reruns should be lowered by ${record.used}`,
      where,
    );
  }
  // Stryker disable next-line OptionalChaining: a group holds at least the case that made it
  const detail = first?.message !== undefined
    ? `: ${firstLine(first.message)}`
    : "";
  return finding(
    "tests.frozen_failed",
    record.allowed === 0
      ? `Frozen test ${tests} failed and freeze "${record.freeze}" has no reruns left${detail}`
      : `Frozen test ${tests} failed and did not pass in ${record.used} of ${
        plural(record.allowed, "rerun")
      } (freeze "${record.freeze}")${detail}`,
    { ...where, failure },
  );
}

function freshSeedFinding(c: TestCaseResult, failure: FailureDetail): Finding {
  const location = locateCase(c);
  const detail = c.message !== undefined ? `: ${firstLine(c.message)}` : "";
  return finding(
    "seed.fresh_failed",
    `Test "${location.nodeId}" failed on this run's fresh seed${detail}; it is under an unexpired seed freeze, so this does not block until the freeze expires`,
    {
      path: location.file,
      line: c.line,
      blocking: false,
      failure,
    },
  );
}

function failedFinding(
  c: TestCaseResult,
  collectTexts: ReadonlyMap<string, string> = new Map(),
  failure?: FailureDetail,
): Finding {
  const location = locateCase(c);
  if (c.classname === "") {
    // The traceback's first lines, not only its first: the cause of an
    // import error is on its last line. The report has only "collection
    // failure"; the observer streamed the traceback.
    const text = collectTexts.get(location.file) ?? c.message ?? "";
    const lines = text.split("\n").map((l) => l.trimEnd())
      .filter((l) => l !== "").slice(0, COLLECTION_ERROR_LINES);
    return finding(
      "tests.collection_error",
      `Collecting "${location.file}" failed${
        lines.length === 0 ? "" : `:\n${lines.join("\n")}`
      }`,
      { path: location.file },
    );
  }
  const detail = c.message !== undefined ? `: ${firstLine(c.message)}` : "";
  const message = `Test "${location.nodeId}" ${
    c.outcome === "error" ? "errored" : "failed"
  }${detail}`;
  return finding("tests.failed", message, {
    path: location.file,
    line: c.line,
    failure,
  });
}

function stoppedFinding(
  run: PytestRun,
  options: RunSuiteOptions,
  how: { scrub: (text: string) => string; reproduce: Reproducer },
): Finding | undefined {
  if (!run.result.timedOut && !run.result.outputExceeded) return undefined;
  const tail = outputTail(run, how.scrub);
  const running = run.observation === undefined
    ? undefined
    : runningWhenStopped(run.observation);
  const passed =
    // Stryker disable next-line ArrayDeclaration: without an observation the count is never quoted (only after the observer's hello)
    [...run.observation?.outcomes.values() ?? []].filter((o) => o === "passed")
      .length;
  const when = `${
    running === undefined ? "" : ` while ${JSON.stringify(running)} was running`
  }${
    run.observation?.hello === true
      ? `, after ${plural(passed, "test")} had passed`
      : ""
  }`;
  const failure = running === undefined
    ? {}
    : { failure: { test: running, reproduce: how.reproduce(running) } };
  const path = running?.split("::")[0];
  // Stryker disable next-line ConditionalExpression: finding() leaves out an option that is undefined, so an undefined path and none are the same
  const where = path === undefined || path === "" ? {} : { path };
  if (run.result.timedOut) {
    const limit = options.limits?.timeoutMs;
    return finding(
      "tests.timeout",
      `The test run was stopped at its time limit${
        limit !== undefined
          ? ` of ${seconds(limit)} ([tests] timeout_seconds)`
          : ""
      }${when}${tail}`,
      { ...where, ...failure },
    );
  }
  const limit = options.limits?.maxOutputBytes;
  return finding(
    "tests.output_exceeded",
    `The test run was stopped for printing more than the output limit${
      limit !== undefined
        ? ` of ${mebibytes(limit)} ([tests] max_output_mib)`
        : ""
    }${when}${tail}`,
    { ...where, ...failure },
  );
}

/** A limit in milliseconds in the unit of its setting. */
function seconds(ms: number): string {
  return `${ms / 1000} s`;
}

/** A limit in bytes in the unit of its setting, or in bytes when it is not whole mebibytes. */
function mebibytes(bytes: number): string {
  const mib = bytes / (1024 * 1024);
  return Number.isInteger(mib) ? `${mib} MiB` : `${bytes} bytes`;
}

function noReportFinding(
  run: PytestRun,
  scrub: (text: string) => string,
): Finding {
  // Stryker disable next-line StringLiteral: runPytest() gives the problem with every run that left no usable report
  const problem = run.reportProblem ?? "unknown problem";
  return finding(
    "tests.no_report",
    `The test run (${exitText(run)}) left no usable JUnit report: ${
      scrub(problem)
    }${outputTail(run, scrub)}`,
  );
}

function runFailedFinding(
  run: PytestRun,
  failing: number,
  scrub: (text: string) => string,
): Finding | undefined {
  const code = run.result.code;
  if (
    code === PYTEST_EXIT.ok ||
    (code === PYTEST_EXIT.testsFailed && failing > 0)
  ) return undefined;
  const why = code === PYTEST_EXIT.testsFailed
    ? "reported failure but no failing test"
    : code === PYTEST_EXIT.interrupted
    ? "was interrupted"
    : code === PYTEST_EXIT.internalError
    ? "hit an internal error"
    : code === PYTEST_EXIT.usageError
    ? "was called wrongly (usage error)"
    : code === PYTEST_EXIT.noTestsCollected
    ? "collected no tests"
    : "ended abnormally";
  return finding(
    "tests.run_failed",
    `The test run ${why} (${exitText(run)})${outputTail(run, scrub)}`,
  );
}

function exitText(run: PytestRun): string {
  return run.result.code !== null
    ? `exit code ${run.result.code}`
    : `killed by signal ${run.result.signal ?? "unknown"}`;
}

function outputTail(run: PytestRun, scrub: (text: string) => string): string {
  const lines = scrub(run.result.outputTail).split("\n")
    .map((l) => l.trimEnd())
    .filter((l) => l !== "")
    .slice(-TAIL_LINES);
  if (lines.length === 0) return "";
  let text = lines.join("\n");
  if (text.length > TAIL_CHARS) text = `…${text.slice(-TAIL_CHARS)}`;
  return `: output ends with:\n${text}`;
}

function firstLine(message: string): string {
  // Stryker disable next-line OptionalChaining,StringLiteral: split() always gives at least one string
  return message.split("\n", 1)[0]?.trim() ?? "";
}

function scrubCase(
  c: TestCaseResult,
  scrub: (text: string) => string,
): TestCaseResult {
  return c.message === undefined ? c : { ...c, message: scrub(c.message) };
}

/**
 * Replace the run's temporary directories (as given and as resolved) with
 * placeholders and pytest's "in 0.12s" timings with "in <duration>", so the
 * same inputs give byte-identical findings.
 */
async function scrubber(
  dirs: readonly (readonly [string, string])[],
): Promise<(text: string) => string> {
  const pairs: [string, string][] = [];
  for (const [dir, placeholder] of dirs) {
    const trimmed = dir.replace(/\/+$/, "");
    if (trimmed !== "") pairs.push([trimmed, placeholder]);
    const real = await resolvedPath(dir) ?? trimmed;
    // Stryker disable next-line ConditionalExpression: the same pair twice replaces nothing more
    if (real !== trimmed && real !== "/") pairs.push([real, placeholder]);
  }
  pairs.sort((a, b) => b[0].length - a[0].length);
  return (text) => {
    let out = text;
    for (const [dir, placeholder] of pairs) {
      out = out.replaceAll(dir, placeholder);
    }
    return out
      // Object addresses differ on every run (ASLR).
      .replace(/\b0x[0-9a-fA-F]{6,}\b/g, "0x<address>")
      .replace(/\bin \d+(?:\.\d+)?s\b/g, "in <duration>")
      .replace(/\(\d+:\d\d:\d\d(?:\.\d+)?\)/g, "(<duration>)");
  };
}

/** `dir` with every symbolic link resolved, or undefined when it does not exist. */
async function resolvedPath(dir: string): Promise<string | undefined> {
  // Stryker disable BlockStatement,BooleanLiteral,ConditionalExpression: the run's directories exist when it starts, so realPath() does not fail on them
  try {
    return await Deno.realPath(dir);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  // Stryker restore BlockStatement,BooleanLiteral,ConditionalExpression
  return undefined;
}

/** A case's message as it sorts: none before any. */
function messageKey(c: TestCaseResult): string {
  return c.message ?? "";
}

function sortCases(cases: TestCaseResult[]): TestCaseResult[] {
  return cases.sort((a, b) =>
    compare(a.classname, b.classname) || compare(a.name, b.name) ||
    compare(a.outcome, b.outcome) || compare(messageKey(a), messageKey(b))
  );
}

/** A finding's path as it sorts: none before any. */
function pathKey(f: Finding): string {
  return f.path ?? "";
}

function compareFindings(a: Finding, b: Finding): number {
  return compare(a.rule, b.rule) || compare(pathKey(a), pathKey(b)) ||
    (a.line ?? 0) - (b.line ?? 0) || compare(a.message, b.message);
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function unique(values: readonly string[]): string[] {
  return [...new Set(values)].sort(compare);
}
