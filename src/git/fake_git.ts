/**
 * An in-memory {@linkcode Git} for unit tests of other components.
 *
 * @module
 */
import { createHash } from "node:crypto";
import type {
  ChangedPath,
  EntryKind,
  Git,
  ReadBlobOptions,
  Tree,
  TreeEntry,
} from "./git.ts";
import { BlobTooLargeError, GitError } from "./git_error.ts";

/**
 * One path of a fake commit: text (UTF-8) or bytes for a regular file, or
 * an executable, a symlink or a submodule entry.
 */
export type FakeEntry =
  | string
  | Uint8Array
  | { symlink: string }
  | { executable: string | Uint8Array }
  | { submodule: string };

/** Files of one commit, keyed by repository-relative path (`a/b.txt`). */
export type FakeCommitFiles = Readonly<Record<string, FakeEntry>>;

/** The plain data a {@linkcode FakeGit} is built from. */
export interface FakeGitData {
  /**
   * Commits keyed by a revision name (`main`, `pr-head`) or a full commit
   * id. A name gets a stable made-up commit id; both resolve.
   */
  commits: Readonly<Record<string, FakeCommitFiles>>;
}

interface FakeCommit {
  id: string;
  tree: Map<string, TreeEntry>;
}

const encoder = new TextEncoder();

/** Git's object id for `content` of `type`: sha1 over `<type> <size>\0<content>`. */
function objectId(type: string, content: Uint8Array): string {
  return createHash("sha1").update(
    encoder.encode(`${type} ${content.length}\0`),
  ).update(content)
    .digest("hex");
}

function hexToBytes(hex: string): Uint8Array {
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) {
    bytes[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  }
  return bytes;
}

const MODES: Readonly<Record<EntryKind, string>> = {
  file: "100644",
  executable: "100755",
  symlink: "120000",
  tree: "40000",
  submodule: "160000",
};

/**
 * {@linkcode Git} over plain data. Blob ids are real git blob ids and tree
 * ids real git tree ids, so they match what `git hash-object` and
 * `git ls-tree` would print for the same files.
 *
 * @example
 * ```ts
 * import { equal } from "node:assert/strict";
 * import { FakeGit } from "./fake_git.ts";
 * const git = new FakeGit({
 *   commits: { main: { "tests/agent_contract.yaml": "version: 1\n" } },
 * });
 * const tree = await git.listTree(await git.resolveCommit("main"));
 * equal(tree.get("tests")?.kind, "tree");
 * equal(tree.get("tests/agent_contract.yaml")?.size, 11);
 * ```
 */
export class FakeGit implements Git {
  #commits = new Map<string, FakeCommit>();
  #blobs = new Map<string, Uint8Array>();
  #closed = false;

