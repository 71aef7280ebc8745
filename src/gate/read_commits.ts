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
  const base = await git.resolveCommit(revisions.base);
  const head = await git.resolveCommit(revisions.head);
  progress.step(
    `reading contracts at ${base.slice(0, 12)} and ${head.slice(0, 12)}`,
  );
  const [baseTree, headTree] = await Promise.all([
    git.listTree(base),
    git.listTree(head),
  ]);
  return { base, head, baseTree, headTree };
}
