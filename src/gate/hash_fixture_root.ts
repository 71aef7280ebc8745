/**
 * Speculative fixture hashing, started as soon as the head tree is known.
 *
 * @module
 */
import type { Git, Sha256BlobsHelp, Tree } from "../git/git.ts";

/** The directory most fixtures live in (seed 000's fixture root). */
export const FIXTURE_ROOT = "tests/fixtures/";

/**
 * Hash every regular file under the fixture root of the head tree before
 * the contracts say which ones are registered: the bytes must be inflated
 * and hashed anyway, and this lets it overlap the parsing. The returned
 * promise never rejects unobserved; the caller must still await it before
 * giving up, so no hashing child outlives the judgement. `helpAfter`
 * settles when this thread is free to hash too.
 */
export function hashFixtureRoot(
  git: Git,
  tree: Tree,
  options: Sha256BlobsHelp = {},
): Promise<Map<string, string>> {
  const sizes = new Map<string, number>();
  for (const entry of tree.values()) {
    if (
      entry.path.startsWith(FIXTURE_ROOT) &&
      (entry.kind === "file" || entry.kind === "executable")
    ) sizes.set(entry.oid, entry.size);
  }
  const hashing = sizes.size === 0
    ? Promise.resolve(new Map<string, string>())
    : git.sha256Blobs([...sizes.keys()], {
      ...options,
      bytes: [...sizes.values()].reduce((a, b) => a + b, 0),
    });
  hashing.catch(() => {});
  return hashing;
}
