/**
 * The test stage: the base's test command on fresh exports of the head tree,
 * inside the sandbox, then per-property outcomes from the JUnit report.
 *
 * @module
 */
import type { AgentContract } from "../contract/agent_contract/mod.ts";
import {
  enforcedAgentContract,
  modulePath,
} from "../contract/agent_contract/mod.ts";
import { type Finding, finding } from "../core/finding.ts";
import type { Instant } from "../core/parse_now.ts";
import { parseRfc3339 } from "../contract/parse_rfc3339.ts";
import type {
  IsolationRecord,
  PropertyResult,
  TestsReport,
} from "../core/verdict.ts";
import type { Tree } from "../git/git.ts";
import type { GitCli } from "../git/git_cli.ts";
import type { PythonModule } from "../python/python_module.ts";
import { evaluateProperty } from "../run/evaluate_property.ts";
import { runSuite } from "../run/run_suite.ts";
import { ProcessSandbox } from "../sandbox/process_sandbox.ts";
import type { Settings } from "../settings/settings.ts";
import type { Progress } from "../cli/progress.ts";
import type { IsolationRequest } from "./run_check.ts";

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
  /** Base contract (the authority). */
  base: AgentContract;
  /** Head contract, or null when missing or invalid. */
  headContract: AgentContract | null;
  /** Head tree listing. */
  headTree: Tree;
  /** Head analyses of the registered property modules. */
  headModules: ReadonlyMap<string, PythonModule>;
  /** The clock. */
  now: Instant;
  /** Requested sandbox strength. */
  isolation: IsolationRequest;
  /** Paths to hide from the sandbox. */
  hiddenPaths: readonly string[];
  /** PATH inside the sandbox, when not the default system PATH. */
  sandboxPath?: string | undefined;
  /** Progress sink. */
  progress: Progress;
  /** Findings so far (properties already reported missing are not blamed twice). */
  staticFindings: readonly Finding[];
}

/** What the test stage adds to the verdict. */
export interface TestStageResult {
  /** Test findings. */
  findings: Finding[];
  /** Report for the verdict. */
  report: TestsReport;
  /** Sandbox used. */
  isolation: IsolationRecord;
}

/** Run the suite for one pull request. */
export async function runTestStage(
  options: TestStageOptions,
): Promise<TestStageResult> {
  const { progress, settings } = options;
  const sandbox = await ProcessSandbox.create({
    requested: options.isolation,
    hiddenPaths: [...options.hiddenPaths, `${options.root}/repo.git`],
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
  const reportDir = `${options.root}/reports`;
  await Deno.mkdir(reportDir);
  await sandbox.prepareDir(reportDir);
  const workDir = await freshWorkDir();
  progress.step(
    `running the tests (sandbox: ${sandbox.isolation.tier}, network ${sandbox.isolation.network})`,
  );
  const suite = await runSuite(sandbox, {
    workDir,
    reportDir,
    freshWorkDir,
    ...(settings.tests.command === undefined
      ? {}
      : { command: settings.tests.command }),
    ...(options.sandboxPath === undefined
      ? {}
      : { env: { PATH: options.sandboxPath } }),
    freezes: activeFreezes(options.base, options.headContract, options.now),
    limits: {
      timeoutMs: settings.tests.timeout_seconds * 1000,
      maxOutputBytes: settings.tests.max_output_mib * 1024 * 1024,
      maxProcesses: settings.tests.max_processes,
    },
    onOutput: (chunk: Uint8Array) => progress.detail(lastLine(chunk)),
  });
  const findings = [...suite.findings];
  const properties: PropertyResult[] = [];
  for (
    const prop of enforcedAgentContract(options.base, options.headContract)
      .properties
  ) {
    const file = modulePath(prop.module, options.headTree);
    const known = file === undefined
      ? undefined
      : options.headModules.get(file);
    const exists = known !== undefined &&
      (known.functions.has(prop.name) ||
        [...known.functions.values()].some((f) => f.name === prop.name));
    if (!exists) {
      properties.push({ id: prop.id, outcome: "missing" });
      continue; // already a property.module_missing / test_missing finding
    }
    const outcome = evaluateProperty(suite.cases ?? [], {
      module: prop.module,
      name: prop.name,
    });
    properties.push({ id: prop.id, outcome });
    if (outcome !== "passed") {
      findings.push(finding(
        "property.not_passed",
        `Property "${prop.id}" (${prop.module}::${prop.name}) did not pass: ${
          describe(outcome)
        }`,
        { path: file, line: known.functions.get(prop.name)?.line },
      ));
    }
  }
  properties.sort((a, b) => a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  return {
    findings,
    report: { summary: suite.summary, properties, reruns: suite.reruns },
    isolation: {
      tier: sandbox.isolation.tier,
      network: sandbox.isolation.network,
    },
  };
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

/**
 * Freezes that may grant reruns: those of the enforced contract (the head's
 * freezes at the stricter of base and head), never an expired, exhausted or
 * ownerless one. A freeze the head removed grants nothing.
 */
function activeFreezes(
  base: AgentContract,
  head: AgentContract | null,
  now: Instant,
): { id: string; test: string; remainingReruns: number }[] {
  const out: { id: string; test: string; remainingReruns: number }[] = [];
  for (const f of enforcedAgentContract(base, head).freezes) {
    const expires = parseRfc3339(f.expires);
    if (expires === undefined || expires <= now.epochMs) continue;
    if (f.remainingReruns <= 0) continue;
    if (f.owner.trim() === "" || f.reason.trim() === "") continue;
    out.push({ id: f.id, test: f.id, remainingReruns: f.remainingReruns });
  }
  return out;
}

function lastLine(chunk: Uint8Array): string {
  const text = new TextDecoder().decode(chunk).trimEnd();
  return text.slice(text.lastIndexOf("\n") + 1);
}
