/**
 * The real {@linkcode Git} adapter: the git command line over a private bare
 * repository.
 *
 * @module
 */
import { resolve } from "node:path";
import { assertOid, CatFileProcess } from "./_cat_file_process.ts";
import {
  collectStderr,
  defaultPath,
  describe,
  gitFailure,
  type GitProcessOptions,
  quote,
  runGit,
  spawnGit,
  spawnHardened,
  stderrDetail,
} from "./_git_process.ts";
import {
  GitOutputError,
  parseLsTree,
  parseNameStatus,
} from "./_parse_git_output.ts";
import { sha256BlobsInWorker } from "./_sha256_blobs_in_worker.ts";
import { StoredBlobs } from "./_stored_blobs.ts";
import type {
  ChangedPath,
  Git,
  ReadBlobOptions,
  Sha256BlobsHelp,
  Tree,
} from "./git.ts";
import { GitError } from "./git_error.ts";

/** Options for {@linkcode GitCli}. */
export interface GitCliOptions {
  /** `PATH` for git and tar; defaults to this process's `PATH`. */
  path?: string;
  /**
   * Worker threads {@linkcode GitCli.sha256Blobs} uses. Default: one per
   * core but one (left for the caller, which parses meanwhile), 1 to 4.
   */
  hashThreads?: number;
}

/**
 * {@linkcode Git} over a bare git directory that this process owns (usually
 * from `cloneRepository`). Every git process runs with an empty environment,
 * no system or global config, and hooks and fsmonitor switched off. Reads go
 * through one long-lived `git cat-file --batch`; call
 * {@linkcode GitCli.close} (or use `await using`) to end it.
 *
 * @example
 * ```ts ignore
 * import { GitCli } from "./git_cli.ts";
 * await using git = new GitCli("/tmp/pawl-clone");
 * const head = await git.resolveCommit("main");
 * const tree = await git.listTree(head);
 * const readme = tree.get("README.md");
 * if (readme) await git.readBlob(readme.oid, { maxBytes: 1 << 20 });
 * ```
 */
export class GitCli implements Git, AsyncDisposable {
  /** Absolute path of the git directory. */
  readonly gitDir: string;
  #process: GitProcessOptions;
  #hashThreads: number;
  #catFile: CatFileProcess | undefined;
  /** The object store, opened at the first read, for small blobs. */
  #store: Promise<StoredBlobs | undefined> | undefined;
  #closed = false;

