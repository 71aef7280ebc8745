/**
 * `pawl propose`: print (or with `--write`, write) a candidate contract for
 * a repository that has none. Everything is read from git objects of a
 * private clone; the repository is written to only with `--write`.
 *
 * @module
 */
import { type DocumentedOptions, optionsHelp } from "./options_help.ts";
import { plural } from "../core/plural.ts";
import { readBaseSettings } from "../gate/read_base_settings.ts";
import { parseCommandArgs, requiredOption } from "./parse_command_args.ts";
import { join } from "node:path";
import { UsageError } from "./parse_command_args.ts";
import { cloneRepository } from "../git/clone_repository.ts";
import { BlobTooLargeError } from "../git/git_error.ts";
import type { Git } from "../git/git.ts";
import { analyzePython } from "../python/analyze_python.ts";
import { loadPythonParser } from "../python/load_python_parser.ts";
import type { PythonModule } from "../python/python_module.ts";
import {
  buildProposal,
  layoutFiles,
  type Proposal,
  PROPOSAL_LAYOUT_NAMES,
  type ProposalLayout,
  proposalLayoutOf,
  proposalReads,
} from "../propose/mod.ts";
import { layoutName } from "../core/layout_name.ts";
import type { CliIo } from "./cli_io.ts";
import { cliProgress, type Progress, SILENT_PROGRESS } from "./progress.ts";
import { HELP_OPTION, QUIET_OPTION } from "./_shared_options.ts";

/** The options of `propose`. */
export const PROPOSE_OPTIONS = {
  repo: {
    type: "string",
    doc: {
      value: "PATH|URL",
      text: "the repository: a local path or a git URL",
    },
  },
  rev: {
    type: "string",
    default: "HEAD",
    doc: { value: "REV", text: "commit to read (default HEAD)" },
  },
  layout: {
    type: "string",
    default: "agent-contract",
    doc: {
      value: "L",
      text:
        "agent-contract (default, or 000): tests/agent_contract.yaml\ninvariants (or 003): invariants.toml, fixtures.lock, freeze.yml\nseed-contracts (or 002): contracts.yml, flake_freeze.yml",
    },
  },
  write: {
    type: "boolean",
    default: false,
    doc: {
      text: "write the files into --repo, which must be a local work tree",
    },
  },
  force: {
    type: "boolean",
    default: false,
    doc: { text: "with --write, overwrite files that already exist" },
  },
  ...QUIET_OPTION,
  ...HELP_OPTION,
} as const satisfies DocumentedOptions;

/** Usage text for `propose`. */
export const PROPOSE_USAGE = `Usage:
  pawl propose --repo <path|url> [--rev REV] [--layout L] [--write [--force]]

Prints a candidate contract for a repository that has none, read from git
objects at REV: Hypothesis tests as properties with their example counts,
fixtures under tests/fixtures/ (or the [fixtures] roots of the commit's
pawl.toml) with their digests (agent-contract, invariants), or public
functions as contracts (seed-contracts). It is a proposal for a human to
edit and commit; pawl judges pull requests against what a human commits.

Options:
${optionsHelp(PROPOSE_OPTIONS)}`;

/** Python files larger than this are not read (they are noted instead). */
const SOURCE_MAX_BYTES = 4 * 1024 * 1024;

