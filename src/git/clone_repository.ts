/**
 * Making the private clone the gate reads from.
 *
 * @module
 */
import { dirname, resolve } from "node:path";
import {
  defaultPath,
  describe,
  gitFailure,
  type GitOutput,
  type GitProcessOptions,
  quote,
  runGit,
} from "./_git_process.ts";
import { GitCli } from "./git_cli.ts";
import { GitError } from "./git_error.ts";

/** Options for {@linkcode cloneRepository}. */
export interface CloneRepositoryOptions {
  /** Where the bare clone goes: a missing or empty directory the caller owns and removes. */
  dest: string;
  /**
   * Revisions the caller will ask for (e.g. `--base` and `--head`). Each
   * must resolve to a commit after cloning; a full commit id or a ref
   * outside the usual namespaces (e.g. `refs/merge-requests/1/head`) is
   * fetched by name when the clone lacks it.
   */
  revisions?: readonly string[];
  /** Called with each progress line git prints. */
  onProgress?: (line: string) => void;
  /** Extra environment for git transports (e.g. `SSH_AUTH_SOCK`, `HTTPS_PROXY`). */
  env?: Readonly<Record<string, string>>;
  /** `PATH` for git; defaults to this process's `PATH`. */
  path?: string;
  /**
   * Fetch only the commits `revisions` name by full id, plus `refs`, one
   * commit deep (a shallow clone), instead of copying every ref with its
   * history: what a pull request's base and head need. The gate compares
   * two trees and never walks history, so depth 1 is enough. Servers must
   * allow fetching a reachable commit by id (GitHub and GitHub Enterprise
   * do; git's protocol v2 does, so `file://` and a local path do); when the
   * shallow fetch fails the full copy is made instead.
   *
   * No partial clone (`--filter=blob:none`): the gate reads nearly every
   * blob of the head anyway (the test export, fixture hashes), a lazy
   * fetch would cost one round trip per blob from inside `git cat-file` and
   * `git archive`, would need the credentials and the network during the
   * judgement, and a `file://` server ignores filters unless it sets
   * `uploadpack.allowFilter`.
   */
  shallow?: boolean;
  /**
   * Refs to fetch by name besides `revisions` (e.g. `refs/pull/7/head`,
   * where a fork's head commit lives in the base repository).
   */
  refs?: readonly string[];
  /** Called once after fetching with the size of what the clone holds. */
  onFetched?: (stats: CloneStats) => void;
}

/** How much a clone holds after fetching (from `git count-objects -v`). */
export interface CloneStats {
  /** Objects, loose and packed. */
  objects: number;
  /** Bytes on disk of those objects (git counts KiB). */
  bytes: number;
  /** Whether the shallow fetch was used. */
  shallow: boolean;
}

/** Refs copied from the source besides what `git clone --bare` brings. */
const REFSPECS: readonly string[] = [
  "+refs/heads/*:refs/heads/*",
  "+refs/tags/*:refs/tags/*",
  "+refs/remotes/*:refs/remotes/*",
  "+refs/pull/*:refs/pull/*",
];

/**
 * Attributes that make `git archive` write the committed bytes: the judged
 * tree's own `.gitattributes` cannot hide files (`export-ignore`), rewrite
 * them (`export-subst`, `ident`, filters) or convert line endings.
 * `info/attributes` outranks every `.gitattributes` in the tree.
 */
const NEUTRAL_ATTRIBUTES =
  "* -export-ignore -export-subst -text -eol -ident -filter -working-tree-encoding\n";

/**
 * Make a private bare clone of `source` (a work tree, a bare repository or a
 * git URL) in `options.dest` and open it. Local paths are copied without
 * hard links and are never written to; all branches, tags, remote-tracking
 * refs (so `origin/main` resolves) and `refs/pull/*` are copied.
 *
 * @example
 * ```ts ignore
 * import { cloneRepository } from "./clone_repository.ts";
 * const dest = await Deno.makeTempDir({ prefix: "pawl-clone-" });
 * await using git = await cloneRepository("../my-repo", {
 *   dest,
 *   revisions: ["origin/main", "HEAD"],
 * });
 * const base = await git.resolveCommit("origin/main");
 * ```
 */