  /** Build the commits, their trees and blobs from `data`. */
  constructor(data: FakeGitData) {
    for (const [name, files] of Object.entries(data.commits)) {
      const id = /^[0-9a-f]{40}$/.test(name)
        ? name
        : objectId("commit", encoder.encode(name));
      const commit = { id, tree: this.#buildTree(files) };
      this.#commits.set(name, commit);
      this.#commits.set(id, commit);
    }
  }

  #buildTree(files: FakeCommitFiles): Map<string, TreeEntry> {
    const entries = new Map<string, TreeEntry>();
    for (const [path, entry] of Object.entries(files)) {
      const segments = path.split("/");
      if (segments.some((s) => s === "" || s === "." || s === "..")) {
        throw new TypeError(
          `Cannot build fake commit: invalid path ${JSON.stringify(path)}`,
        );
      }
      if (entries.get(path)?.kind === "tree") {
        throw new TypeError(
          `Cannot build fake commit: ${
            JSON.stringify(path)
          } is a file and a directory`,
        );
      }
      let kind: EntryKind;
      let content: Uint8Array | undefined;
      if (typeof entry === "string") {
        [kind, content] = ["file", encoder.encode(entry)];
      } else if (entry instanceof Uint8Array) [kind, content] = ["file", entry];
      else if ("symlink" in entry) {
        [kind, content] = ["symlink", encoder.encode(entry.symlink)];
      } else if ("executable" in entry) {
        const body = entry.executable;
        [kind, content] = [
          "executable",
          typeof body === "string" ? encoder.encode(body) : body,
        ];
      } else kind = "submodule";
      if (content === undefined) {
        const oid = (entry as { submodule: string }).submodule;
        entries.set(path, { path, kind, oid, size: 0 });
      } else {
        const oid = objectId("blob", content);
        this.#blobs.set(oid, content);
        entries.set(path, { path, kind, oid, size: content.length });
      }
      for (let i = 1; i < segments.length; i++) {
        const dir = segments.slice(0, i).join("/");
        const existing = entries.get(dir);
        if (existing !== undefined && existing.kind !== "tree") {
          throw new TypeError(
            `Cannot build fake commit: ${
              JSON.stringify(dir)
            } is a file and a directory`,
          );
        }
        entries.set(dir, { path: dir, kind: "tree", oid: "", size: 0 });
      }
    }
    // Tree ids bottom-up: deepest directories first.
    const dirs = [...entries.values()].filter((e) => e.kind === "tree").map((
      e,
    ) => e.path);
    dirs.sort((a, b) => b.split("/").length - a.split("/").length);
    for (const dir of dirs) {
      const entry = entries.get(dir) as TreeEntry;
      entry.oid = treeId(entries, dir);
    }
    // `git ls-tree -r -t` order: a directory sorts as if its name ended in "/".
    const key = (e: TreeEntry) => e.path + (e.kind === "tree" ? "/" : "");
    return new Map(
      [...entries.values()].sort((a, b) => compareBytes(key(a), key(b))).map((
        e,
      ) => [e.path, e]),
    );
  }

