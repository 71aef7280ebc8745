/**
 * The two commits being compared, resolved and listed.
 *
 * @module
 */
import type { Progress } from "../core/progress.ts";
import type { Git, Tree } from "../git/git.ts";

/** The base and head commits and their trees. */
export interface Commits {
  /** Base commit id. */
  base: string;
  /** Head commit id. */
  head: string;
  /** Base tree listing. */
  baseTree: Tree;
  /** Head tree listing. */
  headTree: Tree;
}

/** Resolve `base` and `head` to commit ids and list both trees. */
export async function readCommits(
  git: Git,
  revisions: { base: string; head: string },
  progress: Progress,
): Promise<Commits> {
  // Both at once; when both fail, the base's error is the one reported.
  const [baseResult, headResult] = await Promise.allSettled([
    git.resolveCommit(revisions.base),
    git.resolveCommit(revisions.head),
  ]);
  if (baseResult.status === "rejected") throw baseResult.reason;
  if (headResult.status === "rejected") throw headResult.reason;
  const base = baseResult.value;
  const head = headResult.value;
  progress.step(
    `reading contracts at ${base.slice(0, 12)} and ${head.slice(0, 12)}`,
  );
  const [baseTree, headTree] = await Promise.all([
    git.listTree(base),
    git.listTree(head),
  ]);
  return { base, head, baseTree, headTree };
}
