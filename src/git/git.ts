/**
 * The gate's only view of a repository: git objects. Nothing here reads a
 * working tree, so nothing the tests write can change what is judged.
 *
 * @module
 */

/** Kind of a tree entry, from its git mode. */
export type EntryKind =
  | "file"
  | "executable"
  | "symlink"
  | "tree"
  | "submodule";

/** One entry of a recursive tree listing. */
export interface TreeEntry {
  /** Repository-relative path with `/` separators. */
  path: string;
  /** Kind, derived from the git mode. */
  kind: EntryKind;
  /** Object id (hex). */
  oid: string;
  /** Blob size in bytes; 0 for trees and submodules. */
  size: number;
}

/** Options for {@linkcode Git.readBlob}. */
export interface ReadBlobOptions {
  /** Refuse blobs larger than this many bytes (throws `BlobTooLargeError`). */
  maxBytes?: number;
}

/** A full recursive listing of one commit's tree, keyed by path. */
export type Tree = ReadonlyMap<string, TreeEntry>;

/**
 * How a path changed between two commits (renames are reported as a delete
 * plus an add): `A` added, `M` modified (content or mode), `D` deleted, `T`
 * type changed (e.g. file to symlink).
 */
export type ChangeStatus = "A" | "M" | "D" | "T";

/** One changed non-tree path between two commits. */
export interface ChangedPath {
  /** What happened to the path. */
  status: ChangeStatus;
  /** Repository-relative path with `/` separators. */
  path: string;
}

/** Options for {@linkcode Git.sha256Blobs}. */
export interface Sha256BlobsHelp {
  /** Settles when the calling thread has nothing else to do. */
  helpAfter?: Promise<unknown>;
  /**
   * The blobs' total size in bytes, when the caller knows it (from the
   * tree): a small job is hashed on the calling thread, as starting a
   * worker costs more than hashing it.
   */
  bytes?: number;
}

/** Read-only access to the objects of one (private, cloned) repository. */
export interface Git {
  /** Resolve any revision to a full commit id; throws `GitError` if unknown. */
  resolveCommit(rev: string): Promise<string>;
  /** List every entry of a commit's tree, recursively (trees included). */
  listTree(commit: string): Promise<Tree>;
  /** Read one blob's bytes by object id. */
  readBlob(oid: string, options?: ReadBlobOptions): Promise<Uint8Array>;
  /**
   * Stream-hash blobs with SHA-256; returns hex digests keyed by oid. Once
   * `options.helpAfter` settles, this thread may take a share of the work.
   */
  sha256Blobs(
    oids: readonly string[],
    options?: Sha256BlobsHelp,
  ): Promise<Map<string, string>>;
  /** Write the commit's tree into `dest` (an empty directory), without `.git`. */
  exportTree(commit: string, dest: string): Promise<void>;
  /** Paths that differ between two commits' trees, in path order. */
  changedPaths(base: string, head: string): Promise<ChangedPath[]>;
  /** Release processes or other resources; the instance is unusable after. */
  close?(): Promise<void>;
}
