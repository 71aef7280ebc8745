/**
 * The test stage: the base's test command on fresh exports of the head tree,
 * inside the sandbox, with the run's fresh seed; then the registered
 * properties again on their own (a report forged elsewhere in the suite
 * cannot vouch for them); then every unexpired frozen seed replayed.
 *
 * @module
 */
import { modulePath } from "../contract/module_path.ts";
import { type Finding, finding } from "../core/finding.ts";
import type { Instant } from "../core/parse_now.ts";
import type {
  IsolationRecord,
  PropertyResult,
  ReplayRecord,
  TestsReport,
} from "../core/verdict.ts";
import type {
  DialectId,
  PlannedProperty,
  PlannedReplay,
  TestPlan,
} from "../layouts/dialect.ts";
import type { Tree } from "../git/git.ts";
import type { GitCli } from "../git/git_cli.ts";
import { analyzePython } from "../python/analyze_python.ts";
import { loadPythonParser } from "../python/load_python_parser.ts";
import type { PythonModule } from "../python/python_module.ts";
import { evaluateProperty } from "../run/evaluate_property.ts";
import type { TestCaseResult } from "../run/parse_junit.ts";
import {
  DEFAULT_PYTEST_COMMAND,
  type PytestRun,
  runPytest,
} from "../run/run_pytest.ts";
import { type FreezeRef, runSuite } from "../run/run_suite.ts";
import { casesFor, casesForNodeId } from "../run/test_id.ts";
import {
  leaseSandboxUid,
  type SandboxLeaseSettings,
} from "../sandbox/lease_uid.ts";
import { ProcessSandbox } from "../sandbox/process_sandbox.ts";
import type { SandboxLimits } from "../sandbox/sandbox.ts";
import { extractWitness, witnessSha256 } from "../seeds/extract_witness.ts";
import { freshSeed } from "../seeds/fresh_seed.ts";
import type { LedgerRow } from "../seeds/ledger_row.ts";
import type { Settings } from "../settings/settings.ts";
import type { Progress } from "../cli/progress.ts";
import type { IsolationRequest } from "./run_check.ts";

const SOURCE_MAX_BYTES = 4 * 1024 * 1024;

/** Inputs of {@linkcode runTestStage}. */
export interface TestStageOptions {
  /** The private clone. */
  git: GitCli;
  /** pawl's temp dir for this job (mode 0711). */
  root: string;
  /** Head commit id. */
  head: string;
  /** Base settings. */
  settings: Settings;
  /** What each contract layout asks of the run. */
  plans: readonly { layout: DialectId; plan: TestPlan }[];
  /** Head tree listing. */
  headTree: Tree;
  /** Head analyses the static stage already made, keyed by path. */
  headModules?: ReadonlyMap<string, PythonModule>;
  /** The clock. */
  now: Instant;
  /** Requested sandbox strength. */
  isolation: IsolationRequest;
  /** Paths to hide from the sandbox. */
  hiddenPaths: readonly string[];
  /** PATH inside the sandbox, when not the default system PATH. */
  sandboxPath?: string | undefined;
  /** The uid the tests run as, when not the sandbox's default. */
  sandboxUid?: number | undefined;
  /** The gid the tests run as, when not the sandbox's default. */
  sandboxGid?: number | undefined;
  /** Where to lease the judgement's uid from, when `sandboxUid` is not given. */
  sandboxLease?: SandboxLeaseSettings | undefined;
  /** Progress sink. */
  progress: Progress;
}

/** What the test stage adds to the verdict. */
export interface TestStageResult {
  /** Test findings. */
  findings: Finding[];
  /** Report for the verdict. */
  report: TestsReport;
  /** Sandbox used. */
  isolation: IsolationRecord;
  /** One seed-ledger row per property run and replay. */
  ledger: LedgerRow[];
}

interface Located extends PlannedProperty {
  layout: DialectId;
  /** Head file of the test module, when it resolves. */
  file: string | undefined;
  /** 1-based def line, when the function exists at head. */
  line: number | undefined;
  /** pytest node id. */
  nodeId: string | undefined;
}

