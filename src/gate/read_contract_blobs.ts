/**
 * Read a dialect's contract files from a commit's git objects, refusing to
 * follow symlinks and refusing oversize files before reading them.
 *
 * @module
 */
import type { ContractBlob, ContractBlobs } from "../layouts/dialect.ts";
import type { Git, Tree } from "../git/git.ts";

/** Contract files larger than this are refused before parsing. */
export const CONTRACT_MAX_BYTES = 8 * 1024 * 1024;

/** Read `paths` from `tree`; absent paths are absent from the result. */
export async function readContractBlobs(
  git: Git,
  tree: Tree,
  paths: readonly string[],
): Promise<ContractBlobs> {
  const out = new Map<string, ContractBlob>();
  for (const path of paths) {
    const entry = tree.get(path);
    if (entry === undefined) continue;
    if (entry.kind === "symlink") {
      out.set(path, { kind: "symlink" });
    } else if (entry.kind !== "file" && entry.kind !== "executable") {
      out.set(path, { kind: "other" });
    } else if (entry.size > CONTRACT_MAX_BYTES) {
      out.set(path, {
        kind: "oversize",
        size: entry.size,
        limit: CONTRACT_MAX_BYTES,
      });
    } else {
      const bytes = await git.readBlob(entry.oid, {
        maxBytes: CONTRACT_MAX_BYTES,
      });
      let text: string | null;
      try {
        text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
      } catch {
        text = null;
      }
      out.set(path, { kind: "file", text, bytes });
    }
  }
  return out;
}
