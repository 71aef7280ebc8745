/**
 * The test stage's one call into the oracle-strength rule
 * (`src/mutation/`), unless the base's `[mutation]` turns it off: the
 * trees, sandboxes, seeds, cache and warm driver it runs with, made from
 * what the test stage already has.
 *
 * @module
 */
import { plural } from "../core/plural.ts";
import type { ObserverPlugin } from "../run/observer.ts";
import type { Git, Tree } from "../git/git.ts";
import type { MutationCache } from "../mutation/mutation_cache.ts";
import type { OracleStrengthResult } from "../mutation/oracle_strength.ts";
import type { OracleBlindingOptions } from "../mutation/oracle_blinding.ts";
import type { Finding } from "../core/finding.ts";
import type { BlindingReport } from "../core/verdict.ts";
import type { MutantWorker } from "../mutation/run_mutants.ts";
import { loadPythonParser } from "../python/load_python_parser.ts";
import type { OracleTree } from "../run/compose_oracle_tree.ts";
import { exportOracleTree } from "../run/export_oracle_tree.ts";
import { isBytecodePath, removeBytecode } from "../run/remove_bytecode.ts";
import type { SandboxLimits } from "../sandbox/sandbox.ts";
import { freshSeed } from "../seeds/fresh_seed.ts";
import type { Settings } from "../settings/settings.ts";
import type { GateSandbox, SandboxRequest, Workspace } from "./gate_ports.ts";
import type { SandboxFactory } from "./gate_ports.ts";
import type { LocatedProperty } from "./locate_properties.ts";
import { type LayoutPlans, planTestRuns } from "./plan_test_runs.ts";
import { cpuClock } from "./cpu_clock.ts";
import type { Commits } from "./read_commits.ts";

/** What the hook needs from the test stage. */
export interface MutationHookInput {
  /** Repository access. */
  git: Git;
  /** The commits. */
  commits: Commits;
  /** The base's settings. */
  settings: Settings;
  /** The layouts' plans (for the test command with the fixed seed). */
  plans: LayoutPlans;
  /** Properties located at head (with node ids). */
  located: readonly LocatedProperty[];
  /** Of `located`, those whose test the base has in the same file. */
  atBase: readonly LocatedProperty[];
  /** The oracle tree and the test-side predicate. */
  oracle: { tree: OracleTree; isTestSide: (path: string) => boolean };
  /** Limits of the suite's runs. */
  limits: Partial<SandboxLimits>;
  /** PATH inside the sandbox, when not the default. */
  sandboxPath?: string | undefined;
  /** pawl's observer plugin, loaded into every mutant run as into the suite's. */
  observer?: ObserverPlugin | undefined;
  /** Whether a rule that reads only sources already rejects: no kill set can change the decision. */
  decided?: boolean | undefined;
  /**
   * Whether the pull request changes the code under test
   * (`tested_code.ts`): then the base's tests are checked across the
   * change too.
   */
  codeChanged: boolean;
}

/** The ports the hook runs through. */
export interface MutationHookPorts {
  /** The test stage's sandbox: the first worker. */
  sandbox: GateSandbox;
  /** Creates the further sandboxes (each leases its own uid). */
  factory: SandboxFactory;
  /** The request the stage's sandbox was made with. */
  request: SandboxRequest;
  /** The judgement's temp dirs. */
  workspace: Workspace;
  /** A fresh directory name in the workspace. */
  workName: () => string;
  /** Progress lines. */
  progress: (line: string) => void;
  /** Opens the runner's cache of mutant results (none: every mutant runs). */
  cache?: (() => Promise<MutationCache>) | undefined;
}

/** Largest source file read for mutation. */
const MAX_SOURCE_BYTES = 4 * 1024 * 1024;

/** Whether the base's settings turn the oracle-strength rule on (`[mutation] enabled`, with pytest). */
export function mutationDecides(settings: Settings): boolean {
  return settings.mutation.enabled && settings.tests.runner === "pytest";
}

/**
 * Run the oracle-strength rule when `[mutation] enabled`; null otherwise
 * (nothing in the verdict changes).
 */
