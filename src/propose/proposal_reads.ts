/**
 * What the shell must read from git objects before it can build a proposal.
 *
 * @module
 */
import type { Tree } from "../git/git.ts";
import { fixtureReads, pythonReads } from "./_collect_candidates.ts";
import type { ProposalLayout } from "./layout_files.ts";

/** Files to read, each list sorted. */
export interface ProposalReads {
  /**
   * Python files to read and analyse: test files (`test_*.py`,
   * `*_test.py`) and the files that may register or load a Hypothesis
   * profile before they run (every `conftest.py`, the `__init__.py` of
   * their directories) for 000 and 003, public modules for 002.
   */
  python: string[];
  /** Fixture files under the fixture roots to hash (none for 002). */
  fixtures: string[];
}

/** Options for {@linkcode proposalReads}. */
export interface ProposalReadsOptions {
  /** The layout to propose. */
  layout: ProposalLayout;
  /** The commit's `pawl.toml` `[fixtures] roots` (default `tests/fixtures`). */
  fixtureRoots?: readonly string[] | undefined;
}

/**
 * The files of `tree` a proposal of `options.layout` is built from. Only
 * regular files at importable module paths and safe fixture paths are
 * named; {@linkcode buildProposal} notes the others.
 *
 * @example
 * ```ts
 * import { proposalReads } from "./proposal_reads.ts";
 * const file = (path: string) => [path, { path, kind: "file" as const, oid: "1", size: 1 }] as const;
 * const tree = new Map([
 *   file("pkg/calc.py"),
 *   file("tests/test_calc.py"),
 *   file("tests/fixtures/a.json"),
 * ]);
 * const reads = proposalReads(tree, { layout: "000" });
 * if (reads.python.join() !== "tests/test_calc.py") throw new Error();
 * if (reads.fixtures.join() !== "tests/fixtures/a.json") throw new Error();
 * if (proposalReads(tree, { layout: "002" }).python.join() !== "pkg/calc.py") throw new Error();
 * ```
 */
export function proposalReads(
  tree: Tree,
  options: ProposalReadsOptions,
): ProposalReads {
  return {
    python: pythonReads(tree, options.layout),
    fixtures: fixtureReads(tree, options.layout, options.fixtureRoots),
  };
}
