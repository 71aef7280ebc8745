/**
 * The whole job for one pull request: clone, read every contract layout
 * present at the base from git objects, run the static rules, run the
 * suite in a sandbox, and build the verdict. Hash first, run tests second.
 *
 * @module
 */
import { createHash } from "node:crypto";
import { ContractSyntaxError } from "../contract/contract_syntax_error.ts";
import { type Finding, finding } from "../core/finding.ts";
import type { Instant } from "../core/parse_now.ts";
import {
  buildVerdict,
  type ClockRecord,
  type ContractFileRef,
  type FreezeBodyHashRecord,
  type Verdict,
} from "../core/verdict.ts";
import type { LoadedDialect, StaticInput } from "../layouts/dialect.ts";
import { DIALECTS } from "../layouts/mod.ts";
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
import type { LedgerRow } from "../seeds/ledger_row.ts";
import type { SandboxLeaseSettings } from "../sandbox/lease_uid.ts";
import type { Progress } from "../cli/progress.ts";
import { NoContractError } from "./undecided_error.ts";
import { readContractBlobs } from "./read_contract_blobs.ts";
import { runTestStage, type TestStageResult } from "./run_test_stage.ts";
import { VERSION } from "../version.ts";

/** pawl's own settings file (read from the base commit only). */
export const SETTINGS_PATH = "pawl.toml";

const CONFIG_MAX_BYTES = 1024 * 1024;
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
  /** Parent for pawl's temp dir (default: the system temp dir). */
  tempRoot?: string;
  /** PATH inside the sandbox (default: the system PATH). */
  sandboxPath?: string;
  /**
   * Fetch only `base` and `head` (full commit ids) and `refs`, one commit
   * deep, instead of copying the whole repository (a pull request).
   */
  shallow?: boolean;
  /** Refs to fetch by name besides the usual ones (e.g. `refs/pull/7/head`). */
  refs?: readonly string[];
  /**
   * Environment for git's transports only (e.g. `GIT_CONFIG_COUNT`/`KEY`/
   * `VALUE` carrying an `http.extraHeader`); never reaches the sandbox.
   */
  gitEnv?: Readonly<Record<string, string>>;
  /** Where `now` came from, when not `--now` (recorded in the verdict). */
  clock?: ClockRecord;
  /**
   * The uid the tests run as, already held by the caller (default: one
   * leased for this judgement, see `sandboxLease`). Every run kills all
   * processes of its sandbox uid before and after it, so judgements that
   * overlap in time must each have their own.
   */
  sandboxUid?: number;
  /** The range (and lock directory, wait) the judgement's uid is leased from. */
  sandboxLease?: SandboxLeaseSettings;
  /** The gid the tests run as (default: user `pawl`'s with the default uid, else the uid). */
  sandboxGid?: number;
}

/** A verdict plus the seed-ledger rows of its property runs. */
export interface CheckResult {
  /** The verdict. */
  verdict: Verdict;
  /** One row per property run (empty when the suite was not run). */
  ledger: LedgerRow[];
}

/**
 * Judge one pull request. Throws for anything that means "could not
 * decide"; every weakening becomes a finding in the returned verdict.
 */
export async function runCheck(options: RunCheckOptions): Promise<Verdict> {
  return (await runCheckWithLedger(options)).verdict;
}