export async function mutationHook(
  input: MutationHookInput,
  ports: MutationHookPorts,
): Promise<OracleStrengthResult | null> {
  const settings = input.settings.mutation;
  if (!mutationDecides(input.settings)) return null;
  // The mutation code (mutant generation, runs, kill sets) is loaded only
  // here, while the templates are exported: a check with mutation off, or
  // with no registered property to run it for, never loads it.
  const strengthCode = import("../mutation/oracle_strength.ts");
  strengthCode.catch(() => {});
  const { git, commits, oracle } = input;
  // Every mutant runs with one seed fixed by the base commit, so results
  // can be cached and a re-run gives the same kills.
  const runSeed = freshSeed(commits.base, "pawl mutation");
  // The sample of untouched functions' mutants too: every pull request on
  // the base then selects the same ones and shares the base's runs of them.
  const sampleSeed = freshSeed(commits.base, "pawl mutation sample");
  const config = {
    operators: settings.operators,
    "max_mutants": settings.max_mutants,
    "budget_seconds": settings.budget_seconds,
  };
  // The sources already decided: nothing a mutant shows can change the
  // decision, so none runs.
  if (input.decided === true) {
    const { notRun, DECIDED } = await strengthCode;
    return notRun(DECIDED, { sampleSeed, runSeed, config });
  }
  const { codeChanged } = input;
  // Each head test is its base test and the code is the base's: no kill
  // set can change.
  if (!oracle.tree.differs && !codeChanged) {
    const { notRun, SAME_TEST_SIDE } = await strengthCode;
    return notRun(SAME_TEST_SIDE, { sampleSeed, runSeed, config });
  }
  const runs = planTestRuns(input.settings, input.plans, {
    seed: runSeed,
    sandboxPath: input.sandboxPath,
  });
  const { oracleTemplate, headTemplate } = await templates(input, ports);
  // The warm engine runs only under pawl's observer (see `runWarmMutants`).
  const driver = input.observer === undefined
    ? undefined
    : await (await import("../mutation/install_warm_driver.ts"))
      .installWarmDriver(ports.workspace.root);
  const cache = await openCache(ports);
  const { workers, extra } = await mutantWorkers(settings.max_mutants, ports);
  try {
    const baseKeys = new Set(input.atBase.map((p) => `${p.layout}/${p.id}`));
    const { oracleStrength, notRun, SAME_TEST_SIDE } = await strengthCode;
    const parser = await loadPythonParser();
    const common = {
      settings,
      parser,
      baseTree: treeView(git, commits.baseTree),
      headTree: treeView(git, commits.headTree),
      isTestSide: oracle.isTestSide,
      // Imports resolve as the runs see them: from the root, `src` and the
      // base's `[environment] pythonpath`.
      importRoots: ["", "src", ...input.settings.environment.pythonpath],
      workers,
      command: runs.alone.command,
      env: runs.alone.env,
      limits: runs.limits,
      sampleSeed,
      cache,
      // The budget counts CPU time, not the wall clock: a busy runner must
      // not cut more mutants than an idle one.
      clock: cpuClock(),
      progress: ports.progress,
    };
    const strength = !oracle.tree.differs
      ? notRun(SAME_TEST_SIDE, { sampleSeed, runSeed, config })
      : await oracleStrength({
        ...common,
        properties: input.located.flatMap((p) =>
          p.file === undefined || p.nodeId === undefined ? [] : [{
            key: `${p.layout}/${p.id}`,
            id: p.id,
            layout: p.layout,
            file: p.file,
            headNodeId: p.nodeId,
            baseNodeId: baseKeys.has(`${p.layout}/${p.id}`)
              ? p.nodeId
              : undefined,
          }]
        ),
        oracle: {
          template: oracleTemplate,
          files: treeFiles(commits.headTree, commits.baseTree, oracle),
        },
        head: headTemplate === null ? null : {
          template: headTemplate,
          files: treeFiles(commits.headTree, commits.headTree, oracle),
        },
        runSeed,
        observer: input.observer,
        driver,
      });
    if (!codeChanged) return strength;
    const blinding = await blindingCheck(input, ports, {
      ...common,
      oracleTemplate,
      runs,
      driver,
    });
    return {
      ...strength,
      findings: [...strength.findings, ...blinding.findings],
      report: { ...strength.report, blinding: blinding.report },
    };
  } finally {
    for (const s of extra) await s.close?.();
  }
}

/**
 * The base's tests on the base's code and on the head's, against mutants
 * of the code the pull request did not change (`oracle_blinding.ts`); the
 * base's commit is exported for it. Without the warm engine (pawl's
 * observer, its driver and a `<python> -m pytest` command) it is not run,
 * and the verdict says so.
 */
async function blindingCheck(
  input: MutationHookInput,
  ports: MutationHookPorts,
  common:
    & Omit<
      OracleBlindingOptions,
      "properties" | "base" | "oracle" | "observer" | "driver"
    >
    & {
      oracleTemplate: string;
      runs: ReturnType<typeof planTestRuns>;
      driver: OracleBlindingOptions["driver"] | undefined;
    },
): Promise<{ findings: Finding[]; report: BlindingReport }> {
  const { git, commits, oracle } = input;
  const { oracleBlinding } = await import("../mutation/oracle_blinding.ts");
  const { runsPytestModule } = await import("../mutation/oracle_strength.ts");
  const properties = input.atBase.flatMap((p) =>
    p.file === undefined || p.nodeId === undefined ? [] : [{
      key: `${p.layout}/${p.id}`,
      id: p.id,
      layout: p.layout,
      file: p.file,
      nodeId: p.nodeId,
    }]
  );
  const { driver } = common;
  const observer = input.observer;
  const notRun = (why: string) => ({
    findings: [],
    report: {
      generated: 0,
      selected: 0,
      cutByCap: 0,
      cutByBudget: 0,
      lost: 0,
      ran: 0,
      killed: 0,
      notExecuted: 0,
      blinded: 0,
      notRun: why,
    },
  });
  if (properties.length === 0) {
    return notRun("the base has no registered property's test to run");
  }
  if (
    driver === undefined || observer === undefined ||
    !runsPytestModule(common.command)
  ) {
    return notRun(
      "the base's tests run warm only under pawl's observer with a `<python> -m pytest` command",
    );
  }
  const baseTemplate = await ports.workspace.export(
    git,
    commits.base,
    ports.workName(),
  );
  await removeBytecode(baseTemplate);
  return await oracleBlinding({
    ...common,
    properties,
    base: {
      template: baseTemplate,
      files: treeFiles(commits.baseTree, commits.baseTree, oracle),
    },
    oracle: {
      template: common.oracleTemplate,
      files: treeFiles(commits.headTree, commits.baseTree, oracle),
    },
    observer,
    driver,
  });
}