/** Run the suite for one pull request. */
export async function runTestStage(
  options: TestStageOptions,
): Promise<TestStageResult> {
  const { progress, settings, plans } = options;
  // This judgement's own uid, held until its last run has ended; a caller
  // that passes `sandboxUid` holds one itself.
  await using lease =
    options.sandboxUid !== undefined || options.isolation === "none"
      ? undefined
      : await leaseSandboxUid({
        ...options.sandboxLease,
        onWait: (message) => progress.note(message),
      });
  const sandbox = await ProcessSandbox.create({
    requested: options.isolation,
    hiddenPaths: [...options.hiddenPaths, `${options.root}/repo.git`],
    ...(lease === undefined ? {} : { uid: lease.uid, gid: lease.gid }),
    ...(options.sandboxUid === undefined ? {} : { uid: options.sandboxUid }),
    ...(options.sandboxGid === undefined ? {} : { gid: options.sandboxGid }),
  });
  let runs = 0;
  const freshWorkDir = async (): Promise<string> => {
    runs += 1;
    const dir = `${options.root}/work-${runs}`;
    await Deno.mkdir(dir);
    await options.git.exportTree(options.head, dir);
    await sandbox.prepareDir(dir);
    return dir;
  };
  // Test sources are read from git objects (never from a tree the tests
  // ran in), each file parsed once.
  const modules = new Map<string, Promise<PythonModule | undefined>>(
    [...(options.headModules ?? [])].map((
      [path, m],
    ) => [path, Promise.resolve(m)]),
  );
  const headModule = (file: string) => {
    let module = modules.get(file);
    if (module === undefined) {
      module = readHeadModule(options, file);
      modules.set(file, module);
    }
    return module;
  };
  const reportDir = `${options.root}/reports`;
  await Deno.mkdir(reportDir);
  await sandbox.prepareDir(reportDir);

  const seeds = settings.seeds;
  const pytest = settings.tests.runner === "pytest";
  const seed = freshSeed(options.head, options.now.text);
  const trialValues = plans.flatMap((p) =>
    p.plan.trials === undefined ? [] : [p.plan.trials]
  );
  const trials = trialValues.length === 0 ? null : Math.max(...trialValues);
  const command = settings.tests.command ?? DEFAULT_PYTEST_COMMAND;
  const seedArgs = (s: number) =>
    pytest && seeds.hypothesis_seed ? [`--hypothesis-seed=${s}`] : [];
  const seedEnv = (s: number, n: number | null): Record<string, string> => ({
    ...(options.sandboxPath === undefined ? {} : { PATH: options.sandboxPath }),
    [seeds.env_seed]: String(s),
    ...(n === null ? {} : { [seeds.env_trials]: String(n) }),
  });
  const deselect = unique(plans.flatMap((p) => p.plan.deselect));
  const limits: Partial<SandboxLimits> = {
    timeoutMs: settings.tests.timeout_seconds * 1000,
    maxOutputBytes: settings.tests.max_output_mib * 1024 * 1024,
    maxProcesses: settings.tests.max_processes,
  };
  const onOutput = (chunk: Uint8Array) => progress.detail(lastLine(chunk));

  const workDir = await freshWorkDir();
  progress.step(
    `running the tests (sandbox: ${sandbox.isolation.tier}, network ${sandbox.isolation.network}, seed ${seed})`,
  );
  const suite = await runSuite(sandbox, {
    workDir,
    reportDir,
    freshWorkDir,
    command: [
      ...command,
      ...seedArgs(seed),
      ...(pytest ? deselect.flatMap((id) => ["--deselect", id]) : []),
    ],
    env: seedEnv(seed, trials),
    freezes: plans.flatMap((p) =>
      p.plan.reruns.map((r): FreezeRef => ({
        id: r.id,
        test: r.test,
        remainingReruns: r.remainingReruns,
      }))
    ),
    nonBlocking: plans.flatMap((p) => p.plan.nonBlocking),
    limits,
    onOutput,
    testLine: async (file, qualname) =>
      (await headModule(file))?.functions.get(qualname)?.line,
  });
  const findings = [...suite.findings];
  const ledger: LedgerRow[] = [];
  const ts = Math.floor(options.now.epochMs / 1000);

  // The registered properties, resolved against the head's git objects.
  const located: Located[] = [];
  for (const { layout, plan } of plans) {
    for (const prop of plan.properties) {
      const file = modulePath(prop.module, options.headTree);
      const fn = file === undefined
        ? undefined
        : (await headModule(file))?.functions.get(prop.name);
      located.push({
        ...prop,
        layout,
        file,
        line: fn?.line,
        nodeId: file === undefined || fn === undefined
          ? undefined
          : `${file}::${prop.name.split(".").join("::")}`,
      });
    }
  }
  const runnable = located.filter((p) => p.nodeId !== undefined);

  // Alone: only the properties' own modules are imported, so a test
  // elsewhere that forges the report cannot make a failing property pass.
  let alone: PytestRun | null = null;
  if (runnable.length > 0 && suite.reported) {
    progress.step(
      `running ${runnable.length} registered properties on their own`,
    );
    alone = await runPytest(sandbox, {
      workDir: await freshWorkDir(),
      reportDir,
      command: [...command, ...seedArgs(seed)],
      select: unique(runnable.map((p) => p.nodeId as string)),
      env: seedEnv(seed, trials),
      limits,
      onOutput,
    });
  }
  const nonBlocking = new Set(plans.flatMap((p) => p.plan.nonBlocking));
  const properties: PropertyResult[] = [];
  for (const prop of located) {
    if (prop.nodeId === undefined) {
      // Already a property.module_missing / test_missing finding.
      properties.push({ layout: prop.layout, id: prop.id, outcome: "missing" });
      continue;
    }
    const ref = { module: prop.module, name: prop.name };
    const inSuite = evaluateProperty(suite.cases ?? [], ref);
    const aloneCases = alone === null || stopped(alone)
      ? []
      : alone.cases ?? [];
    const onItsOwn = alone === null
      ? "not_collected"
      : evaluateProperty(aloneCases, ref);
    const outcome = inSuite !== "passed" ? inSuite : onItsOwn;
    properties.push({ layout: prop.layout, id: prop.id, outcome });
    const failing = outcome === "passed" ? undefined : firstFailure([
      ...casesFor(suite.cases ?? [], ref),
      ...casesFor(aloneCases, ref),
    ]);
    ledger.push({
      seed,
      trials,
      ok: outcome === "passed",
      witness_sha256: outcome === "passed"
        ? null
        : witnessSha256(extractWitness(failing?.message ?? outcome)),
      ts,
      layout: prop.layout,
      id: prop.id,
      kind: "fresh",
    });
    if (outcome === "passed") continue;
    const where = {
      path: prop.file,
      ...(prop.line === undefined ? {} : { line: prop.line }),
    };
    const why = inSuite !== "passed"
      ? describe(inSuite)
      : `it passed in the full run but ${
        describe(onItsOwn)
      } when the properties ran on their own, so the full run's report cannot be trusted`;
    if (nonBlocking.has(prop.nodeId)) {
      findings.push(finding(
        "seed.fresh_failed",
        `Property "${prop.id}" (${prop.nodeId}) did not pass on this run's fresh seed ${seed}: ${why}; it is under an unexpired seed freeze, so this does not block until the freeze expires`,
        { ...where, blocking: false },
      ));
    } else {
      findings.push(finding(
        "property.not_passed",
        `Property "${prop.id}" (${prop.nodeId}) did not pass on seed ${seed}: ${why}`,
        where,
      ));
    }
  }
  properties.sort((a, b) => compare(a.layout, b.layout) || compare(a.id, b.id));

  // Every unexpired frozen seed must hold.
  const replays: ReplayRecord[] = [];
  for (const { layout, plan } of plans) {
    for (const replay of plan.replays) {
      progress.step(`replaying frozen seed ${replay.seed} (${replay.id})`);
      const run = await runPytest(sandbox, {
        workDir: await freshWorkDir(),
        reportDir,
        command: [...command, ...seedArgs(replay.seed)],
        select: [replay.test],
        env: seedEnv(replay.seed, seeds.replay_trials),
        limits,
        onOutput,
      });
      const result = judgeReplay(run, replay);
      replays.push({
        freeze: replay.id,
        test: replay.test,
        seed: replay.seed,
        passed: result.passed,
      });
      ledger.push({
        seed: replay.seed,
        trials: seeds.replay_trials,
        ok: result.passed,
        witness_sha256: result.passed ? null : witnessSha256(result.witness),
        ts,
        layout,
        id: replay.id,
        kind: "replay",
      });
      if (!result.passed) {
        const file = replay.test.split("::")[0];
        findings.push(finding(
          "seed.replay_failed",
          `Test "${replay.test}" does not hold on frozen seed ${replay.seed} (freeze "${replay.id}", recorded witness ${replay.witness}): ${result.detail}`,
          file === undefined || file === "" ? {} : { path: file },
        ));
      }
    }
  }
  replays.sort((a, b) => compare(a.freeze, b.freeze));

  return {
    findings,
    report: {
      summary: suite.summary,
      properties,
      reruns: suite.reruns,
      seeds: { fresh: seed, trials, replays },
    },
    isolation: {
      tier: sandbox.isolation.tier,
      network: sandbox.isolation.network,
    },
    ledger,
  };
}