/** Run `pawl propose`; returns the exit code (0 when a proposal was made). */
export async function proposeCommand(
  args: readonly string[],
  io: CliIo,
): Promise<number> {
  const v = parseCommandArgs(args, PROPOSE_OPTIONS);
  if (v.help) {
    io.out(PROPOSE_USAGE);
    return 0;
  }
  const repo = requiredOption(v.repo, "repo");
  const layout = proposalLayoutOf(v.layout);
  if (layout === undefined) {
    throw new UsageError(
      `Unknown layout "${v.layout}": expected one of ${
        PROPOSAL_LAYOUT_NAMES.join(", ")
      } (or their numbers 000, 003, 002)`,
    );
  }
  if (v.force && !v.write) {
    throw new UsageError('Option "--force" needs "--write"');
  }
  // Refuse before the (possibly slow) clone.
  const workTree = v.write ? await workTreeOf(repo) : undefined;
  const progress = cliProgress(io, { quiet: v.quiet });
  let proposal: Proposal;
  let existing: string[];
  let commit: string;
  const root = await Deno.makeTempDir({ prefix: "pawl-propose-" });
  try {
    progress.step(`cloning ${repo}`);
    const git = await cloneRepository(repo, {
      dest: `${root}/repo.git`,
      revisions: [v.rev],
      onProgress: (line) => progress.detail(line),
    });
    try {
      ({ proposal, existing, commit } = await collectProposal(git, v.rev, {
        layout,
        progress,
      }));
    } finally {
      await git.close();
    }
  } finally {
    progress.end();
    await Deno.remove(root, { recursive: true }).catch(() => {});
  }
  if (existing.length > 0) {
    io.err(
      `pawl: the repository already has a contract of layout ${
        layoutName(layout)
      } at ${commit}: ${
        existing.map((path) => JSON.stringify(path)).join(", ")
      }; the proposal is printed anyway\n`,
    );
  }
  const { summary } = proposal;
  const counts = layout === "002"
    ? `${plural(summary.contracts, "contract")}`
    : `${plural(summary.properties, "property", "properties")} and ${
      plural(summary.fixtures, "fixture")
    }`;
  if (!v.quiet) {
    io.err(
      `pawl: proposed ${counts} at ${commit} (layout ${layoutName(layout)})${
        summary.leftOut === 0
          ? ""
          : `; ${summary.leftOut} left out, listed in the header`
      }${
        summary.unresolved === 0
          ? ""
          : `; ${
            plural(summary.unresolved, "example count")
          } pawl could not resolve, listed in the header`
      }: a proposal for a human to review, not a contract\n`,
    );
  }
  if (!v.quiet) {
    for (const hint of summary.settings) io.err(`pawl: ${hint}\n`);
  }
  if (workTree === undefined) {
    io.out(formatProposal(proposal));
    return 0;
  }
  const written = await writeProposal(workTree, proposal, { force: v.force });
  for (const path of written) io.out(`wrote ${path}\n`);
  return 0;
}

/** Options for {@linkcode collectProposal}. */
export interface CollectProposalOptions {
  /** The layout to propose. */
  layout: ProposalLayout;
  /** Progress sink (default silent). */
  progress?: Progress;
}

/** What {@linkcode collectProposal} found. */
export interface CollectedProposal {
  /** The proposal. */
  proposal: Proposal;
  /** Files of the layout that already exist in the commit's tree. */
  existing: string[];
  /** The full commit id read. */
  commit: string;
}

/**
 * Read everything a proposal needs from git objects at `rev` (never from a
 * work tree) and build it: the tree, the Python files the layout names
 * (parsed, each blob once), and fixture digests (streamed).
 */
export async function collectProposal(
  git: Git,
  rev: string,
  options: CollectProposalOptions,
): Promise<CollectedProposal> {
  const progress = options.progress ?? SILENT_PROGRESS;
  const { layout } = options;
  const commit = await git.resolveCommit(rev);
  progress.step(`reading the tree at ${commit.slice(0, 12)}`);
  const tree = await git.listTree(commit);
  const existing = layoutFiles(layout).filter((path) => tree.has(path));
  // Fixtures come from the roots the commit's own pawl.toml names.
  const { settings } = await readBaseSettings(git, {
    baseTree: tree,
    headTree: tree,
  });
  const fixtureRoots = settings.fixtures.roots;
  const reads = proposalReads(tree, { layout, fixtureRoots });

  const fixtureOids = new Map<string, string>();
  for (const path of reads.fixtures) {
    const entry = tree.get(path);
    if (entry !== undefined) fixtureOids.set(path, entry.oid);
  }
  // Hash while parsing; a failure is awaited after the parse.
  const hashing = git.sha256Blobs([...new Set(fixtureOids.values())]);
  hashing.catch(() => {});

  progress.step(`parsing ${plural(reads.python.length, "Python file")}`);
  const modules = new Map<string, PythonModule>();
  const unreadable = new Map<string, string>();
  try {
    const parser = await loadPythonParser();
    const byOid = new Map<string, PythonModule | string>();
    for (const path of reads.python) {
      const entry = tree.get(path);
      if (entry === undefined) continue;
      let result = byOid.get(entry.oid);
      if (result === undefined) {
        result = await readModule(git, entry.oid, entry.size, (text) => {
          progress.detail(path);
          return analyzePython(parser, text);
        });
        byOid.set(entry.oid, result);
      }
      if (typeof result === "string") unreadable.set(path, result);
      else modules.set(path, result);
    }
  } catch (error) {
    await hashing.catch(() => {});
    throw error;
  }

  if (reads.fixtures.length > 0) {
    progress.step(`hashing ${plural(reads.fixtures.length, "fixture")}`);
  }
  const digestsByOid = await hashing;
  const fixtureDigests = new Map<string, string>();
  for (const [path, oid] of fixtureOids) {
    const digest = digestsByOid.get(oid);
    if (digest !== undefined) fixtureDigests.set(path, digest);
  }
  const proposal = buildProposal(
    { commit, tree, modules, unreadable, fixtureDigests },
    {
      layout,
      fixtureRoots,
      env: settings.environment.env,
      pythonpath: settings.environment.pythonpath,
      command: settings.tests.command,
    },
  );
  return { proposal, existing, commit };
}