  #commit(rev: string, action: string): FakeCommit {
    if (this.#closed) {
      throw new GitError(`Cannot ${action}: the repository is closed`);
    }
    const commit = this.#commits.get(rev);
    if (commit === undefined) {
      throw new GitError(
        `Cannot ${action} ${JSON.stringify(rev)}: unknown revision`,
      );
    }
    return commit;
  }

  /** The commit id for a name or id given in the data. */
  resolveCommit(rev: string): Promise<string> {
    try {
      return Promise.resolve(this.#commit(rev, "resolve revision").id);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** All entries of the commit, with implied directories as trees. */
  listTree(commit: string): Promise<Tree> {
    try {
      return Promise.resolve(
        new Map(this.#commit(commit, "list tree of commit").tree),
      );
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** A copy of the blob's bytes; `BlobTooLargeError` past `maxBytes`. */
  readBlob(oid: string, options: ReadBlobOptions = {}): Promise<Uint8Array> {
    const blob = this.#blobs.get(oid);
    if (this.#closed) {
      return Promise.reject(
        new GitError(`Cannot read blob "${oid}": the repository is closed`),
      );
    }
    if (blob === undefined) {
      return Promise.reject(
        new GitError(`Cannot read blob "${oid}": object not found`),
      );
    }
    if (options.maxBytes !== undefined && blob.length > options.maxBytes) {
      return Promise.reject(
        new BlobTooLargeError(oid, blob.length, options.maxBytes),
      );
    }
    return Promise.resolve(blob.slice());
  }

  /** SHA-256 (hex) of each blob. */
  sha256Blobs(oids: readonly string[]): Promise<Map<string, string>> {
    const digests = new Map<string, string>();
    for (const oid of oids) {
      const blob = this.#blobs.get(oid);
      if (blob === undefined) {
        return Promise.reject(
          new GitError(`Cannot hash blob "${oid}": object not found`),
        );
      }
      digests.set(oid, createHash("sha256").update(blob).digest("hex"));
    }
    return Promise.resolve(digests);
  }

  /** Write the commit's files into `dest`, an existing empty directory. */
  async exportTree(commit: string, dest: string): Promise<void> {
    const { tree } = this.#commit(commit, "export commit");
    for await (const _ of Deno.readDir(dest)) {
      throw new GitError(
        `Cannot export commit ${JSON.stringify(commit)} to ${
          JSON.stringify(dest)
        }: destination is not empty`,
      );
    }
    for (const entry of tree.values()) {
      const target = `${dest}/${entry.path}`;
      if (entry.kind === "tree" || entry.kind === "submodule") {
        await Deno.mkdir(target, { recursive: true });
      } else if (entry.kind === "symlink") {
        await Deno.symlink(
          new TextDecoder().decode(this.#blobs.get(entry.oid)),
          target,
        );
      } else {
        const mode = entry.kind === "executable" ? 0o755 : 0o644;
        await Deno.writeFile(target, this.#blobs.get(entry.oid) as Uint8Array, {
          mode,
        });
        await Deno.chmod(target, mode);
      }
    }
  }

  /** Like `git diff-tree -r --name-status --no-renames`: non-tree paths, in path order. */
  changedPaths(base: string, head: string): Promise<ChangedPath[]> {
    try {
      const before = this.#commit(base, "compare revision").tree;
      const after = this.#commit(head, "compare revision").tree;
      const paths = new Set([...before.keys(), ...after.keys()]);
      const changes: ChangedPath[] = [];
      for (const path of [...paths].sort(compareBytes)) {
        const a = before.get(path);
        const b = after.get(path);
        const aKind = a?.kind === "tree" ? undefined : a;
        const bKind = b?.kind === "tree" ? undefined : b;
        if (aKind === undefined && bKind === undefined) continue;
        if (aKind === undefined) changes.push({ status: "A", path });
        else if (bKind === undefined) changes.push({ status: "D", path });
        else if (typeClass(aKind.kind) !== typeClass(bKind.kind)) {
          changes.push({ status: "T", path });
        } else if (aKind.oid !== bKind.oid || aKind.kind !== bKind.kind) {
          changes.push({ status: "M", path });
        }
      }
      return Promise.resolve(changes);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** Whether {@linkcode FakeGit.close} was called. */
  get closed(): boolean {
    return this.#closed;
  }

  /** Mark the fake closed; later calls throw, like the real one. */
  close(): Promise<void> {
    this.#closed = true;
    return Promise.resolve();
  }
}

/** Git reports file ↔ executable as a modification, other kind changes as `T`. */
function typeClass(kind: EntryKind): string {
  return kind === "executable" ? "file" : kind;
}

/** Byte-wise (UTF-8) comparison, git's path order. */
function compareBytes(a: string, b: string): number {
  const x = encoder.encode(a);
  const y = encoder.encode(b);
  const n = Math.min(x.length, y.length);
  for (let i = 0; i < n; i++) {
    if (x[i] !== y[i]) return (x[i] as number) - (y[i] as number);
  }
  return x.length - y.length;
}

/** The git tree id of directory `dir` (`""` is never asked for here). */
function treeId(entries: Map<string, TreeEntry>, dir: string): string {
  const prefix = `${dir}/`;
  const children = [...entries.values()].filter((e) =>
    e.path.startsWith(prefix) && !e.path.slice(prefix.length).includes("/")
  );
  // Git orders tree entries by name, comparing a directory as if it ended in "/".
  const key = (e: TreeEntry) =>
    e.path.slice(prefix.length) + (e.kind === "tree" ? "/" : "");
  children.sort((a, b) => compareBytes(key(a), key(b)));
  const parts: Uint8Array[] = [];
  for (const child of children) {
    parts.push(
      encoder.encode(
        `${MODES[child.kind]} ${child.path.slice(prefix.length)}\0`,
      ),
    );
    parts.push(hexToBytes(child.oid));
  }
  const body = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const part of parts) {
    body.set(part, offset);
    offset += part.length;
  }
  return objectId("tree", body);
}