export async function cloneRepository(
  source: string,
  options: CloneRepositoryOptions,
): Promise<GitCli> {
  const location = await classifySource(source);
  const display = redact(source);
  const dest = await prepareDest(options.dest, display);
  const path = options.path ?? defaultPath();
  const base: GitProcessOptions = {
    cwd: dest,
    home: dest,
    path,
    // Never let git discover a repository above the (empty) destination.
    env: { ...options.env, GIT_CEILING_DIRECTORIES: dirname(dest) },
  };
  const onStderrLine = options.onProgress === undefined
    ? undefined
    : (line: string) => options.onProgress?.(redact(line, source));
  const progress = onStderrLine === undefined ? ["--quiet"] : ["--progress"];
  // git clears `-c` settings for a local upload-pack, so repeat them in its command.
  const uploadPack = isLocal(location)
    ? [`--upload-pack=${LOCAL_UPLOAD_PACK}`]
    : [];
  const run = (args: string[], gitDir?: string) =>
    runGit(args, {
      ...base,
      ...(gitDir === undefined ? {} : { gitDir }),
      ...(onStderrLine === undefined ? {} : { onStderrLine }),
    });

  const shallow = options.shallow === true &&
    await fetchShallow(run, {
      dest,
      location,
      uploadPack,
      progress,
      revisions: options.revisions ?? [],
      refs: options.refs ?? [],
    });
  if (!shallow) {
    await copyEverything(run, { dest, location, uploadPack, progress, source });
    // Named refs that the usual namespaces do not cover.
    for (const ref of options.refs ?? []) {
      const refspec = refspecFor(ref);
      if (refspec === undefined || REFSPECS.some((r) => coveredBy(r, ref))) {
        continue;
      }
      const fetched = await run([
        "fetch",
        "--no-tags",
        "--no-write-fetch-head",
        "--quiet",
        ...uploadPack,
        "--end-of-options",
        location,
        refspec,
      ], dest);
      if (fetched.code !== 0) {
        throw redacted(
          `Cannot fetch ${quote(ref)} of ${quote(display)}`,
          fetched,
          source,
        );
      }
    }
  }
  try {
    await Deno.mkdir(`${dest}/info`, { recursive: true });
    await Deno.writeTextFile(`${dest}/info/attributes`, NEUTRAL_ATTRIBUTES);
  } catch (error) {
    throw new GitError(
      `Cannot configure clone in ${quote(dest)}: ${describe(error)}`,
      {
        cause: error,
      },
    );
  }

  const git = new GitCli(dest, { path });
  try {
    for (const rev of options.revisions ?? []) {
      const resolved = await git.resolveCommit(rev).then(
        () => true,
        () => false,
      );
      if (resolved) continue;
      const refspec = refspecFor(rev);
      if (refspec !== undefined) {
        await run([
          "fetch",
          "--no-tags",
          "--no-write-fetch-head",
          "--quiet",
          ...uploadPack,
          "--end-of-options",
          location,
          refspec,
        ], dest);
      }
      await git.resolveCommit(rev);
    }
    if (options.onFetched !== undefined) {
      options.onFetched({ ...(await countObjects(run, dest)), shallow });
    }
  } catch (error) {
    await git.close();
    throw error;
  }
  return git;
}

/** What the fetch helpers need. */
interface FetchContext {
  dest: string;
  location: string;
  uploadPack: readonly string[];
  progress: readonly string[];
}

type Run = (args: string[], gitDir?: string) => Promise<GitOutput>;

/**
 * `git init` plus one depth-1 fetch of the given commit ids and refs.
 * Returns false (after emptying `dest`) when the server refused.
 */
async function fetchShallow(
  run: Run,
  context: FetchContext & {
    revisions: readonly string[];
    refs: readonly string[];
  },
): Promise<boolean> {
  const { dest, location, uploadPack, progress } = context;
  const refspecs = [
    ...new Set([
      ...context.revisions.filter((rev) => FULL_ID.test(rev)),
      ...context.refs,
    ]),
  ].map(refspecFor).filter((r): r is string => r !== undefined);
  if (refspecs.length === 0) return false;
  const init = await run(["init", "--bare", "--quiet", "--template=", dest]);
  if (init.code === 0) {
    const fetch = await run(
      [
        "fetch",
        "--depth=1",
        "--no-tags",
        "--no-write-fetch-head",
        ...uploadPack,
        ...progress,
        "--end-of-options",
        location,
        ...refspecs,
      ],
      dest,
    );
    if (fetch.code === 0) return true;
  }
  // Start again from an empty destination with the full copy.
  for await (const entry of Deno.readDir(dest)) {
    await Deno.remove(`${dest}/${entry.name}`, { recursive: true });
  }
  return false;
}

/** `git clone --bare` plus every ref namespace pawl resolves revisions in. */
async function copyEverything(
  run: Run,
  context: FetchContext & { source: string },
): Promise<void> {
  const { dest, location, uploadPack, progress, source } = context;
  const display = redact(source);
  const clone = await run([
    "clone",
    "--bare",
    "--no-hardlinks",
    "--template=",
    ...uploadPack,
    ...progress,
    "--",
    location,
    dest,
  ]);
  if (clone.code !== 0) {
    // git says "does not exist" of a directory that is there but holds no
    // repository; say what is wrong with it instead.
    if (location.startsWith("/") && !(await holdsRepository(location))) {
      throw new GitError(
        `Cannot clone ${
          quote(display)
        }: the directory exists but is not a git repository; give the top of a work tree (the directory that holds .git) or a bare repository`,
      );
    }
    throw redacted(`Cannot clone ${quote(display)}`, clone, source);
  }
  const fetch = await run(
    [
      "fetch",
      "--no-tags",
      "--no-write-fetch-head",
      ...uploadPack,
      ...progress,
      "--end-of-options",
      location,
      ...REFSPECS,
    ],
    dest,
  );
  if (fetch.code !== 0) {
    throw redacted(`Cannot fetch refs of ${quote(display)}`, fetch, source);
  }
}