/** A parsed module, or why the blob could not be read as Python text. */
async function readModule(
  git: Git,
  oid: string,
  size: number,
  analyze: (text: string) => PythonModule,
): Promise<PythonModule | string> {
  const tooLarge = `it is larger than the ${SOURCE_MAX_BYTES}-byte limit`;
  if (size > SOURCE_MAX_BYTES) return tooLarge;
  let bytes: Uint8Array;
  try {
    bytes = await git.readBlob(oid, { maxBytes: SOURCE_MAX_BYTES });
  } catch (error) {
    if (error instanceof BlobTooLargeError) return tooLarge;
    throw error;
  }
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return "it is not valid UTF-8";
  }
  return analyze(text);
}

/**
 * The proposal as printed: the file's text alone, or with several files
 * each preceded by a `==> path <==` line (as `head` does), a blank line
 * between files.
 */
export function formatProposal(proposal: Proposal): string {
  if (proposal.files.length === 1) return proposal.files[0]!.text;
  return proposal.files.map((file) => `==> ${file.path} <==\n${file.text}`)
    .join("\n");
}

/**
 * The work tree `--write` may write into: an existing local directory with
 * a `.git` (directory or gitfile). A URL, a bare repository or anything
 * else is refused. No git command runs in it: its config could run code.
 */
async function workTreeOf(repo: string): Promise<string> {
  const refuse = (reason: string) =>
    new Error(
      `Cannot write the proposal into ${
        JSON.stringify(repo)
      }: ${reason}; "--write" needs a local work tree (not a URL or a bare repository)`,
    );
  if (/^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(repo)) throw refuse("it is a URL");
  let info: Deno.FileInfo;
  try {
    info = await Deno.stat(repo);
  } catch {
    throw refuse("it is not an existing directory");
  }
  if (!info.isDirectory) throw refuse("it is not a directory");
  try {
    await Deno.lstat(join(repo, ".git"));
  } catch {
    throw refuse('it has no ".git"');
  }
  return await Deno.realPath(repo);
}

/**
 * Write every file of `proposal` under `workTree`, after checking them all:
 * no file may exist unless `force` (and a symlink or non-file is never
 * replaced), and no directory on the way may be a symlink, so nothing is
 * written outside the work tree. Returns the paths written.
 */
async function writeProposal(
  workTree: string,
  proposal: Proposal,
  options: { force: boolean },
): Promise<string[]> {
  const refuse = (path: string, reason: string) =>
    new Error(
      `Cannot write ${JSON.stringify(path)} into ${
        JSON.stringify(workTree)
      }: ${reason}`,
    );
  for (const file of proposal.files) {
    const segments = file.path.split("/");
    for (let n = 1; n < segments.length; n++) {
      const parent = segments.slice(0, n).join("/");
      const info = await lstatOrUndefined(join(workTree, parent));
      if (info === undefined) break;
      if (info.isSymlink) {
        throw refuse(file.path, `${JSON.stringify(parent)} is a symlink`);
      }
      if (!info.isDirectory) {
        throw refuse(file.path, `${JSON.stringify(parent)} is not a directory`);
      }
    }
    const info = await lstatOrUndefined(join(workTree, file.path));
    if (info === undefined) continue;
    if (!info.isFile) {
      throw refuse(file.path, "it exists and is not a regular file");
    }
    if (!options.force) {
      throw refuse(
        file.path,
        'it already exists; pass "--force" to overwrite it',
      );
    }
  }
  const written: string[] = [];
  for (const file of proposal.files) {
    const target = join(workTree, file.path);
    const slash = file.path.lastIndexOf("/");
    if (slash > 0) {
      await Deno.mkdir(join(workTree, file.path.slice(0, slash)), {
        recursive: true,
      });
    }
    await Deno.writeTextFile(target, file.text, { createNew: !options.force });
    written.push(file.path);
  }
  return written;
}

async function lstatOrUndefined(
  path: string,
): Promise<Deno.FileInfo | undefined> {
  try {
    return await Deno.lstat(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  }
}
