/**
 * The whole job for one pull request: clone, read both contracts from git
 * objects, run the static rules, run the suite in a sandbox, and build the
 * verdict. Hash first, run tests second.
 *
 * @module
 */
import { createHash } from "node:crypto";
import {
  type AgentContract,
  agentContractReads,
  checkAgentContract,
  readAgentContract,
} from "../contract/agent_contract/mod.ts";
import { ContractSyntaxError } from "../contract/contract_syntax_error.ts";
import { type Finding, finding } from "../core/finding.ts";
import type { Instant } from "../core/parse_now.ts";
import { buildVerdict, type Verdict } from "../core/verdict.ts";
import { BlobTooLargeError } from "../git/git_error.ts";
import type { Tree } from "../git/git.ts";
import { cloneRepository } from "../git/clone_repository.ts";
import type { GitCli } from "../git/git_cli.ts";
import {
  checkHarness,
  checkSkips,
  harnessConfigPaths,
} from "../harness/mod.ts";
import { analyzePython } from "../python/analyze_python.ts";
import { loadPythonParser } from "../python/load_python_parser.ts";
import type { PythonModule } from "../python/python_module.ts";
import { readSettings } from "../settings/read_settings.ts";
import { DEFAULT_SETTINGS, type Settings } from "../settings/settings.ts";
import type { Progress } from "../cli/progress.ts";
import { NoContractError } from "./undecided_error.ts";
import { runTestStage, type TestStageResult } from "./run_test_stage.ts";
import { VERSION } from "../version.ts";

/** Where the seed-000 contract lives. */
export const AGENT_CONTRACT_PATH = "tests/agent_contract.yaml";
/** pawl's own settings file (read from the base commit only). */
export const SETTINGS_PATH = "pawl.toml";

const CONTRACT_MAX_BYTES = 1024 * 1024;
const SOURCE_MAX_BYTES = 4 * 1024 * 1024;

/** Requested sandbox strength. */
export type IsolationRequest = "auto" | "bwrap" | "unshare" | "uid" | "none";

/** Options for {@linkcode runCheck}. */
export interface RunCheckOptions {
  /** Local path or git URL, as given by the user. */
  repo: string;
  /** Base revision (the authority). */
  base: string;
  /** Head revision (the patch). */
  head: string;
  /** The orchestrator's clock. */
  now: Instant;
  /** A human started this run and allows fixture rotation. */
  allowFixtureRotate: boolean;
  /** Sandbox strength. */
  isolation: IsolationRequest;
  /** Run the suite (false for `pawl diff`: static rules only). */
  runTests: boolean;
  /** Progress sink. */
  progress: Progress;
  /** Paths the sandbox must hide (the signing key's directory). */
  hiddenPaths?: readonly string[];
  /** Parent for pawl's temp dir. */
  tempRoot?: string;
  /** PATH inside the sandbox (default: the system PATH). */
  sandboxPath?: string;
}

/**
 * Judge one pull request. Throws for anything that means "could not
 * decide"; every weakening becomes a finding in the returned verdict.
 */
export async function runCheck(options: RunCheckOptions): Promise<Verdict> {
  const { progress } = options;
  const root = await Deno.makeTempDir({
    prefix: "pawl-",
    ...(options.tempRoot === undefined ? {} : { dir: options.tempRoot }),
  });
  try {
    // The sandbox uid must traverse root to reach its run dirs, nothing more.
    await Deno.chmod(root, 0o711);
    progress.step(`cloning ${options.repo}`);
    const git = await cloneRepository(options.repo, {
      dest: `${root}/repo.git`,
      revisions: [options.base, options.head],
      onProgress: (line) => progress.detail(line),
    });
    // Tests run as another uid and must not read pawl's clone.
    await Deno.chmod(`${root}/repo.git`, 0o700);
    try {
      return await judge(git, root, options);
    } finally {
      await git.close();
    }
  } finally {
    await Deno.remove(root, { recursive: true }).catch(() => {});
  }
}