/**
 * The trees every mutant copies: the base's oracle tree and, when it
 * differs, the head's.
 */
async function templates(
  input: MutationHookInput,
  ports: MutationHookPorts,
): Promise<{ oracleTemplate: string; headTemplate: string | null }> {
  const { git, commits, oracle } = input;
  const { workspace } = ports;
  const oracleTemplate = await workspace.mkdir(ports.workName());
  await exportOracleTree(git, commits.head, oracleTemplate, oracle.tree);
  if (!oracle.tree.differs) return { oracleTemplate, headTemplate: null };
  const headTemplate = await workspace.export(
    git,
    commits.head,
    ports.workName(),
  );
  await removeBytecode(headTemplate);
  return { oracleTemplate, headTemplate };
}

/** The runner's cache of mutant results; none (every mutant runs) when it cannot open. */
async function openCache(
  ports: MutationHookPorts,
): Promise<MutationCache | undefined> {
  try {
    return await ports.cache?.();
  } catch (error) {
    ports.progress(
      `mutation: running without a cache: ${(error as Error).message}`,
    );
    return undefined;
  }
}

/**
 * The sandboxes the mutants run in, each with a report directory: the
 * stage's, and further ones (each leasing a uid of its own) up to the
 * cores, at most 4; `extra` are the ones to close.
 */
async function mutantWorkers(
  maxMutants: number,
  ports: MutationHookPorts,
): Promise<{ workers: MutantWorker[]; extra: GateSandbox[] }> {
  const { workspace } = ports;
  const parallel = Math.max(
    1,
    Math.min(4, navigator.hardwareConcurrency ?? 1, maxMutants),
  );
  // Every run kills all processes of its uid, so runs side by side need
  // a uid each: a further sandbox without a uid of its own is not used.
  const sandboxes: GateSandbox[] = [ports.sandbox];
  const extra: GateSandbox[] = [];
  const uids = new Set([ports.sandbox.isolation.uid]);
  for (let i = 1; i < parallel && !uids.has(undefined); i++) {
    // Fewer sandboxes only make the runs slower: a uid that cannot be
    // leased is no reason to give up the judgement.
    let s: GateSandbox;
    try {
      s = await ports.factory({ ...ports.request, spare: true });
    } catch (error) {
      ports.progress(
        `mutation: running with ${
          plural(sandboxes.length, "sandbox", "sandboxes")
        }: ${(error as Error).message}`,
      );
      break;
    }
    extra.push(s);
    if (uids.has(s.isolation.uid)) break;
    uids.add(s.isolation.uid);
    sandboxes.push(s);
  }
  const workers: MutantWorker[] = [];
  try {
    for (const sandbox of sandboxes) {
      const reportDir = await workspace.mkdir(ports.workName());
      await sandbox.prepareDir(reportDir);
      workers.push({
        sandbox,
        reportDir,
        workPath: () => `${workspace.root}/${ports.workName()}`,
      });
    }
  } catch (error) {
    for (const s of extra) await s.close?.();
    throw error;
  }
  return { workers, extra };
}

/** Reads a tree's files (none larger than {@linkcode MAX_SOURCE_BYTES}). */
function treeView(git: Git, tree: Tree) {
  return {
    has: (p: string) => tree.get(p)?.kind === "file",
    read: async (p: string) => {
      const entry = tree.get(p);
      if (entry === undefined || entry.kind !== "file") return undefined;
      if (entry.size > MAX_SOURCE_BYTES) return undefined;
      return new TextDecoder().decode(await git.readBlob(entry.oid));
    },
  };
}

/**
 * The files of a run's tree, each path with its content id (kind and
 * object id): `code`'s code side and `tests`' test side. Bytecode is left
 * out (no run's copy has it), and directories, which hold nothing of
 * their own.
 */
function treeFiles(
  code: Tree,
  tests: Tree,
  oracle: { isTestSide: (path: string) => boolean },
): Map<string, string> {
  const files = new Map<string, string>();
  for (const [from, testSide] of [[code, false], [tests, true]] as const) {
    for (const [path, e] of from) {
      if (e.kind === "tree" || isBytecodePath(path)) continue;
      if (oracle.isTestSide(path) === testSide) {
        files.set(path, `${e.kind} ${e.oid}`);
      }
    }
  }
  return files;
}