  /** Wrap the bare repository at `gitDir`; no process starts until needed. */
  constructor(gitDir: string, options: GitCliOptions = {}) {
    this.gitDir = resolve(gitDir);
    this.#process = {
      gitDir: this.gitDir,
      cwd: this.gitDir,
      home: this.gitDir,
      path: options.path ?? defaultPath(),
    };
    this.#hashThreads = Math.max(
      1,
      Math.floor(options.hashThreads ?? defaultHashThreads()),
    );
  }

  #assertOpen(action: string): void {
    if (this.#closed) {
      throw new GitError(`Cannot ${action}: the repository is closed`);
    }
  }

  /**
   * Resolve any revision (branch, tag, `origin/main`, short or full id,
   * `HEAD~1`) to a full commit id.
   */
  async resolveCommit(rev: string): Promise<string> {
    this.#assertOpen(`resolve revision ${quote(rev)}`);
    assertRevision(rev, "resolve revision");
    const args = [
      "rev-parse",
      "--verify",
      "--end-of-options",
      `${rev}^{commit}`,
    ];
    const output = await runGit(args, this.#process);
    const text = new TextDecoder().decode(output.stdout).trim();
    if (output.code === 0 && /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/.test(text)) {
      return text;
    }
    let reason = "unknown revision";
    if (output.stderr.includes("ambiguous")) {
      reason = "ambiguous revision";
    } else {
      const object = await runGit(
        ["rev-parse", "--verify", "--quiet", "--end-of-options", rev],
        this.#process,
      );
      if (object.code === 0) reason = "not a commit";
    }
    throw new GitError(`Cannot resolve revision ${quote(rev)}: ${reason}`, {
      args: output.argv,
      stderr: output.stderr,
      exitCode: output.code,
    });
  }

  /** Recursive listing of `commit`'s tree (trees and submodules included). */
  async listTree(commit: string): Promise<Tree> {
    this.#assertOpen(`list tree of commit ${quote(commit)}`);
    assertRevision(commit, "list tree of commit");
    const output = await runGit(
      [
        "ls-tree",
        "-r",
        "-t",
        "-z",
        "-l",
        "--full-tree",
        "--end-of-options",
        commit,
      ],
      this.#process,
    );
    if (output.code !== 0) {
      throw gitFailure(`Cannot list tree of commit ${quote(commit)}`, output);
    }
    return parsed(
      () => parseLsTree(output.stdout),
      `Cannot list tree of commit ${quote(commit)}`,
    );
  }

  /**
   * Read one blob. Throws `BlobTooLargeError` (without reading the content)
   * when it exceeds `maxBytes`, and `GitError` when it is missing or not a
   * blob. A small loose blob, or one stored whole in a pack, is read from
   * the object store on this thread (with the checks of
   * {@linkcode StoredBlobs}); the rest are queued on one `git cat-file`
   * process, which also says why a blob cannot be read.
   */
  readBlob(oid: string, options: ReadBlobOptions = {}): Promise<Uint8Array> {
    try {
      this.#assertOpen(`read blob ${quote(oid)}`);
      assertOid(oid, "read blob");
    } catch (error) {
      return Promise.reject(error);
    }
    const maxBytes = options.maxBytes ?? Number.POSITIVE_INFINITY;
    const store = this.#store ??= StoredBlobs.open(this.gitDir).catch(() =>
      undefined
    );
    // Runs before close() closes the store: it waits on the same promise,
    // later. What goes to git is queued on cat-file by then, and cat-file
    // answers what it was asked before it ends.
    return store.then((opened) =>
      opened?.readSmall(oid, maxBytes) ??
        (this.#catFile ??= new CatFileProcess(this.#process)).readBlob(
          oid,
          maxBytes,
        )
    );
  }

  /**
   * SHA-256 of each blob's content (hex), streamed on worker threads (so
   * the caller can parse while it runs). Loose blobs and blobs stored whole
   * in a pack are read from the object store directly; the rest come
   * through `git cat-file`. Duplicate oids are hashed once.
   */
  sha256Blobs(
    oids: readonly string[],
    options: Sha256BlobsHelp = {},
  ): Promise<Map<string, string>> {
    try {
      this.#assertOpen("hash blobs");
    } catch (error) {
      return Promise.reject(error);
    }
    return sha256BlobsInWorker(oids, {
      ...this.#process,
      workers: this.#hashThreads,
      ...(options.helpAfter === undefined
        ? {}
        : { helpAfter: options.helpAfter }),
      ...(options.bytes === undefined ? {} : { bytes: options.bytes }),
    });
  }

  /**
   * Write `commit`'s tree into `dest`, an existing empty directory, with
   * `git archive | tar -x`. Symlinks stay symlinks; no `.git` is written.
   * The content is the committed bytes: `export-ignore`, `export-subst` and
   * end-of-line attributes are neutralised by the clone's `info/attributes`.
   */
  async exportTree(commit: string, dest: string): Promise<void> {
    const action = `export commit ${quote(commit)} to ${quote(dest)}`;
    this.#assertOpen(action);
    assertRevision(commit, "export commit");
    const target = await emptyDirectory(dest, action);
    const tar = spawnHardened(
      "tar",
      ["-x", "-f", "-", "-C", target, "--no-same-owner", "--keep-old-files"],
      { ...this.#process, cwd: target },
      { stdin: "piped", stdout: "null" },
    );
    let archive: Deno.ChildProcess;
    try {
      archive = spawnGit(
        [
          "-c",
          "tar.umask=022",
          "archive",
          "--format=tar",
          "--end-of-options",
          commit,
        ],
        this.#process,
      );
    } catch (error) {
      await tar.stdin.close();
      await Promise.all([tar.status, collectStderr(tar.stderr)]);
      throw error;
    }
    const [archiveStderr, tarStderr, archiveStatus, tarStatus] = await Promise
      .all([
        collectStderr(archive.stderr),
        collectStderr(tar.stderr),
        archive.status,
        tar.status,
        archive.stdout.pipeTo(tar.stdin).catch(() => undefined),
      ]);
    if (archiveStatus.success && tarStatus.success) return;
    // When one side fails the other usually fails too (empty input, broken pipe): report both.
    const details: string[] = [];
    if (!archiveStatus.success) {
      details.push(
        archiveStatus.signal === null
          ? stderrDetail(archiveStderr)
          : `git archive was killed by ${archiveStatus.signal}`,
      );
    }
    if (!tarStatus.success) {
      details.push(`tar failed: ${stderrDetail(tarStderr)}`);
    }
    throw new GitError(`Cannot ${action}: ${details.join("; ")}`, {
      args: ["archive", "--format=tar", "--end-of-options", commit],
      stderr: [archiveStderr, tarStderr].filter((text) => text !== "").join(
        "\n",
      ),
      exitCode: archiveStatus.success ? tarStatus.code : archiveStatus.code,
    });
  }

  /** Non-tree paths that differ between `base` and `head`, in path order. */
  async changedPaths(base: string, head: string): Promise<ChangedPath[]> {
    const action = `compare ${quote(base)} with ${quote(head)}`;
    this.#assertOpen(action);
    assertRevision(base, "compare revision");
    assertRevision(head, "compare revision");
    const output = await runGit(
      [
        "diff-tree",
        "-r",
        "-z",
        "--name-status",
        "--no-renames",
        "--end-of-options",
        base,
        head,
      ],
      this.#process,
    );
    if (output.code !== 0) throw gitFailure(`Cannot ${action}`, output);
    return parsed(() => parseNameStatus(output.stdout), `Cannot ${action}`);
  }

  /** End the `git cat-file` process; later calls throw. Idempotent. */
  async close(): Promise<void> {
    this.#closed = true;
    (await this.#store)?.close();
    await this.#catFile?.close();
  }

  /** Same as {@linkcode GitCli.close}, for `await using`. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}

/** Refuse revisions git could take for options (`--upload-pack=…`). */
function assertRevision(rev: string, action: string): void {
  if (rev === "") throw new GitError(`Cannot ${action} "": revision is empty`);
  if (rev.startsWith("-")) {
    throw new GitError(
      `Cannot ${action} ${quote(rev)}: revision starts with "-"`,
    );
  }
  if (/[\0\n]/.test(rev)) {
    throw new GitError(
      `Cannot ${action} ${quote(rev)}: revision contains a control character`,
    );
  }
}

/** Run a parser, turning its complaint into a `GitError` after `message`. */
function parsed<T>(parse: () => T, message: string): T {
  try {
    return parse();
  } catch (error) {
    if (error instanceof GitOutputError) {
      throw new GitError(`${message}: ${error.message}`, { cause: error });
    }
    throw error;
  }
}

/** Absolute path of `dest` after checking it is an empty directory. */
async function emptyDirectory(dest: string, action: string): Promise<string> {
  let target: string;
  try {
    target = await Deno.realPath(dest);
    if (!(await Deno.stat(target)).isDirectory) {
      throw new GitError(`Cannot ${action}: destination is not a directory`);
    }
  } catch (error) {
    if (error instanceof GitError) throw error;
    throw new GitError(`Cannot ${action}: ${describe(error)}`, {
      cause: error,
    });
  }
  for await (const _ of Deno.readDir(target)) {
    throw new GitError(`Cannot ${action}: destination is not empty`);
  }
  return target;
}

/** One hashing thread per core but one, at least 1 and at most 4. */
function defaultHashThreads(): number {
  return Math.min(4, Math.max(1, navigator.hardwareConcurrency - 1));
}
