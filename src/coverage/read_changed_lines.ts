/**
 * The lines the pull request added or changed in the code under test: the
 * Python files outside the test side whose blob differs between the base
 * and the head, each with its changed head lines.
 *
 * @module
 */
import type { Git, Tree } from "../git/git.ts";
import { changedLineNumbers } from "./changed_line_numbers.ts";

/** Repository-relative path → the head's added or changed line numbers, ascending; only files with some. */
export type ChangedLines = ReadonlyMap<string, readonly number[]>;

/** A file larger than this is left out (pawl reads no larger source). */
export const MAX_CHANGED_FILE_BYTES = 4 * 1024 * 1024;

/** What {@linkcode readChangedLines} compares. */
export interface ReadChangedLinesInput {
  /** The base's tree. */
  baseTree: Tree;
  /** The head's tree. */
  headTree: Tree;
  /** The gate's test side (see `oracleTree`): its files are not code under test. */
  isTestSide: (path: string) => boolean;
}

/**
 * Read the changed lines of every changed Python file of the code under
 * test, from git's objects (never from a tree the tests ran in).
 */
export async function readChangedLines(
  git: Pick<Git, "readBlob">,
  input: ReadChangedLinesInput,
): Promise<ChangedLines> {
  const { baseTree, headTree, isTestSide } = input;
  const decoder = new TextDecoder();
  const read = async (oid: string) => decoder.decode(await git.readBlob(oid));
  const files = [...headTree.values()].filter((e) =>
    (e.kind === "file" || e.kind === "executable") &&
    e.path.endsWith(".py") && !isTestSide(e.path) &&
    e.size <= MAX_CHANGED_FILE_BYTES &&
    baseTree.get(e.path)?.oid !== e.oid
  ).sort((a, b) => a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
  const out = new Map<string, number[]>();
  for (const entry of files) {
    const base = baseTree.get(entry.path);
    const baseText = base !== undefined &&
        (base.kind === "file" || base.kind === "executable") &&
        base.size <= MAX_CHANGED_FILE_BYTES
      ? await read(base.oid)
      : undefined;
    const lines = changedLineNumbers(baseText, await read(entry.oid));
    if (lines.length > 0) out.set(entry.path, lines);
  }
  return out;
}