/**
 * Whether the directory `path` looks like a repository git can clone: a
 * work tree's top (a `.git` directory or file) or a bare repository (`HEAD`
 * beside `objects/`). Read from the file system only: nothing in `path`
 * runs.
 */
async function holdsRepository(path: string): Promise<boolean> {
  const has = (name: string) =>
    Deno.lstat(`${path}/${name}`).then(() => true, () => false);
  return await has(".git") || (await has("HEAD") && await has("objects"));
}

/**
 * The upload-pack command for local sources. git runs it through the shell
 * with the source path appended; it must trust a repository owned by
 * another user (`safe.directory`), which only command-line or global config
 * can grant.
 */
const LOCAL_UPLOAD_PACK =
  "git -c 'safe.directory=*' -c core.hooksPath=/dev/null -c core.fsmonitor=false upload-pack";

/** Whether git reaches `location` without a network transport. */
function isLocal(location: string): boolean {
  return location.startsWith("/") ||
    location.toLowerCase().startsWith("file://");
}

/** A full SHA-1 or SHA-256 commit id. */
const FULL_ID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/** Whether the wildcard refspec `refspec` already copies `ref`. */
function coveredBy(refspec: string, ref: string): boolean {
  const source = refspec.replace(/^\+/, "").split(":")[0] ?? "";
  return source.endsWith("*") && ref.startsWith(source.slice(0, -1));
}

/** Objects and bytes in the clone, from `git count-objects -v`. */
async function countObjects(
  run: Run,
  dest: string,
): Promise<{ objects: number; bytes: number }> {
  const out = await run(["count-objects", "-v"], dest);
  const values = new Map<string, number>();
  for (const line of new TextDecoder().decode(out.stdout).split("\n")) {
    const [key, value] = line.split(": ");
    if (key !== undefined && value !== undefined) {
      values.set(key.trim(), Number(value));
    }
  }
  const get = (key: string) => values.get(key) ?? 0;
  return {
    objects: get("count") + get("in-pack"),
    bytes: (get("size") + get("size-pack")) * 1024,
  };
}

/** A refspec that would bring `rev` into the clone, if it names one thing. */
function refspecFor(rev: string): string | undefined {
  if (FULL_ID.test(rev)) {
    return `+${rev}:refs/pawl/revisions/${rev}`;
  }
  if (
    /^[A-Za-z0-9_][A-Za-z0-9._/-]*$/.test(rev) && !rev.includes("..") &&
    !rev.endsWith("/")
  ) {
    const ref = rev.startsWith("refs/") ? rev : `refs/${rev}`;
    return `+${ref}:${ref}`;
  }
  return undefined;
}

/** The argument to give git for `source`: an absolute path or the URL. */
async function classifySource(source: string): Promise<string> {
  const fail = (reason: string) =>
    new GitError(`Cannot clone ${quote(redact(source))}: ${reason}`);
  if (source === "") throw fail("source is empty");
  if (source.startsWith("-")) throw fail('source starts with "-"');
  if (/[\0\n]/.test(source)) throw fail("source contains a control character");
  if (/^[A-Za-z][A-Za-z0-9+.-]*::/.test(source)) {
    throw fail("remote helper transports are not supported");
  }
  if (/^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(source)) return source;
  let stat: Deno.FileInfo | undefined;
  try {
    stat = await Deno.stat(source);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw fail(describe(error));
  }
  if (stat?.isDirectory) {
    // Absolute, so a directory named like `host:path` is not taken for ssh.
    return await Deno.realPath(source);
  }
  if (stat !== undefined) throw fail("not a directory");
  // scp-like `user@host:owner/repo.git`: no slash before the first colon.
  if (/^[^/:]+:/.test(source)) return source;
  throw fail("no such directory");
}

/** Create `dest` if missing; refuse a non-empty one. Returns its real path. */
async function prepareDest(dest: string, display: string): Promise<string> {
  const fail = (reason: string, cause?: unknown) =>
    new GitError(
      `Cannot clone ${quote(display)} into ${quote(dest)}: ${reason}`,
      cause === undefined ? {} : { cause },
    );
  try {
    await Deno.mkdir(resolve(dest), { recursive: true });
    const real = await Deno.realPath(dest);
    for await (const _ of Deno.readDir(real)) {
      throw fail("destination is not empty");
    }
    return real;
  } catch (error) {
    if (error instanceof GitError) throw error;
    throw fail(describe(error), error);
  }
}

/** `text` with the password or token of a URL `source` masked. */
function redact(text: string, source: string = text): string {
  const match = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/([^/@]+)@/.exec(source);
  const userinfo = match?.[1];
  if (userinfo === undefined) return text;
  return text.replaceAll(userinfo, "***");
}

/** {@linkcode gitFailure} with credentials masked in message and stderr. */
function redacted(
  message: string,
  output: GitOutput,
  source: string,
): GitError {
  const clean: GitOutput = {
    ...output,
    stderr: redact(output.stderr, source),
    argv: output.argv.map((arg) => redact(arg, source)),
  };
  return gitFailure(message, clean);
}