/** {@linkcode runCheck}, also returning the seed-ledger rows. */
export async function runCheckWithLedger(
  options: RunCheckOptions,
): Promise<CheckResult> {
  const { progress } = options;
  const root = await makeJobDir(options);
  try {
    // The sandbox uid must traverse root to reach its run dirs, nothing more.
    await Deno.chmod(root, 0o711);
    progress.step(`cloning ${options.repo}`);
    const git = await cloneRepository(options.repo, {
      dest: `${root}/repo.git`,
      revisions: [options.base, options.head],
      onProgress: (line) => progress.detail(line),
      ...(options.shallow === undefined ? {} : { shallow: options.shallow }),
      ...(options.refs === undefined ? {} : { refs: options.refs }),
      ...(options.gitEnv === undefined ? {} : { env: options.gitEnv }),
      onFetched: (stats) =>
        progress.step(
          `fetched ${stats.objects} objects (${formatBytes(stats.bytes)})${
            stats.shallow ? ", one commit deep" : ""
          }`,
        ),
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

/** `bytes` as B, KiB or MiB with one decimal. */
function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

/**
 * The job's temp dir. Its name is derived from the inputs so that paths
 * quoted in test output (which pytest may shorten past any scrubbing) are
 * the same on every run of the same inputs; a name already taken (a
 * concurrent run, or anything planted there) falls back to a random one.
 */
async function makeJobDir(options: RunCheckOptions): Promise<string> {
  const parent = (options.tempRoot ?? "/tmp").replace(/(.)\/+$/, "$1");
  const id = createHash("sha256")
    .update(
      JSON.stringify([
        options.repo,
        options.base,
        options.head,
        options.now.text,
      ]),
    )
    .digest("hex").slice(0, 16);
  const dir = `${parent}/pawl-${id}`;
  try {
    await Deno.mkdir(dir, { mode: 0o700 });
    return dir;
  } catch (error) {
    if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
    return await Deno.makeTempDir({ dir: parent, prefix: "pawl-" });
  }
}

async function judge(
  git: GitCli,
  root: string,
  options: RunCheckOptions,
): Promise<CheckResult> {
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
  // Start hashing the usual fixture root now, so git inflates and a worker
  // hashes while the contracts and test sources are parsed on this thread.
  const early = speculativeDigests(git, headTree);
  try {
    return await judgeTrees(git, root, options, {
      base,
      head,
      baseTree,
      headTree,
      findings,
      early,
    });
  } catch (error) {
    // Never leave the hashing children running behind an error.
    await early.catch(() => {});
    throw error;
  }
}

interface Trees {
  base: string;
  head: string;
  baseTree: Tree;
  headTree: Tree;
  findings: Finding[];
  early: Promise<Map<string, string>>;
}

async function judgeTrees(
  git: GitCli,
  root: string,
  options: RunCheckOptions,
  trees: Trees,
): Promise<CheckResult> {
  const { progress } = options;
  const { base, head, baseTree, headTree, findings, early } = trees;

  const present = DIALECTS.filter((d) => d.presentIn(baseTree));
  if (present.length === 0) {
    const files = DIALECTS.flatMap((d) => d.files).map((f) => `"${f}"`);
    throw new NoContractError(
      `Cannot decide: the base commit ${
        base.slice(0, 12)
      } has no contract (looked for ${
        files.join(", ")
      }); start one with "pawl propose --repo ${options.repo}" and have a human commit it to the base branch`,
    );
  }
  const loaded: LoadedDialect[] = [];
  for (const dialect of present) {
    const [baseBlobs, headBlobs] = await Promise.all([
      readContractBlobs(git, baseTree, dialect.files),
      readContractBlobs(git, headTree, dialect.files),
    ]);
    const one = dialect.load(baseBlobs, headBlobs);
    loaded.push(one);
    findings.push(...one.loadFindings);
  }
  const settings = await readBaseSettings(git, baseTree, headTree, findings);
  const changes = await git.changedPaths(base, head);

  progress.step("parsing test sources");
  const reads = loaded.map((l) => l.reads(baseTree, headTree));
  const changedPy = changes.filter((c) => c.path.endsWith(".py"))
    .map((c) => c.path);
  // Hash while parsing: git inflates and a worker hashes the fixtures off
  // this thread. A failure is awaited below, after the parse.
  const fixtureOids = new Map<string, string>();
  for (const path of new Set(reads.flatMap((r) => r.headDigests))) {
    const entry = headTree.get(path);
    if (entry !== undefined) fixtureOids.set(path, entry.oid);
  }
  const hashing = early.then(async (known) => {
    const rest = [...new Set(fixtureOids.values())].filter((o) =>
      !known.has(o)
    );
    const more = rest.length === 0 ? new Map() : await git.sha256Blobs(rest);
    return new Map([...known, ...more]);
  });
  hashing.catch(() => {});
  const { headModules, baseModules } = await analyzeModules(git, {
    head: {
      tree: headTree,
      paths: [...reads.flatMap((r) => r.headModules), ...changedPy],
    },
    base: {
      tree: baseTree,
      paths: [...reads.flatMap((r) => r.baseModules), ...changedPy],
    },
  }).catch(async (error) => {
    // Never leave the hashing children running behind an error.
    await hashing.catch(() => {});
    throw error;
  });

  progress.step(`hashing ${fixtureOids.size} files`);
  const digests = new Map<string, string>();
  const byOid = await hashing;
  for (const [path, oid] of fixtureOids) {
    const digest = byOid.get(oid);
    if (digest !== undefined) digests.set(path, digest);
  }

  const input: StaticInput = {
    now: options.now.epochMs,
    nowText: options.now.text,
    baseTree,
    headTree,
    changes,
    headModules,
    baseModules,
    digests,
    allowFixtureRotate: options.allowFixtureRotate,
  };
  for (const one of loaded) findings.push(...one.check(input));

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
      plans: loaded.map((l) => ({ layout: l.id, plan: l.plan(input) })),
      headTree,
      headModules,
      now: options.now,
      isolation: options.isolation,
      hiddenPaths: options.hiddenPaths ?? [],
      sandboxPath: options.sandboxPath,
      sandboxUid: options.sandboxUid,
      sandboxGid: options.sandboxGid,
      sandboxLease: options.sandboxLease,
      progress,
    });
    findings.push(...stage.findings);
  }

  const files: ContractFileRef[] = loaded.flatMap((l) => [...l.files]);
  const freezeBodyHashes: FreezeBodyHashRecord[] = loaded.flatMap((l) =>
    l.verdictFacts(input).freezeBodyHashes
  );
  const verdict = buildVerdict(dedupe(findings), {
    pawl: { version: VERSION },
    now: options.now.text,
    ...(options.clock === undefined ? {} : { clock: options.clock }),
    repo: options.repo,
    base,
    head,
    contract: {
      layouts: loaded.map((l) => l.id),
      files,
      digest: `sha256:${
        createHash("sha256").update(JSON.stringify(files)).digest("hex")
      }`,
      freezeBodyHashes,
    },
    options: {
      allowFixtureRotate: options.allowFixtureRotate,
      isolation: options.isolation,
    },
    isolation: stage?.isolation ?? null,
    tests: stage?.report ?? null,
  });
  return { verdict, ledger: stage?.ledger ?? [] };
}

/** The directory most fixtures live in (seed 000's fixture root). */
const FIXTURE_ROOT = "tests/fixtures/";

/**
 * Hash every regular file under the fixture root of the head tree before
 * the contracts say which ones are registered: the bytes must be inflated
 * and hashed anyway, and this lets it overlap the parsing.
 */
function speculativeDigests(
  git: GitCli,
  tree: Tree,
): Promise<Map<string, string>> {
  const oids = new Set<string>();
  for (const entry of tree.values()) {
    if (
      entry.path.startsWith(FIXTURE_ROOT) &&
      (entry.kind === "file" || entry.kind === "executable")
    ) oids.add(entry.oid);
  }
  const hashing = oids.size === 0
    ? Promise.resolve(new Map<string, string>())
    : git.sha256Blobs([...oids]);
  hashing.catch(() => {});
  return hashing;
}

/** The same finding from two layouts (e.g. a harness rule) is reported once. */
function dedupe(findings: readonly Finding[]): Finding[] {
  const seen = new Set<string>();
  return findings.filter((f) => {
    const key = JSON.stringify([f.rule, f.path, f.line, f.message, f.blocking]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** The Python files to analyse in one commit. */
interface ModuleReads {
  tree: Tree;
  paths: readonly string[];
}

/** Test sources read ahead of the one being parsed. */
const READ_AHEAD = 16;

/**
 * Analyse the head's and the base's Python files. Keyed by blob, so a file
 * the patch did not touch is read and parsed once for both sides (analysis
 * is pure, so sharing the result is safe). Blobs are requested a few ahead
 * of the parse, so git reads the next ones while this thread parses.
 */
async function analyzeModules(
  git: GitCli,
  sides: { head: ModuleReads; base: ModuleReads },
): Promise<{
  headModules: Map<string, PythonModule>;
  baseModules: Map<string, PythonModule>;
}> {
  const parser = await loadPythonParser();
  const wanted = (reads: ModuleReads) =>
    [...new Set(reads.paths)].flatMap((path) => {
      const entry = reads.tree.get(path);
      return entry !== undefined &&
          (entry.kind === "file" || entry.kind === "executable") &&
          entry.size <= SOURCE_MAX_BYTES
        ? [{ path, oid: entry.oid }]
        : [];
    });
  const head = wanted(sides.head);
  const base = wanted(sides.base);
  const oids = [...new Set([...head, ...base].map((w) => w.oid))];
  const reads = new Map<string, Promise<Uint8Array>>();
  const request = (index: number) => {
    const oid = oids[index];
    if (oid === undefined) return;
    const bytes = git.readBlob(oid, { maxBytes: SOURCE_MAX_BYTES });
    // Awaited in order below; an early failure must not go unobserved.
    bytes.catch(() => {});
    reads.set(oid, bytes);
  };
  for (let i = 0; i < READ_AHEAD; i++) request(i);
  const analyzed = new Map<string, PythonModule>();
  const decoder = new TextDecoder();
  for (const [index, oid] of oids.entries()) {
    request(index + READ_AHEAD);
    const bytes = await (reads.get(oid) as Promise<Uint8Array>);
    reads.delete(oid);
    analyzed.set(oid, analyzePython(parser, decoder.decode(bytes)));
  }
  const byPath = (list: { path: string; oid: string }[]) =>
    new Map(list.map((w) => [w.path, analyzed.get(w.oid) as PythonModule]));
  return { headModules: byPath(head), baseModules: byPath(base) };
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
  let bytes: Uint8Array;
  try {
    bytes = await git.readBlob(base.oid, { maxBytes: CONFIG_MAX_BYTES });
  } catch (error) {
    if (error instanceof BlobTooLargeError) {
      throw new ContractSyntaxError(
        SETTINGS_PATH,
        `larger than ${CONFIG_MAX_BYTES} bytes; refused before parsing`,
        { subject: "settings" },
      );
    }
    throw error;
  }
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new ContractSyntaxError(SETTINGS_PATH, "not valid UTF-8", {
      subject: "settings",
    });
  }
  return readSettings(text, { path: SETTINGS_PATH });
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
        maxBytes: CONFIG_MAX_BYTES,
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
