/**
 * Test-harness config files, as text, for the harness rules.
 *
 * @module
 */
import { BlobTooLargeError } from "../git/git_error.ts";
import type { Git, Tree } from "../git/git.ts";
import { CONFIG_MAX_BYTES } from "./read_base_settings.ts";

/**
 * The text of each of `paths` that is a regular file in `tree`. An
 * oversized config is left out, which makes the harness rule treat it as
 * changed (it cannot be shown unchanged).
 */
export async function readConfigTexts(
  git: Git,
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
    }
  }
  return out;
}