function stopped(run: PytestRun): boolean {
  return run.result.timedOut || run.result.outputExceeded;
}

function judgeReplay(
  run: PytestRun,
  replay: PlannedReplay,
): { passed: boolean; detail: string; witness: string } {
  if (run.result.timedOut) {
    return {
      passed: false,
      detail: "the replay hit its time limit",
      witness: "timeout",
    };
  }
  if (run.result.outputExceeded) {
    return {
      passed: false,
      detail: "the replay flooded its output cap",
      witness: "output",
    };
  }
  const cases = casesForNodeId(run.cases ?? [], replay.test);
  if (cases.length === 0) {
    return {
      passed: false,
      detail: "the test was not collected (missing, renamed or deselected)",
      witness: "not collected",
    };
  }
  const bad = firstFailure(cases);
  if (bad === undefined) return { passed: true, detail: "", witness: "" };
  const witness = extractWitness(bad.message ?? bad.outcome);
  return {
    passed: false,
    detail: `${bad.outcome === "passed" ? "failed" : bad.outcome}, witness ${
      JSON.stringify(witness)
    }`,
    witness,
  };
}

function firstFailure(
  cases: readonly TestCaseResult[],
): TestCaseResult | undefined {
  return cases.find((c) => c.outcome !== "passed");
}

async function readHeadModule(
  options: TestStageOptions,
  file: string,
): Promise<PythonModule | undefined> {
  const entry = options.headTree.get(file);
  if (
    entry === undefined ||
    (entry.kind !== "file" && entry.kind !== "executable") ||
    entry.size > SOURCE_MAX_BYTES
  ) return undefined;
  const bytes = await options.git.readBlob(entry.oid, {
    maxBytes: SOURCE_MAX_BYTES,
  });
  return analyzePython(
    await loadPythonParser(),
    new TextDecoder().decode(bytes),
  );
}

function describe(outcome: string): string {
  switch (outcome) {
    case "not_collected":
      return "it was not collected or was deselected";
    case "skipped":
      return "it was skipped";
    case "xfailed":
      return "it was marked xfail";
    case "error":
      return "it errored";
    default:
      return "it failed";
  }
}

function unique(items: readonly string[]): string[] {
  return [...new Set(items)].sort(compare);
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function lastLine(chunk: Uint8Array): string {
  const text = new TextDecoder().decode(chunk).trimEnd();
  return text.slice(text.lastIndexOf("\n") + 1);
}
