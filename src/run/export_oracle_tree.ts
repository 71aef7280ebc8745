/**
 * Write the oracle tree: export the head, then lay the base's test-side
 * blobs over it. The head export is hostile (its symlinks may point
 * anywhere), so nothing is written through a symlink: every directory on
 * the way to a base path is checked and replaced when it is not a real
 * directory.
 *
 * @module
 */
import type { OracleTree } from "./compose_oracle_tree.ts";

/** What the export needs of the repository (git's `Git` has it). */
export interface TreeSource {
  /** Write a commit's tree into an empty directory. */
  exportTree(commit: string, dest: string): Promise<void>;
  /** Read one blob's bytes. */
  readBlob(oid: string, options?: { maxBytes?: number }): Promise<Uint8Array>;
}
import { isBytecodePath, removeBytecode } from "./remove_bytecode.ts";

/** Largest base blob written. */
const MAX_BLOB_BYTES = 64 * 1024 * 1024;

/**
 * Export `head` into `dest` (an empty directory) and apply `tree`; bytecode
 * is removed afterwards, as from every export, unless `headBytecode` is
 * false (the head's tree has no bytecode path) and no base path is one.
 */
export async function exportOracleTree(
  git: TreeSource,
  head: string,
  dest: string,
  tree: OracleTree,
  options: { headBytecode?: boolean } = {},
): Promise<void> {
  await git.exportTree(head, dest);
  for (const path of tree.dropFromHead) {
    const parent = await realParent(dest, path, false);
    if (parent === undefined) continue;
    // Stryker disable next-line ObjectLiteral, BooleanLiteral: a dropped path is a blob of the head, so its export holds a file or symlink there, which goes without recursion
    await Deno.remove(`${dest}/${path}`, { recursive: true }).catch(
      (error) => {
        if (!(error instanceof Deno.errors.NotFound)) throw error;
      },
    );
  }
  for (const entry of tree.fromBase) {
    await realParent(dest, entry.path, true);
    const target = `${dest}/${entry.path}`;
    // Stryker disable BlockStatement, ConditionalExpression: a remove that fails otherwise leaves the path in place or out of reach, so the new file's write below fails the export all the same
    await Deno.remove(target, { recursive: true }).catch((error) => {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    });
    // Stryker restore BlockStatement, ConditionalExpression
    const bytes = await git.readBlob(entry.oid, { maxBytes: MAX_BLOB_BYTES });
    if (entry.kind === "symlink") {
      await Deno.symlink(new TextDecoder().decode(bytes), target);
    } else {
      await Deno.writeFile(target, bytes, {
        // Stryker disable next-line BooleanLiteral: the path was removed just above, so the write creates the file either way
        createNew: true,
        mode: entry.kind === "executable" ? 0o755 : 0o644,
      });
    }
  }
  if (
    options.headBytecode !== false ||
    tree.fromBase.some((e) => isBytecodePath(e.path))
  ) await removeBytecode(dest);
}

/**
 * Make sure every ancestor of `path` under `dest` is a real directory,
 * replacing symlinks and files on the way when `create`; without `create`,
 * returns undefined when an ancestor is not a real directory (nothing of
 * the tree is behind it).
 */
async function realParent(
  dest: string,
  path: string,
  create: boolean,
): Promise<string | undefined> {
  const parts = path.split("/");
  if (parts.some((p) => p === "" || p === "." || p === "..")) {
    throw new RangeError(`Cannot write tree path "${path}": it is not normal`);
  }
  let dir = dest;
  for (const part of parts.slice(0, -1)) {
    dir = `${dir}/${part}`;
    let info: Deno.FileInfo | undefined;
    try {
      info = await Deno.lstat(dir);
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    }
    if (info?.isDirectory === true) continue;
    if (!create) return undefined;
    // Stryker disable next-line ObjectLiteral, BooleanLiteral: a directory was kept above, so what is removed here is a file or symlink, which goes without recursion
    if (info !== undefined) await Deno.remove(dir, { recursive: true });
    await Deno.mkdir(dir, { mode: 0o755 });
  }
  return dir;
}