async function judge(
  git: GitCli,
  root: string,
  options: RunCheckOptions,
): Promise<Verdict> {
  const { progress } = options;
  const base = await git.resolveCommit(options.base);
  const head = await git.resolveCommit(options.head);
  progress.step(
    `reading contracts at ${base.slice(0, 12)} and ${head.slice(0, 12)}`,
  );
  const [baseTree, headTree] = await Promise.all([
    git.listTree(base),
    git.listTree(head),
  ]);
  const findings: Finding[] = [];

  const baseText = await readBaseContract(git, baseTree);
  const baseContract = readAgentContract(baseText.text, {
    path: AGENT_CONTRACT_PATH,
  });
  const headContract = await readHeadContract(git, headTree, findings);
  const settings = await readBaseSettings(git, baseTree, headTree, findings);
  const changes = await git.changedPaths(base, head);

  progress.step("parsing test sources");
  const reads = agentContractReads(baseContract, headContract, headTree, {
    baseTree,
  });
  const changedPy = changes.filter((c) => c.path.endsWith(".py"));
  const parser = await loadPythonParser();
  // Keyed by blob: a module the patch did not touch is read and parsed once
  // for both sides (analysis is pure, so sharing the result is safe).
  const analyzed = new Map<string, PythonModule>();
  const analyze = async (tree: Tree, paths: Iterable<string>) => {
    const out = new Map<string, PythonModule>();
    for (const path of new Set(paths)) {
      const entry = tree.get(path);
      if (
        entry === undefined ||
        entry.kind !== "file" && entry.kind !== "executable"
      ) continue;
      if (entry.size > SOURCE_MAX_BYTES) continue;
      let module = analyzed.get(entry.oid);
      if (module === undefined) {
        const bytes = await git.readBlob(entry.oid, {
          maxBytes: SOURCE_MAX_BYTES,
        });
        module = analyzePython(parser, new TextDecoder().decode(bytes));
        analyzed.set(entry.oid, module);
      }
      out.set(path, module);
    }
    return out;
  };
  const headModules = await analyze(headTree, [
    ...reads.modules,
    ...changedPy.map((c) => c.path),
  ]);
  const baseModules = await analyze(baseTree, [
    ...reads.baseModules,
    ...changedPy.map((c) => c.path),
  ]);

  progress.step(`hashing ${reads.fixtures.length} fixtures`);
  const digests = new Map<string, string>();
  const oids = new Map<string, string>();
  for (const path of reads.fixtures) {
    const entry = headTree.get(path);
    if (entry !== undefined) oids.set(path, entry.oid);
  }
  const byOid = await git.sha256Blobs([...new Set(oids.values())]);
  for (const [path, oid] of oids) {
    const digest = byOid.get(oid);
    if (digest !== undefined) digests.set(path, digest);
  }

  findings.push(...checkAgentContract({
    path: AGENT_CONTRACT_PATH,
    base: baseContract,
    head: headContract,
    headTree,
    digests,
    modules: headModules,
    baseModules,
    now: options.now.epochMs,
  }));

  const configPaths = harnessConfigPaths(changes);
  findings.push(
    ...checkHarness(changes, {
      texts: {
        base: await readTexts(git, baseTree, configPaths),
        head: await readTexts(git, headTree, configPaths),
      },
      headModules,
      baseModules,
    }),
    ...checkSkips(changes, { headModules, baseModules }),
  );

  let stage: TestStageResult | null = null;
  if (options.runTests) {
    stage = await runTestStage({
      git,
      root,
      head,
      settings,
      base: baseContract,
      headContract,
      headTree,
      headModules,
      now: options.now,
      isolation: options.isolation,
      hiddenPaths: options.hiddenPaths ?? [],
      sandboxPath: options.sandboxPath,
      progress,
      staticFindings: findings,
    });
    findings.push(...stage.findings);
  }

  const contractFiles = [{
    path: AGENT_CONTRACT_PATH,
    layout: "000",
    sha256: sha256(baseText.bytes),
  }];
  return buildVerdict(findings, {
    pawl: { version: VERSION },
    now: options.now.text,
    repo: options.repo,
    base,
    head,
    contract: {
      files: contractFiles,
      digest: `sha256:${
        sha256(new TextEncoder().encode(JSON.stringify(contractFiles)))
      }`,
    },
    options: {
      allowFixtureRotate: options.allowFixtureRotate,
      isolation: options.isolation,
    },
    isolation: stage?.isolation ?? null,
    tests: stage?.report ?? null,
  });
}

async function readBaseContract(
  git: GitCli,
  tree: Tree,
): Promise<{ text: string; bytes: Uint8Array }> {
  const entry = tree.get(AGENT_CONTRACT_PATH);
  if (entry === undefined) {
    throw new NoContractError(
      `Cannot decide: the base commit has no contract "${AGENT_CONTRACT_PATH}"; start one with "pawl propose" and have a human commit it to the base branch`,
    );
  }
  if (entry.kind === "symlink") {
    throw new ContractSyntaxError(
      AGENT_CONTRACT_PATH,
      "it is a symlink, which pawl never follows",
    );
  }
  if (entry.kind !== "file" && entry.kind !== "executable") {
    throw new ContractSyntaxError(
      AGENT_CONTRACT_PATH,
      "it is not a regular file",
    );
  }
  const bytes = await readCapped(git, entry.oid, AGENT_CONTRACT_PATH);
  return { text: decodeStrict(bytes, AGENT_CONTRACT_PATH), bytes };
}

async function readHeadContract(
  git: GitCli,
  tree: Tree,
  findings: Finding[],
): Promise<AgentContract | null> {
  const path = AGENT_CONTRACT_PATH;
  const entry = tree.get(path);
  if (entry === undefined) {
    findings.push(finding(
      "config.contract_removed",
      `The pull request removes the contract "${path}"; the head is judged against the base copy`,
      { path },
    ));
    return null;
  }
  if (entry.kind === "symlink") {
    findings.push(finding(
      "config.contract_symlink",
      `The pull request turns the contract "${path}" into a symlink; pawl never follows it and judges against the base copy`,
      { path },
    ));
    return null;
  }
  try {
    const bytes = await readCapped(git, entry.oid, path);
    return readAgentContract(decodeStrict(bytes, path), { path });
  } catch (error) {
    if (error instanceof ContractSyntaxError) {
      findings.push(finding("config.contract_invalid", error.message, {
        path,
        line: error.line,
      }));
      return null;
    }
    throw error;
  }
}

async function readBaseSettings(
  git: GitCli,
  baseTree: Tree,
  headTree: Tree,
  findings: Finding[],
): Promise<Settings> {
  const base = baseTree.get(SETTINGS_PATH);
  const head = headTree.get(SETTINGS_PATH);
  if (base?.oid !== head?.oid || base?.kind !== head?.kind) {
    findings.push(finding(
      "config.settings_ignored",
      `The pull request changes "${SETTINGS_PATH}"; only the base commit's copy decides how it is judged`,
      { path: SETTINGS_PATH },
    ));
  }
  if (base === undefined) return DEFAULT_SETTINGS;
  if (base.kind !== "file" && base.kind !== "executable") {
    throw new ContractSyntaxError(SETTINGS_PATH, "it is not a regular file");
  }
  const bytes = await readCapped(git, base.oid, SETTINGS_PATH);
  return readSettings(decodeStrict(bytes, SETTINGS_PATH), {
    path: SETTINGS_PATH,
  });
}

async function readCapped(
  git: GitCli,
  oid: string,
  path: string,
): Promise<Uint8Array> {
  try {
    return await git.readBlob(oid, { maxBytes: CONTRACT_MAX_BYTES });
  } catch (error) {
    if (error instanceof BlobTooLargeError) {
      throw new ContractSyntaxError(
        path,
        `larger than ${CONTRACT_MAX_BYTES} bytes; refused before parsing`,
      );
    }
    throw error;
  }
}

function decodeStrict(bytes: Uint8Array, path: string): string {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new ContractSyntaxError(path, "not valid UTF-8");
  }
}

async function readTexts(
  git: GitCli,
  tree: Tree,
  paths: readonly string[],
): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const path of paths) {
    const entry = tree.get(path);
    if (
      entry === undefined ||
      entry.kind !== "file" && entry.kind !== "executable"
    ) continue;
    try {
      const bytes = await git.readBlob(entry.oid, {
        maxBytes: CONTRACT_MAX_BYTES,
      });
      out.set(path, new TextDecoder().decode(bytes));
    } catch (error) {
      if (!(error instanceof BlobTooLargeError)) throw error;
      // An oversized config cannot be shown unchanged; leaving it out makes
      // the harness rule treat it as changed.
    }
  }
  return out;
}

function sha256(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}
